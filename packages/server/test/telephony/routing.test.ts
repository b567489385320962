/**
 * The call engine follows the users' routing (docs/routing.md): for each setting of bob's routing, a call
 * from alice to bob's desk phone 1002 and the exact events each user receives.
 */
import { describe, expect, it } from 'vitest'
import type { RoutingProfile } from '../../src/platform/routing/routing-profile.js'
import { MAX_DIVERSIONS } from '../../src/platform/telephony/operations/routing.js'
import { callOf } from '../../src/platform/telephony/telephony-state.js'
import {
  ALICE_SOFTPHONE,
  connections,
  eventsOf,
  FEATURES,
  FeatureWorld,
  featureDirectory,
  namesOf,
  OUTSIDE,
  userParty,
  VOICEMAIL,
} from './support.js'

const RINGING_MS = 30_000

/** A world where the users have the given routing; `noVoicemail` users have no voice mail. */
function worldWith(
  routing: Record<string, Partial<RoutingProfile>>,
  noVoicemail: readonly string[] = [],
): FeatureWorld {
  const directory = {
    ...featureDirectory,
    featuresOf: (login: string) => (noVoicemail.includes(login) ? {} : (FEATURES[login] ?? {})),
  }
  return new FeatureWorld({ ringingTimeoutMs: RINGING_MS }, directory, (login) => {
    const profile = routing[login]
    return profile && { dnd: false, remoteExtension: false, ...profile }
  })
}

const toNumber = (number: string) => ({ type: 'NUMBER' as const, number })
const toVoicemail = { type: 'VOICEMAIL' as const }

/** alice calls bob (1002); the events of that command. */
function aliceCallsBob(world: FeatureWorld) {
  const result = world.run({
    type: 'makeCall',
    loginName: 'alice',
    deviceId: '1001',
    callee: '1002',
    autoAnswer: true,
  })
  const callRef = result.callRef ?? ''
  return { callRef, events: result.events }
}

/** bob is BUSY: in an answered call with dave. */
function bobBusy(world: FeatureWorld): void {
  world.call('dave', '1002', 'bob')
}

