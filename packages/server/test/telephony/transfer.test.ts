/**
 * Consultation, alternate, transfer and blind transfer (operations/consultation.ts, transfer.ts;
 * docs/call-model.md, "Consultation, transfer and conference"): the events each involved user receives and
 * the resulting state.
 */
import { describe, expect, it } from 'vitest'
import { allCalls, withCalls } from '../../src/platform/telephony/call-index.js'
import { callOf } from '../../src/platform/telephony/telephony-state.js'
import { connections, FeatureWorld, OUTSIDE, seen, World } from './support.js'

/** alice (1001) talks to bob (1002), puts him on hold by calling carol (1003), and carol answers. */
function consulted(world: World): { held: string; consult: string } {
  const held = world.call('alice', '1002', 'bob')
  const consult = world.call('alice', '1003', 'carol')
  return { held, consult }
}

describe('consultation call', () => {
  it('holds the active call and places the new one at once, whatever autoAnswer says', () => {
    const world = new World()
    const held = world.call('alice', '1002', 'bob')
    const made = world.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1003',
      autoAnswer: false,
    })
    const consult = made.callRef ?? ''
    expect(seen(made.events, 'alice')).toEqual([
      { eventName: 'OnCallModified', callRef: held, callState: 'HELD', legs: ['1001:HELD'] },
      {
        eventName: 'OnCallCreated',
        callRef: consult,
        callState: 'RINGING_OUTGOING',
        legs: ['1001:RINGING_OUTGOING'],
        participants: ['1003'],
      },
    ])
    expect(seen(made.events, 'bob')).toEqual([])
    expect(seen(made.events, 'carol')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef: consult,
        callState: 'RINGING_INCOMING',
        legs: ['1003:RINGING_INCOMING'],
        participants: ['1001'],
      },
    ])
    expect(connections(made.state, held)).toEqual(['1001:HELD', '1002:ACTIVE'])

    // Once carol answers, alice has one active and one held call: both offer transfer and merge.
    const answered = world.run({ type: 'answer', loginName: 'carol', callRef: consult })
    const alice = answered.events.filter((event) => event.loginName === 'alice')
    expect(alice.map((event) => [event['callRef'], event['callData']])).toEqual([
      [consult, expect.objectContaining({ state: 'ACTIVE' })],
      [held, expect.objectContaining({ state: 'HELD' })],
    ])
    const capabilities = (callRef: string) =>
      (
        alice.find((event) => event['callRef'] === callRef)?.['callData'] as {
          capabilities?: object
        }
      )?.capabilities
    expect(capabilities(consult)).toEqual({
      terminate: true,
      transfer: true,
      merge: true,
      blindTransfer: true,
    })
    expect(capabilities(held)).toEqual({ terminate: true, transfer: true, merge: true })
  })

  it('refuses a third call while the device has an active and a held call', () => {
    const world = new World()
    consulted(world)
    world.refuses(
      { type: 'makeCall', loginName: 'alice', deviceId: '1001', callee: '1004', autoAnswer: true },
      'NOT_EXPECTED',
    )
  })
})

