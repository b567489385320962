/**
 * Replays the incoming-call sequence captured from a real server (wire facts 6: user oxe19141 on device
 * 19141, a call from oxe19140 on 19140, answered, then hung up by the caller) and compares what the callee
 * receives, event by event and field by field.
 */
import { describe, expect, it } from 'vitest'
import { execute } from '../../src/platform/telephony/call-engine.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { DEFAULT_ENGINE_SETTINGS } from '../../src/platform/telephony/engine-operation.js'
import { initialState } from '../../src/platform/telephony/telephony-state.js'
import { devicesOf, type TestPerson, telephonyDirectoryOf } from '../support/telephony-people.js'
import { TEST_CALL_REF_KEY } from './support.js'

const people: Record<string, TestPerson> = {
  '19140': { loginName: 'oxe19140', firstName: 'Paul', lastName: 'Durand' },
  '19141': { loginName: 'oxe19141', firstName: 'Anne', lastName: 'Martin' },
}
const directory = telephonyDirectoryOf(people)
const context = { directory, settings: DEFAULT_ENGINE_SETTINGS }

describe('the captured incoming call, from the callee side', () => {
  it('rings, is answered, and is released by the caller exactly as the real server told it', () => {
    const devices = devicesOf(people)
    let state = initialState(devices, TEST_CALL_REF_KEY)
    const call = execute(
      state,
      {
        type: 'makeCall',
        loginName: 'oxe19140',
        deviceId: '19140',
        callee: '19141',
        autoAnswer: true,
      },
      1000,
      context,
    )
    state = call.state
    const callRef = call.callRef ?? ''
    const callee = (events: typeof call.events) =>
      events.filter((event) => event.loginName === 'oxe19141')

    expect(callee(call.events)).toEqual([
      {
        eventName: 'OnCallCreated',
        loginName: 'oxe19141',
        callRef,
        callData: {
          initialCalled: { id: { phoneNumber: '19141' } },
          state: 'RINGING_INCOMING',
          tags: [],
          capabilities: { redirect: true, pickedUp: true, terminate: true },
        },
        legs: [{ deviceId: '19141', state: 'RINGING_INCOMING', capabilities: { answer: true } }],
        participants: [
          {
            participantId: '19140',
            identity: {
              id: { loginName: 'oxe19140', phoneNumber: '19140' },
              firstName: 'Paul',
              lastName: 'Durand',
              type: { main: 'USER' },
              // Not in the capture: the specification's PartyInfo.vcardPath (since 2.2), which we add
              // for directory users (docs/vcard.md); no SDK reads it.
              vcardPath: 'oxe19140.vcf',
            },
          },
        ],
        deviceCapabilities: [
          { deviceId: '19141', makeCall: true, makeBusinessCall: true, unParkCall: true },
        ],
      },
    ])

    const answered = execute(
      state,
      { type: 'answer', loginName: 'oxe19141', callRef, deviceId: '19141' },
      2000,
      context,
    )
    state = answered.state
    expect(callee(answered.events)).toEqual([
      {
        eventName: 'OnCallModified',
        loginName: 'oxe19141',
        callRef,
        callData: {
          initialCalled: { id: { phoneNumber: '19141' } },
          state: 'ACTIVE',
          tags: [],
          capabilities: { terminate: true },
        },
        modifiedLegs: [
          { deviceId: '19141', state: 'ACTIVE', capabilities: { drop: true, hold: true } },
        ],
        addedLegs: [],
        removedLegs: [],
        removedLeg: [],
        modifiedParticipants: [],
        addedParticipants: [],
        removedParticipantIds: [],
        removedParticipants: [],
        deviceCapabilities: [],
      },
      { eventName: 'OnUserStateModified', loginName: 'oxe19141', state: 'BUSY' },
    ])

    const released = execute(
      state,
      { type: 'release', loginName: 'oxe19140', callRef },
      3000,
      context,
    )
    expect(callee(released.events)).toEqual([
      {
        eventName: 'OnCallModified',
        loginName: 'oxe19141',
        callRef,
        callData: {
          initialCalled: { id: { phoneNumber: '19141' } },
          state: 'RELEASING',
          tags: [],
          capabilities: {},
        },
        modifiedLegs: [{ deviceId: '19141', state: 'RELEASING', capabilities: { drop: true } }],
        addedLegs: [],
        removedLegs: [],
        removedLeg: [],
        modifiedParticipants: [],
        addedParticipants: [],
        removedParticipantIds: ['19140'],
        // The Node SDK's spelling of the same list (OnCallModifiedJson), beside the captured one.
        removedParticipants: ['19140'],
        deviceCapabilities: [],
      },
      { eventName: 'OnCallRemoved', loginName: 'oxe19141', callRef, deviceCapabilities: [] },
      { eventName: 'OnUserStateModified', loginName: 'oxe19141', state: 'FREE' },
    ])
    expect(allCalls(released.state)).toEqual([])
    expect(released.state.timers).toEqual([])
  })
})
