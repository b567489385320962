/**
 * Merge into a conference, participants added and dropped, a participant leaving, and the participants
 * query (operations/conference.ts; docs/call-model.md, "Consultation, transfer and conference").
 */
import { describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { PlatformError } from '../../src/platform/platform-error.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { listParticipants } from '../../src/platform/telephony/operations/conference.js'
import { ALICE_SOFTPHONE, connections, directory, FeatureWorld, seen, World } from './support.js'

/** alice (1001) talks to bob (1002), consults carol (1003) who answers, and merges the two calls. */
function conference(world: World) {
  const held = world.call('alice', '1002', 'bob')
  const consult = world.call('alice', '1003', 'carol')
  const merged = world.run({
    type: 'merge',
    loginName: 'alice',
    callRef: consult,
    heldCallRef: held,
  })
  return { held, consult, merged }
}

const capabilitiesOf = (event: PlatformEvent | undefined) =>
  (event?.['callData'] as { capabilities?: object } | undefined)?.capabilities

describe('merge', () => {
  it('joins the consulted party into the held call: one conference with every party', () => {
    const world = new World()
    const { held, consult, merged } = conference(world)
    expect(seen(merged.events, 'alice')).toEqual([
      { eventName: 'OnCallRemoved', callRef: consult, cause: 'CONFERENCED' },
      {
        eventName: 'OnCallModified',
        callRef: held,
        cause: 'CONFERENCED',
        callState: 'ACTIVE',
        legs: ['1001:ACTIVE'],
        added: ['1003'],
      },
    ])
    expect(seen(merged.events, 'bob')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: held,
        cause: 'CONFERENCED',
        callState: 'ACTIVE',
        added: ['1003'],
      },
    ])
    expect(seen(merged.events, 'carol')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: held,
        previousCallRef: consult,
        cause: 'CONFERENCED',
        callState: 'ACTIVE',
        added: ['1002'],
      },
    ])
    // Everybody may drop a participant of the conference.
    for (const user of ['alice', 'bob', 'carol'])
      expect(
        capabilitiesOf(
          merged.events.find((event) => event.loginName === user && event['callRef'] === held),
        ),
      ).toEqual({ terminate: true, dropParticipant: true })
    expect(allCalls(merged.state).map((call) => call.callRef)).toEqual([held])
    expect(connections(merged.state, held)).toEqual(['1001:ACTIVE', '1002:ACTIVE', '1003:ACTIVE'])
    expect(
      listParticipants(merged.state, held, 'bob', directory).map((p) => p.participantId),
    ).toEqual(['1001', '1003'])
  })

  it('goes on with PARTICIPANT_LEFT when a party leaves, as a plain call again with two parties', () => {
    const world = new World()
    const { held } = conference(world)
    const left = world.run({ type: 'dropMe', loginName: 'bob', callRef: held })
    expect(seen(left.events, 'bob')).toEqual([
      { eventName: 'OnCallRemoved', callRef: held, cause: 'PARTICIPANT_LEFT' },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    for (const user of ['alice', 'carol'])
      expect(seen(left.events, user)).toEqual([
        {
          eventName: 'OnCallModified',
          callRef: held,
          cause: 'PARTICIPANT_LEFT',
          callState: 'ACTIVE',
          removed: ['1002'],
        },
      ])
    // No longer a conference: the conference capabilities are gone.
    expect(capabilitiesOf(left.events.find((event) => event.loginName === 'alice'))).toEqual({
      terminate: true,
    })
    expect(connections(left.state, held)).toEqual(['1001:ACTIVE', '1003:ACTIVE'])
    // The last two parties: one hangs up, the call is released for the other.
    const last = world.run({ type: 'dropMe', loginName: 'alice', callRef: held })
    expect(seen(last.events, 'carol').map((event) => event['eventName'])).toEqual([
      'OnCallModified',
      'OnCallRemoved',
      'OnUserStateModified',
    ])
    expect(allCalls(last.state)).toEqual([])
  })

  it('is refused in the wrong states and for unknown calls, changing nothing', () => {
    const world = new World()
    const held = world.call('alice', '1002', 'bob')
    const consult = world.call('alice', '1003', 'carol')
    world.refuses(
      { type: 'merge', loginName: 'alice', callRef: held, heldCallRef: consult },
      'NOT_EXPECTED',
    )
    world.refuses(
      { type: 'merge', loginName: 'alice', callRef: 'ffff', heldCallRef: held },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'merge', loginName: 'alice', callRef: consult, heldCallRef: 'ffff' },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'merge', loginName: 'alice', callRef: consult, heldCallRef: consult },
      'BAD_PARAMETER',
    )
    world.refuses(
      { type: 'merge', loginName: 'dave', callRef: consult, heldCallRef: held },
      'NOT_FOUND',
    )
  })
})

