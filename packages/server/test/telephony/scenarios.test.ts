/**
 * Scenario tests of issue 4 that the per-operation files did not cover with the exact event sequence of every
 * involved user: the basic two-party call (answered then released from each side, released whole, not answered),
 * make call variants (without autoAnswer, to a login, to an outside number), hold / retrieve, a busy outside
 * party, release of a conference, and the participant query. See docs/call-model.md, "Scenario coverage".
 */
import { describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import {
  getParticipant,
  listParticipants,
} from '../../src/platform/telephony/operations/conference.js'
import type { TelephonyDirectory } from '../../src/platform/telephony/telephony-directory.js'
import {
  connections,
  directory,
  eventsOf,
  FeatureWorld,
  OUTSIDE,
  OUTSIDE_PREFIX,
  seen,
  World,
} from './support.js'

const RINGING_TIMEOUT = 30_000

/** Every event of a step, in order, as `user:EventName[:cause]`. */
const order = (events: readonly PlatformEvent[]) =>
  events.map(
    (event) =>
      `${event.loginName}:${event.eventName}${typeof event['cause'] === 'string' ? `:${event['cause']}` : ''}`,
  )

/** alice (1001) calls bob (1002) with autoAnswer; returns the callRef and the make call's events. */
function aliceCallsBob(world: World) {
  const made = world.run({
    type: 'makeCall',
    loginName: 'alice',
    deviceId: '1001',
    callee: '1002',
    autoAnswer: true,
  })
  return { callRef: made.callRef ?? '', events: made.events }
}

describe('internal call, answered', () => {
  /** The make call and the answer, with both users' exact sequences. */
  function answered(world: World): string {
    const { callRef, events } = aliceCallsBob(world)
    expect(seen(events, 'alice')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_OUTGOING',
        legs: ['1001:RINGING_OUTGOING'],
        participants: ['1002'],
      },
    ])
    expect(seen(events, 'bob')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_INCOMING',
        legs: ['1002:RINGING_INCOMING'],
        participants: ['1001'],
      },
    ])
    expect(eventsOf(events, 'bob')[0]).toMatchObject({
      participants: [{ participantId: '1001', identity: { id: { loginName: 'alice' } } }],
      callData: { initialCalled: { id: { phoneNumber: '1002' } } },
    })
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1002:RINGING_INCOMING',
    ])

    const answer = world.run({ type: 'answer', loginName: 'bob', callRef })
    expect(order(answer.events)).toEqual([
      'alice:OnCallModified',
      'bob:OnCallModified',
      'alice:OnUserStateModified',
      'bob:OnUserStateModified',
    ])
    expect(seen(answer.events, 'alice')).toEqual([
      { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
      { eventName: 'OnUserStateModified', state: 'BUSY' },
    ])
    // Participants carry no MediaState (as in the captured real server), so none is modified.
    expect(eventsOf(answer.events, 'alice')[0]).toMatchObject({
      modifiedParticipants: [],
      addedLegs: [],
      removedLegs: [],
      addedParticipants: [],
      removedParticipantIds: [],
    })
    expect(seen(answer.events, 'bob')).toEqual([
      { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', legs: ['1002:ACTIVE'] },
      { eventName: 'OnUserStateModified', state: 'BUSY' },
    ])
    expect(connections(world.state, callRef)).toEqual(['1001:ACTIVE', '1002:ACTIVE'])
    expect(world.state.timers).toEqual([])
    return callRef
  }

  it('is released by the caller: the callee sees RELEASING, then the end; both FREE', () => {
    const world = new World()
    const callRef = answered(world)
    const released = world.run({ type: 'dropMe', loginName: 'alice', callRef })
    expect(seen(released.events, 'alice')).toEqual([
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(seen(released.events, 'bob')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1002:RELEASING'],
        removed: ['1001'],
      },
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(allCalls(released.state)).toEqual([])
    expect(released.state.timers).toEqual([])
  })

  it('is released by the callee: the caller sees RELEASING, then the end; both FREE', () => {
    const world = new World()
    const callRef = answered(world)
    const released = world.run({ type: 'dropMe', loginName: 'bob', callRef })
    expect(seen(released.events, 'bob')).toEqual([
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(seen(released.events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: ['1002'],
      },
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(allCalls(released.state)).toEqual([])
  })

  it('is released whole (release) by either party: the same sequences as drop me in a two-party call', () => {
    const world = new World()
    const callRef = answered(world)
    const released = world.run({ type: 'release', loginName: 'bob', callRef })
    expect(seen(released.events, 'bob')).toEqual([
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(seen(released.events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: ['1002'],
      },
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(allCalls(released.state)).toEqual([])
    world.refuses({ type: 'release', loginName: 'bob', callRef }, 'NOT_FOUND')
  })

  it('hold and retrieve: the holder sees its leg HELD / ACTIVE, the other party the participant', () => {
    const world = new World()
    const callRef = answered(world)
    const held = world.run({ type: 'hold', loginName: 'alice', callRef })
    expect(seen(held.events, 'alice')).toEqual([
      { eventName: 'OnCallModified', callRef, callState: 'HELD', legs: ['1001:HELD'] },
    ])
    expect(eventsOf(held.events, 'alice')[0]).toMatchObject({
      callData: { capabilities: { terminate: true } },
      modifiedLegs: [{ deviceId: '1001', state: 'HELD', capabilities: { retrieve: true } }],
    })
    // Participants carry no MediaState and bob's own view (leg, callData) is unchanged: he is told nothing.
    expect(seen(held.events, 'bob')).toEqual([])
    // Both stay BUSY: no OnUserStateModified.
    expect(connections(held.state, callRef)).toEqual(['1001:HELD', '1002:ACTIVE'])
    world.refuses({ type: 'hold', loginName: 'alice', callRef }, 'NOT_EXPECTED')
    world.refuses({ type: 'retrieve', loginName: 'bob', callRef }, 'NOT_EXPECTED')

    const retrieved = world.run({ type: 'retrieve', loginName: 'alice', callRef })
    expect(seen(retrieved.events, 'alice')).toEqual([
      { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
    ])
    expect(seen(retrieved.events, 'bob')).toEqual([])
    expect(connections(retrieved.state, callRef)).toEqual(['1001:ACTIVE', '1002:ACTIVE'])
  })

  it('retrieve is refused while another call is active on the device', () => {
    const world = new World()
    const callRef = answered(world)
    world.run({ type: 'hold', loginName: 'alice', callRef })
    world.call('carol', '1001', 'alice')
    world.refuses({ type: 'retrieve', loginName: 'alice', callRef }, 'NOT_EXPECTED')
  })
})

describe('internal call, not answered', () => {
  it('times out after the ringing timeout: both sides see NOT_ANSWERED, nobody was ever BUSY', () => {
    const world = new FeatureWorld({}, { ...directory })
    const { callRef } = aliceCallsBob(world)
    expect(world.state.timers.map((timer) => [timer.at - world.now, timer.command])).toEqual([
      [RINGING_TIMEOUT, { type: 'ringingTimeout', callRef, number: '1002' }],
    ])
    expect(world.advance(RINGING_TIMEOUT - 1)).toEqual([])
    const events = world.advance(1)
    expect(order(events)).toEqual([
      'alice:OnCallModified:NOT_ANSWERED',
      'bob:OnCallRemoved:NOT_ANSWERED',
      'alice:OnCallRemoved:NOT_ANSWERED',
    ])
    expect(seen(events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'NOT_ANSWERED',
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: ['1002'],
      },
      { eventName: 'OnCallRemoved', callRef, cause: 'NOT_ANSWERED' },
    ])
    expect(seen(events, 'bob')).toEqual([
      { eventName: 'OnCallRemoved', callRef, cause: 'NOT_ANSWERED' },
    ])
    expect(allCalls(world.state)).toEqual([])
    expect(world.state.timers).toEqual([])
  })
})

describe('make call variants', () => {
  it('without autoAnswer: the calling device rings first, answering it calls the callee', () => {
    const world = new World()
    const made = world.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: false,
    })
    const callRef = made.callRef ?? ''
    expect(seen(made.events, 'alice')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_INCOMING',
        legs: ['1001:RINGING_INCOMING'],
        participants: [],
      },
    ])
    expect(seen(made.events, 'bob')).toEqual([])
    expect(connections(made.state, callRef)).toEqual(['1001:RINGING_INCOMING'])
    // The caller's own ringing has no ringing timeout.
    expect(made.state.timers).toEqual([])

    const lifted = world.run({ type: 'answer', loginName: 'alice', callRef })
    expect(seen(lifted.events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RINGING_OUTGOING',
        legs: ['1001:RINGING_OUTGOING'],
        added: ['1002'],
      },
    ])
    expect(seen(lifted.events, 'bob')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_INCOMING',
        legs: ['1002:RINGING_INCOMING'],
        participants: ['1001'],
      },
    ])
    expect(connections(lifted.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1002:RINGING_INCOMING',
    ])
    expect(lifted.state.timers.map((timer) => timer.command)).toEqual([
      { type: 'ringingTimeout', callRef, number: '1002' },
    ])

    const answered = world.run({ type: 'answer', loginName: 'bob', callRef })
    expect(order(answered.events)).toEqual([
      'alice:OnCallModified',
      'bob:OnCallModified',
      'alice:OnUserStateModified',
      'bob:OnUserStateModified',
    ])
    expect(connections(answered.state, callRef)).toEqual(['1001:ACTIVE', '1002:ACTIVE'])
  })

  it('to a user by login name: rings the main device of that user', () => {
    const world = new World()
    const made = world.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: 'carol',
      autoAnswer: true,
    })
    const callRef = made.callRef ?? ''
    expect(seen(made.events, 'alice')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_OUTGOING',
        legs: ['1001:RINGING_OUTGOING'],
        participants: ['1003'],
      },
    ])
    expect(seen(made.events, 'carol')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_INCOMING',
        legs: ['1003:RINGING_INCOMING'],
        participants: ['1001'],
      },
    ])
    expect(connections(made.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1003:RINGING_INCOMING',
    ])
  })

  it('to an outside number through the outside-line prefix: an EXTERNAL participant, answered, hung up', () => {
    const world = new World()
    const made = world.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: `${OUTSIDE_PREFIX}${OUTSIDE}`,
      autoAnswer: true,
    })
    const callRef = made.callRef ?? ''
    expect(seen(made.events, 'alice')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_OUTGOING',
        legs: ['1001:RINGING_OUTGOING'],
        participants: [OUTSIDE],
      },
    ])
    expect(eventsOf(made.events, 'alice')[0]).toMatchObject({
      participants: [
        {
          participantId: OUTSIDE,
          identity: { id: { phoneNumber: OUTSIDE }, type: { main: 'EXTERNAL' } },
        },
      ],
    })
    expect(made.events).toHaveLength(1)
    const answered = world.run({ type: 'outsidePartyAnswers', number: OUTSIDE })
    expect(seen(answered.events, 'alice')).toEqual([
      { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
      { eventName: 'OnUserStateModified', state: 'BUSY' },
    ])
    const hungUp = world.run({ type: 'outsidePartyHangsUp', number: OUTSIDE })
    expect(seen(hungUp.events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: [OUTSIDE],
      },
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(allCalls(hungUp.state)).toEqual([])
  })

  it('is refused to an unknown number, to its own device, from a device of another user', () => {
    const world = new World()
    const make = {
      type: 'makeCall' as const,
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    }
    world.refuses({ ...make, callee: '42' }, 'NOT_FOUND')
    world.refuses({ ...make, callee: '1001' }, 'BAD_PARAMETER')
    world.refuses({ ...make, deviceId: '1003' }, 'NOT_ALLOWED')
    world.refuses({ ...make, deviceId: '7777' }, 'NOT_FOUND')
  })
})

