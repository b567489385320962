/**
 * Incoming calls from outside and simulated devices (docs/call-model.md, "Outside parties, incoming calls
 * and simulated devices"): a public number mapped to an extension rings it, with the outside party as an
 * EXTERNAL participant; the device answers (by command or by itself) and the call is released from either
 * side; devices hang up, go out of service.
 */
import { describe, expect, it } from 'vitest'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import type { TelephonyDirectory } from '../../src/platform/telephony/telephony-directory.js'
import { callOf } from '../../src/platform/telephony/telephony-state.js'
import { connections, FeatureWorld, featureDirectory, namesOf, seen } from './support.js'

/** Public numbers are this prefix followed by an extension. */
const PUBLIC_PREFIX = '+3315566'
const CALLER = '+33612345678'

const incomingDirectory: TelephonyDirectory = {
  ...featureDirectory,
  resolveIncoming: (dialed) => {
    const extension = dialed.startsWith(PUBLIC_PREFIX) ? dialed.slice(PUBLIC_PREFIX.length) : dialed
    const person = featureDirectory.ownerOfDevice(extension)
    return person && { number: extension, deviceId: extension, loginName: person.loginName }
  },
}

const world = (autoAnswerDelayMs?: number) =>
  new FeatureWorld(autoAnswerDelayMs === undefined ? {} : { autoAnswerDelayMs }, incomingDirectory)

function incoming(w: FeatureWorld, to = `${PUBLIC_PREFIX}1001`, from = CALLER) {
  const result = w.run({ type: 'incomingCall', from, to })
  return { callRef: result.callRef ?? '', events: result.events }
}

