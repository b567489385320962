/** Recording, DTMF, associated data, device move, mute, and the telephonic state. */
import { describe, expect, it } from 'vitest'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { telephonicState } from '../../src/platform/telephony/operations/media.js'
import { callOf } from '../../src/platform/telephony/telephony-state.js'
import {
  ALICE_SOFTPHONE,
  connections,
  eventsOf,
  FeatureWorld,
  featureDirectory,
  namesOf,
} from './support.js'

describe('recording', () => {
  it('start, pause, resume, stop: every party sees recordState and the capabilities follow', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    const step = (action: 'start' | 'stop' | 'pause' | 'resume') =>
      world.run({ type: 'recording', loginName: 'alice', callRef, action }).events
    const started = step('start')
    expect(namesOf(started, 'alice')).toEqual(['OnCallModified'])
    expect(namesOf(started, 'bob')).toEqual(['OnCallModified'])
    expect(eventsOf(started, 'alice')[0]).toMatchObject({
      callData: {
        recordState: 'RECORDING',
        capabilities: { stopRecord: true, pauseRecord: true },
      },
      modifiedLegs: [],
    })
    expect(eventsOf(started, 'bob')[0]).toMatchObject({ callData: { recordState: 'RECORDING' } })
    const paused = step('pause')
    expect(eventsOf(paused, 'alice')[0]).toMatchObject({
      callData: { recordState: 'PAUSED', capabilities: { stopRecord: true, resumeRecord: true } },
    })
    expect(callOf(world.state, callRef)?.recordState).toBe('PAUSED')
    const resumed = step('resume')
    expect(eventsOf(resumed, 'bob')[0]).toMatchObject({ callData: { recordState: 'RECORDING' } })
    const stopped = step('stop')
    const data = eventsOf(stopped, 'alice')[0]?.['callData'] as Record<string, unknown>
    expect(data['recordState']).toBeUndefined()
    expect(data['capabilities']).toMatchObject({ startRecord: true })
    expect(callOf(world.state, callRef)?.recordState).toBeUndefined()
  })

  it('pause and resume are not offered to a MULTIMEDIA user', () => {
    const world = new FeatureWorld()
    const callRef = world.call('dave', '1002', 'bob')
    const { events } = world.run({ type: 'recording', loginName: 'dave', callRef, action: 'start' })
    expect(eventsOf(events, 'dave')[0]).toMatchObject({
      callData: { capabilities: { terminate: true, stopRecord: true } },
    })
    expect(eventsOf(events, 'dave')[0]).not.toMatchObject({
      callData: { capabilities: { pauseRecord: true } },
    })
  })

  it('is refused in the wrong recording state, on a call not answered, without the feature', () => {
    const world = new FeatureWorld()
    const ringing = world.call('alice', '1003')
    world.refuses(
      { type: 'recording', loginName: 'alice', callRef: ringing, action: 'start' },
      'NOT_EXPECTED',
    )
    const callRef = world.call('bob', '1004', 'dave')
    world.refuses({ type: 'recording', loginName: 'bob', callRef, action: 'stop' }, 'NOT_EXPECTED')
    world.refuses({ type: 'recording', loginName: 'bob', callRef, action: 'pause' }, 'NOT_EXPECTED')
    world.refuses(
      { type: 'recording', loginName: 'bob', callRef, action: 'resume' },
      'NOT_EXPECTED',
    )
    world.refuses(
      { type: 'recording', loginName: 'bob', callRef: 'nope', action: 'start' },
      'NOT_FOUND',
    )
    world.run({ type: 'recording', loginName: 'bob', callRef, action: 'start' })
    world.refuses({ type: 'recording', loginName: 'bob', callRef, action: 'start' }, 'NOT_EXPECTED')
    world.refuses(
      { type: 'recording', loginName: 'bob', callRef, action: 'resume' },
      'NOT_EXPECTED',
    )
  })
})

describe('send DTMF', () => {
  it('is accepted on an active leg without any event or change', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    const before = world.state
    const { events, state } = world.run({
      type: 'sendDtmf',
      loginName: 'alice',
      callRef,
      deviceId: '1001',
      digits: '0123456789*#ABCD',
    })
    expect(events).toEqual([])
    expect(allCalls(state)).toEqual(allCalls(before))
  })

  it('is refused with bad digits, on a leg not active, an unknown call or device', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const dtmf = { type: 'sendDtmf' as const, loginName: 'alice', callRef, digits: '12' }
    world.refuses(dtmf, 'NOT_EXPECTED')
    world.run({ type: 'answer', loginName: 'bob', callRef })
    world.refuses({ ...dtmf, digits: '12x' }, 'BAD_PARAMETER')
    world.refuses({ ...dtmf, digits: '' }, 'BAD_PARAMETER')
    world.refuses({ ...dtmf, callRef: 'nope' }, 'NOT_FOUND')
    world.refuses({ ...dtmf, deviceId: ALICE_SOFTPHONE }, 'NOT_FOUND')
  })
})