describe('transfer', () => {
  it('connects the held and the consulted party in the held call and lets the user go', () => {
    const world = new World()
    const { held, consult } = consulted(world)
    const result = world.run({
      type: 'transfer',
      loginName: 'alice',
      callRef: consult,
      heldCallRef: held,
    })
    expect(seen(result.events, 'alice')).toEqual([
      { eventName: 'OnCallRemoved', callRef: consult, cause: 'TRANSFERRED' },
      { eventName: 'OnCallRemoved', callRef: held, cause: 'TRANSFERRED' },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    // bob stays in his call: alice leaves it, carol joins it.
    expect(seen(result.events, 'bob')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: held,
        cause: 'TRANSFERRED',
        callState: 'ACTIVE',
        added: ['1003'],
        removed: ['1001'],
      },
    ])
    // carol's call is replaced by the held call: one OnCallModified with previousCallRef, no OnCallRemoved.
    expect(seen(result.events, 'carol')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: held,
        previousCallRef: consult,
        cause: 'TRANSFERRED',
        callState: 'ACTIVE',
        added: ['1002'],
        removed: ['1001'],
      },
    ])
    const carol = result.events.find((event) => event.loginName === 'carol')
    expect(carol).toMatchObject({
      modifiedLegs: [],
      addedLegs: [],
      removedLegs: [],
      callData: {
        initialCalled: { id: { phoneNumber: '1002' } },
        capabilities: { terminate: true },
      },
    })
    expect(allCalls(result.state).map((call) => call.callRef)).toEqual([held])
    expect(connections(result.state, held)).toEqual(['1002:ACTIVE', '1003:ACTIVE'])
    expect(result.state.timers).toEqual([])
  })

  it('transfers on ringing: the consulted party keeps ringing in the surviving call', () => {
    const world = new World()
    const held = world.call('alice', '1002', 'bob')
    const consult = world.call('alice', '1003')
    const result = world.run({
      type: 'transfer',
      loginName: 'alice',
      callRef: consult,
      heldCallRef: held,
    })
    expect(seen(result.events, 'carol')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: held,
        previousCallRef: consult,
        cause: 'TRANSFERRED',
        callState: 'RINGING_INCOMING',
        added: ['1002'],
        removed: ['1001'],
      },
    ])
    expect(connections(result.state, held)).toEqual(['1002:ACTIVE', '1003:RINGING_INCOMING'])
    // The ringing timeout follows the call.
    expect(result.state.timers.map((timer) => timer.command)).toEqual([
      { type: 'ringingTimeout', callRef: held, number: '1003' },
    ])
    const answered = world.run({ type: 'answer', loginName: 'carol', callRef: held })
    expect(seen(answered.events, 'carol')).toEqual([
      { eventName: 'OnCallModified', callRef: held, callState: 'ACTIVE', legs: ['1003:ACTIVE'] },
      { eventName: 'OnUserStateModified', state: 'BUSY' },
    ])
    expect(answered.state.timers).toEqual([])
  })

  it('is refused in the wrong states and for unknown calls, changing nothing', () => {
    const world = new World()
    const { held, consult } = consulted(world)
    world.refuses(
      { type: 'transfer', loginName: 'alice', callRef: 'ffff', heldCallRef: held },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'transfer', loginName: 'alice', callRef: consult, heldCallRef: 'ffff' },
      'NOT_FOUND',
    )
    // callRef must be the active call and heldCallRef the held one.
    world.refuses(
      { type: 'transfer', loginName: 'alice', callRef: held, heldCallRef: consult },
      'NOT_EXPECTED',
    )
    world.refuses(
      { type: 'transfer', loginName: 'alice', callRef: consult, heldCallRef: consult },
      'BAD_PARAMETER',
    )
    // bob is in only one of the calls, where he is not held.
    world.refuses(
      { type: 'transfer', loginName: 'bob', callRef: held, heldCallRef: consult },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'transfer', loginName: 'carol', callRef: consult, heldCallRef: held },
      'NOT_FOUND',
    )
  })

  it('does not join two outside parties together', () => {
    const world = new World()
    const held = world.call('alice', `0${OUTSIDE}`)
    // The outside party answers (simulated here: answering outside parties is the simulation's part).
    const call = callOf(world.state, held)
    if (call === undefined) throw new Error('no call')
    const answered = {
      ...call,
      connections: call.connections.map((c) => ({ ...c, state: 'ACTIVE' as const })),
    }
    world.state = withCalls(
      world.state,
      allCalls(world.state).map((other) => (other.callRef === held ? answered : other)),
    )
    const consult = world.call('alice', '00147200000')
    world.refuses(
      { type: 'transfer', loginName: 'alice', callRef: consult, heldCallRef: held },
      'NOT_ALLOWED',
    )
  })
})

