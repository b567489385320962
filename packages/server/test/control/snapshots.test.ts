/**
 * Reset, snapshots and restore of the whole platform (docs/sandbox.md) through the control plane, over the
 * service's own AdjustableClock kept in the store (kept-clock.ts), as `npm start` runs it. The state is read
 * whole before and after (the fuzzer's reader: fuzz/state-snapshot.ts) and compared as a whole.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { PlatformOptions } from '../../src/assembly/platform-options.js'
import { AdjustableClock } from '../../src/clock/adjustable-clock.js'
import { keptClock } from '../../src/clock/kept-clock.js'
import { buildControlApp } from '../../src/control/control-app.js'
import { DEFAULT_THROTTLE_POLICIES } from '../../src/platform/auth/authenticator.js'
import { type StateSnapshot, stateChanges, stateSnapshot } from '../fuzz/state-snapshot.js'
import { expectRestError } from '../support/assertions.js'
import { basic, openSession, startTestService, type TestService } from '../support/test-service.js'
import { AUTH, newUser, runCli, TOKEN } from './control-fixture.js'

const C = '/control/v1'

interface Sandbox {
  service: TestService
  clock: AdjustableClock
  control: FastifyInstance
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function start(options: Partial<PlatformOptions> = {}): Promise<Sandbox> {
  const clock = new AdjustableClock()
  const service = await startTestService({ clock, ...options })
  await service.running.completeImport()
  const adjustableClock = await keptClock(clock, service.running.clockOffsets)
  const control = await buildControlApp(
    {
      ...service.running.platform,
      telephony: service.running.telephony,
      adjustableClock,
      states: service.running.states,
    },
    { token: TOKEN },
  )
  cleanups.push(async () => {
    await control.close()
    await service.close()
  })
  return { service, clock, control }
}

async function call(
  sandbox: Sandbox,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return sandbox.control.inject({
    method,
    url: `${C}${url}`,
    headers: AUTH,
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  })
}

async function ok(
  sandbox: Sandbox,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const response = await call(sandbox, method, url, payload)
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300)
  return response
}

/**
 * The whole state, but what a restore leaves on purpose: the engine's sequence (never taken back, so that no
 * callRef is given twice), each account's `updated_at` (when the store wrote it), and the snapshots kept;
 * and, after a reset, the salt of each password's hash (the file's passwords are hashed anew) and each
 * account's revision (its row is written anew from the file; a restore puts the snapshot's rows back as they
 * were, revisions included).
 */
/**
 * The state without its timers' ids: a reset makes the timers of what it provisions anew (the contact center's
 * calendar), and an id is never given twice, a restore's sequence never going back.
 */
function withoutTimerIds(state: StateSnapshot): StateSnapshot {
  return Object.fromEntries(
    Object.entries(state).map(([name, value]) => [
      name,
      value.replace(/timerId(\\*"):(\\*")[0-9a-f]+/g, 'timerId$1:$2'),
    ]),
  )
}