describe('attach data', () => {
  it('sets associatedData on a call the user made; every party sees it', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events, state } = world.run({
      type: 'attachData',
      loginName: 'alice',
      callRef,
      associatedData: 'order 42',
    })
    expect(namesOf(events, 'alice')).toEqual(['OnCallModified'])
    expect(namesOf(events, 'bob')).toEqual(['OnCallModified'])
    // The text, its Java spelling, and its UTF-8 bytes in hex (issue 11, items 6 and 7).
    expect(eventsOf(events, 'bob')[0]).toMatchObject({
      callData: {
        associatedData: 'order 42',
        associateData: 'order 42',
        hexaBinaryAssociatedData: '6f72646572203432',
      },
    })
    expect(callOf(state, callRef)?.associatedData).toBe('order 42')
  })

  it('bytes that are not text are kept and shown in hex only, replacing the text', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    world.run({ type: 'attachData', loginName: 'alice', callRef, associatedData: 'order 42' })
    const { events, state } = world.run({
      type: 'attachData',
      loginName: 'alice',
      callRef,
      hexaBinaryAssociatedData: 'c0ffee',
    })
    for (const login of ['alice', 'bob']) {
      const [modified] = eventsOf(events, login)
      expect(modified).toMatchObject({ callData: { hexaBinaryAssociatedData: 'c0ffee' } })
      expect(modified?.['callData']).not.toHaveProperty('associatedData')
    }
    expect(callOf(state, callRef)).not.toHaveProperty('associatedData')
    expect(callOf(state, callRef)?.hexaBinaryAssociatedData).toBe('c0ffee')
  })

  it('is refused to the called user, and on an unknown call', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    const attach = { type: 'attachData' as const, loginName: 'bob', callRef, associatedData: 'x' }
    world.refuses(attach, 'NOT_EXPECTED')
    world.refuses({ ...attach, callRef: 'nope' }, 'NOT_FOUND')
    world.refuses({ ...attach, loginName: 'carol' }, 'NOT_FOUND')
  })
})

describe('device move', () => {
  it("moves the user's leg to another of its devices: removedLegs and addedLegs; the others see the participant change", () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    const { events, state } = world.run({
      type: 'moveLeg',
      loginName: 'alice',
      callRef,
      legId: '1001',
      deviceId: ALICE_SOFTPHONE,
    })
    expect(namesOf(events, 'alice')).toEqual(['OnCallModified'])
    expect(eventsOf(events, 'alice')[0]).toMatchObject({
      callData: { state: 'ACTIVE' },
      addedLegs: [{ deviceId: ALICE_SOFTPHONE, state: 'ACTIVE' }],
      removedLegs: [{ deviceId: '1001' }],
      modifiedLegs: [],
    })
    // The Node SDK reads the removed legs as `removedLeg`: the same Leg objects.
    const moved = eventsOf(events, 'alice')[0]
    expect(moved?.['removedLeg']).toEqual(moved?.['removedLegs'])
    expect(namesOf(events, 'bob')).toEqual(['OnCallModified'])
    expect(eventsOf(events, 'bob')[0]).toMatchObject({
      removedParticipantIds: ['1001'],
      removedParticipants: ['1001'],
      addedParticipants: [
        { participantId: ALICE_SOFTPHONE, identity: { id: { loginName: 'alice' } } },
      ],
    })
    expect(connections(state, callRef)).toEqual([`${ALICE_SOFTPHONE}:ACTIVE`, '1002:ACTIVE'])
  })

  it("is refused to another user's device, the same device, a ringing leg, an unknown leg", () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const move = {
      type: 'moveLeg' as const,
      loginName: 'alice',
      callRef,
      legId: '1001',
      deviceId: ALICE_SOFTPHONE,
    }
    world.refuses(move, 'NOT_EXPECTED')
    world.run({ type: 'answer', loginName: 'bob', callRef })
    world.refuses({ ...move, deviceId: '1003' }, 'NOT_ALLOWED')
    world.refuses({ ...move, deviceId: '7777' }, 'NOT_FOUND')
    world.refuses({ ...move, deviceId: '1001' }, 'BAD_PARAMETER')
    world.refuses({ ...move, legId: ALICE_SOFTPHONE }, 'NOT_FOUND')
  })
})

