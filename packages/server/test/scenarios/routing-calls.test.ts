/**
 * Issue 12 acceptance, over real sockets: routing set through the API changes where calls go, each user told
 * on its own event channel (telephony and routingManagement packages): do not disturb sends a call to voice
 * mail at once; a forward on no answer rings the destination after the ringing time (virtual clock).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/listeners.js'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const V1 = '/api/rest/1.0'
const LINE_TIMEOUT_MS = 1_000
/** The engine's default ringing time (call-engine.ts, DEFAULT_ENGINE_SETTINGS). */
const RINGING_MS = 30_000

/** A user's application: its session, and its channel of telephony and routing events. */
interface App {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>
  channel: ChannelClient
  /** The next event of that name on the channel, skipping others. */
  next(eventName: string): Promise<Record<string, unknown>>
}

let service: TestService
let listeners: Listeners
let base = ''
const channels: ChannelClient[] = []

beforeEach(async () => {
  service = await startTestService()
  listeners = await startListeners(service.app, { host: '127.0.0.1', httpPort: 0 })
  service.running.platform.urls.httpPort = listeners.httpPort
  base = `http://127.0.0.1:${listeners.httpPort}`
})
afterEach(async () => {
  for (const channel of channels.splice(0)) channel.close()
  await listeners.close()
  await service.close()
})

async function app(loginName: string): Promise<App> {
  const cookie = await openSession(service.app, loginName)
  const call: App['call'] = async (method, path, body) => {
    const response = await fetch(`${base}${V1}${path}`, {
      method,
      headers: { cookie, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) }
  }
  const subscribed = await call('POST', '/subscriptions', {
    filter: { selectors: [{ names: ['telephony'] }, { names: ['routingManagement'] }] },
    version: '1.0',
  })
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200)
  const channel = await openChannel(
    (subscribed.body as { privatePollingUrl: string }).privatePollingUrl,
  )
  channels.push(channel)
  expect(await channel.next(LINE_TIMEOUT_MS)).toMatchObject({ eventName: 'OnChannelInformation' })
  const next = async (eventName: string) => {
    for (;;) {
      const event = await channel.next(LINE_TIMEOUT_MS)
      if (event['eventName'] === eventName) return event
    }
  }
  return { call, channel, next }
}

/** The callRef of the one call `user` has. */
async function onlyCallOf(user: App): Promise<string> {
  const { calls } = (await user.call('GET', '/telephony/calls')).body as {
    calls: { callRef: string }[]
  }
  expect(calls).toHaveLength(1)
  return calls[0]?.callRef ?? ''
}

describe('routing over real sockets', () => {
  it('do not disturb: the call goes to the voice mail at once, and the user is never rung', async () => {
    const alice = await app('alice')
    const bob = await app('bob')
    // The Node SDK's activateDnd: POST with a JSON content type and no body.
    const activated = await fetch(`${base}${V1}/routing/dnd`, {
      method: 'POST',
      headers: {
        cookie: await openSession(service.app, 'bob'),
        'content-type': 'application/json',
      },
    })
    expect(activated.status).toBe(204)
    expect(await bob.next('OnRoutingStateChanged')).toMatchObject({
      loginName: 'bob',
      routingState: { dndState: { activate: true } },
    })
    expect((await bob.call('GET', '/routing/dnd')).body).toEqual({ activate: true })

    const made = await alice.call('POST', '/telephony/calls', { deviceId: '1001', callee: '1002' })
    expect(made.status).toBe(201)
    const created = await alice.next('OnCallCreated')
    expect(created).toMatchObject({ cause: 'DO_NOT_DISTURB' })
    expect(await alice.next('OnCallModified')).toMatchObject({ callData: { state: 'ACTIVE' } })
    // Bob's channel got nothing of the call: his next telephony event would be a call of his own.
    expect((await bob.call('GET', '/telephony/calls')).body).toEqual({ calls: [] })
    await expect(bob.channel.next(300)).rejects.toThrow()
  })

  it('forward on no answer: the destination rings after the ringing time, not before', async () => {
    const alice = await app('alice')
    const bob = await app('bob')
    const karim = await app('karim')
    const forwarded = await bob.call('POST', '/routing/forwardroute', {
      forwardRoute: {
        forwardType: 'NO_ANSWER',
        destinations: [{ type: 'NUMBER', number: '1011' }],
      },
    })
    expect(forwarded.status).toBe(204)
    expect(await bob.next('OnRoutingStateChanged')).toMatchObject({
      routingState: { forwardRoutes: [{ forwardType: 'NO_ANSWER' }] },
    })

    await alice.call('POST', '/telephony/calls', { deviceId: '1001', callee: '1002' })
    const callRef = await onlyCallOf(alice)
    expect(await bob.next('OnCallCreated')).toMatchObject({ callRef })
    await service.clock.advance(RINGING_MS - 1)
    expect((await karim.call('GET', '/telephony/calls')).body).toEqual({ calls: [] })

    await service.clock.advance(1)
    expect(await bob.next('OnCallRemoved')).toMatchObject({
      callRef,
      cause: 'FORWARDED',
      newDestination: '1011',
    })
    expect(await karim.next('OnCallCreated')).toMatchObject({
      callRef,
      cause: 'FORWARDED',
      callData: { initialCalled: { id: { phoneNumber: '1002' } } },
    })
    expect(await alice.next('OnCallModified')).toMatchObject({ cause: 'FORWARDED' })
    expect(await onlyCallOf(karim)).toBe(callRef)
  })
})
