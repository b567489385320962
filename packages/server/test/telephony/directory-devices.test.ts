/**
 * The engine's devices follow the directory (docs/call-model.md, "Devices follow the directory"): the
 * `userDevices` command adds the devices a user was given, releases a removed device from its calls and
 * forgets it, moves a device to its new user, and does nothing when the engine has the devices already.
 */
import { describe, expect, it } from 'vitest'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { callOf } from '../../src/platform/telephony/telephony-state.js'
import { connections, seen, World } from './support.js'

describe('userDevices', () => {
  it('adds a device new to the engine, in service, at the end', () => {
    const w = new World()
    const { events } = w.run({ type: 'userDevices', loginName: 'bob', deviceIds: ['1002', '1012'] })

    expect(events).toEqual([])
    expect(w.state.devices['1012']).toEqual({
      deviceId: '1012',
      loginName: 'bob',
      state: 'IN_SERVICE',
      mutable: true,
      muted: false,
    })
    expect(Object.keys(w.state.devices).at(-1)).toBe('1012')
  })

  it('changes nothing when the engine has the devices already', () => {
    const w = new World()
    const before = w.state
    const result = w.run({ type: 'userDevices', loginName: 'bob', deviceIds: ['1002'] })

    expect(result.events).toEqual([])
    expect(result.state.devices).toBe(before.devices)
    expect(result.changes).toEqual({ changedCallRefs: [], removedCallRefs: [] })
  })

  it('releases a removed device that rings: the call ends for both sides, and the device is forgotten', () => {
    const w = new World()
    const callRef = w.call('alice', '1002')
    const { events, changes } = w.run({ type: 'userDevices', loginName: 'bob', deviceIds: [] })

    expect(w.state.devices['1002']).toBeUndefined()
    expect(callOf(w.state, callRef)).toBeUndefined()
    expect(changes.removedCallRefs).toEqual([callRef])
    expect(seen(events, 'alice').at(-1)).toEqual({ eventName: 'OnCallRemoved', callRef })
    expect(seen(events, 'bob').at(-1)).toEqual({ eventName: 'OnCallRemoved', callRef })
  })

  it('takes a removed device out of a conference, which goes on for the others', () => {
    const w = new World()
    const held = w.call('alice', '1002', 'bob')
    const consult = w.call('alice', '1003', 'carol')
    w.run({ type: 'merge', loginName: 'alice', callRef: consult, heldCallRef: held })
    const [conference] = allCalls(w.state)
    const callRef = conference?.callRef ?? ''
    const { events } = w.run({ type: 'userDevices', loginName: 'carol', deviceIds: [] })

    expect(connections(w.state, callRef)).toEqual(['1001:ACTIVE', '1002:ACTIVE'])
    expect(seen(events, 'carol')).toEqual([
      { eventName: 'OnCallRemoved', callRef, cause: 'PARTICIPANT_LEFT' },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(seen(events, 'alice')).toEqual([
      expect.objectContaining({ eventName: 'OnCallModified', callRef, removed: ['1003'] }),
    ])
  })

  it('moves a device to another user: released from its previous user’s calls first', () => {
    const w = new World()
    const callRef = w.call('alice', '1002', 'bob')
    w.run({ type: 'userDevices', loginName: 'carol', deviceIds: ['1003', '1002'] })

    expect(callOf(w.state, callRef)).toBeUndefined()
    expect(w.state.devices['1002']?.loginName).toBe('carol')
    // bob's command, planned before the move, finds no device of his to remove, and leaves carol's.
    w.run({ type: 'userDevices', loginName: 'bob', deviceIds: [] })
    expect(w.state.devices['1002']?.loginName).toBe('carol')
  })

  it('leaves the other devices and their calls as they were', () => {
    const w = new World()
    const callRef = w.call('alice', '1003', 'carol')
    w.run({ type: 'userDevices', loginName: 'bob', deviceIds: [] })

    expect(connections(w.state, callRef)).toEqual(['1001:ACTIVE', '1003:ACTIVE'])
    expect(Object.keys(w.state.devices)).toEqual(['1001', '1003', '1004'])
  })
})
