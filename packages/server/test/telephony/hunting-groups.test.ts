/**
 * Hunting groups in the call engine (docs/groups.md): for each policy and setting, a call to the group and
 * the events each user receives and the call's connections that follow. alice (1001) calls the group 2100
 * of bob (1002), carol (1003) and dave (1004); the voice mail is 8000.
 */
import { describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import type { RoutingProfile } from '../../src/platform/routing/routing-profile.js'
import type { HuntingGroupDefinition } from '../../src/platform/telephony/hunting-groups.js'
import { callOf, type TelephonyState } from '../../src/platform/telephony/telephony-state.js'
import { connections, FeatureWorld, featureDirectory, namesOf, OUTSIDE } from './support.js'

const GROUP = '2100'
const NO_ANSWER_MS = 10_000

function definition(change: Partial<HuntingGroupDefinition> = {}): HuntingGroupDefinition {
  return {
    number: GROUP,
    name: 'Sales',
    policy: 'SEQUENTIAL',
    members: ['bob', 'carol', 'dave'],
    noAnswerMs: NO_ANSWER_MS,
    whenBusy: 'QUEUE',
    queueSize: 2,
    selfJoin: true,
    ...change,
  }
}

/** A world with the group, and routing profiles by user. */
function world(
  change: Partial<HuntingGroupDefinition> = {},
  routing: Record<string, RoutingProfile> = {},
): FeatureWorld {
  const w = new FeatureWorld({}, featureDirectory, (loginName) => routing[loginName])
  w.run({ type: 'setHuntingGroup', group: definition(change) })
  return w
}

/** The offered members of a call (`1002:RINGING_INCOMING`), the group and the parties, as `number:STATE`. */
function parties(state: TelephonyState, callRef: string): string[] | undefined {
  return connections(state, callRef)
}

/** Each user's event names (with causes) in `events`, for the users named. */
function names(
  events: readonly PlatformEvent[],
  users: readonly string[],
): Record<string, string[]> {
  return Object.fromEntries(users.map((user) => [user, namesOf(events, user)]))
}

const USERS = ['alice', 'bob', 'carol', 'dave'] as const

/** The OnDynamicStateChanged events among `events`. */
function dynamic(events: readonly PlatformEvent[]): PlatformEvent[] {
  return events.filter((event) => event.eventName === 'OnDynamicStateChanged')
}

describe('a call to a hunting group', () => {
  it('SEQUENTIAL: offered to the first member, then the next after the no-answer time', () => {
    const w = world()
    const placed = w.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: GROUP,
      autoAnswer: true,
    })
    const callRef = placed.callRef ?? ''
    expect(names(placed.events, USERS)).toEqual({
      alice: ['OnCallCreated'],
      bob: ['OnCallCreated:DISTRIBUTED'],
      carol: [],
      dave: [],
    })
    // The caller sees the group ring, not the member it offers the call to.
    const created = placed.events.find((event) => event.loginName === 'alice')
    expect(created?.['participants']).toEqual([
      { participantId: GROUP, identity: { id: { phoneNumber: GROUP }, type: { main: 'SERVICE' } } },
    ])
    const offered = placed.events.find((event) => event.loginName === 'bob')
    expect(
      ((offered?.['participants'] ?? []) as { participantId: string }[]).map(
        (p) => p.participantId,
      ),
    ).toEqual(['1001', GROUP])
    expect(parties(w.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      `${GROUP}:RINGING_INCOMING`,
      '1002:RINGING_INCOMING',
    ])

    const moved = w.advance(NO_ANSWER_MS)
    expect(names(moved, USERS)).toEqual({
      alice: [],
      bob: ['OnCallRemoved:NOT_ANSWERED'],
      carol: ['OnCallCreated:DISTRIBUTED'],
      dave: [],
    })

    const answered = w.run({ type: 'answer', loginName: 'carol', callRef })
    expect(names(answered.events, USERS)).toEqual({
      alice: ['OnCallModified', 'OnUserStateModified'],
      bob: [],
      carol: ['OnCallModified', 'OnUserStateModified'],
      dave: [],
    })
    const modified = answered.events.find((event) => event.loginName === 'alice')
    expect(modified?.['removedParticipantIds']).toEqual([GROUP])
    expect(
      ((modified?.['addedParticipants'] ?? []) as { participantId: string }[]).map(
        (p) => p.participantId,
      ),
    ).toEqual(['1003'])
    expect(parties(w.state, callRef)).toEqual(['1001:ACTIVE', '1003:ACTIVE'])
    expect(callOf(w.state, callRef)?.distributedBy).toBe(GROUP)
    expect(w.state.timers).toEqual([])
  })

  it('PARALLEL: every free member rings; the first to answer takes it, the others see DISTRIBUTED', () => {
    const w = world({ policy: 'PARALLEL' })
    const callRef = w.call('alice', GROUP)
    expect(parties(w.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      `${GROUP}:RINGING_INCOMING`,
      '1002:RINGING_INCOMING',
      '1003:RINGING_INCOMING',
      '1004:RINGING_INCOMING',
    ])
    const answered = w.run({ type: 'answer', loginName: 'dave', callRef })
    expect(names(answered.events, USERS)).toEqual({
      alice: ['OnCallModified', 'OnUserStateModified'],
      bob: ['OnCallRemoved:DISTRIBUTED'],
      carol: ['OnCallRemoved:DISTRIBUTED'],
      dave: ['OnCallModified', 'OnUserStateModified'],
    })
    expect(parties(w.state, callRef)).toEqual(['1001:ACTIVE', '1004:ACTIVE'])
  })

  it('CIRCULAR: the next call starts after the member who answered the last one', () => {
    const w = world({ policy: 'CIRCULAR' })
    const first = w.call('alice', GROUP, 'bob')
    w.run({ type: 'release', loginName: 'alice', callRef: first })
    const second = w.call('alice', GROUP)
    expect(parties(w.state, second)).toContain('1003:RINGING_INCOMING')
    w.run({ type: 'answer', loginName: 'carol', callRef: second })
    w.run({ type: 'release', loginName: 'alice', callRef: second })
    const third = w.call('alice', GROUP)
    expect(parties(w.state, third)).toContain('1004:RINGING_INCOMING')
    // After dave, the turn comes back to bob; dave's no answer moves it to him.
    w.advance(NO_ANSWER_MS)
    expect(parties(w.state, third)).toContain('1002:RINGING_INCOMING')
  })

  it('LONGEST_IDLE: the member idle the longest first (never busy counts as idle since ever)', () => {
    const w = world({ policy: 'LONGEST_IDLE' })
    // bob then carol end a call: dave, never busy, has been idle longest, then bob, then carol.
    const withBob = w.call('alice', '1002', 'bob')
    w.run({ type: 'release', loginName: 'alice', callRef: withBob })
    const withCarol = w.call('alice', '1003', 'carol')
    w.run({ type: 'release', loginName: 'alice', callRef: withCarol })
    expect(w.state.huntingGroups?.[GROUP]?.idleSince).toEqual({ bob: 5_000, carol: 8_000 })
    const callRef = w.call('alice', GROUP)
    expect(parties(w.state, callRef)?.[2]).toBe('1004:RINGING_INCOMING')
    w.advance(NO_ANSWER_MS)
    expect(parties(w.state, callRef)?.[2]).toBe('1002:RINGING_INCOMING')
    w.advance(NO_ANSWER_MS)
    expect(parties(w.state, callRef)?.[2]).toBe('1003:RINGING_INCOMING')
  })
})