describe('routing: a call to a user, by routing setting', () => {
  it('no routing: the call rings the user', () => {
    const world = worldWith({})
    const { callRef, events } = aliceCallsBob(world)
    expect(namesOf(events, 'bob')).toEqual(['OnCallCreated'])
    expect(namesOf(events, 'alice')).toEqual(['OnCallCreated'])
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1002:RINGING_INCOMING',
    ])
  })

  it('DND with a voice mail: the voice mail answers at once (DO_NOT_DISTURB), the user sees nothing', () => {
    const world = worldWith({ bob: { dnd: true } })
    const { callRef, events } = aliceCallsBob(world)
    expect(namesOf(events, 'bob')).toEqual([])
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallCreated:DO_NOT_DISTURB',
      'OnCallModified',
      'OnUserStateModified',
    ])
    expect(eventsOf(events, 'alice')[0]).toMatchObject({
      callData: {
        initialCalled: { id: { phoneNumber: '1002' } },
        lastRedirecting: userParty('1002'),
      },
    })
    expect(connections(world.state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
  })

  it('DND without a voice mail: the call is placed, then released with DO_NOT_DISTURB', () => {
    const world = worldWith({ bob: { dnd: true } }, ['bob'])
    const { callRef, events } = aliceCallsBob(world)
    expect(namesOf(events, 'bob')).toEqual([])
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallCreated',
      'OnCallModified:DO_NOT_DISTURB',
      'OnCallRemoved:DO_NOT_DISTURB',
    ])
    expect(callOf(world.state, callRef)).toBeUndefined()
    expect(world.state.timers).toEqual([])
  })

  it('immediate forward to a number: the target rings (FORWARDED, initialCalled, lastRedirecting)', () => {
    const world = worldWith({
      bob: { forward: { condition: 'IMMEDIATE', target: toNumber('1003') } },
    })
    const { callRef, events } = aliceCallsBob(world)
    expect(namesOf(events, 'bob')).toEqual([])
    expect(namesOf(events, 'alice')).toEqual(['OnCallCreated:FORWARDED'])
    expect(namesOf(events, 'carol')).toEqual(['OnCallCreated:FORWARDED'])
    expect(eventsOf(events, 'carol')[0]).toMatchObject({
      callData: {
        state: 'RINGING_INCOMING',
        initialCalled: { id: { phoneNumber: '1002' } },
        lastRedirecting: userParty('1002'),
      },
    })
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1003:RINGING_INCOMING',
    ])
  })

  it('immediate forward to VOICEMAIL: the voice mail answers (FORWARDED)', () => {
    const world = worldWith({ bob: { forward: { condition: 'IMMEDIATE', target: toVoicemail } } })
    const { callRef, events } = aliceCallsBob(world)
    expect(namesOf(events, 'bob')).toEqual([])
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallCreated:FORWARDED',
      'OnCallModified',
      'OnUserStateModified',
    ])
    expect(connections(world.state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
  })

  it('an immediate forward wins over DND', () => {
    const world = worldWith({
      bob: { dnd: true, forward: { condition: 'IMMEDIATE', target: toNumber('1003') } },
    })
    const { callRef } = aliceCallsBob(world)
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1003:RINGING_INCOMING',
    ])
  })

  it('forward on busy, user FREE: the call rings the user', () => {
    const world = worldWith({ bob: { forward: { condition: 'BUSY', target: toNumber('1003') } } })
    const { events } = aliceCallsBob(world)
    expect(namesOf(events, 'bob')).toEqual(['OnCallCreated'])
    expect(namesOf(events, 'carol')).toEqual([])
  })

  it('forward on busy, user BUSY: the target rings (FORWARDED)', () => {
    const world = worldWith({ bob: { forward: { condition: 'BUSY', target: toNumber('1003') } } })
    bobBusy(world)
    const { callRef, events } = aliceCallsBob(world)
    expect(namesOf(events, 'bob')).toEqual([])
    expect(namesOf(events, 'alice')).toEqual(['OnCallCreated:FORWARDED'])
    expect(namesOf(events, 'carol')).toEqual(['OnCallCreated:FORWARDED'])
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1003:RINGING_INCOMING',
    ])
  })

  it('forward on no answer: after the ringing time the user loses the call to the target (newDestination)', () => {
    const world = worldWith({
      bob: { forward: { condition: 'NO_ANSWER', target: toNumber('1003') } },
    })
    const { callRef } = aliceCallsBob(world)
    expect(world.advance(RINGING_MS - 1)).toEqual([])
    const events = world.advance(1)
    expect(eventsOf(events, 'bob')).toEqual([
      {
        eventName: 'OnCallRemoved',
        loginName: 'bob',
        callRef,
        cause: 'FORWARDED',
        newDestination: '1003',
        deviceCapabilities: [],
      },
    ])
    expect(namesOf(events, 'alice')).toEqual(['OnCallModified:FORWARDED'])
    expect(namesOf(events, 'carol')).toEqual(['OnCallCreated:FORWARDED'])
    expect(eventsOf(events, 'carol')[0]).toMatchObject({
      callData: {
        initialCalled: { id: { phoneNumber: '1002' } },
        lastRedirecting: userParty('1002'),
      },
    })
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1003:RINGING_INCOMING',
    ])
    // The target's own ringing time then runs: not answered, the call ends as without routing.
    expect(namesOf(world.advance(RINGING_MS), 'alice')).toEqual([
      'OnCallModified:NOT_ANSWERED',
      'OnCallRemoved:NOT_ANSWERED',
    ])
  })

  it('forward on busy or no answer to VOICEMAIL: on no answer the voice mail answers', () => {
    const world = worldWith({
      bob: { forward: { condition: 'BUSY_NO_ANSWER', target: toVoicemail } },
    })
    const { callRef } = aliceCallsBob(world)
    const events = world.advance(RINGING_MS)
    expect(eventsOf(events, 'bob')[0]).toMatchObject({
      eventName: 'OnCallRemoved',
      cause: 'FORWARDED',
      newDestination: VOICEMAIL,
    })
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallModified:FORWARDED',
      'OnCallModified',
      'OnUserStateModified',
    ])
    expect(connections(world.state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
  })

  it("overflow on busy to VOICEMAIL: a busy user's call reaches the voice mail (OVERFLOWN)", () => {
    const world = worldWith({ bob: { overflow: { condition: 'BUSY', target: 'VOICEMAIL' } } })
    bobBusy(world)
    const { callRef, events } = aliceCallsBob(world)
    expect(namesOf(events, 'bob')).toEqual([])
    expect(namesOf(events, 'alice')[0]).toBe('OnCallCreated:OVERFLOWN')
    expect(connections(world.state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
  })

  it("overflow on no answer to ASSOCIATE: the call moves to the user's other device (OVERFLOWN)", () => {
    const world = worldWith({
      alice: { overflow: { condition: 'NO_ANSWER', target: 'ASSOCIATE' } },
    })
    const callRef = world.call('bob', '1001')
    const events = world.advance(RINGING_MS)
    expect(namesOf(events, 'bob')).toEqual(['OnCallModified:OVERFLOWN'])
    expect(connections(world.state, callRef)).toEqual([
      '1002:RINGING_OUTGOING',
      `${ALICE_SOFTPHONE}:RINGING_INCOMING`,
    ])
  })

  it('a forward wins over an overflow of the same condition', () => {
    const world = worldWith({
      bob: {
        forward: { condition: 'NO_ANSWER', target: toNumber('1003') },
        overflow: { condition: 'NO_ANSWER', target: 'VOICEMAIL' },
      },
    })
    const { callRef } = aliceCallsBob(world)
    world.advance(RINGING_MS)
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1003:RINGING_INCOMING',
    ])
  })

  it('a chain of immediate forwards is followed; lastRedirecting is the last user who forwarded', () => {
    const world = worldWith({
      bob: { forward: { condition: 'IMMEDIATE', target: toNumber('1003') } },
      carol: { forward: { condition: 'IMMEDIATE', target: toNumber('1004') } },
    })
    const { callRef, events } = aliceCallsBob(world)
    expect(namesOf(events, 'carol')).toEqual([])
    expect(eventsOf(events, 'dave')[0]).toMatchObject({
      cause: 'FORWARDED',
      callData: {
        initialCalled: { id: { phoneNumber: '1002' } },
        lastRedirecting: userParty('1003'),
      },
    })
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1004:RINGING_INCOMING',
    ])
  })

  it('a loop of immediate forwards is cut where it would come back: that user rings', () => {
    const world = worldWith({
      bob: { forward: { condition: 'IMMEDIATE', target: toNumber('1003') } },
      carol: { forward: { condition: 'IMMEDIATE', target: toNumber('1002') } },
    })
    const { callRef } = aliceCallsBob(world)
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1003:RINGING_INCOMING',
    ])
  })

  it('a forward to the caller is not followed: the forward target calling the user reaches the user', () => {
    const world = worldWith({
      bob: { forward: { condition: 'IMMEDIATE', target: toNumber('1001') } },
    })
    const { callRef, events } = aliceCallsBob(world)
    expect(namesOf(events, 'bob')).toEqual(['OnCallCreated'])
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1002:RINGING_INCOMING',
    ])
    // Nor on no answer: the call then ends unanswered.
    const forwardOnNoAnswer = worldWith({
      bob: { forward: { condition: 'NO_ANSWER', target: toNumber('1011') } },
    })
    const other = aliceCallsBob(forwardOnNoAnswer)
    expect(namesOf(forwardOnNoAnswer.advance(RINGING_MS), 'alice')).toEqual([
      'OnCallModified:NOT_ANSWERED',
      'OnCallRemoved:NOT_ANSWERED',
    ])
    expect(callOf(forwardOnNoAnswer.state, other.callRef)).toBeUndefined()
  })

  it(`forwards on no answer stop after ${MAX_DIVERSIONS} diversions: the call is then not answered`, () => {
    const world = worldWith({
      bob: { forward: { condition: 'NO_ANSWER', target: toNumber('1003') } },
      carol: { forward: { condition: 'NO_ANSWER', target: toNumber('1002') } },
    })
    const { callRef } = aliceCallsBob(world)
    const causes: string[] = []
    for (let step = 0; step <= MAX_DIVERSIONS; step += 1)
      causes.push(...namesOf(world.advance(RINGING_MS), 'alice'))
    expect(causes).toEqual([
      ...Array<string>(MAX_DIVERSIONS).fill('OnCallModified:FORWARDED'),
      'OnCallModified:NOT_ANSWERED',
      'OnCallRemoved:NOT_ANSWERED',
    ])
    expect(callOf(world.state, callRef)).toBeUndefined()
  })

  it('a forward to an outside number from an outside caller leaves no user: the call is forgotten', () => {
    const world = worldWith({
      bob: { forward: { condition: 'IMMEDIATE', target: toNumber(`0${OUTSIDE}`) } },
    })
    const result = world.run({ type: 'incomingCall', from: '0698765432', to: '1002' })
    expect(result.events).toEqual([])
    expect(callOf(world.state, result.callRef ?? '')).toBeUndefined()
  })

  it('an incoming call from outside to a user in DND reaches the voice mail, which keeps it (no user sees it)', () => {
    const world = worldWith({ bob: { dnd: true } })
    const first = world.run({ type: 'incomingCall', from: '0698765432', to: '1002' })
    expect(first.events).toEqual([])
    expect(connections(world.state, first.callRef ?? '')).toEqual([
      '0698765432:ACTIVE',
      `${VOICEMAIL}:ACTIVE`,
    ])
  })
})
