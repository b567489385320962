/** The variants some SDKs get: rewritten once per event for all the channels of a dialect. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PlatformEvent } from '../platform/events.js'
import { SerializedEvent } from './event-router.js'
import {
  deviceStatesAsList,
  EVENT_VARIANTS,
  logonForDotnet,
  skillsAsObject,
} from './event-variants.js'

afterEach(() => {
  vi.restoreAllMocks()
})

const DEVICE_STATES = [{ deviceId: '1001', state: 'IN_SERVICE', mutable: true, muted: false }]
const SNAPSHOT: PlatformEvent = {
  eventName: 'OnTelephonyState',
  loginName: 'alice',
  state: {
    calls: [],
    deviceCapabilities: [{ deviceId: '1001', makeCall: true }],
    userState: 'FREE',
    deviceStates: { deviceStates: DEVICE_STATES },
  },
}

describe('deviceStatesAsList (Java SDK)', () => {
  it('puts the list of device states in place of the nested object, and keeps the rest', () => {
    expect(deviceStatesAsList(SNAPSHOT)).toEqual({
      eventName: 'OnTelephonyState',
      loginName: 'alice',
      state: {
        calls: [],
        deviceCapabilities: [{ deviceId: '1001', makeCall: true }],
        userState: 'FREE',
        deviceStates: DEVICE_STATES,
      },
    })
    expect(SNAPSHOT['state']).toMatchObject({ deviceStates: { deviceStates: DEVICE_STATES } })
  })

  it('leaves a state without device states as it is', () => {
    const bare = { eventName: 'OnTelephonyState', loginName: 'alice', state: { userState: 'FREE' } }
    expect(deviceStatesAsList(bare)).toBe(bare)
  })

  it('is the Java variant of OnTelephonyState, beside the one of OnAgentSkillChanged', () => {
    expect(EVENT_VARIANTS.java?.get('OnTelephonyState')).toBe(deviceStatesAsList)
    expect([...(EVENT_VARIANTS.java?.keys() ?? [])]).toEqual([
      'OnTelephonyState',
      'OnAgentSkillChanged',
    ])
  })
})

describe('logonForDotnet (C# SDK)', () => {
  const CHANGED: PlatformEvent = {
    eventName: 'OnDynamicStateChanged',
    loginName: 'bob',
    huntingGroupState: { logon: true },
  }

  it('adds `Logon`, the spelling the C# SDK reads, beside `logon`', () => {
    expect(logonForDotnet(CHANGED)).toEqual({
      eventName: 'OnDynamicStateChanged',
      loginName: 'bob',
      huntingGroupState: { logon: true, Logon: true },
    })
    expect(CHANGED['huntingGroupState']).toEqual({ logon: true })
  })

  it('is the C# variant of OnDynamicStateChanged only', () => {
    expect([...(EVENT_VARIANTS.dotnet?.keys() ?? [])]).toEqual(['OnDynamicStateChanged'])
  })
})

describe('SerializedEvent.rewritten', () => {
  it('serializes the variant once, whatever the number of channels asking for it', () => {
    const shared = new SerializedEvent(JSON.stringify(SNAPSHOT), SNAPSHOT)
    const stringify = vi.spyOn(JSON, 'stringify')
    const first = shared.rewritten(deviceStatesAsList)
    const second = shared.rewritten(deviceStatesAsList)
    expect(stringify).toHaveBeenCalledTimes(1)
    expect(second).toBe(first)
    expect(JSON.parse(first.json)).toEqual(deviceStatesAsList(SNAPSHOT))
    expect(shared.json).toBe(JSON.stringify(SNAPSHOT))
  })

  it('is the event itself when the rewrite changes nothing or the source is unknown', () => {
    const bare = { eventName: 'OnTelephonyState', loginName: 'alice', state: {} }
    const shared = new SerializedEvent(JSON.stringify(bare), bare)
    expect(shared.rewritten(deviceStatesAsList)).toBe(shared)
    const textOnly = new SerializedEvent('{"eventName":"OnTelephonyState"}')
    expect(textOnly.rewritten(deviceStatesAsList)).toBe(textOnly)
  })
})

describe('skillsAsObject (Java SDK)', () => {
  const changed = {
    eventName: 'OnAgentSkillChanged',
    loginName: 'bob',
    skills: [{ number: 1, level: 3, active: false }],
  }

  it('wraps the skill list as the object the Java SDK reads, for the java dialect only', () => {
    expect(skillsAsObject(changed)).toEqual({
      ...changed,
      skills: { skills: [{ number: 1, level: 3, active: false }] },
    })
    expect(EVENT_VARIANTS.java?.get('OnAgentSkillChanged')).toBe(skillsAsObject)
    expect(EVENT_VARIANTS.dotnet?.get('OnAgentSkillChanged')).toBeUndefined()
  })

  it('leaves an event already wrapped as it is', () => {
    const wrapped = { ...changed, skills: { skills: [] } }
    expect(skillsAsObject(wrapped)).toBe(wrapped)
  })
})