describe('conference participants', () => {
  it('lets a MULTIMEDIA user add a number that rings, then any party drop one', () => {
    const world = new World()
    const callRef = world.call('dave', '1001', 'alice')
    const added = world.run({ type: 'addParticipant', loginName: 'dave', callRef, callee: 'bob' })
    expect(seen(added.events, 'bob')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_INCOMING',
        legs: ['1002:RINGING_INCOMING'],
        participants: ['1004', '1001'],
      },
    ])
    for (const user of ['alice', 'dave'])
      expect(seen(added.events, user)).toEqual([
        { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', added: ['1002'] },
      ])
    // A MULTIMEDIA user in a conference may add more.
    expect(capabilitiesOf(added.events.find((event) => event.loginName === 'dave'))).toEqual({
      terminate: true,
      addParticipant: true,
      dropParticipant: true,
    })
    const answered = world.run({ type: 'answer', loginName: 'bob', callRef })
    expect(connections(answered.state, callRef)).toEqual([
      '1004:ACTIVE',
      '1001:ACTIVE',
      '1002:ACTIVE',
    ])
    expect(answered.state.timers).toEqual([])

    const dropped = world.run({
      type: 'dropParticipant',
      loginName: 'alice',
      callRef,
      participantId: '1002',
    })
    expect(seen(dropped.events, 'bob')).toEqual([
      { eventName: 'OnCallRemoved', callRef, cause: 'PARTICIPANT_LEFT' },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    for (const user of ['alice', 'dave'])
      expect(seen(dropped.events, user)).toEqual([
        {
          eventName: 'OnCallModified',
          callRef,
          cause: 'PARTICIPANT_LEFT',
          callState: 'ACTIVE',
          removed: ['1002'],
        },
      ])
    expect(connections(dropped.state, callRef)).toEqual(['1004:ACTIVE', '1001:ACTIVE'])
  })

  it('releases the call for the last party when the other one is dropped', () => {
    const world = new World()
    const callRef = world.call('alice', '1002', 'bob')
    const dropped = world.run({
      type: 'dropParticipant',
      loginName: 'alice',
      callRef,
      participantId: '1002',
    })
    expect(seen(dropped.events, 'alice')).toEqual([
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
    expect(allCalls(dropped.state)).toEqual([])
  })

  it('refuses to ring a user already in the call on another of their devices, changing nothing', () => {
    // Found by the property test (seed 287465845): alice in the call on her softphone, dave adds her desk
    // phone; had it rung, her hanging up the softphone would have turned her ACTIVE call RINGING_INCOMING.
    const world = new FeatureWorld()
    const callRef = world.callAliceOnSoftphone('dave')
    expect(connections(world.state, callRef)).toEqual(['1004:ACTIVE', `${ALICE_SOFTPHONE}:ACTIVE`])
    world.refuses(
      { type: 'addParticipant', loginName: 'dave', callRef, callee: '1001' },
      'BAD_PARAMETER',
    )
    world.refuses(
      { type: 'addParticipant', loginName: 'dave', callRef, callee: 'alice' },
      'BAD_PARAMETER',
    )
    world.run({ type: 'addParticipant', loginName: 'dave', callRef, callee: '1002' })
    expect(connections(world.state, callRef)).toEqual([
      '1004:ACTIVE',
      `${ALICE_SOFTPHONE}:ACTIVE`,
      '1002:RINGING_INCOMING',
    ])
    // Nor may the newly ringing party send the call to her.
    world.refuses(
      { type: 'redirect', loginName: 'bob', callRef, redirectTo: '1001' },
      'BAD_PARAMETER',
    )
    // Nor may she pick that ringing up on her desk phone: she would be in the call twice.
    world.refuses(
      {
        type: 'pickup',
        loginName: 'alice',
        deviceId: '1001',
        otherCallRef: callRef,
        otherPhoneNumber: '1002',
        autoAnswer: true,
      },
      'BAD_PARAMETER',
    )
  })

  it('refuses STANDARD users, non-parties, unknown participants and unknown calls', () => {
    const world = new World()
    const callRef = world.call('dave', '1001', 'alice')
    world.refuses(
      { type: 'addParticipant', loginName: 'alice', callRef, callee: '1002' },
      'NOT_ALLOWED',
    )
    world.refuses(
      { type: 'addParticipant', loginName: 'dave', callRef, callee: '1001' },
      'BAD_PARAMETER',
    )
    world.refuses({ type: 'addParticipant', loginName: 'dave', callRef, callee: '9' }, 'NOT_FOUND')
    world.refuses(
      { type: 'addParticipant', loginName: 'dave', callRef: 'ffff', callee: '1002' },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'dropParticipant', loginName: 'bob', callRef, participantId: '1001' },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'dropParticipant', loginName: 'dave', callRef, participantId: '1003' },
      'NOT_FOUND',
    )
    // One's own number is not a participant (drop me instead).
    world.refuses(
      { type: 'dropParticipant', loginName: 'dave', callRef, participantId: '1004' },
      'NOT_FOUND',
    )
    const ringing = world.call('carol', '1002')
    world.refuses(
      { type: 'dropParticipant', loginName: 'bob', callRef: ringing, participantId: '1003' },
      'NOT_EXPECTED',
    )
    expect(() => listParticipants(world.state, callRef, 'bob', directory)).toThrow(PlatformError)
    expect(() => listParticipants(world.state, 'ffff', 'dave', directory)).toThrow(PlatformError)
  })
})