async function comparableState(sandbox: Sandbox, rehashed = false): Promise<StateSnapshot> {
  await sandbox.service.running.telephony.idle()
  const state = await stateSnapshot(sandbox.service.running)
  delete state['table platform_snapshot']
  // The order the directory holds its accounts in is no state: a first start has the file's, a restart the
  // store's (by login name), a restore appends those it changed.
  // Nor the order of an account's fields.
  const accounts = JSON.parse(state['accounts'] ?? '[]') as { loginName: string }[]
  accounts.sort((a, b) => a.loginName.localeCompare(b.loginName))
  // The users' routing is read in that order.
  const { routing } = sandbox.service.running.platform
  state['routing'] = JSON.stringify(
    accounts.map((account) => routing.lookup(account.loginName) ?? null),
  )
  state['accounts'] = JSON.stringify(accounts, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  )
  // Sessions are no part of a snapshot: a restore closes them all (asserted on its own).
  for (const part of SESSION_PARTS) delete state[part]
  // Nor where the store keeps a call: a restore writes the calls anew, in the same order.
  const calls = state['table telephony_call']
  if (calls !== undefined)
    state['table telephony_call'] = calls.replace(/position(\\*"):\d+/g, 'position$1:0')
  // Nor where it keeps a device: one that left with its user's deletion and is put back is written anew.
  const devices = state['table telephony_device']
  if (devices !== undefined)
    state['table telephony_device'] = devices.replace(/position(\\*"):\d+/g, 'position$1:0')
  for (const [name, value] of Object.entries(state))
    state[name] = value
      .replace(/sequence((?:\\*"):)\d+/g, 'sequence$1"kept"')
      .replace(/updated_at((?:\\*"):(?:\\*"))[^\\"]*/g, 'updated_at$1written')
      .replace(rehashed ? /scrypt\$[^\\"]*/g : /^$/, 'scrypt-hash')
      .replace(rehashed ? /revision((?:\\*"):(?:\\*"))[^\\"]*/g : /^$/, 'revision$1rewritten')
  return state
}

/** What the state reader holds of the sessions, which a snapshot does not keep. */
const SESSION_PARTS = [
  'sessions',
  'subscriptions',
  'licenses',
  'licenseHolders',
  'supervised',
  'searches',
]

/** The parts of the state that sessions hold: none after a reset or restore. */
async function sessionParts(sandbox: Sandbox): Promise<Record<string, string | undefined>> {
  const state = await stateSnapshot(sandbox.service.running)
  return Object.fromEntries(SESSION_PARTS.map((part) => [part, state[part]]))
}

/** Changes a bit of everything: preferences, a user, routing, a missed call in the logs, a device, the clock. */
async function changeEverything(sandbox: Sandbox, seconds: number): Promise<void> {
  const { app } = sandbox.service
  const cookie = await openSession(app, 'alice')
  const preferences = await app.inject({
    method: 'POST',
    url: '/api/rest/1.0/users/alice/preferences',
    headers: { cookie },
    payload: { guiLanguage: seconds > 20 ? 'de' : 'fr' },
  })
  expect(preferences.statusCode, preferences.body).toBe(204)
  await ok(sandbox, 'PATCH', '/users/bob', { department: `Support ${seconds}` })
  await ok(sandbox, 'PUT', '/users/carol/routing', {
    dndState: { activate: true },
  })
  await ok(sandbox, 'POST', '/calls', { from: '+33612345678', to: '1002' })
  await ok(sandbox, 'POST', '/clock/advance', { seconds })
  await ok(sandbox, 'PUT', '/devices/1004', { autoAnswer: true })
  await ok(sandbox, 'POST', '/calls', { from: '+33698765432', to: '1001' })
}

describe('snapshots', () => {
  it('put back the whole state: directory, preferences, routing, logs, calls in progress, devices, clock', async () => {
    const sandbox = await start()
    await changeEverything(sandbox, 31)
    const saved = await ok(sandbox, 'PUT', '/snapshots/mid-test')
    expect(saved.json()).toMatchObject({ name: 'mid-test', bytes: expect.any(Number) })
    const kept = await comparableState(sandbox)
    const offsetKept = sandbox.clock.offsetMs
    const callRefKept = (await ok(sandbox, 'GET', '/calls')).json().calls[0].callRef as string

    await changeEverything(sandbox, 12)
    await ok(sandbox, 'DELETE', '/users/dave')
    await ok(sandbox, 'POST', '/clock/advance', { seconds: 600 })
    await ok(sandbox, 'POST', '/calls', { from: '+33611111111', to: '1003' })
    expect(stateChanges(kept, await comparableState(sandbox))).not.toEqual([])

    const restored = await ok(sandbox, 'POST', '/snapshots/mid-test/restore')
    expect(restored.json()).toMatchObject({ snapshot: 'mid-test', callsEnded: 1, calls: 1 })
    expect(stateChanges(kept, await comparableState(sandbox))).toEqual([])
    expect(sandbox.clock.offsetMs).toBe(offsetKept)
    expect(await sessionParts(sandbox)).toMatchObject({ sessions: '[]', subscriptions: '[]' })

    // The call kept in progress rings on, and its ringing timeout, restored with it, still ends it.
    const calls = (await ok(sandbox, 'GET', '/calls')).json().calls as { callRef: string }[]
    expect(calls.map((c) => c.callRef)).toEqual([callRefKept])
    await ok(sandbox, 'POST', '/clock/advance', { seconds: 31 })
    expect((await ok(sandbox, 'GET', '/calls')).json().calls).toEqual([])
  })

  it('put back the engine without a user created since, leaving no record of the call it replaces', async () => {
    const sandbox = await start()
    await ok(sandbox, 'PUT', '/snapshots/before-mona')
    const kept = await comparableState(sandbox)
    await ok(sandbox, 'POST', '/users', newUser())
    await ok(sandbox, 'POST', '/calls', { from: '+33612345678', to: '1013' })
    expect((await ok(sandbox, 'GET', '/calls')).json().calls).toMatchObject([
      { parties: [{ number: '+33612345678' }, { deviceId: '1013', loginName: 'mona' }] },
    ])

    const restored = await ok(sandbox, 'POST', '/snapshots/before-mona/restore')
    expect(restored.json()).toMatchObject({ callsEnded: 1, calls: 0 })
    // Mona's device left with her account, and no record of her call was written into the logs restored.
    expect(stateChanges(kept, await comparableState(sandbox))).toEqual([])
    expectRestError(await call(sandbox, 'POST', '/devices/1013/answer'), 404, 'NOT_FOUND')
  })

  it('are listed by name, replaced under the same name, and deleted', async () => {
    const sandbox = await start()
    expect((await ok(sandbox, 'GET', '/snapshots')).json()).toEqual({ snapshots: [] })
    await ok(sandbox, 'PUT', '/snapshots/b')
    await ok(sandbox, 'PUT', '/snapshots/a')
    await ok(sandbox, 'PATCH', '/users/bob', { department: 'Later' })
    await ok(sandbox, 'PUT', '/snapshots/a')
    const listed = (await ok(sandbox, 'GET', '/snapshots')).json().snapshots as { name: string }[]
    expect(listed.map((s) => s.name)).toEqual(['a', 'b'])
    await ok(sandbox, 'POST', '/snapshots/a/restore')
    expect((await ok(sandbox, 'GET', '/users/bob')).json().department).toBe('Later')
    expect((await call(sandbox, 'DELETE', '/snapshots/a')).statusCode).toBe(204)
    expectRestError(await call(sandbox, 'DELETE', '/snapshots/a'), 404, 'NOT_FOUND')
    expectRestError(await call(sandbox, 'POST', '/snapshots/a/restore'), 404, 'NOT_FOUND')
  })

  it('refuse a name that is no snapshot name, changing nothing', async () => {
    const sandbox = await start()
    const before = await comparableState(sandbox)
    for (const name of ['.hidden', 'a%20b', 'x'.repeat(65), '%C3%A9t%C3%A9']) {
      const response = await call(sandbox, 'PUT', `/snapshots/${name}`)
      expectRestError(response, 400, 'BAD_PARAMETER')
      expect(response.json().helpMessage).toMatch(/^name: ".*" is no snapshot name/)
    }
    expect(stateChanges(before, await comparableState(sandbox))).toEqual([])
  })

  it('survive a restart: they are kept in the database', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openness-snapshots-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    const database = { kind: 'sqlite' as const, filename: join(dir, 'openness.sqlite3') }
    const first = await start({ database })
    await ok(first, 'PATCH', '/users/bob', { department: 'Before the restart' })
    await ok(first, 'PUT', '/snapshots/kept')
    await cleanups.pop()?.()
    const second = await start({ database })
    await ok(second, 'PATCH', '/users/bob', { department: 'After the restart' })
    await ok(second, 'POST', '/snapshots/kept/restore')
    expect((await ok(second, 'GET', '/users/bob')).json().department).toBe('Before the restart')
  })
})

describe('reset', () => {
  it("puts back the directory file's state, the clock included, whatever changed", async () => {
    const sandbox = await start()
    const initial = await comparableState(sandbox, true)
    await changeEverything(sandbox, 31)
    await ok(sandbox, 'POST', '/users', newUser())
    await ok(sandbox, 'DELETE', '/users/dave')
    await ok(sandbox, 'PUT', '/pickupGroups/night', { members: ['alice', 'bob'] })
    expect(sandbox.clock.offsetMs).toBe(31_000)

    const reset = await ok(sandbox, 'POST', '/reset')
    expect(reset.json()).toMatchObject({ sessionsClosed: 1, callsEnded: 1, calls: 0 })
    expect(reset.json()).not.toHaveProperty('snapshot')
    // The file's contact center is provisioned anew, its calendar's timer under an id never given before.
    expect(
      stateChanges(withoutTimerIds(initial), withoutTimerIds(await comparableState(sandbox, true))),
    ).toEqual([])
    expect(sandbox.clock.offsetMs).toBe(0)
  })

  it('closes every session: their next request answers INVALID_SESSION', async () => {
    const sandbox = await start()
    const { app } = sandbox.service
    const cookie = await openSession(app, 'bob')
    await ok(sandbox, 'POST', '/reset')
    const after = await app.inject({ url: '/api/rest/1.0/sessions', headers: { cookie } })
    expectRestError(after, 403, 'INVALID_SESSION')
    expect(await sandbox.service.running.sharedState.subscriptions.all()).toEqual([])
  })

  it("forgets the login throttle's attempts: a locked account logs in again", async () => {
    const sandbox = await start({
      throttlePolicies: {
        ...DEFAULT_THROTTLE_POLICIES,
        login: { ...DEFAULT_THROTTLE_POLICIES.login, lockAfterFailures: 2, freeFailures: 2 },
      },
    })
    const { app } = sandbox.service
    const login = (password: string) =>
      app.inject({
        url: '/api/rest/authenticate?version=1.0',
        headers: { authorization: basic('bob', password) },
      })
    for (let attempt = 0; attempt < 3; attempt++) await login('wrong')
    expect((await login('demo-bob')).statusCode).not.toBe(200)
    await ok(sandbox, 'POST', '/reset')
    expect((await login('demo-bob')).statusCode).toBe(200)
  })

  it('brings the links up and clears the faults', async () => {
    const sandbox = await start()
    await ok(sandbox, 'PUT', '/health/pbx-link', { up: false })
    expect(await sandbox.service.running.platform.system.health()).toMatchObject({
      pbxLinkUp: false,
    })
    await ok(sandbox, 'POST', '/faults/not-ready', { seconds: 60 })
    await ok(sandbox, 'POST', '/reset')
    expect((await ok(sandbox, 'GET', '/faults')).json()).toEqual({ fault: null })
    expect(await sandbox.service.running.platform.system.health()).toMatchObject({
      pbxLinkUp: true,
    })
    const sessions = await sandbox.service.app.inject({
      url: '/api/rest/authenticate?version=1.0',
      headers: { authorization: basic('bob') },
    })
    expect(sessions.statusCode).toBe(200)
  })
})

describe('the command line', () => {
  async function cliOn(sandbox: Sandbox) {
    await sandbox.control.listen({ host: '127.0.0.1', port: 0 })
    const url = `http://127.0.0.1:${(sandbox.control.server.address() as AddressInfo).port}`
    return (...argv: string[]) => runCli(url, argv)
  }

  it('saves, lists, restores and deletes snapshots, and resets', async () => {
    const sandbox = await start()
    const cli = await cliOn(sandbox)
    const saved = await cli('snapshots', 'save', 'base')
    expect(saved.code, saved.err).toBe(0)
    expect(parse(saved.out)).toMatchObject({ name: 'base', bytes: expect.any(Number) })
    await ok(sandbox, 'PATCH', '/users/bob', { department: 'Changed' })
    expect(parse((await cli('snapshots', 'list')).out)).toMatchObject({
      snapshots: [{ name: 'base' }],
    })
    const restored = await cli('snapshots', 'restore', 'base')
    expect(parse(restored.out)).toMatchObject({ snapshot: 'base', sessionsClosed: 0 })
    expect((await ok(sandbox, 'GET', '/users/bob')).json().department).not.toBe('Changed')
    await ok(sandbox, 'POST', '/clock/advance', { seconds: 10 })
    const reset = await cli('reset')
    expect(reset.code, reset.err).toBe(0)
    expect(parse(reset.out)).toMatchObject({ sessionsClosed: 0, callsEnded: 0, calls: 0 })
    expect(sandbox.clock.offsetMs).toBe(0)
    expect(await cli('snapshots', 'delete', 'base')).toEqual({
      code: 0,
      out: 'Deleted snapshot base.\n',
      err: '',
    })
    const missing = await cli('snapshots', 'restore', 'base')
    expect(missing.code).toBe(1)
    expect(missing.err).toMatch(/There is no snapshot named "base"/)
    expect((await cli('reset', 'now')).code).toBe(2)
    expect((await cli('--help')).out).toMatch(/snapshots restore <name>/)
  })
})
