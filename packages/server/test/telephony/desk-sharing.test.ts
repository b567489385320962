/**
 * Desk sharing in the call engine (docs/call-model.md, "Desk sharing"): erin (1005) and frank (1006) are
 * desk-sharing users, whose numbers start out of service; 1900 and 1901 are desk-sharing sets. Each row: a
 * command, the events each user receives, the state after; every refusal leaves the state as it was.
 */
import { describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import type { RoutingProfile } from '../../src/platform/routing/routing-profile.js'
import { portableState, restoredState } from '../../src/platform/telephony/restored-state.js'
import type { TelephonyDirectory } from '../../src/platform/telephony/telephony-directory.js'
import {
  connections,
  FeatureWorld,
  featureDirectory,
  namesOf,
  OUTSIDE,
  VOICEMAIL,
} from './support.js'

export const DESK_USERS: Record<
  string,
  { loginName: string; firstName: string; lastName: string }
> = {
  '1005': { loginName: 'erin', firstName: 'Erin', lastName: 'Etienne' },
  '1006': { loginName: 'frank', firstName: 'Frank', lastName: 'Fabre' },
}
export const DESK_SETS = ['1900', '1901']

/** The feature directory with the two desk-sharing users (erin has a voice mail, frank none) and the sets. */
export const deskDirectory: TelephonyDirectory = {
  ...featureDirectory,
  ownerOfDevice: (deviceId) => DESK_USERS[deviceId] ?? featureDirectory.ownerOfDevice(deviceId),
  resolve: (dialed) => {
    const entry = Object.entries(DESK_USERS).find(
      ([deviceId, person]) => deviceId === dialed || person.loginName === dialed,
    )
    return entry
      ? { number: entry[0], deviceId: entry[0], loginName: entry[1].loginName }
      : featureDirectory.resolve(dialed)
  },
  featuresOf: (loginName) =>
    loginName === 'erin'
      ? { voicemail: VOICEMAIL }
      : loginName === 'frank'
        ? {}
        : (featureDirectory.featuresOf?.(loginName) ?? {}),
  isDeskSharingUser: (loginName) => loginName === 'erin' || loginName === 'frank',
  isDeskSharingSet: (number) => DESK_SETS.includes(number),
}

/** A world with the desk-sharing users' numbers out of service, nobody logged on. */
function world(routing: Record<string, RoutingProfile> = {}): FeatureWorld {
  const w = new FeatureWorld({}, deskDirectory, (loginName) => routing[loginName])
  const devices = { ...w.state.devices }
  for (const [deviceId, person] of Object.entries(DESK_USERS))
    devices[deviceId] = {
      deviceId,
      loginName: person.loginName,
      state: 'OUT_OF_SERVICE',
      mutable: true,
      muted: false,
    }
  w.state = { ...w.state, devices }
  return w
}

const USERS = ['alice', 'bob', 'erin', 'frank'] as const

function names(events: readonly PlatformEvent[]): Record<string, string[]> {
  return Object.fromEntries(USERS.map((user) => [user, namesOf(events, user)]))
}

const NOTHING = { alice: [], bob: [], erin: [], frank: [] }

function deviceStates(events: readonly PlatformEvent[], loginName: string): unknown {
  return events.find((event) => event.loginName === loginName)?.['deviceStates']
}

describe('desk sharing: log on and off', () => {
  it('log on at a free set: the number goes in service, the user is told, the set is taken', () => {
    const w = world()
    const result = w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    expect(names(result.events)).toEqual({ ...NOTHING, erin: ['OnDeviceStateModified'] })
    expect(deviceStates(result.events, 'erin')).toEqual([
      { deviceId: '1005', state: 'IN_SERVICE', mutable: true, muted: false },
    ])
    expect(w.state.devices['1005']?.state).toBe('IN_SERVICE')
    expect(w.state.deskSharing).toEqual({ '1900': 'erin' })
  })

  it('log on again at the same set: nothing changes, nobody is told', () => {
    const w = world()
    w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    const before = JSON.stringify(w.state)
    const again = w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    expect(again.events).toEqual([])
    expect(JSON.stringify(w.state)).toBe(before)
  })

  it('log on at another set while idle: the user moves, the number stays in service, nobody is told', () => {
    const w = world()
    w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    const moved = w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1901' })
    expect(moved.events).toEqual([])
    expect(w.state.deskSharing).toEqual({ '1901': 'erin' })
    expect(w.state.devices['1005']?.state).toBe('IN_SERVICE')
  })

  it('log off: the number goes out of service, the user is told, the set is free for another user', () => {
    const w = world()
    w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    const off = w.run({ type: 'deskSharingLogOff', loginName: 'erin' })
    expect(names(off.events)).toEqual({ ...NOTHING, erin: ['OnDeviceStateModified'] })
    expect(deviceStates(off.events, 'erin')).toEqual([
      { deviceId: '1005', state: 'OUT_OF_SERVICE', mutable: true, muted: false },
    ])
    expect(w.state.deskSharing).toBeUndefined()
    w.run({ type: 'deskSharingLogOn', loginName: 'frank', set: '1900' })
    expect(w.state.deskSharing).toEqual({ '1900': 'frank' })
  })

  it('log off when logged on nowhere: nothing changes, nobody is told', () => {
    const w = world()
    const before = JSON.stringify(w.state)
    expect(w.run({ type: 'deskSharingLogOff', loginName: 'erin' }).events).toEqual([])
    expect(JSON.stringify(w.state)).toBe(before)
  })

  it('refusals: not a desk-sharing user, no such set, a set in use, a move or log-off in a call', () => {
    const w = world()
    w.refuses({ type: 'deskSharingLogOn', loginName: 'alice', set: '1900' }, 'NOT_ALLOWED')
    w.refuses({ type: 'deskSharingLogOff', loginName: 'alice' }, 'NOT_ALLOWED')
    w.refuses({ type: 'deskSharingLogOn', loginName: 'erin', set: '1950' }, 'NOT_FOUND')
    // A user's device is no desk-sharing set.
    w.refuses({ type: 'deskSharingLogOn', loginName: 'erin', set: '1002' }, 'NOT_FOUND')
    w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    w.refuses({ type: 'deskSharingLogOn', loginName: 'frank', set: '1900' }, 'NOT_EXPECTED')
    // Ringing, then talking: the number is in a call.
    const callRef = w.call('alice', '1005')
    w.refuses({ type: 'deskSharingLogOff', loginName: 'erin' }, 'NOT_EXPECTED')
    w.refuses({ type: 'deskSharingLogOn', loginName: 'erin', set: '1901' }, 'NOT_EXPECTED')
    w.run({ type: 'answer', loginName: 'erin', callRef })
    w.refuses({ type: 'deskSharingLogOff', loginName: 'erin' }, 'NOT_EXPECTED')
    w.run({ type: 'release', loginName: 'alice', callRef })
    w.run({ type: 'deskSharingLogOff', loginName: 'erin' })
    expect(w.state.devices['1005']?.state).toBe('OUT_OF_SERVICE')
  })

  it('the control plane cannot put the number in or out of service: the log-on does', () => {
    const w = world()
    w.refuses({ type: 'setDevice', deviceId: '1005', state: 'IN_SERVICE' }, 'NOT_EXPECTED')
    w.run({ type: 'setDevice', deviceId: '1005', autoAnswer: true })
    expect(w.state.devices['1005']?.autoAnswer).toBe(true)
    w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    w.refuses({ type: 'setDevice', deviceId: '1005', state: 'OUT_OF_SERVICE' }, 'NOT_EXPECTED')
  })
})

describe('desk sharing: calls to and from the number', () => {
  it('logged on: a call to the number rings the user, on its number', () => {
    const w = world()
    w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    const placed = w.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: 'erin',
      autoAnswer: true,
    })
    expect(names(placed.events)).toEqual({
      ...NOTHING,
      alice: ['OnCallCreated'],
      erin: ['OnCallCreated'],
    })
    const created = placed.events.find((event) => event.loginName === 'erin')
    expect(created?.['legs']).toEqual([
      expect.objectContaining({ deviceId: '1005', state: 'RINGING_INCOMING' }),
    ])
    expect(connections(w.state, placed.callRef ?? '')).toEqual([
      '1001:RINGING_OUTGOING',
      '1005:RINGING_INCOMING',
    ])
  })

  it('logged on: the user calls from its number', () => {
    const w = world()
    w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    const { callRef } = w.run({
      type: 'makeCall',
      loginName: 'erin',
      deviceId: '1005',
      callee: '1001',
      autoAnswer: true,
    })
    expect(connections(w.state, callRef ?? '')).toEqual([
      '1005:RINGING_OUTGOING',
      '1001:RINGING_INCOMING',
    ])
  })

  it('logged off: the user cannot call', () => {
    const w = world()
    w.refuses(
      { type: 'makeCall', loginName: 'erin', deviceId: '1005', callee: '1001', autoAnswer: true },
      'NOT_EXPECTED',
    )
  })

  it('logged off, no routing: the call is placed, then released DESTINATION_NOT_OBTAINABLE', () => {
    const w = world()
    const placed = w.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1005',
      autoAnswer: true,
    })
    expect(names(placed.events)).toEqual({
      ...NOTHING,
      alice: [
        'OnCallCreated',
        'OnCallModified:DESTINATION_NOT_OBTAINABLE',
        'OnCallRemoved:DESTINATION_NOT_OBTAINABLE',
      ],
    })
    expect(w.state.calls.size).toBe(0)
    expect(w.state.timers).toEqual([])
  })

  it("logged off: the user's forward on busy takes the call (to the voice mail)", () => {
    const w = world({
      erin: {
        dnd: false,
        remoteExtension: false,
        forward: { condition: 'BUSY', target: { type: 'VOICEMAIL' } },
      },
    })
    const callRef = w.call('alice', '1005')
    expect(connections(w.state, callRef)).toEqual(['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`])
  })

  it("logged off: the user's immediate forward applies as always", () => {
    const w = world({
      erin: {
        dnd: false,
        remoteExtension: false,
        forward: { condition: 'IMMEDIATE', target: { type: 'NUMBER', number: '1002' } },
      },
    })
    const callRef = w.call('alice', '1005')
    expect(connections(w.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      '1002:RINGING_INCOMING',
    ])
  })

  it('logged off: a redirect or a blind transfer to the number is refused, changing nothing', () => {
    const w = world()
    const ringing = w.call('alice', '1002')
    w.refuses(
      { type: 'redirect', loginName: 'bob', callRef: ringing, redirectTo: '1005' },
      'NOT_EXPECTED',
    )
    w.run({ type: 'answer', loginName: 'bob', callRef: ringing })
    w.refuses(
      { type: 'blindTransfer', loginName: 'bob', callRef: ringing, transferTo: '1005' },
      'NOT_EXPECTED',
    )
  })

  it('logged off: a call from outside reaches nobody and is forgotten; logged on, it rings', () => {
    const w = world()
    const refused = w.run({ type: 'incomingCall', from: OUTSIDE, to: '1005' })
    expect(names(refused.events)).toEqual(NOTHING)
    expect(w.state.calls.size).toBe(0)
    w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1901' })
    const rung = w.run({ type: 'incomingCall', from: OUTSIDE, to: '1005' })
    expect(connections(w.state, rung.callRef ?? '')).toEqual([
      `${OUTSIDE}:RINGING_OUTGOING`,
      '1005:RINGING_INCOMING',
    ])
  })
})

describe('desk sharing: the state kept', () => {
  it('a snapshot keeps who is logged on where, and a restore puts it back', () => {
    const w = world()
    w.run({ type: 'deskSharingLogOn', loginName: 'erin', set: '1900' })
    const snapshot = portableState(w.state)
    expect(snapshot.deskSharing).toEqual({ '1900': 'erin' })
    w.run({ type: 'deskSharingLogOff', loginName: 'erin' })
    const restored = restoredState(w.state, structuredClone(snapshot)).state
    expect(restored.deskSharing).toEqual({ '1900': 'erin' })
    expect(restored.devices['1005']?.state).toBe('IN_SERVICE')
  })

  it('a desk-sharing user the directory no longer has frees its set', () => {
    const w = world()
    w.run({ type: 'deskSharingLogOn', loginName: 'frank', set: '1901' })
    const gone = new FeatureWorld({}, { ...deskDirectory, isDeskSharingUser: (l) => l === 'erin' })
    gone.state = w.state
    gone.run({ type: 'userDevices', loginName: 'frank', deviceIds: ['1006'] })
    expect(gone.state.deskSharing).toBeUndefined()
  })
})