describe('an incoming call to a public number', () => {
  it('rings the mapped extension with the outside party as an EXTERNAL participant', () => {
    const w = world()
    const { callRef, events } = incoming(w)

    expect(events).toEqual([
      {
        eventName: 'OnCallCreated',
        loginName: 'alice',
        callRef,
        callData: {
          initialCalled: { id: { phoneNumber: `${PUBLIC_PREFIX}1001` } },
          state: 'RINGING_INCOMING',
          tags: [],
          capabilities: {
            redirect: true,
            pickedUp: true,
            terminate: true,
            redirectToVoiceMail: true,
          },
        },
        legs: [{ deviceId: '1001', state: 'RINGING_INCOMING', capabilities: { answer: true } }],
        participants: [
          {
            participantId: CALLER,
            identity: { id: { phoneNumber: CALLER }, type: { main: 'EXTERNAL' } },
          },
        ],
        deviceCapabilities: expect.any(Array),
      },
    ])
    expect(connections(w.state, callRef)).toEqual([
      `${CALLER}:RINGING_OUTGOING`,
      '1001:RINGING_INCOMING',
    ])
  })

  it('is answered by the user, then released by the outside caller', () => {
    const w = world()
    const { callRef } = incoming(w)
    const answered = w.run({ type: 'answer', loginName: 'alice', callRef })
    expect(seen(answered.events, 'alice')).toEqual([
      { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
      { eventName: 'OnUserStateModified', state: 'BUSY' },
    ])
    expect(connections(w.state, callRef)).toEqual([`${CALLER}:ACTIVE`, '1001:ACTIVE'])

    const hungUp = w.run({ type: 'outsidePartyHangsUp', number: CALLER })
    expect(seen(hungUp.events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: [CALLER],
      },
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(allCalls(w.state)).toEqual([])
    expect(w.state.timers).toEqual([])
  })

  it('is released by the user once answered', () => {
    const w = world()
    const { callRef } = incoming(w)
    w.run({ type: 'answer', loginName: 'alice', callRef })
    expect(namesOf(w.run({ type: 'dropMe', loginName: 'alice', callRef }).events, 'alice')).toEqual(
      ['OnCallRemoved', 'OnUserStateModified'],
    )
    expect(allCalls(w.state)).toEqual([])
  })

  it('ends NOT_ANSWERED when nobody answers, and when the caller gives up while it rings', () => {
    const w = world()
    incoming(w)
    // The unanswered device leaves the call: alice only sees it go (nobody on the platform sees RELEASING).
    expect(namesOf(w.advance(30_000), 'alice')).toEqual(['OnCallRemoved:NOT_ANSWERED'])
    expect(allCalls(w.state)).toEqual([])
    const { callRef } = incoming(w)
    const gaveUp = w.run({ type: 'outsidePartyHangsUp', number: CALLER })
    expect(seen(gaveUp.events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: [CALLER],
      },
      { eventName: 'OnCallRemoved', callRef },
    ])
    expect(w.state.timers).toEqual([])
  })

  it('also reaches an extension dialed directly', () => {
    const w = world()
    const { callRef } = incoming(w, '1002')
    expect(connections(w.state, callRef)).toEqual([
      `${CALLER}:RINGING_OUTGOING`,
      '1002:RINGING_INCOMING',
    ])
  })

  it('refuses a caller that is not a phone number or is a device, and a number that reaches nobody', () => {
    const w = world()
    w.refuses({ type: 'incomingCall', from: 'bob', to: '1001' }, 'BAD_PARAMETER')
    w.refuses({ type: 'incomingCall', from: '1002', to: '1001' }, 'BAD_PARAMETER')
    w.refuses({ type: 'incomingCall', from: CALLER, to: `${PUBLIC_PREFIX}9999` }, 'NOT_FOUND')
    w.refuses({ type: 'incomingCall', from: CALLER, to: 'alice' }, 'NOT_FOUND')
  })
})

describe('simulated devices', () => {
  it('answers by itself after a short delay with autoAnswer', () => {
    const w = world(500)
    w.run({ type: 'setDevice', deviceId: '1001', autoAnswer: true })
    const { callRef } = incoming(w)
    expect(w.advance(499)).toEqual([])
    expect(namesOf(w.advance(1), 'alice')).toEqual(['OnCallModified', 'OnUserStateModified'])
    expect(connections(w.state, callRef)).toEqual([`${CALLER}:ACTIVE`, '1001:ACTIVE'])
    expect(w.state.timers).toEqual([])
  })

  it('with autoAnswer, also answers the ringing of its own make call without autoAnswer', () => {
    const w = world()
    w.run({ type: 'setDevice', deviceId: '1001', autoAnswer: true })
    const callRef =
      w.run({
        type: 'makeCall',
        loginName: 'alice',
        deviceId: '1001',
        callee: '1002',
        autoAnswer: false,
      }).callRef ?? ''
    w.advance(1_000)
    expect(connections(w.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1002:RINGING_INCOMING',
    ])
  })

  it('answers what rings on it when told, and hangs up when told', () => {
    const w = world()
    const { callRef } = incoming(w)
    w.run({ type: 'deviceAnswers', deviceId: '1001' })
    expect(connections(w.state, callRef)).toEqual([`${CALLER}:ACTIVE`, '1001:ACTIVE'])
    w.refuses({ type: 'deviceAnswers', deviceId: '1001' }, 'NOT_EXPECTED')
    const hungUp = w.run({ type: 'deviceHangsUp', deviceId: '1001' })
    expect(namesOf(hungUp.events, 'alice')).toEqual(['OnCallRemoved', 'OnUserStateModified'])
    expect(allCalls(w.state)).toEqual([])
    w.refuses({ type: 'deviceHangsUp', deviceId: '1001' }, 'NOT_EXPECTED')
    w.refuses({ type: 'deviceAnswers', deviceId: '9999' }, 'NOT_FOUND')
  })

  it('leaves its calls when put out of service, and cannot be called from outside then', () => {
    const w = world()
    const callRef = w.call('bob', '1001', 'alice')
    const out = w.run({ type: 'setDevice', deviceId: '1001', state: 'OUT_OF_SERVICE' })
    expect(namesOf(out.events, 'alice')).toEqual([
      'OnDeviceStateModified',
      'OnCallRemoved',
      'OnUserStateModified',
    ])
    expect(out.events[0]).toEqual({
      eventName: 'OnDeviceStateModified',
      loginName: 'alice',
      deviceStates: [
        { deviceId: '1001', state: 'OUT_OF_SERVICE', mutable: true, muted: false },
        { deviceId: '1011', state: 'IN_SERVICE', mutable: true, muted: false },
      ],
    })
    expect(namesOf(out.events, 'bob')).toEqual([
      'OnCallModified',
      'OnCallRemoved',
      'OnUserStateModified',
    ])
    expect(callOf(w.state, callRef)).toBeUndefined()
    expect(w.state.devices['1001']?.state).toBe('OUT_OF_SERVICE')
    w.refuses({ type: 'incomingCall', from: CALLER, to: '1001' }, 'NOT_EXPECTED')
    w.refuses({ type: 'setDevice', deviceId: '1001', state: 'UNKNOWN' }, 'BAD_PARAMETER')
    w.run({ type: 'setDevice', deviceId: '1001', state: 'IN_SERVICE' })
    incoming(w, '1001')
  })
})
