/**
 * The sample balancer configuration (deploy/haproxy.cfg, docs/operations.md) against a running node, when
 * HAProxy is installed (CI installs it where it can; the test skips, saying so, elsewhere): the file is valid;
 * requests through the balancer reach the node; a draining node leaves the rotation within its checks.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { startTestService, type TestService } from '../support/test-service.js'

const SAMPLE = fileURLToPath(new URL('../../../../deploy/haproxy.cfg', import.meta.url))

function haproxyPath(): string | undefined {
  try {
    execFileSync('haproxy', ['-v'], { stdio: 'ignore' })
    return 'haproxy'
  } catch {
    return undefined
  }
}

const haproxy = haproxyPath()

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Polls `probe` every 100 ms until it is true, for at most `ms`. */
async function until(probe: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    if (await probe().catch(() => false)) return true
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.skipIf(haproxy === undefined)(
  haproxy === undefined
    ? 'deploy/haproxy.cfg (skipped: HAProxy is not installed)'
    : 'deploy/haproxy.cfg',
  () => {
    let service: TestService
    let listeners: Listeners
    let balancer: ChildProcess
    let directory: string
    let front: string

    beforeAll(async () => {
      service = await startTestService()
      listeners = await startListeners(service.app, { host: '127.0.0.1', httpPort: 0 })
      const [frontPort, idle2, idle3] = [await freePort(), await freePort(), await freePort()]
      // The sample as shipped, on this run's ports: node1 is the service, nodes 2 and 3 are not running.
      const config = readFileSync(SAMPLE, 'utf8')
        .replace('127.0.0.1:8000', `127.0.0.1:${frontPort}`)
        .replace('127.0.0.1:18081', `127.0.0.1:${listeners.httpPort}`)
        .replace('127.0.0.1:18082', `127.0.0.1:${idle2}`)
        .replace('127.0.0.1:18083', `127.0.0.1:${idle3}`)
      directory = mkdtempSync(join(tmpdir(), 'openness-haproxy-'))
      const file = join(directory, 'haproxy.cfg')
      writeFileSync(file, config)
      execFileSync(haproxy ?? 'haproxy', ['-c', '-q', '-f', file])
      balancer = spawn(haproxy ?? 'haproxy', ['-db', '-f', file], { stdio: 'ignore' })
      front = `http://127.0.0.1:${frontPort}`
    })

    afterAll(async () => {
      balancer?.kill()
      await listeners?.close()
      await service?.close()
      if (directory) rmSync(directory, { recursive: true, force: true })
    })

    it('passes requests to a ready node, and takes a draining node out of the rotation', async () => {
      const through = async () => (await fetch(`${front}/api/rest`)).status
      expect(await until(async () => (await through()) === 200, 10_000)).toBe(true)

      service.running.platform.health.drain()
      // Two failed checks a second apart: out within about 2 s; no node left, the balancer answers 503.
      expect(await until(async () => (await through()) === 503, 6_000)).toBe(true)
    })
  },
)
