/**
 * The TLS certificate of the HTTPS listener: the configured one, or a self-signed development
 * certificate generated into the data directory at first start (with a library, no openssl binary).
 */
import { X509Certificate } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from './config.js'

/** A certificate and key in PEM, with the certificate's SHA-256 fingerprint. */
export interface TlsMaterial {
  cert: string
  key: string
  fingerprint: string
  /** Where the certificate came from. */
  source: 'configured' | 'generated' | 'reused'
  certFile: string
}

async function readConfigured(variable: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    throw new ConfigError(`${variable}=${path}: cannot be read (${(error as Error).message})`)
  }
}

function fingerprintOf(cert: string): string {
  return new X509Certificate(cert).fingerprint256
}

/** Loads the configured certificate, or the development one under `dataDir/tls`, creating it if missing. */
export async function loadTlsMaterial(options: {
  certFile?: string
  keyFile?: string
  dataDir: string
}): Promise<TlsMaterial> {
  if (options.certFile && options.keyFile) {
    const [cert, key] = await Promise.all([
      readConfigured('TLS_CERT_FILE', options.certFile),
      readConfigured('TLS_KEY_FILE', options.keyFile),
    ])
    return {
      cert,
      key,
      fingerprint: fingerprintOf(cert),
      source: 'configured',
      certFile: options.certFile,
    }
  }
  const directory = join(options.dataDir, 'tls')
  const certFile = join(directory, 'dev-cert.pem')
  const keyFile = join(directory, 'dev-key.pem')
  try {
    const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')])
    const x509 = new X509Certificate(cert)
    if (new Date(x509.validTo).getTime() > Date.now() + 86_400_000)
      return { cert, key, fingerprint: x509.fingerprint256, source: 'reused', certFile }
  } catch {
    // No usable development certificate yet: generate one below.
  }
  const host = hostname()
  const notBeforeDate = new Date(Date.now() - 60_000)
  const notAfterDate = new Date(notBeforeDate.getTime() + 825 * 86_400_000)
  // Loaded only to make a certificate: a start that reuses or is given one does without it.
  const { generate } = await import('selfsigned')
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2 as const, value: 'localhost' },
          ...(host && host !== 'localhost' ? [{ type: 2 as const, value: host }] : []),
          { type: 7 as const, ip: '127.0.0.1' },
          { type: 7 as const, ip: '::1' },
        ],
      },
    ],
  })
  await mkdir(directory, { recursive: true })
  await writeFile(keyFile, pems.private, { mode: 0o600 })
  await writeFile(certFile, pems.cert)
  return {
    cert: pems.cert,
    key: pems.private,
    fingerprint: fingerprintOf(pems.cert),
    source: 'generated',
    certFile,
  }
}
