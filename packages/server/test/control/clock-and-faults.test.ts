/**
 * The control plane's clock and faults (docs/control-plane.md, "The clock" and "Faults") over a running
 * platform: setting the clock forward fires what falls due (ringing, session timeouts), with the tests'
 * virtual clock and with the service's AdjustableClock; NOT_READY and a switch-over as the public API shows
 * them, over inject and, for the chunk channel, over a real socket. Time only moves through the clock.
 */
import type { LightMyRequestResponse } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { AdjustableClock } from '../../src/clock/adjustable-clock.js'
import { buildControlApp } from '../../src/control/control-app.js'
import { expectRestError } from '../support/assertions.js'
import { openChannel } from '../support/channel-client.js'
import { directoryVariant } from '../support/directory-variant.js'
import { openSession, startTestService } from '../support/test-service.js'
import { AUTH, type ControlService, startControlService, TOKEN } from './control-fixture.js'

const C = '/control/v1'
const START = Date.UTC(2026, 0, 1)

let fixture: ControlService | undefined
const cleanups: (() => Promise<void> | void)[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await fixture?.close()
  fixture = undefined
})

async function start(options: Parameters<typeof startControlService>[0] = {}) {
  fixture = await startControlService(options)
  return fixture
}

function control(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  if (fixture === undefined) throw new Error('no fixture')
  return fixture.control.inject({
    method,
    url: `${C}${url}`,
    headers: AUTH,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

function api(url: string, cookie?: string) {
  if (fixture === undefined) throw new Error('no fixture')
  return fixture.service.app.inject({ url, ...(cookie !== undefined && { headers: { cookie } }) })
}

const advance = (seconds: number) => control('POST', '/clock/advance', { seconds })

/** The live calls' callRefs, as the control plane lists them. */
async function liveCallRefs(): Promise<string[]> {
  const response = await control('GET', '/calls')
  return (response.json() as { calls: { callRef: string }[] }).calls.map((call) => call.callRef)
}

async function place(from: string, to: string): Promise<string> {
  const response = await control('POST', '/calls', { from, to })
  expect(response.statusCode, response.body).toBe(201)
  return (response.json() as { callRef: string }).callRef
}

/** Asserts a 503 NOT_READY with its Retry-After. */
function expectNotReady(response: LightMyRequestResponse, retryAfter: number, message?: RegExp) {
  const body = expectRestError(response, 503, 'NOT_READY', message)
  expect(body).toMatchObject({ code: 1000, canRetry: true, httpStatus: 'SERVICE_UNAVAILABLE' })
  expect(response.headers['retry-after']).toBe(String(retryAfter))
}

describe('GET /clock and POST /clock/advance', () => {
  it("shows the service's time, and sets it forward", async () => {
    await start()
    expect((await control('GET', '/clock')).json()).toEqual({
      now: new Date(START).toISOString(),
    })

    const advanced = await advance(90.5)

    expect(advanced.statusCode, advanced.body).toBe(200)
    expect(advanced.json()).toEqual({ now: new Date(START + 90_500).toISOString() })
    expect(fixture?.service.clock.now()).toBe(START + 90_500)
  })

  it('ends a ringing call at its ringing timeout (30 s)', async () => {
    await start()
    const callRef = await place('+33612345678', '+33155661002')

    await advance(29)
    expect(await liveCallRefs()).toEqual([callRef])
    await advance(2)

    expect(await liveCallRefs()).toEqual([])
  })

  it('expires a session unused for longer than its time-to-live and grace', async () => {
    const { service } = await start()
    const cookie = await openSession(service.app, 'alice')
    // SESSION_TTL 300 s in the tests, and 30 s of grace.
    await advance(300)
    expect((await api('/api/rest/1.0/sessions', cookie)).statusCode).toBe(200)

    await advance(331)

    expectRestError(await api('/api/rest/1.0/sessions', cookie), 403, 'INVALID_SESSION')
  })

  it('refuses a bad number of seconds with 400 BAD_PARAMETER naming the field', async () => {
    await start()
    for (const body of [
      {},
      { seconds: 0 },
      { seconds: -5 },
      { seconds: 86_401 },
      { seconds: '10' },
    ])
      expectRestError(
        await control('POST', '/clock/advance', body),
        400,
        'BAD_PARAMETER',
        /^seconds: .*more than 0 and at most 86400/,
      )
    expectRestError(
      await control('POST', '/clock/advance', { seconds: 1, minutes: 2 }),
      400,
      'BAD_PARAMETER',
      /^minutes: not a known field/,
    )
    expect(fixture?.service.clock.now()).toBe(START)
  })

  it("works the same on the service's own AdjustableClock, which says how far ahead it is", async () => {
    const clock = new AdjustableClock()
    const service = await startTestService({ clock })
    const app = await buildControlApp(
      { ...service.running.platform, telephony: service.running.telephony, adjustableClock: clock },
      { token: TOKEN },
    )
    cleanups.push(
      () => service.close(),
      () => app.close(),
    )
    const placed = await app.inject({
      method: 'POST',
      url: `${C}/calls`,
      headers: AUTH,
      payload: { from: '+33612345678', to: '1001' },
    })
    expect(placed.statusCode).toBe(201)
    const before = clock.now()

    const advanced = await app.inject({
      method: 'POST',
      url: `${C}/clock/advance`,
      headers: AUTH,
      payload: { seconds: 31 },
    })

    const body = advanced.json() as { now: string; aheadSeconds: number }
    expect(body.aheadSeconds).toBe(31)
    expect(Date.parse(body.now)).toBeGreaterThanOrEqual(before + 31_000)
    expect(service.running.telephony.queries.liveCalls()).toEqual([])
  })
})

describe('POST /faults/not-ready', () => {
  it('answers every API request 503 NOT_READY with Retry-After, but the root, until the period ends', async () => {
    const { service } = await start()
    const cookie = await openSession(service.app, 'alice')
    const set = await control('POST', '/faults/not-ready', { seconds: 10 })
    expect(set.statusCode, set.body).toBe(200)
    expect(set.json()).toEqual({
      fault: {
        type: 'NOT_READY',
        since: new Date(START).toISOString(),
        until: new Date(START + 10_000).toISOString(),
        remainingSeconds: 10,
      },
    })

    expectNotReady(await api('/api/rest/1.0/users/alice', cookie), 10, /not ready; retry in 10 s/)
    expectNotReady(await api('/api/rest/authenticate?version=1.0'), 10)
    expectNotReady(await api('/api/rest/1.0/nothing-here'), 10)
    expectNotReady(await api('/api/rest/1.0/notifications/any'), 10)
    expect((await api('/api/rest')).statusCode).toBe(200)
    expect((await api('/api/rest?x=1')).statusCode).toBe(200)
    expect((await api('/openapi.json')).statusCode).toBe(200)

    await advance(4.2)
    expectNotReady(await api('/api/rest/1.0/users/alice', cookie), 6)
    expect((await control('GET', '/faults')).json()).toMatchObject({
      fault: { type: 'NOT_READY', remainingSeconds: 6 },
    })
    await advance(5.8)

    // The session stayed: the refused requests did not need it, and it has not expired.
    expect((await api('/api/rest/1.0/users/alice', cookie)).statusCode).toBe(200)
    expect((await control('GET', '/faults')).json()).toEqual({ fault: null })
  })

  it('ends early with DELETE /faults, which is also fine with no fault', async () => {
    await start()
    await control('POST', '/faults/not-ready', { seconds: 3600 })
    expectNotReady(await api('/api/rest/authenticate?version=1.0'), 3600)

    const cleared = await control('DELETE', '/faults')

    expect(cleared.statusCode).toBe(204)
    expect((await api('/api/rest/1.0/sessions')).statusCode).toBe(403)
    expect((await control('GET', '/faults')).json()).toEqual({ fault: null })
    expect((await control('DELETE', '/faults')).statusCode).toBe(204)
  })

  it('is replaced by a newer fault', async () => {
    await start()
    await control('POST', '/faults/not-ready', { seconds: 3600 })
    await control('POST', '/faults/not-ready', { seconds: 2 })
    expectNotReady(await api('/api/rest/1.0/sessions'), 2)
  })

  it('refuses a bad number of seconds with 400 BAD_PARAMETER naming the field', async () => {
    await start()
    for (const body of [
      {},
      { seconds: 0 },
      { seconds: 86_400.5 },
      { seconds: null },
      { seconds: true },
    ])
      expectRestError(
        await control('POST', '/faults/not-ready', body),
        400,
        'BAD_PARAMETER',
        /^seconds: /,
      )
    expectRestError(
      await control('POST', '/faults/not-ready', { seconds: 5, reason: 'x' }),
      400,
      'BAD_PARAMETER',
      /^reason: not a known field/,
    )
    expect((await control('GET', '/faults')).json()).toEqual({ fault: null })
  })
})

describe('POST /faults/switch-over', () => {
  it('drops every session with its licenses, subscriptions and channels, keeps the calls', async () => {
    // One TELEPHONY_ADVANCED license: bob gets it only once alice's session has released it.
    const directoryFile = await directoryVariant((document) => {
      ;(document['licenses'] as Record<string, number>)['TELEPHONY_ADVANCED'] = 1
    })
    const { service } = await start({ directoryFile })
    const listeners: Listeners = await startListeners(service.app, {
      host: '127.0.0.1',
      httpPort: 0,
    })
    cleanups.push(() => listeners.close())
    service.running.platform.urls.httpPort = listeners.httpPort
    const alice = await openSession(service.app, 'alice')
    const subscribed = await service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/subscriptions',
      headers: { cookie: alice },
      payload: { filter: { selectors: [{ names: ['user'] }] }, version: '1.0' },
    })
    expect(subscribed.statusCode, subscribed.body).toBe(200)
    const channel = await openChannel(
      (subscribed.json() as { privatePollingUrl: string }).privatePollingUrl,
    )
    cleanups.push(() => channel.close())
    expect(await channel.next()).toMatchObject({ eventName: 'OnChannelInformation' })
    const callRef = await place('+33612345678', '1002')

    const switched = await control('POST', '/faults/switch-over', {})

    expect(switched.statusCode, switched.body).toBe(200)
    expect(switched.json()).toEqual({
      fault: {
        type: 'SWITCH_OVER',
        since: new Date(START).toISOString(),
        until: new Date(START + 5_000).toISOString(),
        remainingSeconds: 5,
      },
      sessionsClosed: 1,
    })
    await channel.ended
    expect(await service.running.platform.sessions.openCount()).toBe(0)
    expect(await service.running.platform.subscriptions.count()).toBe(0)
    expectNotReady(
      await api('/api/rest/1.0/users/alice', alice),
      5,
      /switching over \(every session was closed\); retry in 5 s/,
    )
    expect(await liveCallRefs()).toEqual([callRef])

    await advance(5)

    expectRestError(await api('/api/rest/1.0/users/alice', alice), 403, 'INVALID_SESSION')
    expect(await liveCallRefs()).toEqual([callRef])
    const bob = await openSession(service.app, 'bob')
    const session = (await api('/api/rest/1.0/sessions', bob)).json() as { capabilities: string[] }
    expect(session.capabilities).toContain('ADVANCED_TELEPHONY')
  })

  it('takes the number of seconds of not ready from the body, and checks it', async () => {
    await start()
    const switched = await control('POST', '/faults/switch-over', { seconds: 60 })
    expect(switched.json()).toMatchObject({
      fault: { type: 'SWITCH_OVER', remainingSeconds: 60 },
      sessionsClosed: 0,
    })
    expectNotReady(await api('/api/rest/authenticate?version=1.0'), 60)
    expectRestError(
      await control('POST', '/faults/switch-over', { seconds: -1 }),
      400,
      'BAD_PARAMETER',
      /^seconds: /,
    )
  })
})

describe('the OpenAPI document', () => {
  it('describes the clock and fault routes with their bodies', async () => {
    await start()
    const document = (await control('GET', '/openapi.json')).json() as {
      paths: Record<string, Record<string, unknown>>
    }
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /control/v1/clock',
        'POST /control/v1/clock/advance',
        'GET /control/v1/faults',
        'POST /control/v1/faults/not-ready',
        'POST /control/v1/faults/switch-over',
        'DELETE /control/v1/faults',
      ]),
    )
    expect(JSON.stringify(document.paths['/control/v1/faults/not-ready'])).toContain('seconds')
  })
})
