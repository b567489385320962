/**
 * The click-to-call example (examples/click-to-call, `npm run example`) runs against a service as a user runs it:
 * a child process, with the ports and the data directory from its environment, over HTTPS with the development
 * certificate as its only trusted authority, and the plain-HTTP polling URLs. The service runs in this process
 * on free loopback ports (not the defaults), its certificate generated into a scratch data directory.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { loadTlsMaterial } from '../../src/assembly/tls.js'
import { type Ran, runNode } from '../support/run-node.js'
import { startTestService, type TestService } from '../support/test-service.js'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

let dataDir = ''
let service: TestService
let listeners: Listeners

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'openness-example-'))
  service = await startTestService()
  const tls = await loadTlsMaterial({ dataDir })
  listeners = await startListeners(service.app, {
    host: '127.0.0.1',
    httpPort: 0,
    httpsPort: 0,
    tls,
  })
  service.running.platform.urls.httpPort = listeners.httpPort
})
afterAll(async () => {
  await listeners?.close()
  await service?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/** Runs `npm run example -- <name>`'s script (examples/run.mjs) with `env`; resolves with its exit code and output. */
function runExample(env: Record<string, string>, name = 'click-to-call'): Promise<Ran> {
  return runNode(['examples/run.mjs', name], { cwd: ROOT, env })
}

/** The events one party's application printed, in order: `OnCallCreated RINGING_INCOMING`... */
function eventsOf(stdout: string, who: string): string[] {
  const pattern = new RegExp(`^\\[${who}\\]\\s+event (\\w+)\\s+(?:call \\S+)?\\s*(\\w+)?`)
  return stdout
    .split('\n')
    .map((line) => pattern.exec(line))
    .filter((match) => match !== null)
    .map((match) => [match[1], match[2]].filter(Boolean).join(' '))
}

/** A loopback port nothing listens on. */
async function unusedPort(): Promise<number> {
  return await new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

describe('the click-to-call example', () => {
  it('is what `npm run example` runs', async () => {
    const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(scripts['example']).toBe('node examples/run.mjs')
    const unknown = await runExample({}, 'no-such-example')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("No example 'no-such-example'. The examples: click-to-call")
  })

  it('logs in over HTTPS, places, answers and ends a call, prints its events in order, exits 0', async () => {
    const { code, stdout, stderr } = await runExample({
      HTTPS_PORT: String(listeners.httpsPort),
      DATA_DIR: dataDir,
    })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain(`click to call on https://127.0.0.1:${listeners.httpsPort}`)
    // The channels are the plain-HTTP polling URLs of the service's HTTP listener.
    expect(stdout).toMatch(
      new RegExp(
        `\\[alice\\] +subscribed to telephony, channel http://127\\.0\\.0\\.1:${listeners.httpPort}/`,
      ),
    )
    expect(eventsOf(stdout, 'alice')).toEqual([
      'OnCallCreated RINGING_OUTGOING',
      'OnCallModified ACTIVE',
      'OnUserStateModified BUSY',
      'OnCallRemoved',
      'OnUserStateModified FREE',
    ])
    expect(eventsOf(stdout, 'bob')).toEqual([
      'OnCallCreated RINGING_INCOMING',
      'OnCallModified ACTIVE',
      'OnUserStateModified BUSY',
      'OnCallModified RELEASING',
      'OnCallRemoved',
      'OnUserStateModified FREE',
    ])
    expect(stdout).toMatch(/\[bob\] +answers call \S+ on 1002/)
    expect(stdout).toMatch(/\[alice\] +session closed/)
    expect(stdout).toMatch(/\[bob\] +session closed/)
    // Nothing is left behind: no call, no session.
    expect(service.running.telephony.state.calls.size).toBe(0)
    expect(await service.running.sharedState.sessions.openSessions()).toEqual([])
  })

  it('says how to start the service when none answers, and exits 1', async () => {
    const { code, stdout, stderr } = await runExample({
      HTTPS_PORT: String(await unusedPort()),
      DATA_DIR: dataDir,
    })
    expect(code).toBe(1)
    expect(stdout).not.toContain('session open')
    expect(stderr).toMatch(/No service answers at https:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/)
    expect(stderr).toContain('npm start')
  })

  it('names the certificate it needs when the data directory holds none, and exits 1', async () => {
    const { code, stderr } = await runExample({
      HTTPS_PORT: String(listeners.httpsPort),
      DATA_DIR: join(dataDir, 'elsewhere'),
    })
    expect(code).toBe(1)
    expect(stderr).toContain(
      `No certificate at ${join(dataDir, 'elsewhere', 'tls', 'dev-cert.pem')}`,
    )
  })
})