describe('who the group offers a call to', () => {
  const cases: {
    name: string
    setUp: (w: FeatureWorld) => void
    routing?: Record<string, RoutingProfile>
    offered: string
  }[] = [
    {
      name: 'a member logged off is skipped',
      setUp: (w) => w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: false }),
      offered: '1003',
    },
    {
      name: 'a member in a call is skipped',
      setUp: (w) => w.call('bob', '1004', 'dave'),
      offered: '1003',
    },
    {
      name: 'a member whose own call rings is skipped',
      setUp: (w) => w.call('dave', '1002'),
      offered: '1003',
    },
    {
      name: 'a member with do not disturb is skipped',
      setUp: () => {},
      routing: { bob: { dnd: true, remoteExtension: false } },
      offered: '1003',
    },
    {
      name: 'a member with an immediate forward is skipped',
      setUp: () => {},
      routing: {
        bob: {
          dnd: false,
          remoteExtension: false,
          forward: { condition: 'IMMEDIATE', target: { type: 'VOICEMAIL' } },
        },
      },
      offered: '1003',
    },
    {
      name: 'a forward on no answer does not apply: the group moves on itself',
      setUp: () => {},
      routing: {
        bob: {
          dnd: false,
          remoteExtension: false,
          forward: { condition: 'NO_ANSWER', target: { type: 'VOICEMAIL' } },
        },
      },
      offered: '1002',
    },
    {
      name: 'a member whose device is out of service is skipped',
      setUp: (w) => w.run({ type: 'setDevice', deviceId: '1002', state: 'OUT_OF_SERVICE' }),
      offered: '1003',
    },
  ]
  for (const { name, setUp, routing, offered } of cases)
    it(name, () => {
      const w = world({}, routing)
      setUp(w)
      const callRef = w.call('alice', GROUP)
      const ringing = callOf(w.state, callRef)?.connections.filter(
        (connection) => connection.endpoint.offeredBy === GROUP,
      )
      expect(ringing?.map((connection) => connection.endpoint.number)).toEqual([offered])
    })
})

