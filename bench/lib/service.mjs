// The service under test as the issue defines it: `node packages/server/dist/main.js` in a child process,
// plain HTTP on 127.0.0.1, no HTTPS, no control plane, its own data directory; and the HTTP helpers the
// benchmarks set it up with (log in, open a session).
import { randomBytes, scryptSync } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { Agent } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnTracked } from './children.mjs'
import { exchange } from './http.mjs'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const MAIN = join(ROOT, 'packages/server/dist/main.bundle.js')
export const DEMO_DIRECTORY = join(ROOT, 'packages/server/directory/demo-directory.yaml')

/** The demo directory's users (password `demo-<login>`). */
export const DEMO_USERS = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'franck',
  'gaelle',
  'henri',
  'ines',
  'julien',
  'karim',
  'lea',
]

/** A fresh temporary directory for this run. */
export function tempDir(prefix = 'openness-bench-') {
  return mkdtempSync(join(tmpdir(), prefix))
}

/** A free loopback port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 })

/** One HTTP exchange on 127.0.0.1 on the runner's agent (bench/lib/http.mjs); 30 s at most by default. */
export function http(port, method, path, { timeoutMs = 30_000, ...options } = {}) {
  return exchange({ port, method, path, agent, timeoutMs, ...options })
}

/** Authenticates `loginName` (password `demo-<login>`) and opens a session; returns the cookie. */
export async function openSession(port, loginName, applicationName = 'bench') {
  const basic = Buffer.from(`${loginName}:demo-${loginName}`).toString('base64')
  const auth = await http(port, 'GET', '/api/rest/authenticate?version=1.0', {
    headers: { authorization: `Basic ${basic}` },
  })
  if (auth.status !== 200) throw new Error(`authenticate ${loginName}: ${auth.status} ${auth.text}`)
  const cookie = `SvcUserId=${auth.body.credential}`
  const session = await http(port, 'POST', '/api/rest/1.0/sessions', {
    cookie,
    body: { applicationName },
  })
  if (session.status !== 200) throw new Error(`open session ${loginName}: ${session.status}`)
  return cookie
}

/**
 * Polls `GET /api/rest` until it answers 200; resolves with performance.now() of that answer. Every
 * `intervalMs`, one connection at a time (a refused connection answers at once on loopback).
 */
export async function waitUntilUp(port, { deadlineMs = 120_000, intervalMs = 5, exited } = {}) {
  const deadline = performance.now() + deadlineMs
  let gone = false
  exited?.then(() => {
    gone = true
  })
  for (;;) {
    if (gone) throw new Error('the service exited before it answered')
    try {
      const answer = await http(port, 'GET', '/api/rest', { timeoutMs: 5_000 })
      if (answer.status === 200) return performance.now()
    } catch {}
    if (performance.now() > deadline)
      throw new Error(`the service did not answer GET /api/rest within ${deadlineMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/**
 * Starts `node packages/server/dist/main.js` (or the bundle `main`: another build's, bench/lib/
 * reference-build.mjs) on a free port over `dataDir` and waits until it answers.
 * `directoryFile` undefined keeps the embedded default (the demo directory). With `allListeners` the
 * HTTPS listener (its development certificate made on a cold data directory) and the control plane start
 * too, on free ports, as by default; else the plain-HTTP listener alone. Resolves with the port, the
 * start-up time (spawn to first 200, ms), the log lines it printed, and `stop()`.
 */
export async function startService({
  main = MAIN,
  dataDir,
  directoryFile,
  logLevel = 'warn',
  execArgv = [],
  env = {},
  allListeners = false,
}) {
  const port = await freePort()
  const [httpsPort, controlPort] = allListeners ? [await freePort(), await freePort()] : [0, 0]
  const lines = []
  const started = performance.now()
  const startedAt = Date.now()
  const { child, exited } = spawnTracked(process.execPath, [...execArgv, main], {
    cwd: ROOT,
    env: {
      ...process.env,
      // A benchmark's service runs where the benchmark says, never where the caller's environment points (CI
      // names its PostgreSQL and Redis for the tests): embedded over its data directory unless `env` says.
      DATABASE_URL: '',
      REDIS_URL: '',
      REDIS_KEY_PREFIX: '',
      CLUSTER_NODE_ID: '',
      HOST: '127.0.0.1',
      HTTP_PORT: String(port),
      HTTPS_PORT: String(httpsPort),
      CONTROL_PORT: String(controlPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: logLevel,
      ...(directoryFile && { DIRECTORY_FILE: directoryFile }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr += text
  })
  let partial = ''
  child.stdout.setEncoding('utf8').on('data', (text) => {
    partial += text
    let newline = partial.indexOf('\n')
    while (newline !== -1) {
      const line = partial.slice(0, newline)
      partial = partial.slice(newline + 1)
      if (line.startsWith('{')) lines.push({ at: Date.now(), line })
      newline = partial.indexOf('\n')
    }
  })
  try {
    const up = await waitUntilUp(port, { exited })
    return {
      port,
      child,
      startupMs: up - started,
      startedAt,
      logs: () => lines.map(({ line }) => JSON.parse(line)),
      /** Resolves with the first log entry whose msg is `msg` (logLevel must let it through). */
      untilLogged: async (msg, timeoutMs = 60_000) => {
        const deadline = performance.now() + timeoutMs
        for (;;) {
          const found = lines.map(({ line }) => JSON.parse(line)).find((entry) => entry.msg === msg)
          if (found) return found
          if (child.exitCode !== null || performance.now() > deadline)
            throw new Error(`the service did not log '${msg}' within ${timeoutMs} ms`)
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      },
      stop: async () => {
        if (child.exitCode === null) child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        const exit = await exited
        clearTimeout(timer)
        return exit
      },
    }
  } catch (error) {
    child.kill('SIGKILL')
    await exited
    throw new Error(`${error.message}${stderr ? `: ${stderr.trim().slice(0, 500)}` : ''}`)
  }
}

/**
 * A copy of the demo directory whose passwords are given as scrypt hashes of a negligible cost (N=16,
 * r=1: microseconds) instead of in clear: the service verifies a password at the cost its hash names,
 * so that with this file authentication costs what the service does around the hash, and the first
 * start hashes nothing. Written in `dir`; `source`, another directory file (another build's demo
 * directory). For benchmarks only: such a hash protects nothing.
 */
export function cheapDirectoryFile(dir, source = DEMO_DIRECTORY) {
  const text = cheapPasswords(readFileSync(source, 'utf8'))
  const file = join(dir, 'bench-directory.yaml')
  writeFileSync(file, text)
  return file
}

/** A directory file's text with each `password:` given as a cheap `passwordHash:` (above). */
export function cheapPasswords(text) {
  return text.replace(
    /^(\s*)password: (\S+)\s*$/gm,
    (_, indent, password) => `${indent}passwordHash: ${cheapHash(password)}`,
  )
}

/** An scrypt hash of a negligible cost (N=16, r=1): for benchmarks only. */
export function cheapHash(password) {
  const salt = randomBytes(16)
  const key = scryptSync(password, salt, 32, { N: 16, r: 1, p: 1 })
  return `scrypt$16$1$1$${salt.toString('base64')}$${key.toString('base64')}`
}

/** A data directory copied from `template` (a data directory the service was started on and stopped). */
export function copyDataDir(template) {
  const dir = tempDir('openness-bench-data-')
  cpSync(template, dir, { recursive: true })
  return dir
}