describe('mute', () => {
  it('mutes a device in an active call and unmutes it', () => {
    const world = new FeatureWorld()
    world.call('alice', '1002', 'bob')
    const muted = world.run({ type: 'mute', loginName: 'alice', deviceId: '1001', mute: true })
    const states = (muted: boolean) => ({
      eventName: 'OnDeviceStateModified',
      loginName: 'alice',
      deviceStates: [
        { deviceId: '1001', state: 'IN_SERVICE', mutable: true, muted },
        { deviceId: ALICE_SOFTPHONE, state: 'IN_SERVICE', mutable: true, muted: false },
      ],
    })
    expect(muted.events).toEqual([
      { eventName: 'OnDeviceMuteSuccess', loginName: 'alice', deviceId: '1001' },
      states(true),
    ])
    expect(muted.state.devices['1001']?.muted).toBe(true)
    const unmuted = world.run({ type: 'mute', loginName: 'alice', deviceId: '1001', mute: false })
    expect(unmuted.events).toEqual([
      { eventName: 'OnDeviceMuteSuccess', loginName: 'alice', deviceId: '1001' },
      states(false),
    ])
    expect(unmuted.state.devices['1001']?.muted).toBe(false)
  })

  it('fails (OnDeviceMuteFailed, no change) on a device in no active call, or not mutable', () => {
    const world = new FeatureWorld()
    const idle = world.run({ type: 'mute', loginName: 'carol', deviceId: '1003', mute: true })
    expect(idle.events).toEqual([
      { eventName: 'OnDeviceMuteFailed', loginName: 'carol', deviceId: '1003' },
    ])
    expect(idle.state.devices['1003']?.muted).toBe(false)
    world.call('alice', '1002', 'bob')
    const device = world.state.devices['1001']
    if (device)
      world.state = {
        ...world.state,
        devices: { ...world.state.devices, '1001': { ...device, mutable: false } },
      }
    const fixed = world.run({ type: 'mute', loginName: 'alice', deviceId: '1001', mute: true })
    expect(fixed.events).toEqual([
      { eventName: 'OnDeviceMuteFailed', loginName: 'alice', deviceId: '1001' },
    ])
    expect(fixed.state.devices['1001']?.muted).toBe(false)
  })

  it("is refused on an unknown device or another user's", () => {
    const world = new FeatureWorld()
    world.refuses({ type: 'mute', loginName: 'alice', deviceId: '7777', mute: true }, 'NOT_FOUND')
    world.refuses({ type: 'mute', loginName: 'alice', deviceId: '1002', mute: true }, 'NOT_ALLOWED')
  })
})

describe('telephonic state', () => {
  it("gives the user's calls as it sees them, its devices' capabilities and states, and its user state", () => {
    const world = new FeatureWorld()
    expect(telephonicState(world.state, 'alice', featureDirectory)).toEqual({
      calls: [],
      deviceCapabilities: [
        { deviceId: '1001', makeCall: true, makeBusinessCall: true, unParkCall: true },
        { deviceId: ALICE_SOFTPHONE, makeCall: true, makeBusinessCall: true, unParkCall: true },
      ],
      userState: 'FREE',
      deviceStates: {
        deviceStates: [
          { deviceId: '1001', state: 'IN_SERVICE', mutable: true, muted: false },
          { deviceId: ALICE_SOFTPHONE, state: 'IN_SERVICE', mutable: true, muted: false },
        ],
      },
    })
    const callRef = world.call('alice', '1002', 'bob')
    world.run({ type: 'mute', loginName: 'bob', deviceId: '1002', mute: true })
    const bobs = telephonicState(world.state, 'bob', featureDirectory)
    expect(bobs.userState).toBe('BUSY')
    expect(bobs.calls).toMatchObject([
      {
        callRef,
        legs: [{ deviceId: '1002', state: 'ACTIVE' }],
        participants: [{ participantId: '1001' }],
      },
    ])
    expect(bobs.deviceStates.deviceStates).toEqual([
      { deviceId: '1002', state: 'IN_SERVICE', mutable: true, muted: true },
    ])
    expect(telephonicState(world.state, 'carol', featureDirectory).calls).toEqual([])
  })
})
