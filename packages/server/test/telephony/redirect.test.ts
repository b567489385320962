/** Redirect (to a number, to VOICEMAIL, to DVA), overflow to voice mail, and pickup: event sequences and states. */
import { describe, expect, it } from 'vitest'
import { callOf } from '../../src/platform/telephony/telephony-state.js'
import {
  connections,
  eventsOf,
  FeatureWorld,
  namesOf,
  OUTSIDE,
  userParty,
  VOICEMAIL,
} from './support.js'

describe('redirect of a ringing call', () => {
  it('to VOICEMAIL: the callee leaves (REDIRECTED, newDestination), the voice mail answers the caller', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events, state } = world.run({
      type: 'redirect',
      loginName: 'bob',
      callRef,
      redirectTo: 'VOICEMAIL',
    })
    expect(namesOf(events, 'bob')).toEqual(['OnCallRemoved:REDIRECTED'])
    expect(eventsOf(events, 'bob')[0]).toEqual({
      eventName: 'OnCallRemoved',
      loginName: 'bob',
      callRef,
      cause: 'REDIRECTED',
      newDestination: VOICEMAIL,
      deviceCapabilities: [],
    })
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallModified:REDIRECTED',
      'OnCallModified',
      'OnUserStateModified',
    ])
    const [redirected, answered] = eventsOf(events, 'alice')
    expect(redirected).toMatchObject({
      removedParticipantIds: ['1002'],
      addedParticipants: [
        {
          participantId: VOICEMAIL,
          identity: { id: { phoneNumber: VOICEMAIL }, type: { main: 'SERVICE' } },
        },
      ],
      callData: { state: 'RINGING_OUTGOING', lastRedirecting: userParty('1002') },
    })
    expect(answered).toMatchObject({
      callData: { state: 'ACTIVE', lastRedirecting: userParty('1002') },
      modifiedLegs: [{ deviceId: '1001', state: 'ACTIVE' }],
      modifiedParticipants: [],
    })
    expect(connections(state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
    expect(state.timers).toEqual([])
  })

  it('to DVA: the same as VOICEMAIL (direct access to the callee voice mail)', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events, state } = world.run({
      type: 'redirect',
      loginName: 'bob',
      callRef,
      redirectTo: 'DVA',
    })
    expect(eventsOf(events, 'bob')[0]).toMatchObject({
      cause: 'REDIRECTED',
      newDestination: VOICEMAIL,
    })
    expect(connections(state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
  })

  it('to another user: the new callee rings with lastRedirecting; its ringing timeout runs', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events, state } = world.run({
      type: 'redirect',
      loginName: 'bob',
      callRef,
      redirectTo: '1003',
    })
    expect(eventsOf(events, 'bob')).toEqual([
      {
        eventName: 'OnCallRemoved',
        loginName: 'bob',
        callRef,
        cause: 'REDIRECTED',
        newDestination: '1003',
        deviceCapabilities: [],
      },
    ])
    expect(namesOf(events, 'carol')).toEqual(['OnCallCreated:REDIRECTED'])
    expect(eventsOf(events, 'carol')[0]).toMatchObject({
      legs: [{ deviceId: '1003', state: 'RINGING_INCOMING' }],
      participants: [{ participantId: '1001' }],
      callData: {
        state: 'RINGING_INCOMING',
        initialCalled: { id: { phoneNumber: '1002' } },
        lastRedirecting: userParty('1002'),
        capabilities: { redirect: true, redirectToVoiceMail: true },
      },
    })
    expect(namesOf(events, 'alice')).toEqual(['OnCallModified:REDIRECTED'])
    expect(eventsOf(events, 'alice')[0]).toMatchObject({
      removedParticipantIds: ['1002'],
      addedParticipants: [{ participantId: '1003', identity: userParty('1003') }],
    })
    expect(connections(state, callRef)).toEqual(['1001:RINGING_OUTGOING', '1003:RINGING_INCOMING'])
    expect(state.timers.map((timer) => timer.command)).toEqual([
      { type: 'ringingTimeout', callRef, number: '1003' },
    ])
    const answered = world.run({ type: 'answer', loginName: 'carol', callRef })
    expect(namesOf(answered.events, 'carol')).toEqual(['OnCallModified', 'OnUserStateModified'])
    expect(connections(world.state, callRef)).toEqual(['1001:ACTIVE', '1003:ACTIVE'])
  })

  it('to an outside number: the number rings', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events, state } = world.run({
      type: 'redirect',
      loginName: 'bob',
      callRef,
      redirectTo: OUTSIDE,
    })
    expect(eventsOf(events, 'bob')[0]).toMatchObject({ newDestination: OUTSIDE.slice(1) })
    expect(connections(state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '612345678:RINGING_INCOMING',
    ])
  })

  it('is refused when the call is unknown, not ringing, the destination unknown, or there is no voice mail', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    world.refuses(
      { type: 'redirect', loginName: 'bob', callRef: 'nope', redirectTo: '1003' },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'redirect', loginName: 'carol', callRef, redirectTo: '1003' },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'redirect', loginName: 'alice', callRef, redirectTo: '1003' },
      'NOT_EXPECTED',
    )
    world.refuses({ type: 'redirect', loginName: 'bob', callRef, redirectTo: '9999' }, 'NOT_FOUND')
    world.refuses(
      { type: 'redirect', loginName: 'bob', callRef, redirectTo: '1001' },
      'BAD_PARAMETER',
    )
    world.run({ type: 'answer', loginName: 'bob', callRef })
    world.refuses(
      { type: 'redirect', loginName: 'bob', callRef, redirectTo: '1003' },
      'NOT_EXPECTED',
    )
  })
})