describe('when no member is free', () => {
  /** bob, carol and dave all busy: bob talks with carol, dave with an outside caller. */
  function allBusy(w: FeatureWorld): void {
    w.call('bob', '1003', 'carol')
    w.run({ type: 'incomingCall', from: OUTSIDE.slice(1), to: '1004' })
    w.run({ type: 'deviceAnswers', deviceId: '1004' })
  }

  it('QUEUE: the call waits with the group ringing, and goes to the first member who is free', () => {
    const w = world()
    allBusy(w)
    const callRef = w.call('alice', GROUP)
    expect(parties(w.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      `${GROUP}:RINGING_INCOMING`,
    ])
    expect(w.state.huntingGroups?.[GROUP]?.queue).toEqual([callRef])
    const bobsCall = w.state.calls.find((call) => call.callRef !== callRef)?.callRef ?? ''
    const freed = w.run({ type: 'release', loginName: 'bob', callRef: bobsCall })
    expect(names(freed.events, ['alice', 'bob', 'carol'])).toEqual({
      alice: [],
      bob: ['OnCallRemoved', 'OnUserStateModified', 'OnCallCreated:DISTRIBUTED'],
      carol: ['OnCallModified', 'OnCallRemoved', 'OnUserStateModified'],
    })
    // Both became free in one command: the call goes to the first of them in hunt order.
    expect(parties(w.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      `${GROUP}:RINGING_INCOMING`,
      '1002:RINGING_INCOMING',
    ])
    expect(w.state.huntingGroups?.[GROUP]?.queue).toEqual([])
  })

  it('a command that offers a waiting call leaves the state it ran on as it was (its hunt included)', () => {
    const w = world()
    allBusy(w)
    const callRef = w.call('alice', GROUP)
    const before = w.state
    const seenBefore = JSON.stringify(before.calls.get(callRef))
    const bobsCall = w.state.calls.find((call) => call.callRef !== callRef)?.callRef ?? ''
    w.run({ type: 'release', loginName: 'bob', callRef: bobsCall })
    expect(JSON.stringify(before.calls.get(callRef))).toBe(seenBefore)
    expect(w.state.calls.get(callRef)?.hunt?.tried).toEqual(['bob'])
  })

  it('QUEUE full: the overflow takes the call (OVERFLOWN, the group last redirecting)', () => {
    const w = world({ queueSize: 0, overflow: { voicemailOf: 'bob' } })
    allBusy(w)
    const placed = w.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: GROUP,
      autoAnswer: true,
    })
    expect(namesOf(placed.events, 'alice')).toEqual([
      'OnCallCreated',
      'OnCallModified:OVERFLOWN',
      'OnCallModified',
      'OnUserStateModified',
    ])
    expect(parties(w.state, placed.callRef ?? '')).toEqual(['1001:ACTIVE', '8000:ACTIVE'])
  })

  it('BUSY: the call is placed, then released BUSY', () => {
    const w = world({ whenBusy: 'BUSY' })
    allBusy(w)
    const placed = w.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: GROUP,
      autoAnswer: true,
    })
    expect(namesOf(placed.events, 'alice')).toEqual([
      'OnCallCreated',
      'OnCallModified:BUSY',
      'OnCallRemoved:BUSY',
    ])
    expect(w.state.calls.has(placed.callRef ?? '')).toBe(false)
  })

  it('OVERFLOW to a number: the number rings, OVERFLOWN', () => {
    const w = world({ whenBusy: 'OVERFLOW', overflow: { number: '1011' } })
    allBusy(w)
    const callRef = w.call('alice', GROUP)
    expect(parties(w.state, callRef)).toEqual(['1001:RINGING_OUTGOING', '1011:RINGING_INCOMING'])
    expect(callOf(w.state, callRef)?.lastRedirecting).toEqual({
      number: GROUP,
      service: 'HUNTING_GROUP',
    })
  })

  it('the queue timeout sends a waiting call to the overflow, or ends it NOT_ANSWERED', () => {
    const w = world({ queueTimeoutMs: 30_000 })
    allBusy(w)
    const callRef = w.call('alice', GROUP)
    const events = w.advance(30_000)
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallModified:NOT_ANSWERED',
      'OnCallRemoved:NOT_ANSWERED',
    ])
    expect(w.state.calls.has(callRef)).toBe(false)
    expect(w.state.huntingGroups?.[GROUP]?.queue).toEqual([])
  })
})

