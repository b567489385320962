/**
 * The interphony key (operations/interphony.ts; docs/call-model.md, "Call features"): in a call it turns the
 * device's microphone off and on (`muted`, told as any change of it), on an idle device it turns interphony
 * (the device's automatic answer) on and off, silently, and while the device only rings it does nothing.
 */
import { describe, expect, it } from 'vitest'
import { ALICE_SOFTPHONE, connections, FeatureWorld, namesOf } from './support.js'

const toggle = (loginName: string, deviceId: string) =>
  ({ type: 'toggleInterphony', loginName, deviceId }) as const

/** The OnDeviceStateModified alice receives with desk phone 1001 `muted` (her softphone never is). */
const aliceDevices = (muted: boolean) => ({
  eventName: 'OnDeviceStateModified',
  loginName: 'alice',
  deviceStates: [
    { deviceId: '1001', state: 'IN_SERVICE', mutable: true, muted },
    { deviceId: ALICE_SOFTPHONE, state: 'IN_SERVICE', mutable: true, muted: false },
  ],
})

describe('the interphony key', () => {
  it('in an answered call turns the microphone off, then on: muted, told with OnDeviceStateModified', () => {
    const world = new FeatureWorld()
    world.call('alice', '1002', 'bob')
    const off = world.run(toggle('alice', '1001'))
    expect(off.events).toEqual([aliceDevices(true)])
    expect(off.state.devices['1001']).toMatchObject({ muted: true })
    expect(off.state.devices['1001']?.autoAnswer).toBeUndefined()
    const on = world.run(toggle('alice', '1001'))
    expect(on.events).toEqual([aliceDevices(false)])
    expect(on.state.devices['1001']).toMatchObject({ muted: false })
  })

  it('does the same while the device calls out, and while its call is held', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002')
    expect(connections(world.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1002:RINGING_INCOMING',
    ])
    expect(world.run(toggle('alice', '1001')).events).toEqual([aliceDevices(true)])
    world.run({ type: 'answer', loginName: 'bob', callRef })
    world.run({ type: 'hold', loginName: 'alice', callRef })
    expect(world.run(toggle('alice', '1001')).events).toEqual([aliceDevices(false)])
  })

  it('on an idle device turns interphony on, then off: the device answers by itself, no event', () => {
    const world = new FeatureWorld()
    const on = world.run(toggle('bob', '1002'))
    expect(on.events).toEqual([])
    expect(on.state.devices['1002']).toMatchObject({ autoAnswer: true, muted: false })
    // A call to bob is answered by his device a second later (the engine's autoAnswerDelayMs).
    const callRef = world.call('alice', '1002')
    expect(namesOf(world.advance(1_000), 'bob')).toEqual(['OnCallModified', 'OnUserStateModified'])
    expect(connections(world.state, callRef)).toEqual(['1001:ACTIVE', '1002:ACTIVE'])
    world.run({ type: 'release', loginName: 'alice', callRef })
    const off = world.run(toggle('bob', '1002'))
    expect(off.events).toEqual([])
    expect(off.state.devices['1002']).toMatchObject({ autoAnswer: false, muted: false })
  })

  it('does nothing while the device only rings', () => {
    const world = new FeatureWorld()
    world.call('alice', '1002')
    const before = world.state.devices['1002']
    const pressed = world.run(toggle('bob', '1002'))
    expect(pressed.events).toEqual([])
    expect(pressed.state.devices['1002']).toBe(before)
  })

  it('leaves the microphone off after the call, as mute does, until pressed in a call again', () => {
    const world = new FeatureWorld()
    const callRef = world.call('alice', '1002', 'bob')
    world.run(toggle('alice', '1001'))
    world.run({ type: 'release', loginName: 'bob', callRef })
    const idle = world.run(toggle('alice', '1001'))
    expect(idle.events).toEqual([])
    expect(idle.state.devices['1001']).toMatchObject({ muted: true, autoAnswer: true })
  })

  it('is refused, changing nothing, on an unknown device, another user’s, out of service, not mutable', () => {
    const world = new FeatureWorld()
    world.refuses(toggle('alice', '7777'), 'NOT_FOUND')
    world.refuses(toggle('alice', '1002'), 'NOT_ALLOWED')
    world.run({ type: 'setDevice', deviceId: ALICE_SOFTPHONE, state: 'OUT_OF_SERVICE' })
    world.refuses(toggle('alice', ALICE_SOFTPHONE), 'NOT_EXPECTED')
    world.call('alice', '1002', 'bob')
    const device = world.state.devices['1001']
    if (device === undefined) throw new Error('no device 1001')
    world.state = {
      ...world.state,
      devices: { ...world.state.devices, '1001': { ...device, mutable: false } },
    }
    world.refuses(toggle('alice', '1001'), 'NOT_EXPECTED')
  })
})