describe('overflow to voice mail', () => {
  it("sends the caller's ringing call to the callee's voice mail (OVERFLOWN)", () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const created = callOf(world.state, callRef)
    expect(created).toBeDefined()
    const { events, state } = world.run({
      type: 'overflowToVoiceMail',
      loginName: 'alice',
      callRef,
    })
    expect(eventsOf(events, 'bob')).toEqual([
      {
        eventName: 'OnCallRemoved',
        loginName: 'bob',
        callRef,
        cause: 'OVERFLOWN',
        newDestination: VOICEMAIL,
        deviceCapabilities: [],
      },
    ])
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallModified:OVERFLOWN',
      'OnCallModified',
      'OnUserStateModified',
    ])
    expect(connections(state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
  })

  it('shows overflowToVoiceMail and callBack to the caller while a user rings', () => {
    const world = new FeatureWorld()
    const { events } = world.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    expect(eventsOf(events, 'alice')[0]).toMatchObject({
      callData: { capabilities: { overflowToVoiceMail: true, callBack: true, terminate: true } },
    })
  })

  it('is refused on an answered call, and on a call to an outside number', () => {
    const world = new FeatureWorld()
    const outside = world.call('alice', OUTSIDE)
    world.refuses(
      { type: 'overflowToVoiceMail', loginName: 'alice', callRef: outside },
      'NOT_EXPECTED',
    )
    const callRef = world.call('carol', '1002', 'bob')
    world.refuses({ type: 'overflowToVoiceMail', loginName: 'carol', callRef }, 'NOT_EXPECTED')
    world.refuses({ type: 'overflowToVoiceMail', loginName: 'carol', callRef: 'nope' }, 'NOT_FOUND')
  })
})

describe('pickup', () => {
  it("connects the picking user's device; the ringing user leaves (PICKED_UP)", () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events, state } = world.run({
      type: 'pickup',
      loginName: 'carol',
      deviceId: '1003',
      otherCallRef: callRef,
      otherPhoneNumber: '1002',
      autoAnswer: true,
    })
    expect(namesOf(events, 'bob')).toEqual(['OnCallRemoved:PICKED_UP'])
    expect(namesOf(events, 'carol')).toEqual(['OnCallCreated:PICKED_UP', 'OnUserStateModified'])
    expect(eventsOf(events, 'carol')[0]).toMatchObject({
      legs: [{ deviceId: '1003', state: 'ACTIVE' }],
      participants: [{ participantId: '1001' }],
      callData: { state: 'ACTIVE' },
    })
    expect(eventsOf(events, 'carol')[1]).toMatchObject({ state: 'BUSY' })
    expect(namesOf(events, 'alice')).toEqual(['OnCallModified:PICKED_UP', 'OnUserStateModified'])
    expect(eventsOf(events, 'alice')[0]).toMatchObject({
      modifiedLegs: [{ deviceId: '1001', state: 'ACTIVE' }],
      removedParticipantIds: ['1002'],
      addedParticipants: [{ participantId: '1003' }],
    })
    expect(connections(state, callRef)).toEqual(['1001:ACTIVE', '1003:ACTIVE'])
    expect(state.timers).toEqual([])
  })

  it('without autoAnswer the picking device rings, and answers', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events, state } = world.run({
      type: 'pickup',
      loginName: 'carol',
      deviceId: '1003',
      otherCallRef: callRef,
      otherPhoneNumber: '1002',
      autoAnswer: false,
    })
    expect(namesOf(events, 'carol')).toEqual(['OnCallCreated:PICKED_UP'])
    expect(connections(state, callRef)).toEqual(['1001:RINGING_OUTGOING', '1003:RINGING_INCOMING'])
    world.run({ type: 'answer', loginName: 'carol', callRef })
    expect(connections(world.state, callRef)).toEqual(['1001:ACTIVE', '1003:ACTIVE'])
  })

  it('is refused for an unknown call or number, a call not ringing, another user device', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const pickup = {
      type: 'pickup' as const,
      loginName: 'carol',
      deviceId: '1003',
      otherCallRef: callRef,
      otherPhoneNumber: '1002',
      autoAnswer: true,
    }
    world.refuses({ ...pickup, otherCallRef: 'nope' }, 'NOT_FOUND')
    world.refuses({ ...pickup, otherPhoneNumber: '1004' }, 'NOT_FOUND')
    world.refuses({ ...pickup, deviceId: '1004' }, 'NOT_ALLOWED')
    world.refuses({ ...pickup, deviceId: '7777' }, 'NOT_FOUND')
    world.refuses({ ...pickup, otherPhoneNumber: '1001' }, 'NOT_EXPECTED')
    world.refuses({ ...pickup, loginName: 'bob', deviceId: '1002' }, 'BAD_PARAMETER')
  })
})