describe('the end of a round, the caller and the members', () => {
  it('nobody answers: with no queue room, the call ends NOT_ANSWERED after the last member', () => {
    const w = world({ queueSize: 0 })
    const callRef = w.call('alice', GROUP)
    const events = w.advance(3 * NO_ANSWER_MS)
    expect(namesOf(events, 'alice')).toEqual([
      'OnCallModified:NOT_ANSWERED',
      'OnCallRemoved:NOT_ANSWERED',
    ])
    expect(namesOf(events, 'dave')).toEqual([
      'OnCallCreated:DISTRIBUTED',
      'OnCallRemoved:NOT_ANSWERED',
    ])
    expect(w.state.calls.has(callRef)).toBe(false)
  })

  it('nobody answers: with room, the call waits and is not offered again to those who let it ring', () => {
    const w = world()
    const callRef = w.call('alice', GROUP)
    w.advance(3 * NO_ANSWER_MS)
    expect(parties(w.state, callRef)).toEqual([
      '1001:RINGING_OUTGOING',
      `${GROUP}:RINGING_INCOMING`,
    ])
    expect(w.state.huntingGroups?.[GROUP]?.queue).toEqual([callRef])
  })

  it('a member who declines (drop me) passes the call on at once', () => {
    const w = world()
    const callRef = w.call('alice', GROUP)
    const declined = w.run({ type: 'dropMe', loginName: 'bob', callRef })
    expect(names(declined.events, USERS)).toEqual({
      alice: [],
      bob: ['OnCallRemoved'],
      carol: ['OnCallCreated:DISTRIBUTED'],
      dave: [],
    })
  })

  it('the caller hangs up: the members it rang see the call end', () => {
    const w = world({ policy: 'PARALLEL' })
    const callRef = w.call('alice', GROUP)
    const ended = w.run({ type: 'dropMe', loginName: 'alice', callRef })
    expect(names(ended.events, USERS)).toEqual({
      alice: ['OnCallRemoved'],
      bob: ['OnCallModified', 'OnCallRemoved'],
      carol: ['OnCallModified', 'OnCallRemoved'],
      dave: ['OnCallModified', 'OnCallRemoved'],
    })
    expect(w.state.calls.size).toBe(0)
    expect(w.state.timers).toEqual([])
  })

  it('an outside caller waits in the queue with no user in the call, and is answered', () => {
    const w = world({ members: ['bob'] })
    w.call('bob', '1003', 'carol')
    const callRef = w.run({ type: 'incomingCall', from: '0147200000', to: GROUP }).callRef ?? ''
    expect(parties(w.state, callRef)).toEqual([
      '0147200000:RINGING_OUTGOING',
      `${GROUP}:RINGING_INCOMING`,
    ])
    const bobsCall = [...w.state.calls.keys()].find((ref) => ref !== callRef) ?? ''
    w.run({ type: 'release', loginName: 'carol', callRef: bobsCall })
    w.run({ type: 'answer', loginName: 'bob', callRef })
    expect(parties(w.state, callRef)).toEqual(['0147200000:ACTIVE', '1002:ACTIVE'])
  })
})

