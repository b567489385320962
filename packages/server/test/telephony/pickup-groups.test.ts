/**
 * Directed pickup within pickup groups (issue 15, finding 4; docs/call-model.md, "Pickup groups"): one table
 * of cases, each asserting the answer (the refusal's type and message), the events and the state.
 */
import { describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { PlatformError } from '../../src/platform/platform-error.js'
import { execute } from '../../src/platform/telephony/call-engine.js'
import type { TelephonyDirectory } from '../../src/platform/telephony/telephony-directory.js'
import type { EngineCommand } from '../../src/platform/telephony/telephony-state.js'
import {
  ALICE_SOFTPHONE,
  connections,
  FEATURES,
  FeatureWorld,
  featureDirectory,
  namesOf,
} from './support.js'

/** The feature directory with these pickup groups (a user not named is in none). */
function withGroups(groups: Record<string, string>): TelephonyDirectory {
  return {
    ...featureDirectory,
    featuresOf: (loginName) => {
      const { pickupGroup: _ignored, ...features } = FEATURES[loginName] ?? {}
      const group = groups[loginName]
      return group === undefined ? features : { ...features, pickupGroup: group }
    },
  }
}

/** What a case expects: the call taken, with each user's events and the call's connections; or a refusal. */
type Outcome =
  | { events: Record<string, string[]>; connections: string[] }
  | { refused: PlatformError['type']; message: string }

interface Case {
  name: string
  groups: Record<string, string>
  /** The call to pick up: alice (1001) calls bob (1002), or bob calls alice; `answered` once answered. */
  call: 'alice calls bob' | 'alice calls bob, answered' | 'bob calls alice'
  pickup: Partial<Extract<EngineCommand, { type: 'pickup' }>>
  outcome: Outcome
}

const OFFICE = { alice: 'office', bob: 'office', carol: 'office' }
const TAKEN_BY_CAROL = {
  events: {
    bob: ['OnCallRemoved:PICKED_UP'],
    carol: ['OnCallCreated:PICKED_UP', 'OnUserStateModified'],
    alice: ['OnCallModified:PICKED_UP', 'OnUserStateModified'],
  },
  connections: ['1001:ACTIVE', '1003:ACTIVE'],
}

const CASES: Case[] = [
  {
    name: 'same group: carol takes the call ringing on bob',
    groups: OFFICE,
    call: 'alice calls bob',
    pickup: {},
    outcome: TAKEN_BY_CAROL,
  },
  {
    name: 'same group, the caller in none: the caller does not matter',
    groups: { bob: 'office', carol: 'office' },
    call: 'alice calls bob',
    pickup: {},
    outcome: TAKEN_BY_CAROL,
  },
  {
    name: 'another group: refused',
    groups: { alice: 'office', bob: 'office', carol: 'warehouse' },
    call: 'alice calls bob',
    pickup: {},
    outcome: {
      refused: 'NOT_ALLOWED',
      message: "otherPhoneNumber: 1002 is not in pickup group 'warehouse' of user 'carol'",
    },
  },
  {
    name: 'the picking user in no group: refused',
    groups: { alice: 'office', bob: 'office' },
    call: 'alice calls bob',
    pickup: {},
    outcome: {
      refused: 'NOT_ALLOWED',
      message: "User 'carol' is in no pickup group: they may pick up their own calls only",
    },
  },
  {
    name: 'the ringing user in no group: refused',
    groups: { alice: 'office', carol: 'office' },
    call: 'alice calls bob',
    pickup: {},
    outcome: {
      refused: 'NOT_ALLOWED',
      message: "otherPhoneNumber: 1002 is not in pickup group 'office' of user 'carol'",
    },
  },
  {
    name: 'nobody in a group: refused (no pickup of any call of the company)',
    groups: {},
    call: 'alice calls bob',
    pickup: {},
    outcome: {
      refused: 'NOT_ALLOWED',
      message: "User 'carol' is in no pickup group: they may pick up their own calls only",
    },
  },
  {
    name: 'same group, the call no longer ringing: refused',
    groups: OFFICE,
    call: 'alice calls bob, answered',
    pickup: {},
    outcome: { refused: 'NOT_EXPECTED', message: '1002 is not ringing' },
  },
  {
    name: 'another group, the call no longer ringing: refused for the group, telling nothing of the call',
    groups: { bob: 'office', carol: 'warehouse' },
    call: 'alice calls bob, answered',
    pickup: {},
    outcome: {
      refused: 'NOT_ALLOWED',
      message: "otherPhoneNumber: 1002 is not in pickup group 'warehouse' of user 'carol'",
    },
  },
  {
    name: 'another group, an unknown call: refused for the group, telling nothing of the calls',
    groups: { bob: 'office', carol: 'warehouse' },
    call: 'alice calls bob',
    pickup: { otherCallRef: 'ffffffffffffffff' },
    outcome: {
      refused: 'NOT_ALLOWED',
      message: "otherPhoneNumber: 1002 is not in pickup group 'warehouse' of user 'carol'",
    },
  },
  {
    name: 'same group, an unknown call: not found',
    groups: OFFICE,
    call: 'alice calls bob',
    pickup: { otherCallRef: 'ffffffffffffffff' },
    outcome: { refused: 'NOT_FOUND', message: "No call 'ffffffffffffffff'" },
  },
  {
    name: 'same group, a colleague not in the call: not found',
    groups: { ...OFFICE, dave: 'office' },
    call: 'alice calls bob',
    pickup: { otherPhoneNumber: '1004' },
    outcome: {
      refused: 'NOT_FOUND',
      message: 'otherPhoneNumber: 1004 is not in call {callRef}',
    },
  },
  {
    name: 'the picking user is the ringing one, on the ringing device: refused',
    groups: OFFICE,
    call: 'alice calls bob',
    pickup: { loginName: 'bob', deviceId: '1002' },
    outcome: { refused: 'BAD_PARAMETER', message: 'deviceId: 1002 is in the call' },
  },
  {
    name: 'the picking user is the ringing one, on another device, in no group: its own call, taken',
    groups: {},
    call: 'bob calls alice',
    pickup: { loginName: 'alice', deviceId: ALICE_SOFTPHONE, otherPhoneNumber: '1001' },
    outcome: {
      events: {
        alice: ['OnCallModified:PICKED_UP', 'OnUserStateModified'],
        bob: ['OnCallModified:PICKED_UP', 'OnUserStateModified'],
      },
      connections: ['1002:ACTIVE', `${ALICE_SOFTPHONE}:ACTIVE`],
    },
  },
  {
    name: 'the caller, in the group, picking up the ringing of its own call: refused',
    groups: OFFICE,
    call: 'alice calls bob',
    pickup: { loginName: 'alice', deviceId: ALICE_SOFTPHONE },
    outcome: {
      refused: 'BAD_PARAMETER',
      message: "deviceId: 1011 is alice's, who is already in the call on 1001",
    },
  },
]

/** Runs the command on the world's state: its result, or the PlatformError it threw. */
function attempt(world: FeatureWorld, command: EngineCommand) {
  try {
    return { result: execute(world.state, command, world.now + 1_000, world.context) }
  } catch (error) {
    if (error instanceof PlatformError) return { error }
    throw error
  }
}

/** Each involved user's event names, as namesOf gives them. */
function namesByUser(events: readonly PlatformEvent[]): Record<string, string[]> {
  const users = [...new Set(events.map((event) => event.loginName))]
  return Object.fromEntries(users.map((user) => [user, namesOf(events, user)]))
}

describe('directed pickup within pickup groups', () => {
  it.each(CASES)('$name', ({ groups, call, pickup, outcome }) => {
    const world = new FeatureWorld({}, withGroups(groups))
    const callRef =
      call === 'bob calls alice'
        ? world.call('bob', '1001')
        : world.call('alice', '1002', call === 'alice calls bob' ? undefined : 'bob')
    const before = JSON.stringify(world.state)
    const command: EngineCommand = {
      type: 'pickup',
      loginName: 'carol',
      deviceId: '1003',
      otherCallRef: callRef,
      otherPhoneNumber: '1002',
      autoAnswer: true,
      ...pickup,
    }
    const { result, error } = attempt(world, command)
    if ('refused' in outcome) {
      expect(result).toBeUndefined()
      expect(error?.type).toBe(outcome.refused)
      expect(error?.message).toBe(outcome.message.replace('{callRef}', callRef))
      // A refusal changes nothing and tells nobody.
      expect(JSON.stringify(world.state)).toBe(before)
      return
    }
    expect(error).toBeUndefined()
    expect(namesByUser(result?.events ?? [])).toEqual(outcome.events)
    expect(result && connections(result.state, callRef)).toEqual(outcome.connections)
    expect(result?.state.timers).toEqual([])
  })
})