describe('the voice-mail number (issue 11, item 4): dialed like VOICEMAIL', () => {
  it("make call to it: the caller's own voice mail rings, then answers at once", () => {
    const world = new FeatureWorld()
    const { events, state, callRef } = world.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: VOICEMAIL,
      autoAnswer: true,
    })
    const ref = callRef ?? ''
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallCreated',
      'OnCallModified',
      'OnUserStateModified',
    ])
    const [created, answered] = eventsOf(events, 'alice')
    expect(created).toMatchObject({
      callData: { state: 'RINGING_OUTGOING', initialCalled: { id: { phoneNumber: VOICEMAIL } } },
      participants: [
        {
          participantId: VOICEMAIL,
          identity: { id: { phoneNumber: VOICEMAIL }, type: { main: 'SERVICE' } },
        },
      ],
    })
    expect(answered).toMatchObject({
      callData: { state: 'ACTIVE' },
      modifiedLegs: [{ deviceId: '1001', state: 'ACTIVE' }],
    })
    expect(connections(state, ref)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
    expect(state.timers).toEqual([])
  })

  it('make call without autoAnswer: the calling device rings first; answering it reaches the voice mail', () => {
    const world = new FeatureWorld()
    const callRef =
      world.run({
        type: 'makeCall',
        loginName: 'alice',
        deviceId: '1001',
        callee: VOICEMAIL,
        autoAnswer: false,
      }).callRef ?? ''
    expect(connections(world.state, callRef)).toEqual(['1001:RINGING_INCOMING'])
    const { state } = world.run({ type: 'answer', loginName: 'alice', callRef })
    expect(connections(state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
    expect(state.timers).toEqual([])
  })

  it("redirect to it: the same as VOICEMAIL (the redirecting user's voice mail)", () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events, state } = world.run({
      type: 'redirect',
      loginName: 'bob',
      callRef,
      redirectTo: VOICEMAIL,
    })
    expect(namesOf(events, 'bob')).toEqual(['OnCallRemoved:REDIRECTED'])
    expect(eventsOf(events, 'bob')[0]).toMatchObject({ newDestination: VOICEMAIL })
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallModified:REDIRECTED',
      'OnCallModified',
      'OnUserStateModified',
    ])
    expect(connections(state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
  })

  it('blind transfer to it: the other party talks to the voice mail, the user leaves (TRANSFERRED)', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    const { events, state } = world.run({
      type: 'blindTransfer',
      loginName: 'alice',
      callRef,
      transferTo: VOICEMAIL,
    })
    expect(namesOf(events, 'alice')).toEqual(['OnCallRemoved:TRANSFERRED', 'OnUserStateModified'])
    expect(eventsOf(events, 'alice')[0]).toMatchObject({ newDestination: VOICEMAIL })
    // bob's view does not change when the voice mail answers: his leg was ACTIVE already.
    expect(namesOf(events, 'bob')).toEqual(['OnCallModified:TRANSFERRED'])
    expect(eventsOf(events, 'bob')[0]).toMatchObject({
      removedParticipantIds: ['1001'],
      addedParticipants: [{ participantId: VOICEMAIL }],
    })
    expect(connections(state, callRef)).toEqual(['1002:ACTIVE', `${VOICEMAIL}:ACTIVE`])
    expect(state.timers).toEqual([])
  })

  it('blind transfer of an outside party to it: the voice mail answers, the call goes on with no user', () => {
    const world = new FeatureWorld()
    const callRef = world.run({ type: 'incomingCall', from: OUTSIDE, to: '1001' }).callRef ?? ''
    world.run({ type: 'answer', loginName: 'alice', callRef })
    const { events, state } = world.run({
      type: 'blindTransfer',
      loginName: 'alice',
      callRef,
      transferTo: VOICEMAIL,
    })
    expect(namesOf(events, 'alice')).toEqual(['OnCallRemoved:TRANSFERRED', 'OnUserStateModified'])
    expect(events.filter((event) => event.loginName !== 'alice')).toEqual([])
    expect(connections(state, callRef)).toEqual([`${OUTSIDE}:ACTIVE`, `${VOICEMAIL}:ACTIVE`])
  })
})