describe('members logging on and off, joining and leaving', () => {
  it('log off and on: OnDynamicStateChanged each time it changes, nothing when it does not', () => {
    const w = world()
    const off = w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: false })
    expect(dynamic(off.events)).toEqual([
      { eventName: 'OnDynamicStateChanged', loginName: 'bob', huntingGroupState: { logon: false } },
    ])
    expect(w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: false }).events).toEqual([])
    const on = w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: true })
    expect(dynamic(on.events)).toEqual([
      { eventName: 'OnDynamicStateChanged', loginName: 'bob', huntingGroupState: { logon: true } },
    ])
  })

  it('logging off while offered a call passes the call on', () => {
    const w = world()
    const callRef = w.call('alice', GROUP)
    const off = w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: false })
    expect(namesOf(off.events, 'bob')).toEqual([
      'OnCallRemoved',
      'OnDynamicStateChanged',
      'OnGroupModified',
    ])
    expect(parties(w.state, callRef)).toContain('1003:RINGING_INCOMING')
  })

  it('logging on takes a waiting call at once', () => {
    const w = world({ members: ['bob'] })
    w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: false })
    const callRef = w.call('alice', GROUP)
    expect(w.state.huntingGroups?.[GROUP]?.queue).toEqual([callRef])
    const on = w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: true })
    expect(namesOf(on.events, 'bob')).toEqual([
      'OnDynamicStateChanged',
      'OnGroupModified',
      'OnCallCreated:DISTRIBUTED',
    ])
  })

  it('join and leave: at the end of the hunt order, logged on; leaving logs off', () => {
    const w = world({ members: ['bob'] })
    const joined = w.run({
      type: 'huntingGroupMember',
      loginName: 'carol',
      group: GROUP,
      join: true,
    })
    expect(dynamic(joined.events)).toEqual([
      {
        eventName: 'OnDynamicStateChanged',
        loginName: 'carol',
        huntingGroupState: { logon: true },
      },
    ])
    expect(w.state.huntingGroups?.[GROUP]?.members).toEqual(['bob', 'carol'])
    const left = w.run({ type: 'huntingGroupMember', loginName: 'bob', group: GROUP, join: false })
    expect(dynamic(left.events)).toEqual([
      { eventName: 'OnDynamicStateChanged', loginName: 'bob', huntingGroupState: { logon: false } },
    ])
    expect(w.state.huntingGroups?.[GROUP]?.members).toEqual(['carol'])
    // Already so: nothing changes, nobody is told.
    expect(
      w.run({ type: 'huntingGroupMember', loginName: 'bob', group: GROUP, join: false }).events,
    ).toEqual([])
  })

  it('refusals change nothing', () => {
    const w = world({ members: ['bob'] })
    w.refuses({ type: 'huntingGroupLogOn', loginName: 'alice', logOn: true }, 'NOT_EXPECTED')
    w.refuses(
      { type: 'huntingGroupMember', loginName: 'alice', group: '2999', join: true },
      'NOT_FOUND',
    )
    w.run({
      type: 'setHuntingGroup',
      group: definition({ number: '2200', members: [], selfJoin: false }),
    })
    w.refuses(
      { type: 'huntingGroupMember', loginName: 'alice', group: '2200', join: true },
      'NOT_ALLOWED',
    )
    w.run({ type: 'setHuntingGroup', group: definition({ number: '2300', members: [] }) })
    w.refuses(
      { type: 'huntingGroupMember', loginName: 'bob', group: '2300', join: true },
      'NOT_EXPECTED',
    )
    w.refuses({ type: 'setHuntingGroup', group: definition({ number: '1002' }) }, 'BAD_PARAMETER')
    w.refuses(
      { type: 'setHuntingGroup', group: definition({ number: '2400', members: ['bob'] }) },
      'BAD_PARAMETER',
    )
    w.refuses(
      { type: 'setHuntingGroup', group: definition({ number: '2400', members: ['nobody'] }) },
      'BAD_PARAMETER',
    )
    w.refuses({ type: 'deleteHuntingGroup', number: '2999' }, 'NOT_FOUND')
  })

  it('deleting the group logs its members off and ends the calls it distributes', () => {
    const w = world()
    const callRef = w.call('alice', GROUP)
    const deleted = w.run({ type: 'deleteHuntingGroup', number: GROUP })
    expect(namesOf(deleted.events, 'alice')).toEqual([
      'OnCallModified:DESTINATION_NOT_OBTAINABLE',
      'OnCallRemoved:DESTINATION_NOT_OBTAINABLE',
    ])
    expect(namesOf(deleted.events, 'bob')).toContain('OnDynamicStateChanged')
    expect(w.state.calls.has(callRef)).toBe(false)
    expect(w.state.huntingGroups).toBeUndefined()
  })
})

