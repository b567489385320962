/** Call back requests: on a ringing call, from an idle device; the callee's list, deleting one or all. */
import { describe, expect, it } from 'vitest'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { incomingCallbacks } from '../../src/platform/telephony/operations/callbacks.js'
import { connections, eventsOf, FeatureWorld, namesOf, OUTSIDE, userParty } from './support.js'

describe('callback request on a ringing call', () => {
  it('releases the call (CALL_BACK) and stores a callback for the callee, who is told', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    const { events, state } = world.run({ type: 'callbackRequest', loginName: 'alice', callRef })
    expect(namesOf(events, 'alice')).toEqual(['OnCallRemoved:CALL_BACK'])
    expect(namesOf(events, 'bob')).toEqual([
      'OnCallModified:CALL_BACK',
      'OnCallRemoved:CALL_BACK',
      'OnCallbackRequestAdded',
    ])
    const callbackId = state.callbacks?.['bob']?.[0]?.callbackId
    expect(callbackId).toMatch(/^[0-9a-f]{16}$/)
    expect(eventsOf(events, 'bob')[2]).toEqual({
      eventName: 'OnCallbackRequestAdded',
      loginName: 'bob',
      callback: { callbackId, partyInfo: userParty('1001') },
    })
    expect(allCalls(state)).toEqual([])
    expect(state.timers).toEqual([])
    expect(incomingCallbacks(state, 'bob')).toEqual([{ callbackId, partyInfo: userParty('1001') }])
    expect(incomingCallbacks(state, 'alice')).toEqual([])
  })

  it('a second request from the same caller is not stored twice', () => {
    const world = new FeatureWorld()
    world.run({ type: 'callbackRequest', loginName: 'alice', callRef: world.call('alice', '1002') })
    const again = world.run({
      type: 'callbackRequest',
      loginName: 'alice',
      callRef: world.call('alice', '1002'),
    })
    expect(namesOf(again.events, 'bob')).toEqual([
      'OnCallModified:CALL_BACK',
      'OnCallRemoved:CALL_BACK',
    ])
    expect(incomingCallbacks(world.state, 'bob')).toHaveLength(1)
  })

  it('is refused on an answered call, a call to an outside number, without the feature', () => {
    const world = new FeatureWorld()
    const outside = world.call('alice', OUTSIDE)
    world.refuses({ type: 'callbackRequest', loginName: 'alice', callRef: outside }, 'NOT_EXPECTED')
    const answered = world.call('carol', '1002', 'bob')
    world.refuses(
      { type: 'callbackRequest', loginName: 'carol', callRef: answered },
      'NOT_EXPECTED',
    )
    world.refuses({ type: 'callbackRequest', loginName: 'carol', callRef: 'nope' }, 'NOT_FOUND')
    const daves = world.call('dave', '1001')
    world.refuses({ type: 'callbackRequest', loginName: 'dave', callRef: daves }, 'NOT_ALLOWED')
    expect(connections(world.state, daves)).toEqual([
      '1004:RINGING_OUTGOING',
      '1001:RINGING_INCOMING',
    ])
  })
})

describe('outgoing callback and the incoming callbacks list', () => {
  it('asks a callee to call back from an idle device', () => {
    const world = new FeatureWorld()
    const { events, state } = world.run({
      type: 'outgoingCallback',
      loginName: 'carol',
      callee: 'bob',
    })
    expect(events).toEqual([
      {
        eventName: 'OnCallbackRequestAdded',
        loginName: 'bob',
        callback: { callbackId: expect.any(String), partyInfo: userParty('1003') },
      },
    ])
    expect(incomingCallbacks(state, 'bob').map((callback) => callback.partyInfo)).toEqual([
      userParty('1003'),
    ])
  })

  it('uses an idle device of the requester, and is refused when none is idle', () => {
    const world = new FeatureWorld()
    world.call('alice', '1002', 'bob')
    world.run({ type: 'outgoingCallback', loginName: 'alice', callee: 'carol' })
    expect(incomingCallbacks(world.state, 'carol')[0]?.partyInfo.id.phoneNumber).toBe('1011')
    world.refuses({ type: 'outgoingCallback', loginName: 'bob', callee: 'carol' }, 'NOT_EXPECTED')
    world.refuses({ type: 'outgoingCallback', loginName: 'carol', callee: '9999' }, 'NOT_FOUND')
    world.refuses(
      { type: 'outgoingCallback', loginName: 'carol', callee: OUTSIDE },
      'BAD_PARAMETER',
    )
    world.refuses({ type: 'outgoingCallback', loginName: 'carol', callee: '1003' }, 'BAD_PARAMETER')
    world.refuses({ type: 'outgoingCallback', loginName: 'dave', callee: 'carol' }, 'NOT_ALLOWED')
  })

  it('deletes one callback, then all; an unknown callbackId is NOT_FOUND', () => {
    const world = new FeatureWorld()
    world.run({ type: 'outgoingCallback', loginName: 'alice', callee: 'dave' })
    world.run({ type: 'outgoingCallback', loginName: 'carol', callee: 'dave' })
    world.run({ type: 'outgoingCallback', loginName: 'bob', callee: 'dave' })
    const [first, second, third] = incomingCallbacks(world.state, 'dave')
    expect([first, second, third].map((callback) => callback?.partyInfo.id.loginName)).toEqual([
      'alice',
      'carol',
      'bob',
    ])
    const deleted = world.run({
      type: 'deleteCallback',
      loginName: 'dave',
      callbackId: second?.callbackId ?? '',
    })
    expect(deleted.events).toEqual([])
    expect(incomingCallbacks(world.state, 'dave')).toEqual([first, third])
    world.refuses(
      { type: 'deleteCallback', loginName: 'dave', callbackId: second?.callbackId ?? '' },
      'NOT_FOUND',
    )
    world.refuses(
      { type: 'deleteCallback', loginName: 'alice', callbackId: first?.callbackId ?? '' },
      'NOT_FOUND',
    )
    expect(world.run({ type: 'deleteCallbacks', loginName: 'dave' }).events).toEqual([])
    expect(incomingCallbacks(world.state, 'dave')).toEqual([])
    expect(world.state.callbacks).toEqual({})
    world.run({ type: 'deleteCallbacks', loginName: 'dave' })
  })
})