describe('alternate', () => {
  it('holds the active call, then retrieves the held one', () => {
    const world = new World()
    const { held, consult } = consulted(world)
    const result = world.run({ type: 'alternate', loginName: 'alice', callRef: held })
    expect(seen(result.events, 'alice')).toEqual([
      { eventName: 'OnCallModified', callRef: consult, callState: 'HELD', legs: ['1001:HELD'] },
      { eventName: 'OnCallModified', callRef: held, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
    ])
    expect(seen(result.events, 'bob')).toEqual([])
    expect(seen(result.events, 'carol')).toEqual([])
    expect(connections(result.state, held)).toEqual(['1001:ACTIVE', '1002:ACTIVE'])
    expect(connections(result.state, consult)).toEqual(['1001:HELD', '1003:ACTIVE'])
    // And back.
    const back = world.run({ type: 'alternate', loginName: 'alice', callRef: consult })
    expect(connections(back.state, consult)).toEqual(['1001:ACTIVE', '1003:ACTIVE'])
    expect(connections(back.state, held)).toEqual(['1001:HELD', '1002:ACTIVE'])
  })

  it("given the active call (the Node SDK's reading): holds it, then retrieves the one held call", () => {
    const world = new World()
    const { held, consult } = consulted(world)
    const result = world.run({ type: 'alternate', loginName: 'alice', callRef: consult })
    expect(seen(result.events, 'alice')).toEqual([
      { eventName: 'OnCallModified', callRef: consult, callState: 'HELD', legs: ['1001:HELD'] },
      { eventName: 'OnCallModified', callRef: held, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
    ])
    expect(seen(result.events, 'bob')).toEqual([])
    expect(seen(result.events, 'carol')).toEqual([])
    expect(connections(result.state, held)).toEqual(['1001:ACTIVE', '1002:ACTIVE'])
    expect(connections(result.state, consult)).toEqual(['1001:HELD', '1003:ACTIVE'])
  })

  it('given the active call with no held call, or with several: NOT_EXPECTED, nothing changes', () => {
    const world = new World()
    const first = world.call('alice', '1002', 'bob')
    world.refuses({ type: 'alternate', loginName: 'alice', callRef: first }, 'NOT_EXPECTED')
    expect(() => world.run({ type: 'alternate', loginName: 'alice', callRef: first })).toThrow(
      `Call ${first} is active and device 1001 has no held call to alternate with`,
    )
    world.run({ type: 'hold', loginName: 'alice', callRef: first })
    const second = world.call('carol', '1001', 'alice')
    world.run({ type: 'hold', loginName: 'alice', callRef: second })
    const third = world.call('dave', '1001', 'alice')
    world.refuses({ type: 'alternate', loginName: 'alice', callRef: third }, 'NOT_EXPECTED')
    expect(() => world.run({ type: 'alternate', loginName: 'alice', callRef: third })).toThrow(
      `Call ${third} is active and device 1001 has 2 held calls: name the held one to alternate with`,
    )
  })

  it('is refused without an active call to alternate with, or on a call neither held nor active', () => {
    const world = new World()
    const held = world.call('alice', '1002', 'bob')
    world.run({ type: 'hold', loginName: 'alice', callRef: held })
    world.refuses({ type: 'alternate', loginName: 'alice', callRef: held }, 'NOT_EXPECTED')
    world.refuses({ type: 'alternate', loginName: 'bob', callRef: held }, 'NOT_EXPECTED')
    const ringing = world.call('carol', '1002')
    world.refuses({ type: 'alternate', loginName: 'bob', callRef: ringing }, 'NOT_EXPECTED')
    world.refuses({ type: 'alternate', loginName: 'alice', callRef: 'ffff' }, 'NOT_FOUND')
    world.refuses({ type: 'alternate', loginName: 'carol', callRef: held }, 'NOT_FOUND')
  })
})

describe('blind transfer', () => {
  it('sends the other party to a new destination that rings; the user leaves', () => {
    const world = new World()
    const callRef = world.call('alice', '1002', 'bob')
    const result = world.run({
      type: 'blindTransfer',
      loginName: 'alice',
      callRef,
      transferTo: '1003',
      anonymous: false,
    })
    expect(seen(result.events, 'alice')).toEqual([
      { eventName: 'OnCallRemoved', callRef, cause: 'TRANSFERRED', newDestination: '1003' },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(seen(result.events, 'bob')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'TRANSFERRED',
        callState: 'ACTIVE',
        added: ['1003'],
        removed: ['1001'],
      },
    ])
    expect(seen(result.events, 'carol')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        cause: 'TRANSFERRED',
        callState: 'RINGING_INCOMING',
        legs: ['1003:RINGING_INCOMING'],
        participants: ['1002'],
      },
    ])
    // carol sees who transferred the call to her.
    expect(result.events.find((event) => event.loginName === 'carol')).toMatchObject({
      callData: { lastRedirecting: { id: { loginName: 'alice', phoneNumber: '1001' } } },
    })
    expect(connections(result.state, callRef)).toEqual(['1002:ACTIVE', '1003:RINGING_INCOMING'])
    const answered = world.run({ type: 'answer', loginName: 'carol', callRef })
    expect(connections(answered.state, callRef)).toEqual(['1002:ACTIVE', '1003:ACTIVE'])
    expect(answered.state.timers).toEqual([])
  })

  it('releases the call when the new destination does not answer', () => {
    const world = new World()
    const callRef = world.call('alice', '1002', 'bob')
    world.run({ type: 'blindTransfer', loginName: 'alice', callRef, transferTo: '1003' })
    const timeout = world.run({ type: 'ringingTimeout', callRef, number: '1003' })
    expect(seen(timeout.events, 'bob')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'NOT_ANSWERED',
        callState: 'RELEASING',
        legs: ['1002:RELEASING'],
        removed: ['1003'],
      },
      { eventName: 'OnCallRemoved', callRef, cause: 'NOT_ANSWERED' },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(allCalls(timeout.state)).toEqual([])
  })

  it('is refused towards a user already in the call on another of their devices, changing nothing', () => {
    const world = new FeatureWorld()
    const callRef = world.callAliceOnSoftphone('bob')
    world.refuses(
      { type: 'blindTransfer', loginName: 'bob', callRef, transferTo: '1001' },
      'BAD_PARAMETER',
    )
    world.refuses(
      { type: 'blindTransfer', loginName: 'bob', callRef, transferTo: 'alice' },
      'BAD_PARAMETER',
    )
  })

  it('is refused in the wrong states, for unknown calls and destinations, changing nothing', () => {
    const world = new World()
    const ringing = world.call('alice', '1002')
    world.refuses(
      { type: 'blindTransfer', loginName: 'alice', callRef: ringing, transferTo: '1003' },
      'NOT_EXPECTED',
    )
    world.refuses(
      { type: 'blindTransfer', loginName: 'alice', callRef: 'ffff', transferTo: '1003' },
      'NOT_FOUND',
    )
    world.run({ type: 'answer', loginName: 'bob', callRef: ringing })
    world.refuses(
      { type: 'blindTransfer', loginName: 'alice', callRef: ringing, transferTo: '9' },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'blindTransfer', loginName: 'alice', callRef: ringing, transferTo: '1002' },
      'BAD_PARAMETER',
    )
    world.refuses(
      { type: 'blindTransfer', loginName: 'alice', callRef: ringing, transferTo: '1001' },
      'BAD_PARAMETER',
    )
    world.run({ type: 'hold', loginName: 'alice', callRef: ringing })
    world.refuses(
      { type: 'blindTransfer', loginName: 'alice', callRef: ringing, transferTo: '1003' },
      'NOT_EXPECTED',
    )
  })
})