describe('a busy outside party', () => {
  it('alice sees her call created, then RELEASING and removed with cause BUSY; she never becomes BUSY', () => {
    const busyDirectory: TelephonyDirectory = {
      ...directory,
      outsideBehaviour: (number) => (number === OUTSIDE ? { kind: 'BUSY' } : undefined),
    }
    const world = new FeatureWorld({}, busyDirectory)
    const made = world.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: `${OUTSIDE_PREFIX}${OUTSIDE}`,
      autoAnswer: true,
    })
    const callRef = made.callRef ?? ''
    expect(seen(made.events, 'alice')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_OUTGOING',
        legs: ['1001:RINGING_OUTGOING'],
        participants: [OUTSIDE],
      },
    ])
    const busy = world.advance(0)
    expect(order(busy)).toEqual(['alice:OnCallModified:BUSY', 'alice:OnCallRemoved:BUSY'])
    expect(seen(busy, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'BUSY',
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: [OUTSIDE],
      },
      { eventName: 'OnCallRemoved', callRef, cause: 'BUSY' },
    ])
    expect(allCalls(world.state)).toEqual([])
    expect(world.state.timers).toEqual([])
  })
})

describe('conference', () => {
  /** alice talks to bob, consults carol, merges: a three-party conference in the held call. */
  function conference(world: World): string {
    const held = world.call('alice', '1002', 'bob')
    const consult = world.call('alice', '1003', 'carol')
    world.run({ type: 'merge', loginName: 'alice', callRef: consult, heldCallRef: held })
    return held
  }

  it('drop me by the last two parties after one left: the one remaining sees RELEASING, then the end', () => {
    const world = new World()
    const callRef = conference(world)
    world.run({ type: 'dropMe', loginName: 'bob', callRef })
    const last = world.run({ type: 'dropMe', loginName: 'alice', callRef })
    expect(seen(last.events, 'alice')).toEqual([
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(seen(last.events, 'carol')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1003:RELEASING'],
        removed: ['1001'],
      },
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(allCalls(last.state)).toEqual([])
  })

  it('release by one party releases every party: each of the others sees RELEASING, then the end', () => {
    const world = new World()
    const callRef = conference(world)
    const released = world.run({ type: 'release', loginName: 'alice', callRef })
    expect(seen(released.events, 'alice')).toEqual([
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    for (const [user, device] of [
      ['bob', '1002'],
      ['carol', '1003'],
    ] as const) {
      expect(seen(released.events, user)).toEqual([
        {
          eventName: 'OnCallModified',
          callRef,
          callState: 'RELEASING',
          legs: [`${device}:RELEASING`],
          removed: ['1001'],
        },
        { eventName: 'OnCallRemoved', callRef },
        { eventName: 'OnUserStateModified', state: 'FREE' },
      ])
    }
    expect(allCalls(released.state)).toEqual([])
  })

  it('lists the participants and gets one as the asking user sees them', () => {
    const world = new World()
    const callRef = conference(world)
    expect(listParticipants(world.state, callRef, 'carol', directory)).toMatchObject([
      { participantId: '1001', identity: { id: { loginName: 'alice' } } },
      { participantId: '1002', identity: { id: { loginName: 'bob' } } },
    ])
    expect(getParticipant(world.state, callRef, '1001', 'carol', directory)).toMatchObject({
      participantId: '1001',
      identity: { id: { loginName: 'alice' }, type: { main: 'USER' } },
    })
  })
})