describe('the groups events (package groups)', () => {
  const view = (members: [string, boolean][], change: Partial<HuntingGroupDefinition> = {}) => ({
    groupId: 'hunting-2100',
    type: 'HUNTING_GROUP',
    name: 'Sales',
    number: GROUP,
    policy: 'SEQUENTIAL',
    ...change,
    members: members.map(([loginName, logon]) => ({ loginName, role: 'AGENT', logon })),
  })
  const groupEvents = (events: readonly PlatformEvent[]) =>
    events.filter((event) => event.eventName.startsWith('OnGroup'))

  it('created: each member gets OnGroupCreated with the group', () => {
    const w = new FeatureWorld()
    const created = w.run({
      type: 'setHuntingGroup',
      group: definition({ members: ['bob', 'carol'] }),
    })
    const group = view([
      ['bob', true],
      ['carol', true],
    ])
    expect(groupEvents(created.events)).toEqual([
      { eventName: 'OnGroupCreated', loginName: 'bob', group },
      { eventName: 'OnGroupCreated', loginName: 'carol', group },
    ])
  })

  it('a member logs off: every member gets OnGroupModified with the member logged off', () => {
    const w = world({ members: ['bob', 'carol'] })
    const off = w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: false })
    const group = view([
      ['bob', false],
      ['carol', true],
    ])
    expect(groupEvents(off.events)).toEqual([
      { eventName: 'OnGroupModified', loginName: 'bob', group },
      { eventName: 'OnGroupModified', loginName: 'carol', group },
    ])
  })

  it('a user joins, another leaves: Created for the one, Removed for the other, Modified for the rest', () => {
    const w = world({ members: ['bob', 'carol'] })
    const joined = w.run({
      type: 'huntingGroupMember',
      loginName: 'dave',
      group: GROUP,
      join: true,
    })
    expect(
      groupEvents(joined.events).map((event) => `${event.eventName} ${event.loginName}`),
    ).toEqual(['OnGroupModified bob', 'OnGroupModified carol', 'OnGroupCreated dave'])
    const left = w.run({ type: 'huntingGroupMember', loginName: 'bob', group: GROUP, join: false })
    const group = view([
      ['carol', true],
      ['dave', true],
    ])
    expect(groupEvents(left.events)).toEqual([
      { eventName: 'OnGroupModified', loginName: 'carol', group },
      { eventName: 'OnGroupModified', loginName: 'dave', group },
      { eventName: 'OnGroupRemoved', loginName: 'bob', groupId: 'hunting-2100' },
    ])
  })

  it('settings the members do not see send nothing; a new policy sends Modified', () => {
    const w = world({ members: ['bob'] })
    const quiet = w.run({
      type: 'setHuntingGroup',
      group: definition({ members: ['bob'], queueSize: 5 }),
    })
    expect(groupEvents(quiet.events)).toEqual([])
    const parallel = w.run({
      type: 'setHuntingGroup',
      group: definition({ members: ['bob'], policy: 'PARALLEL' }),
    })
    expect(groupEvents(parallel.events)).toEqual([
      {
        eventName: 'OnGroupModified',
        loginName: 'bob',
        group: view([['bob', true]], { policy: 'PARALLEL' }),
      },
    ])
  })

  it('deleted: each member gets OnGroupRemoved', () => {
    const w = world({ members: ['bob', 'carol'] })
    expect(groupEvents(w.run({ type: 'deleteHuntingGroup', number: GROUP }).events)).toEqual([
      { eventName: 'OnGroupRemoved', loginName: 'bob', groupId: 'hunting-2100' },
      { eventName: 'OnGroupRemoved', loginName: 'carol', groupId: 'hunting-2100' },
    ])
  })

  it('a log-on the platform cannot honour: OnGroupLoggedFailed, and the member stays logged off', () => {
    const w = world({ members: ['bob', 'carol'] })
    w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: false })
    w.run({ type: 'setDevice', deviceId: '1002', state: 'OUT_OF_SERVICE' })
    const failed = w.run({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: true })
    expect(failed.events).toEqual([
      {
        eventName: 'OnGroupLoggedFailed',
        loginName: 'bob',
        groupId: 'hunting-2100',
        reason: 'DEVICE_OUT_OF_SERVICE',
      },
    ])
    expect(w.state.huntingGroups?.[GROUP]?.loggedOff).toEqual(['bob'])
  })
})

describe('group numbers a request gives', () => {
  it('names such as __proto__ or constructor are no group: NOT_FOUND, nothing changed', () => {
    const w = world()
    for (const group of ['__proto__', 'constructor', 'toString'])
      for (const join of [true, false])
        w.refuses({ type: 'huntingGroupMember', loginName: 'alice', group, join }, 'NOT_FOUND')
  })
})
