/** Park and unpark, with and without a target device, and the park timeout recall. */
import { describe, expect, it } from 'vitest'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { callOf } from '../../src/platform/telephony/telephony-state.js'
import { ALICE_SOFTPHONE, connections, eventsOf, FeatureWorld, namesOf } from './support.js'

const PARK_TIMEOUT = 60_000

describe('park', () => {
  it('on the own device: the user leaves (PARKED), the other party waits on the park slot', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    const { events, state } = world.run({ type: 'park', loginName: 'alice', callRef })
    expect(namesOf(events, 'alice')).toEqual(['OnCallRemoved:PARKED', 'OnUserStateModified'])
    expect(eventsOf(events, 'alice')[1]).toMatchObject({ state: 'FREE' })
    expect(namesOf(events, 'bob')).toEqual(['OnCallModified:PARKED'])
    expect(eventsOf(events, 'bob')[0]).toMatchObject({
      callData: { state: 'ACTIVE' },
      modifiedLegs: [],
      // The park slot is named by the device the call is parked on: here the same number as alice's.
      modifiedParticipants: [
        {
          participantId: '1001',
          identity: { id: { phoneNumber: '1001' }, type: { main: 'SERVICE' } },
        },
      ],
    })
    expect(connections(state, callRef)).toEqual(['1002:ACTIVE', '1001:HELD'])
    expect(callOf(state, callRef)?.parked).toEqual({
      loginName: 'alice',
      fromDeviceId: '1001',
      onDeviceId: '1001',
    })
    expect(state.timers.map((timer) => [timer.at - world.now, timer.command])).toEqual([
      [PARK_TIMEOUT, { type: 'parkTimeout', callRef }],
    ])
  })

  it('shows the park capability on an answered two-party call', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events } = world.run({ type: 'answer', loginName: 'bob', callRef })
    expect(eventsOf(events, 'alice')[0]).toMatchObject({
      callData: { capabilities: { park: true, startRecord: true, terminate: true } },
    })
  })

  it('unpark from the parking device connects it again', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    world.run({ type: 'park', loginName: 'alice', callRef })
    const { events, state } = world.run({
      type: 'unpark',
      loginName: 'alice',
      deviceId: '1001',
      heldCallRef: callRef,
    })
    expect(namesOf(events, 'alice')).toEqual(['OnCallCreated', 'OnUserStateModified'])
    expect(eventsOf(events, 'alice')[0]).toMatchObject({
      legs: [{ deviceId: '1001', state: 'ACTIVE' }],
      participants: [{ participantId: '1002' }],
    })
    expect(namesOf(events, 'bob')).toEqual(['OnCallModified'])
    expect(eventsOf(events, 'bob')[0]).toMatchObject({
      modifiedParticipants: [{ participantId: '1001', identity: { id: { loginName: 'alice' } } }],
    })
    expect(connections(state, callRef)).toEqual(['1002:ACTIVE', '1001:ACTIVE'])
    expect(callOf(state, callRef)?.parked).toBeUndefined()
    expect(state.timers).toEqual([])
  })

  it('on a target device: the target user unparks it; the parking device may too', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    const parked = world.run({ type: 'park', loginName: 'alice', callRef, parkTo: '1003' })
    expect(namesOf(parked.events, 'alice')).toEqual(['OnCallRemoved:PARKED', 'OnUserStateModified'])
    expect(eventsOf(parked.events, 'bob')[0]).toMatchObject({
      removedParticipantIds: ['1001'],
      addedParticipants: [{ participantId: '1003', identity: { type: { main: 'SERVICE' } } }],
    })
    expect(namesOf(parked.events, 'carol')).toEqual([])
    expect(connections(parked.state, callRef)).toEqual(['1002:ACTIVE', '1003:HELD'])
    world.refuses(
      { type: 'unpark', loginName: 'bob', deviceId: '1002', heldCallRef: callRef },
      'NOT_ALLOWED',
    )
    const { events, state } = world.run({
      type: 'unpark',
      loginName: 'carol',
      deviceId: '1003',
      heldCallRef: callRef,
    })
    expect(namesOf(events, 'carol')).toEqual(['OnCallCreated', 'OnUserStateModified'])
    expect(eventsOf(events, 'bob')[0]).toMatchObject({
      modifiedParticipants: [{ participantId: '1003', identity: { id: { loginName: 'carol' } } }],
    })
    expect(connections(state, callRef)).toEqual(['1002:ACTIVE', '1003:ACTIVE'])
  })

  it('is recalled to the parking device when the park timeout runs out (RECALL)', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    world.run({ type: 'park', loginName: 'alice', callRef, parkTo: '1003' })
    expect(world.advance(PARK_TIMEOUT - 1)).toEqual([])
    const events = world.advance(1)
    expect(namesOf(events, 'alice')).toEqual(['OnCallCreated:RECALL'])
    expect(eventsOf(events, 'alice')[0]).toMatchObject({
      legs: [{ deviceId: '1001', state: 'RINGING_INCOMING' }],
      participants: [{ participantId: '1002' }],
    })
    expect(namesOf(events, 'bob')).toEqual(['OnCallModified:RECALL'])
    expect(connections(world.state, callRef)).toEqual(['1002:ACTIVE', '1001:RINGING_INCOMING'])
    expect(callOf(world.state, callRef)?.parked).toBeUndefined()
    world.refuses(
      { type: 'unpark', loginName: 'carol', deviceId: '1003', heldCallRef: callRef },
      'NOT_EXPECTED',
    )
    world.run({ type: 'answer', loginName: 'alice', callRef })
    expect(connections(world.state, callRef)).toEqual(['1002:ACTIVE', '1001:ACTIVE'])
  })

  it('a recall nobody answers ends the call', () => {
    const world = new FeatureWorld({ parkTimeoutMs: 10_000 })
    const callRef = world.call('alice', '1002', 'bob')
    world.run({ type: 'park', loginName: 'alice', callRef })
    world.advance(10_000)
    const events = world.advance(30_000)
    expect(namesOf(events, 'alice')).toEqual(['OnCallRemoved:NOT_ANSWERED'])
    expect(namesOf(events, 'bob')).toEqual([
      'OnCallModified:NOT_ANSWERED',
      'OnCallRemoved:NOT_ANSWERED',
      'OnUserStateModified',
    ])
    expect(allCalls(world.state)).toEqual([])
    expect(world.state.timers).toEqual([])
  })

  it('the other party hanging up ends a parked call and its timer', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    world.run({ type: 'park', loginName: 'alice', callRef })
    const { events, state } = world.run({ type: 'dropMe', loginName: 'bob', callRef })
    expect(namesOf(events, 'bob')).toEqual(['OnCallRemoved', 'OnUserStateModified'])
    expect(allCalls(state)).toEqual([])
    expect(state.timers).toEqual([])
  })

  it('is refused on a ringing call, a conference-size call, an unknown target, without the feature', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    world.refuses({ type: 'park', loginName: 'alice', callRef }, 'NOT_EXPECTED')
    world.refuses({ type: 'park', loginName: 'alice', callRef: 'nope' }, 'NOT_FOUND')
    world.run({ type: 'answer', loginName: 'bob', callRef })
    world.refuses({ type: 'park', loginName: 'alice', callRef, parkTo: '7777' }, 'NOT_FOUND')
    world.refuses({ type: 'park', loginName: 'alice', callRef, parkTo: '1002' }, 'BAD_PARAMETER')
    const daves = world.call('dave', '1003', 'carol')
    world.refuses({ type: 'park', loginName: 'dave', callRef: daves }, 'NOT_ALLOWED')
    world.refuses(
      { type: 'unpark', loginName: 'alice', deviceId: '1001', heldCallRef: callRef },
      'NOT_EXPECTED',
    )
    world.refuses(
      { type: 'unpark', loginName: 'alice', deviceId: '1001', heldCallRef: 'nope' },
      'NOT_FOUND',
    )
  })

  it("is refused on a device of the other party's, changing nothing", () => {
    // Found by the property test (seed 1970295881): parked on the other party's second device, that party
    // moved its leg there and unparked it, and the device was ACTIVE twice in one call.
    const world = new FeatureWorld()
    const callRef = world.call('bob', '1001', 'alice')
    world.refuses(
      { type: 'park', loginName: 'bob', callRef, parkTo: ALICE_SOFTPHONE },
      'BAD_PARAMETER',
    )
    world.refuses({ type: 'park', loginName: 'bob', callRef, parkTo: '1001' }, 'BAD_PARAMETER')
    world.run({ type: 'park', loginName: 'bob', callRef, parkTo: '1003' })
    expect(connections(world.state, callRef)).toEqual(['1001:ACTIVE', '1003:HELD'])
  })

  it('unpark is refused on a device in another active call', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    world.run({ type: 'park', loginName: 'alice', callRef })
    world.call('alice', '1003', 'carol')
    world.refuses(
      { type: 'unpark', loginName: 'alice', deviceId: '1001', heldCallRef: callRef },
      'NOT_EXPECTED',
    )
  })
})
