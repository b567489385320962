/**
 * Issue 12 acceptance, over real sockets: routing set through the API changes where calls go, each user told
 * on its own event channel (telephony and routingManagement packages): do not disturb sends a call to voice
 * mail at once; a forward on no answer rings the destination after the ringing time (virtual clock).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSession } from '../support/test-service.js'
import { ApiWorld, type App } from './api-apps.js'

/** The engine's default ringing time (call-engine.ts, DEFAULT_ENGINE_SETTINGS). */
const RINGING_MS = 30_000
const PACKAGES = ['telephony', 'routingManagement']

let world: ApiWorld
beforeEach(async () => {
  world = await ApiWorld.start()
})
afterEach(() => world.close())

const app = (loginName: string) => world.app(loginName, PACKAGES)

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
    const activated = await fetch(`${world.base}/api/rest/1.0/routing/dnd`, {
      method: 'POST',
      headers: {
        cookie: await openSession(world.service.app, 'bob'),
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
    await world.service.clock.advance(RINGING_MS - 1)
    expect((await karim.call('GET', '/telephony/calls')).body).toEqual({ calls: [] })

    await world.service.clock.advance(1)
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
