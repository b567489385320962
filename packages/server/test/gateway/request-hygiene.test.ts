/**
 * The headers every answer carries and the transport's rules (issue 15, findings 10 and 11): nosniff on every
 * answer, no caching of authentication answers, one Host header at most, HSTS only with a certificate the
 * operator configured, and TLS limited to Mozilla's intermediate profile (TLS 1.2 AEAD suites, TLS 1.3).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { request as httpsRequest } from 'node:https'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { loadTlsMaterial, type TlsMaterial } from '../../src/assembly/tls.js'
import { expectRestError } from '../support/assertions.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

let service: TestService
let dataDir = ''
let tls: TlsMaterial
/** One listener set with the generated certificate, one as if the operator configured it. */
let generated: Listeners
let configured: Listeners
beforeAll(async () => {
  service = await startTestService()
  dataDir = await mkdtemp(join(tmpdir(), 'openness-hygiene-'))
  tls = await loadTlsMaterial({ dataDir })
  generated = await startListeners(service.app, {
    host: '127.0.0.1',
    httpPort: 0,
    httpsPort: 0,
    tls,
  })
  configured = await startListeners(service.app, {
    host: '127.0.0.1',
    httpsPort: 0,
    tls: { ...tls, strictTransport: true },
  })
})
afterAll(async () => {
  await generated?.close()
  await configured?.close()
  await service?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const basic = (login: string, password: string) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`

describe('headers on every answer', () => {
  it('nosniff on answers, errors and unknown paths', async () => {
    const cookie = await openSession(service.app, 'alice')
    for (const request of [
      { url: '/api/rest' },
      { url: '/api/rest/1.0/users/alice', headers: { cookie } },
      { url: '/api/rest/1.0/users/alice' },
      { url: '/api/rest/nowhere' },
    ]) {
      const response = await service.app.inject(request)
      expect(response.headers['x-content-type-options'], request.url).toBe('nosniff')
    }
  })

  it('no-store on authentication answers, granted or refused, and not elsewhere', async () => {
    const granted = await service.app.inject({
      url: '/api/rest/authenticate?version=1.0',
      headers: { authorization: basic('alice', 'demo-alice') },
    })
    expect(granted.statusCode).toBe(200)
    expect(granted.headers['cache-control']).toBe('no-store')
    const refused = await service.app.inject({
      url: '/api/rest/authenticate?version=1.0',
      headers: { authorization: basic('alice', 'wrong') },
    })
    expectRestError(refused, 401, 'NOT_ALLOWED')
    expect(refused.headers['cache-control']).toBe('no-store')
    const root = await service.app.inject({ url: '/api/rest' })
    expect(root.headers['cache-control']).toBeUndefined()
  })
})

describe('one Host header', () => {
  /** Sends raw bytes to the plain-HTTP listener; resolves to the status line and body once it answers. */
  function raw(request: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(generated.httpPort ?? 0, '127.0.0.1')
      let answer = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk) => {
        answer += chunk
        if (answer.includes('\r\n\r\n') && /\}$/.test(answer)) socket.destroy()
      })
      socket.on('close', () => resolve(answer))
      socket.on('error', reject)
      socket.write(request)
    })
  }

  it('answers 400 BAD_PARAMETER to a request with two, and 200 to one with one', async () => {
    const two = await raw('GET /api/rest HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n')
    expect(two).toMatch(/^HTTP\/1\.1 400 /)
    expect(two).toMatch(/"type":"BAD_PARAMETER"/)
    expect(two).toMatch(/Host: sent more than once/)
    const one = await raw('GET /api/rest HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n')
    expect(one).toMatch(/^HTTP\/1\.1 200 /)
  })
})

describe('the HTTPS listener', () => {
  /** The TLS handshake's outcome with a client limited to `options`: the protocol and suite, or the error. */
  function handshake(
    port: number | undefined,
    options: { minVersion?: 'TLSv1.2'; maxVersion?: 'TLSv1.2'; ciphers?: string },
  ): Promise<{ protocol: string | null; cipher: string } | Error> {
    return new Promise((resolve) => {
      const socket = tlsConnect({
        host: '127.0.0.1',
        port: port ?? 0,
        rejectUnauthorized: false,
        ...options,
      })
      socket.on('secureConnect', () => {
        resolve({ protocol: socket.getProtocol(), cipher: socket.getCipher().standardName })
        socket.destroy()
      })
      socket.on('error', (error) => resolve(error))
    })
  }

  it('speaks TLS 1.3 and TLS 1.2 with an AEAD suite, and refuses TLS 1.2 with a CBC suite', async () => {
    expect(await handshake(generated.httpsPort, {})).toMatchObject({ protocol: 'TLSv1.3' })
    expect(
      await handshake(generated.httpsPort, {
        maxVersion: 'TLSv1.2',
        ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256',
      }),
    ).toMatchObject({ protocol: 'TLSv1.2' })
    const cbc = await handshake(generated.httpsPort, {
      maxVersion: 'TLSv1.2',
      ciphers: 'ECDHE-RSA-AES128-SHA256:ECDHE-ECDSA-AES128-SHA256:ECDHE-RSA-AES128-SHA',
    })
    expect(cbc).toBeInstanceOf(Error)
  })

  it('sends HSTS only with a certificate the operator configured', async () => {
    const answer = async (port: number | undefined) =>
      fetchInsecure(`https://127.0.0.1:${port ?? 0}/api/rest`)
    expect((await answer(configured.httpsPort))['strict-transport-security']).toBe(
      'max-age=63072000',
    )
    expect((await answer(generated.httpsPort))['strict-transport-security']).toBeUndefined()
  })
})

/** The headers of a GET over HTTPS that trusts any certificate. */
function fetchInsecure(url: string): Promise<Record<string, string | string[] | undefined>> {
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(url, { rejectUnauthorized: false, agent: false }, (response) => {
      response.resume()
      resolve(response.headers)
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}
