/**
 * Property-based tests of the call engine (issue 4): random sequences of random commands by random users
 * over a small directory (4 users, 6 devices, outside numbers), with time advancing and due timers fired,
 * checking the model's invariants after every step, that every call ends once all parties hang up, and that
 * the same sequence gives the same events byte for byte.
 *
 * Runs: `FC_RUNS` (default 1000), sequence length `FC_STEPS` (default 60); `FC_SEED` (and `FC_PATH`) replay
 * a failure that fast-check reported.
 *
 * Adding a command: add an entry to ACTIONS (its parameters as an arbitrary, and how to turn them into an
 * EngineCommand against the current state); the checks need nothing more.
 */
import type { Call, Leg, MediaState, Participant, UserState } from '@openness/wire'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { PlatformError } from '../../src/platform/platform-error.js'
import { execute } from '../../src/platform/telephony/call-engine.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { callView } from '../../src/platform/telephony/call-view.js'
import {
  DEFAULT_ENGINE_SETTINGS,
  type EngineContext,
} from '../../src/platform/telephony/engine-operation.js'
import type { HuntingGroupDefinition } from '../../src/platform/telephony/hunting-groups.js'
import {
  CONNECTION_INITIAL_STATES,
  canTransition,
} from '../../src/platform/telephony/media-state-machine.js'
import { isOutsideCallerAtVoicemail } from '../../src/platform/telephony/operations/guards.js'
import type {
  CallFeatures,
  OutsideBehaviour,
  TelephonyDirectory,
} from '../../src/platform/telephony/telephony-directory.js'
import {
  type Connection,
  callCount,
  callOf,
  type EngineCommand,
  initialState,
  type TelephonyState,
} from '../../src/platform/telephony/telephony-state.js'
import { TEST_CALL_REF_KEY } from './support.js'

const RUNS = Number(process.env['FC_RUNS'] ?? 1000)
const STEPS = Number(process.env['FC_STEPS'] ?? 60)
const SEED = process.env['FC_SEED'] === undefined ? undefined : Number(process.env['FC_SEED'])
const PATH = process.env['FC_PATH']

// ---------------------------------------------------------------------------------------------------------
// The directory: 4 users, one or two devices each, and outside numbers behind the outside-line prefix 0.

const USERS = [
  { loginName: 'alice', firstName: 'Alice', lastName: 'Arnaud', devices: ['1001', '1011'] },
  { loginName: 'bob', firstName: 'Bob', lastName: 'Bernard', devices: ['1002'] },
  { loginName: 'carol', firstName: 'Carol', lastName: 'Chevalier', devices: ['1003', '1013'] },
  { loginName: 'dave', firstName: 'Dave', lastName: 'Dubois', devices: ['1004'], multimedia: true },
  // A desk-sharing user (operations/desk-sharing.ts): 1005 is in service while erin is logged on at a set.
  { loginName: 'erin', firstName: 'Erin', lastName: 'Etienne', devices: ['1005'] },
] as const
type User = (typeof USERS)[number]
const LOGINS = USERS.map((user) => user.loginName)
const DEVICES = USERS.flatMap((user) => user.devices)
const OUTSIDE_PREFIX = '0'
const OUTSIDE_NUMBER = '33123456789'
/** Outside numbers with a rule (OUTSIDE_NUMBER has none: it rings until the ringing timeout). */
const OUTSIDE_RULES: Record<string, OutsideBehaviour> = {
  '33100000003': { kind: 'ANSWER', afterMs: 2_000, hangUpAfterMs: 15_000 },
  '33100000004': { kind: 'ANSWER' },
  '33100000005': { kind: 'BUSY' },
  '33100000008': { kind: 'REJECT', afterMs: 1_000 },
}
/** An outside number that calls in (incoming calls), besides the ones above. */
const OUTSIDE_CALLER = '+33612345678'
const OUTSIDE_NUMBERS = [OUTSIDE_NUMBER, ...Object.keys(OUTSIDE_RULES), OUTSIDE_CALLER]
/** Public numbers: this prefix followed by a device id. */
const PUBLIC_PREFIX = '+3315566'
/**
 * Two hunting groups (docs/groups.md): alice and bob ring together, a call waits (one at most, 40 s) then
 * overflows to the second group; carol and dave are offered calls longest idle first, and with neither free
 * the call overflows to carol's voice mail. Both let users join and leave.
 */
const GROUPS: HuntingGroupDefinition[] = [
  {
    number: '2100',
    name: 'Front',
    policy: 'PARALLEL',
    members: ['alice', 'bob'],
    noAnswerMs: 10_000,
    whenBusy: 'QUEUE',
    queueSize: 1,
    queueTimeoutMs: 40_000,
    overflow: { number: '2200' },
    selfJoin: true,
  },
  {
    number: '2200',
    name: 'Back',
    policy: 'LONGEST_IDLE',
    members: ['carol', 'dave'],
    noAnswerMs: 10_000,
    whenBusy: 'OVERFLOW',
    queueSize: 0,
    overflow: { voicemailOf: 'carol' },
    selfJoin: true,
  },
]
const GROUP_NUMBERS = GROUPS.map((group) => group.number)
/** The desk-sharing sets, and the one desk-sharing user (erin, with a voice mail and nothing else). */
const DESK_SETS = ['1900', '1901']
const DESK_USER = 'erin'
/** What users dial: devices, login names, hunting groups, outside numbers, and a number that reaches nobody. */
const CALLEES = [
  ...DEVICES,
  ...LOGINS,
  ...GROUP_NUMBERS,
  `${OUTSIDE_PREFIX}${OUTSIDE_NUMBER}`,
  ...Object.keys(OUTSIDE_RULES).map((number) => `${OUTSIDE_PREFIX}${number}`),
  '9999',
]

const owners = new Map<string, User>(
  USERS.flatMap((user) => user.devices.map((device) => [device, user] as const)),
)
/**
 * Call features: alice and carol have them all (intrusion included), bob a voice mail only, dave none but a
 * protection against intrusion; alice, bob and carol pick up each other's calls (one pickup group), dave only
 * his own.
 */
const FEATURES: Record<string, CallFeatures> = {
  alice: {
    voicemail: '8001',
    park: true,
    recording: true,
    callBack: true,
    pickupGroup: 'office',
    intrusion: true,
  },
  bob: { voicemail: '8002', pickupGroup: 'office' },
  carol: {
    voicemail: '8003',
    park: true,
    recording: true,
    callBack: true,
    pickupGroup: 'office',
    intrusion: true,
  },
  dave: { intrusionProtection: true },
  erin: { voicemail: '8005' },
}
const directory: TelephonyDirectory = {
  ownerOfDevice: (deviceId) => {
    const user = owners.get(deviceId)
    return user && { ...user, multimedia: 'multimedia' in user && user.multimedia }
  },
  featuresOf: (loginName) => FEATURES[loginName] ?? {},
  isDeskSharingUser: (loginName) => loginName === DESK_USER,
  isDeskSharingSet: (number) => DESK_SETS.includes(number),
  resolve: (dialed) => {
    const byDevice = owners.get(dialed)
    if (byDevice) return { number: dialed, deviceId: dialed, loginName: byDevice.loginName }
    const byLogin = USERS.find((user) => user.loginName === dialed)
    if (byLogin) {
      const main = byLogin.devices[0]
      return { number: main, deviceId: main, loginName: byLogin.loginName }
    }
    if (dialed.length > OUTSIDE_PREFIX.length && dialed.startsWith(OUTSIDE_PREFIX))
      return { number: dialed.slice(OUTSIDE_PREFIX.length) }
    return undefined
  },
  outsideBehaviour: (number) => OUTSIDE_RULES[number],
  resolveIncoming: (dialed) => {
    const extension = dialed.startsWith(PUBLIC_PREFIX) ? dialed.slice(PUBLIC_PREFIX.length) : dialed
    const user = owners.get(extension)
    return user && { number: extension, deviceId: extension, loginName: user.loginName }
  },
}
const context: EngineContext = { directory, settings: DEFAULT_ENGINE_SETTINGS }
const RINGING_TIMEOUT = DEFAULT_ENGINE_SETTINGS.ringingTimeoutMs

/** The state every sequence starts from: every device in service but erin's, the hunting groups set. */
const emptyState = () =>
  execute(
    initialState(
      USERS.flatMap((user) =>
        user.devices.map((deviceId) => ({
          deviceId,
          loginName: user.loginName,
          state:
            user.loginName === DESK_USER ? ('OUT_OF_SERVICE' as const) : ('IN_SERVICE' as const),
          mutable: true,
          muted: false,
        })),
      ),
      TEST_CALL_REF_KEY,
    ),
    { type: 'provisionHuntingGroups', groups: GROUPS },
    0,
    context,
  ).state

// ---------------------------------------------------------------------------------------------------------
// Actions: generated data that becomes an EngineCommand against the state it runs on (a call is picked by
// index among the calls the user is in, or among all calls, or is unknown), or a move of the clock.

/**
 * Who acts on which call: mostly a user who is in the call (`call` picks the call among all, `user` the user
 * among its users), sometimes any user on any call, sometimes a call that does not exist.
 */
type PartyPick =
  | { among: 'party' | 'anyone'; call: number; user: number }
  | { among: 'unknown'; user: number }
const partyPick: fc.Arbitrary<PartyPick> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      among: fc.constant('party' as const),
      call: fc.nat(7),
      user: fc.nat(3),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      among: fc.constant('anyone' as const),
      call: fc.nat(7),
      user: fc.nat(3),
    }),
  },
  { weight: 1, arbitrary: fc.record({ among: fc.constant('unknown' as const), user: fc.nat(3) }) },
)
/** Which device: none given, one of the user's legs in the call, one of the user's devices, any device. */
type DevicePick = { among: 'none' } | { among: 'leg' | 'mine' | 'any'; index: number }
const devicePick: fc.Arbitrary<DevicePick> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ among: 'none' as const }) },
  { weight: 5, arbitrary: fc.record({ among: fc.constant('leg' as const), index: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ among: fc.constant('mine' as const), index: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ among: fc.constant('any' as const), index: fc.nat(7) }) },
)
const UNKNOWN_CALL = 'ffffffffffffffff'

/** A user acting on a call. */
interface Party {
  user: User
  loginName: string
  callRef: string
}

/** What an action sees when it becomes a command. */
class World {
  constructor(readonly state: TelephonyState) {}

  user(index: number): User {
    return USERS[index % USERS.length] as User
  }

  party(pick: PartyPick): Party {
    const calls = allCalls(this.state)
      .map((call) => call.callRef)
      .sort()
    const callRef =
      pick.among === 'unknown' ? undefined : calls[pick.call % Math.max(1, calls.length)]
    const users = [
      ...new Set(
        (callRef === undefined ? [] : (callOf(this.state, callRef)?.connections ?? []))
          .map((c) => c.endpoint.loginName)
          .filter((login) => login !== undefined),
      ),
    ]
    const login = pick.among === 'party' ? users[pick.user % Math.max(1, users.length)] : undefined
    const user = USERS.find((u) => u.loginName === login) ?? this.user(pick.user)
    return { user, loginName: user.loginName, callRef: callRef ?? UNKNOWN_CALL }
  }

  /** The login and callRef of a pick, for commands that carry just those. */
  on(pick: PartyPick): { loginName: string; callRef: string } {
    const { loginName, callRef } = this.party(pick)
    return { loginName, callRef }
  }

  anyCall(index: number): string {
    const calls = allCalls(this.state)
      .map((call) => call.callRef)
      .sort()
    return calls[index % Math.max(1, calls.length)] ?? UNKNOWN_CALL
  }

  /** The number of a party of the call (`index` among its connections). */
  number(callRef: string, index: number): string {
    const connections = callOf(this.state, callRef)?.connections ?? []
    return connections[index % Math.max(1, connections.length)]?.endpoint.number ?? '9999'
  }

  /** Another call of the user (for transfer and merge), else any call. */
  otherCall(party: Party, index: number): string {
    const calls = allCalls(this.state)
      .map((call) => call.callRef)
      .sort()
      .filter((callRef) => callRef !== party.callRef)
    const mine = calls.filter((callRef) =>
      callOf(this.state, callRef)?.connections.some(
        (c) => c.endpoint.loginName === party.loginName,
      ),
    )
    const among = mine.length > 0 ? mine : calls
    return among[index % Math.max(1, among.length)] ?? UNKNOWN_CALL
  }

  /** An outside number: mostly one that is in a call, else any of them. */
  outsideNumber(index: number): string {
    const inCalls = [
      ...new Set(
        allCalls(this.state).flatMap((call) =>
          call.connections
            .filter((c) => c.endpoint.deviceId === undefined && c.endpoint.service === undefined)
            .map((c) => c.endpoint.number),
        ),
      ),
    ].sort()
    const among = inCalls.length > 0 && index % 4 !== 0 ? inCalls : OUTSIDE_NUMBERS
    return among[index % among.length] as string
  }

  /** The legs of users in one of `states` (their call, user and device), in the order of the callRefs. */
  legsIn(
    states: readonly MediaState[],
  ): { callRef: string; loginName: string; deviceId: string }[] {
    return allCalls(this.state)
      .map((call) => call.callRef)
      .sort()
      .flatMap((callRef) =>
        (callOf(this.state, callRef)?.connections ?? [])
          .filter((c) => c.endpoint.loginName !== undefined && states.includes(c.state))
          .map((c) => ({
            callRef,
            loginName: c.endpoint.loginName as string,
            deviceId: c.endpoint.deviceId ?? c.endpoint.number,
          })),
      )
  }

  device(party: Pick<Party, 'user' | 'callRef'>, pick: DevicePick): string | undefined {
    if (pick.among === 'none') return undefined
    const legs =
      callOf(this.state, party.callRef)
        ?.connections.filter((c) => c.endpoint.loginName === party.user.loginName)
        .map((c) => c.endpoint.deviceId ?? c.endpoint.number) ?? []
    const among: readonly string[] =
      pick.among === 'leg' && legs.length > 0
        ? legs
        : pick.among === 'any'
          ? DEVICES
          : party.user.devices
    return among[pick.index % among.length]
  }
}

interface ActionKind<P> {
  weight: number
  params: fc.Arbitrary<P>
  /** The command; undefined when the action is a move of the clock. */
  command(world: World, params: P): EngineCommand | undefined
  /** For clock actions: the time to move to. */
  advance?(state: TelephonyState, now: number, params: P): number
}

const onCall = fc.record({ party: partyPick })
const onLeg = fc.record({ party: partyPick, device: devicePick })
type OnCall = { party: PartyPick }
type OnLeg = { party: PartyPick; device: DevicePick }

function withDevice<C extends EngineCommand>(command: C, deviceId: string | undefined): C {
  return deviceId === undefined ? command : { ...command, deviceId }
}

/** A command of a user on a call, with the user's device when the pick gives one. */
function legCommand<T extends 'answer' | 'hold' | 'retrieve' | 'alternate'>(
  type: T,
): ActionKind<OnLeg> {
  return {
    weight: 0,
    params: onLeg,
    command: (world, p) => {
      const { loginName, callRef, user } = world.party(p.party)
      return withDevice(
        { type, loginName, callRef } as Extract<EngineCommand, { type: T }>,
        world.device({ user, callRef }, p.device),
      )
    },
  }
}

/** A command of a user on a call. */
function callCommand<T extends 'release' | 'dropMe' | 'overflowToVoiceMail' | 'callbackRequest'>(
  type: T,
): ActionKind<OnCall> {
  return {
    weight: 0,
    params: onCall,
    command: (world, p) => {
      const { loginName, callRef } = world.party(p.party)
      return { type, loginName, callRef } as Extract<EngineCommand, { type: T }>
    },
  }
}

/** Transfer or merge: the user's call and another of its calls. */
function twoCalls<T extends 'transfer' | 'merge'>(
  type: T,
): ActionKind<{ party: PartyPick; held: number }> {
  return {
    weight: 0,
    params: fc.record({ party: partyPick, held: fc.nat(7) }),
    command: (world, p) => {
      const party = world.party(p.party)
      return {
        type,
        loginName: party.loginName,
        callRef: party.callRef,
        heldCallRef: world.otherCall(party, p.held),
      } as Extract<EngineCommand, { type: T }>
    },
  }
}

/** Every action the generator knows; add new engine commands here. */
const ACTIONS = {
  makeCall: {
    weight: 6,
    params: fc.record({
      user: fc.nat(3),
      device: fc.oneof(
        {
          weight: 9,
          arbitrary: fc.record({ among: fc.constant('mine' as const), index: fc.nat(3) }),
        },
        {
          weight: 1,
          arbitrary: fc.record({ among: fc.constant('any' as const), index: fc.nat(7) }),
        },
      ),
      callee: fc.nat(CALLEES.length - 1),
      autoAnswer: fc.boolean(),
    }),
    command: (world, p) => {
      const user = world.user(p.user)
      return {
        type: 'makeCall',
        loginName: user.loginName,
        deviceId: world.device({ user, callRef: UNKNOWN_CALL }, p.device) ?? user.devices[0],
        callee: CALLEES[p.callee] as string,
        autoAnswer: p.autoAnswer,
      }
    },
  } satisfies ActionKind<{
    user: number
    device: DevicePick
    callee: number
    autoAnswer: boolean
  }>,
  answer: { ...legCommand('answer'), weight: 6 },
  release: { ...callCommand('release'), weight: 1 },
  dropMe: { ...callCommand('dropMe'), weight: 2 },
  hold: { ...legCommand('hold'), weight: 3 },
  retrieve: { ...legCommand('retrieve'), weight: 3 },
  alternate: { ...legCommand('alternate'), weight: 2 },
  transfer: { ...twoCalls('transfer'), weight: 2 },
  merge: { ...twoCalls('merge'), weight: 2 },
  blindTransfer: {
    weight: 1,
    params: fc.record({ party: partyPick, to: fc.nat(CALLEES.length - 1) }),
    command: (world, p) => ({
      type: 'blindTransfer',
      ...world.on(p.party),
      transferTo: CALLEES[p.to] as string,
    }),
  } satisfies ActionKind<{ party: PartyPick; to: number }>,
  addParticipant: {
    weight: 1,
    params: fc.record({ party: partyPick, callee: fc.nat(CALLEES.length - 1) }),
    command: (world, p) => ({
      type: 'addParticipant',
      ...world.on(p.party),
      callee: CALLEES[p.callee] as string,
    }),
  } satisfies ActionKind<{ party: PartyPick; callee: number }>,
  dropParticipant: {
    weight: 1,
    params: fc.record({ party: partyPick, other: fc.nat(7) }),
    command: (world, p) => {
      const on = world.on(p.party)
      return { type: 'dropParticipant', ...on, participantId: world.number(on.callRef, p.other) }
    },
  } satisfies ActionKind<{ party: PartyPick; other: number }>,
  redirect: {
    weight: 2,
    params: fc.record({ party: partyPick, to: fc.nat(CALLEES.length + 1) }),
    command: (world, p) => ({
      type: 'redirect',
      ...world.on(p.party),
      redirectTo: [...CALLEES, 'VOICEMAIL', 'DVA'][p.to] as string,
    }),
  } satisfies ActionKind<{ party: PartyPick; to: number }>,
  overflowToVoiceMail: { ...callCommand('overflowToVoiceMail'), weight: 1 },
  pickup: {
    weight: 2,
    params: fc.record({
      user: fc.nat(3),
      device: fc.nat(3),
      call: fc.nat(7),
      other: fc.nat(7),
      autoAnswer: fc.boolean(),
    }),
    command: (world, p) => {
      const user = world.user(p.user)
      const otherCallRef = world.anyCall(p.call)
      return {
        type: 'pickup',
        loginName: user.loginName,
        deviceId: user.devices[p.device % user.devices.length] as string,
        otherCallRef,
        otherPhoneNumber: world.number(otherCallRef, p.other),
        autoAnswer: p.autoAnswer,
      }
    },
  } satisfies ActionKind<{
    user: number
    device: number
    call: number
    other: number
    autoAnswer: boolean
  }>,
  park: {
    weight: 2,
    params: fc.record({ party: partyPick, to: fc.option(fc.nat(DEVICES.length - 1)) }),
    command: (world, p) => ({
      type: 'park',
      ...world.on(p.party),
      ...(p.to !== null && { parkTo: DEVICES[p.to] as string }),
    }),
  } satisfies ActionKind<{ party: PartyPick; to: number | null }>,
  unpark: {
    weight: 2,
    params: fc.record({ user: fc.nat(3), device: fc.nat(3), call: fc.nat(7) }),
    command: (world, p) => {
      const user = world.user(p.user)
      // Mostly a parked call, and mostly by the user who parked it or the one it is parked on.
      const parked = allCalls(world.state).filter((call) => call.parked)
      const call = parked[p.call % Math.max(1, parked.length)]
      const owner =
        call?.parked && p.user % 2 === 0 ? owners.get(call.parked.onDeviceId) : undefined
      const who = owner ?? user
      return {
        type: 'unpark',
        loginName: who.loginName,
        deviceId:
          (owner && call?.parked?.onDeviceId) ??
          (who.devices[p.device % who.devices.length] as string),
        heldCallRef: call?.callRef ?? world.anyCall(p.call),
      }
    },
  } satisfies ActionKind<{ user: number; device: number; call: number }>,
  callbackRequest: { ...callCommand('callbackRequest'), weight: 1 },
  outgoingCallback: {
    weight: 1,
    params: fc.record({ user: fc.nat(3), callee: fc.nat(CALLEES.length - 1) }),
    command: (world, p) => ({
      type: 'outgoingCallback',
      loginName: world.user(p.user).loginName,
      callee: CALLEES[p.callee] as string,
    }),
  } satisfies ActionKind<{ user: number; callee: number }>,
  deleteCallback: {
    weight: 1,
    params: fc.record({ user: fc.nat(3), index: fc.nat(3) }),
    command: (world, p) => {
      const loginName = world.user(p.user).loginName
      const callbacks = world.state.callbacks?.[loginName] ?? []
      const callbackId = callbacks[p.index % Math.max(1, callbacks.length)]?.callbackId ?? 'none'
      return { type: 'deleteCallback', loginName, callbackId }
    },
  } satisfies ActionKind<{ user: number; index: number }>,
  deleteCallbacks: {
    weight: 1,
    params: fc.nat(3),
    command: (world, user) => ({ type: 'deleteCallbacks', loginName: world.user(user).loginName }),
  } satisfies ActionKind<number>,
  recording: {
    weight: 2,
    params: fc.record({
      party: partyPick,
      action: fc.constantFrom(
        'start' as const,
        'stop' as const,
        'pause' as const,
        'resume' as const,
      ),
    }),
    command: (world, p) => ({ type: 'recording', ...world.on(p.party), action: p.action }),
  } satisfies ActionKind<{ party: PartyPick; action: 'start' | 'stop' | 'pause' | 'resume' }>,
  sendDtmf: {
    weight: 1,
    params: fc.record({
      party: partyPick,
      device: devicePick,
      digits: fc.constantFrom('12#', '*9A', 'x'),
    }),
    command: (world, p) => {
      const party = world.party(p.party)
      return withDevice(
        { type: 'sendDtmf', loginName: party.loginName, callRef: party.callRef, digits: p.digits },
        world.device(party, p.device),
      )
    },
  } satisfies ActionKind<{ party: PartyPick; device: DevicePick; digits: string }>,
  attachData: {
    weight: 1,
    params: fc.record({
      party: partyPick,
      device: devicePick,
      data: fc.constantFrom('order 42', ''),
    }),
    command: (world, p) => {
      const party = world.party(p.party)
      return withDevice(
        {
          type: 'attachData',
          loginName: party.loginName,
          callRef: party.callRef,
          associatedData: p.data,
        },
        world.device(party, p.device),
      )
    },
  } satisfies ActionKind<{ party: PartyPick; device: DevicePick; data: string }>,
  moveLeg: {
    weight: 2,
    params: fc.record({ party: partyPick, leg: devicePick, to: fc.nat(3) }),
    command: (world, p) => {
      const party = world.party(p.party)
      return {
        type: 'moveLeg',
        loginName: party.loginName,
        callRef: party.callRef,
        legId: world.device(party, p.leg) ?? (party.user.devices[0] as string),
        deviceId: party.user.devices[p.to % party.user.devices.length] as string,
      }
    },
  } satisfies ActionKind<{ party: PartyPick; leg: DevicePick; to: number }>,
  mute: {
    weight: 1,
    params: fc.record({ user: fc.nat(3), device: fc.nat(7), mute: fc.boolean() }),
    command: (world, p) => {
      const user = world.user(p.user)
      const among: readonly string[] = p.device < 6 ? user.devices : DEVICES
      return {
        type: 'mute',
        loginName: user.loginName,
        deviceId: among[p.device % among.length] as string,
        mute: p.mute,
      }
    },
  } satisfies ActionKind<{ user: number; device: number; mute: boolean }>,
  // The O2G additions (operations/reconnect.ts, intrusion.ts, interphony.ts).
  reconnect: {
    weight: 4,
    params: fc.record({
      held: fc.option(fc.nat(7), { freq: 2 }),
      party: partyPick,
      enquiry: fc.nat(7),
      device: devicePick,
    }),
    command: (world, p) => {
      // Mostly a held leg and another call of its device (a consultation), sometimes any call of the user.
      const held = p.held === null ? undefined : world.legsIn(['HELD'])[p.held % 8]
      if (held !== undefined) {
        const enquiries = world
          .legsIn(['ACTIVE', 'RINGING_OUTGOING', 'HELD'])
          .filter(
            (leg) =>
              leg.loginName === held.loginName &&
              leg.deviceId === held.deviceId &&
              leg.callRef !== held.callRef,
          )
        return {
          type: 'reconnect',
          loginName: held.loginName,
          callRef: held.callRef,
          deviceId: held.deviceId,
          enquiryCallRef:
            enquiries[p.enquiry % Math.max(1, enquiries.length)]?.callRef ??
            world.anyCall(p.enquiry),
        }
      }
      const party = world.party(p.party)
      return {
        type: 'reconnect',
        loginName: party.loginName,
        callRef: party.callRef,
        deviceId: world.device(party, p.device) ?? (party.user.devices[0] as string),
        enquiryCallRef: world.otherCall(party, p.enquiry),
      }
    },
  } satisfies ActionKind<{
    held: number | null
    party: PartyPick
    enquiry: number
    device: DevicePick
  }>,
  intrusion: {
    weight: 4,
    params: fc.record({
      calling: fc.option(fc.nat(7), { freq: 2 }),
      user: fc.nat(3),
      device: fc.nat(7),
    }),
    command: (world, p) => {
      // Mostly a device calling out (the callee may be busy), sometimes any device of any user.
      const calling = p.calling === null ? [] : world.legsIn(['RINGING_OUTGOING'])
      const leg = p.calling === null ? undefined : calling[p.calling % Math.max(1, calling.length)]
      if (leg !== undefined)
        return { type: 'intrusion', loginName: leg.loginName, deviceId: leg.deviceId }
      const user = world.user(p.user)
      const among: readonly string[] = p.device < 6 ? user.devices : DEVICES
      return {
        type: 'intrusion',
        loginName: user.loginName,
        deviceId: among[p.device % among.length] as string,
      }
    },
  } satisfies ActionKind<{ calling: number | null; user: number; device: number }>,
  toggleInterphony: {
    weight: 1,
    params: fc.record({ user: fc.nat(3), device: fc.nat(7) }),
    command: (world, p) => {
      const user = world.user(p.user)
      const among: readonly string[] = p.device < 6 ? user.devices : DEVICES
      return {
        type: 'toggleInterphony',
        loginName: user.loginName,
        deviceId: among[p.device % among.length] as string,
      }
    },
  } satisfies ActionKind<{ user: number; device: number }>,
  // Outside parties, incoming calls and simulated devices (operations/simulation.ts).
  incomingCall: {
    weight: 3,
    params: fc.record({
      from: fc.nat(OUTSIDE_NUMBERS.length + 1),
      to: fc.nat(2 * DEVICES.length + GROUP_NUMBERS.length),
    }),
    command: (_world, p) => ({
      type: 'incomingCall',
      from: [...OUTSIDE_NUMBERS, '1002', 'bob'][p.from] as string,
      to: [
        ...DEVICES,
        ...DEVICES.map((device) => `${PUBLIC_PREFIX}${device}`),
        ...GROUP_NUMBERS,
        '9999',
      ][p.to] as string,
    }),
  } satisfies ActionKind<{ from: number; to: number }>,
  // Hunting groups (operations/hunting-membership.ts): members log on and off, users join and leave.
  huntingGroupLogOn: {
    weight: 1,
    params: fc.record({ user: fc.nat(3), logOn: fc.boolean() }),
    command: (world, p) => ({
      type: 'huntingGroupLogOn',
      loginName: world.user(p.user).loginName,
      logOn: p.logOn,
    }),
  } satisfies ActionKind<{ user: number; logOn: boolean }>,
  huntingGroupMember: {
    weight: 1,
    params: fc.record({ user: fc.nat(3), group: fc.nat(GROUP_NUMBERS.length), join: fc.boolean() }),
    command: (world, p) => ({
      type: 'huntingGroupMember',
      loginName: world.user(p.user).loginName,
      group: [...GROUP_NUMBERS, '2999'][p.group] as string,
      join: p.join,
    }),
  } satisfies ActionKind<{ user: number; group: number; join: boolean }>,
  // Desk sharing (operations/desk-sharing.ts): erin logs on at a set (or one that is none), and off; alice,
  // who is no desk-sharing user, tries.
  deskSharingLogOn: {
    weight: 2,
    params: fc.record({ user: fc.nat(3), set: fc.nat(DESK_SETS.length) }),
    command: (_world, p) => ({
      type: 'deskSharingLogOn',
      loginName: p.user === 0 ? 'alice' : DESK_USER,
      set: [...DESK_SETS, '1002'][p.set] as string,
    }),
  } satisfies ActionKind<{ user: number; set: number }>,
  deskSharingLogOff: {
    weight: 1,
    params: fc.nat(3),
    command: (_world, user) => ({
      type: 'deskSharingLogOff',
      loginName: user === 0 ? 'alice' : DESK_USER,
    }),
  } satisfies ActionKind<number>,
  outsidePartyAnswers: {
    weight: 2,
    params: fc.nat(15),
    command: (world, index) => ({
      type: 'outsidePartyAnswers',
      number: world.outsideNumber(index),
    }),
  } satisfies ActionKind<number>,
  outsidePartyRejects: {
    weight: 1,
    params: fc.record({ number: fc.nat(15), busy: fc.boolean() }),
    command: (world, p) => ({
      type: 'outsidePartyRejects',
      number: world.outsideNumber(p.number),
      ...(p.busy && { cause: 'BUSY' as const }),
    }),
  } satisfies ActionKind<{ number: number; busy: boolean }>,
  outsidePartyHangsUp: {
    weight: 2,
    params: fc.nat(15),
    command: (world, index) => ({
      type: 'outsidePartyHangsUp',
      number: world.outsideNumber(index),
    }),
  } satisfies ActionKind<number>,
  deviceAnswers: {
    weight: 2,
    params: fc.nat(DEVICES.length),
    command: (_world, index) => ({
      type: 'deviceAnswers',
      deviceId: [...DEVICES, '9999'][index] as string,
    }),
  } satisfies ActionKind<number>,
  deviceHangsUp: {
    weight: 1,
    params: fc.nat(DEVICES.length),
    command: (_world, index) => ({
      type: 'deviceHangsUp',
      deviceId: [...DEVICES, '9999'][index] as string,
    }),
  } satisfies ActionKind<number>,
  setDevice: {
    weight: 1,
    params: fc.record({
      device: fc.nat(DEVICES.length - 1),
      autoAnswer: fc.option(fc.boolean()),
      // Mostly back in service: a device out of service for long makes the sequence dull.
      state: fc.option(
        fc.constantFrom('IN_SERVICE' as const, 'IN_SERVICE' as const, 'OUT_OF_SERVICE' as const),
      ),
    }),
    command: (_world, p) => ({
      type: 'setDevice',
      deviceId: DEVICES[p.device] as string,
      ...(p.autoAnswer !== null && { autoAnswer: p.autoAnswer }),
      ...(p.state !== null && { state: p.state }),
    }),
  } satisfies ActionKind<{
    device: number
    autoAnswer: boolean | null
    state: 'IN_SERVICE' | 'OUT_OF_SERVICE' | null
  }>,
  /** The clock moves on by a while (around the ringing timeout); the timers due meanwhile fire. */
  wait: {
    weight: 1,
    params: fc.constantFrom(
      1_000,
      10_000,
      RINGING_TIMEOUT - 1,
      RINGING_TIMEOUT,
      2 * RINGING_TIMEOUT,
    ),
    command: () => undefined,
    advance: (_state, now, ms) => now + ms,
  } satisfies ActionKind<number>,
  /** The clock moves to the next pending timer, which fires. */
  nextTimer: {
    weight: 1,
    params: fc.constant(null),
    command: () => undefined,
    advance: (state, now) =>
      state.timers.length === 0 ? now : Math.max(now, Math.min(...state.timers.map((t) => t.at))),
  } satisfies ActionKind<null>,
}

type Kinds = typeof ACTIONS
type ActionName = keyof Kinds
type Action = {
  [K in ActionName]: {
    kind: K
    params: Kinds[K]['params'] extends fc.Arbitrary<infer P> ? P : never
  }
}[ActionName]

/** An action of the kinds `weights` names, with those weights; every kind with its own weight by default. */
function weightedAction(weights?: Partial<Record<ActionName, number>>): fc.Arbitrary<Action> {
  return fc.oneof(
    ...(Object.entries(ACTIONS) as [ActionName, ActionKind<unknown>][])
      .map(([kind, spec]) => ({ kind, spec, weight: weights ? (weights[kind] ?? 0) : spec.weight }))
      .filter(({ weight }) => weight > 0)
      .map(({ kind, spec, weight }) => ({
        weight,
        arbitrary: spec.params.map((params) => ({ kind, params }) as Action),
      })),
  )
}

const action = weightedAction()
/**
 * The actions that lead to consultations and to calls ringing at busy users, where reconnect, intrusion and
 * the interphony key act: with every kind, a sequence reaches such a state about once in a thousand.
 */
const consultingAction = weightedAction({
  makeCall: 12,
  answer: 12,
  hold: 2,
  retrieve: 2,
  alternate: 2,
  reconnect: 6,
  intrusion: 10,
  toggleInterphony: 2,
  dropMe: 2,
  release: 1,
  deviceAnswers: 1,
  wait: 1,
})

// ---------------------------------------------------------------------------------------------------------
// Running a sequence.

/** One step as the checks see it. */
interface Step {
  label: string
  before: TelephonyState
  after: TelephonyState
  events: PlatformEvent[]
  refused?: PlatformError
}

type Observer = (step: Step) => void

/** The engine driven like the service drives it: commands at a time, timers fired when due. */
class Driver {
  state = emptyState()
  now = 0
  readonly events: PlatformEvent[] = []

  constructor(private readonly observe: Observer = () => {}) {}

  /** Runs a command; a PlatformError refusal is part of the model, anything else is a bug. */
  run(command: EngineCommand, label = JSON.stringify(command)): void {
    const before = this.state
    const json = JSON.stringify(before)
    try {
      const result = execute(before, command, this.now, context)
      this.state = result.state
      this.events.push(...result.events)
      this.observe({ label, before, after: result.state, events: result.events })
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error
      // A refusal changes nothing (the state is copied on write; this also catches writes in place).
      expect(JSON.stringify(before), `${label} refused but changed the state`).toBe(json)
      this.events.push({
        eventName: 'Refused',
        loginName: '',
        type: `${command.type} ${error.type}`,
      })
      this.observe({ label, before, after: before, events: [], refused: error })
    }
  }

  /** Moves the clock to `to`, firing every timer due by then, earliest first, each at its own time. */
  advance(to: number): void {
    for (let fired = 0; ; fired++) {
      if (fired > 1000) throw new Error('timers keep firing')
      const due = this.state.timers
        .filter((timer) => timer.at <= to)
        .reduce<TelephonyState['timers'][number] | undefined>(
          (first, timer) => (first === undefined || timer.at < first.at ? timer : first),
          undefined,
        )
      if (due === undefined) break
      // A timer fires once: the runner takes it out, then runs its command.
      this.state = {
        ...this.state,
        timers: this.state.timers.filter((timer) => timer.timerId !== due.timerId),
      }
      this.now = Math.max(this.now, due.at)
      this.run(due.command, `timer ${JSON.stringify(due.command)} at ${due.at}`)
    }
    this.now = Math.max(this.now, to)
  }

  act(step: Action): void {
    const spec = ACTIONS[step.kind] as ActionKind<unknown>
    const command = spec.command(new World(this.state), step.params)
    if (command !== undefined) this.run(command)
    if (spec.advance) this.advance(spec.advance(this.state, this.now, step.params))
    // Time passes a little between two commands (so that timers are told apart).
    this.advance(this.now + 100)
  }

  /** Everybody hangs up: each remaining call is released by one of its users, until none is left. */
  hangUpAll(): void {
    for (let round = 0; callCount(this.state) > 0; round++) {
      if (round > 100) throw new Error('calls survive their release')
      const call = allCalls(this.state)[0]
      const callRef = call?.callRef
      const user = call?.connections.find((c) => c.endpoint.loginName)?.endpoint.loginName
      const parked = call?.parked
      const outside = call?.connections.find(
        (c) => c.endpoint.deviceId === undefined && c.endpoint.service === undefined,
      )
      if (callRef !== undefined && user === undefined && outside !== undefined) {
        // A parked outside party: it hangs up (the parking device may be talking in another call).
        this.run({ type: 'outsidePartyHangsUp', number: outside.endpoint.number, callRef })
        continue
      }
      if (callRef !== undefined && user === undefined && parked !== undefined) {
        // A parked outside caller: the parking user takes it back, then hangs up.
        this.run({
          type: 'unpark',
          loginName: parked.loginName,
          deviceId: parked.fromDeviceId,
          heldCallRef: callRef,
        })
        continue
      }
      if (callRef === undefined || user === undefined)
        throw new Error(`call ${callRef} has no user to release it`)
      this.run({ type: 'release', loginName: user, callRef })
      this.advance(this.now + 100)
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// The checks.

const BUSY_STATES: readonly MediaState[] = ['ACTIVE', 'HELD']

/** The key of a connection across steps: the call, the party's number and kind (the n-th such). */
function connectionStates(state: TelephonyState): Map<string, MediaState> {
  const states = new Map<string, MediaState>()
  for (const call of allCalls(state)) {
    const seen = new Map<string, number>()
    for (const connection of call.connections) {
      const { number, deviceId, service } = connection.endpoint
      const party = `${number}:${service ?? (deviceId === undefined ? 'outside' : 'device')}`
      const n = seen.get(party) ?? 0
      seen.set(party, n + 1)
      states.set(`${call.callRef}/${party}#${n}`, connection.state)
    }
  }
  return states
}

const byId = <T>(items: readonly T[] | undefined, key: (item: T) => string) =>
  [...(items ?? [])].sort((a, b) => key(a).localeCompare(key(b)))
const normalized = (call: Call) => ({
  callRef: call.callRef,
  callData: call.callData,
  legs: byId<Leg>(call.legs, (leg) => leg.deviceId),
  participants: byId<Participant>(call.participants, (part) => part.participantId),
})

/** Replays the events a user receives into the calls as the user sees them. */
function applyDelta(call: Call, event: PlatformEvent): Call {
  const legs = new Map((call.legs ?? []).map((leg) => [leg.deviceId, leg]))
  const parts = new Map((call.participants ?? []).map((part) => [part.participantId, part]))
  for (const leg of (event['removedLegs'] as Leg[] | undefined) ?? []) legs.delete(leg.deviceId)
  for (const leg of (event['modifiedLegs'] as Leg[] | undefined) ?? []) {
    expect(legs.has(leg.deviceId), `modified leg ${leg.deviceId} unknown`).toBe(true)
    legs.set(leg.deviceId, leg)
  }
  for (const leg of (event['addedLegs'] as Leg[] | undefined) ?? []) {
    expect(legs.has(leg.deviceId), `added leg ${leg.deviceId} already there`).toBe(false)
    legs.set(leg.deviceId, leg)
  }
  for (const id of (event['removedParticipantIds'] as string[] | undefined) ?? []) {
    expect(parts.has(id), `removed participant ${id} unknown`).toBe(true)
    parts.delete(id)
  }
  for (const part of (event['modifiedParticipants'] as Participant[] | undefined) ?? []) {
    expect(parts.has(part.participantId), `modified participant ${part.participantId}`).toBe(true)
    parts.set(part.participantId, part)
  }
  for (const part of (event['addedParticipants'] as Participant[] | undefined) ?? []) {
    expect(parts.has(part.participantId), `added participant ${part.participantId}`).toBe(false)
    parts.set(part.participantId, part)
  }
  const callData = 'callData' in event ? (event['callData'] as Call['callData']) : call.callData
  return {
    callRef: call.callRef,
    ...(callData && { callData }),
    legs: [...legs.values()],
    participants: [...parts.values()],
  }
}

/** Checks every step of one sequence, remembering what each user has been told. */
class Checker {
  /** What each user was told about each call: its view, or 'removed' once OnCallRemoved came. */
  private readonly told = new Map<string, Map<string, Call | 'removed'>>(
    LOGINS.map((login) => [login, new Map()]),
  )
  /** The last OnUserStateModified of each user (FREE before any). */
  private readonly userStates = new Map<string, UserState>(LOGINS.map((login) => [login, 'FREE']))
  readonly steps: string[] = []

  observe = (step: Step): void => {
    this.steps.push(step.refused ? `${step.label} -> ${step.refused.type}` : step.label)
    const where = () => `after ${this.steps.length} steps:\n${this.steps.join('\n')}`
    this.checkEvents(step, where)
    this.checkState(step.after, where)
    this.checkTransitions(step.before, step.after, where)
  }

  private checkEvents(step: Step, where: () => string): void {
    for (const event of step.events) {
      const told = this.told.get(event.loginName)
      expect(
        told,
        `${event.eventName} for unknown user ${event.loginName}; ${where()}`,
      ).toBeDefined()
      if (told === undefined) continue
      if (event.eventName === 'OnUserStateModified') {
        const state = event['state'] as UserState
        expect(state, `repeated user state for ${event.loginName}; ${where()}`).not.toBe(
          this.userStates.get(event.loginName),
        )
        this.userStates.set(event.loginName, state)
        continue
      }
      const callRef = event['callRef'] as string
      const view = told.get(callRef)
      const about = `${event.eventName} ${callRef} for ${event.loginName}`
      switch (event.eventName) {
        case 'OnCallCreated':
          // A user may come back to a call it left (redirected or transferred back to it): a new
          // OnCallCreated, never one while the user is in the call.
          expect(view === undefined || view === 'removed', `${about} twice; ${where()}`).toBe(true)
          told.set(callRef, {
            callRef,
            ...('callData' in event && { callData: event['callData'] as Call['callData'] }),
            legs: (event['legs'] as Leg[] | undefined) ?? [],
            participants: (event['participants'] as Participant[] | undefined) ?? [],
          })
          break
        case 'OnCallModified': {
          const previous = event['previousCallRef'] as string | undefined
          if (previous !== undefined && (view === undefined || view === 'removed')) {
            // The call replaces one the user was in (transfer, merge): the deltas apply to the old view,
            // and the old callRef is closed for the user without an OnCallRemoved.
            const old = told.get(previous)
            expect(
              old !== undefined && old !== 'removed',
              `${about} replaces ${previous}; ${where()}`,
            ).toBe(true)
            if (old === undefined || old === 'removed') break
            told.set(previous, 'removed')
            told.set(callRef, applyDelta({ ...old, callRef }, event))
            break
          }
          expect(
            view !== undefined && view !== 'removed',
            `${about} out of order; ${where()}`,
          ).toBe(true)
          if (view === undefined || view === 'removed') break
          const next = applyDelta(view, event)
          const from = view.callData?.state
          const to = next.callData?.state
          if (from && to)
            expect(canTransition(from, to), `${about}: call ${from} -> ${to}; ${where()}`).toBe(
              true,
            )
          told.set(callRef, next)
          break
        }
        case 'OnCallRemoved':
          expect(
            view !== undefined && view !== 'removed',
            `${about} out of order; ${where()}`,
          ).toBe(true)
          told.set(callRef, 'removed')
          break
        default:
          break
      }
    }
  }

  private checkState(state: TelephonyState, where: () => string): void {
    // A device talks in one call at a time: answering or calling again holds the active call first.
    const activeOn = new Map<string, string>()
    for (const call of allCalls(state))
      for (const connection of call.connections) {
        const device = connection.endpoint.deviceId
        if (device === undefined || connection.state !== 'ACTIVE') continue
        expect(
          activeOn.get(device),
          `device ${device} is ACTIVE in two calls; ${where()}`,
        ).toBeUndefined()
        activeOn.set(device, call.callRef)
      }
    // No call without a connection, and nobody would see a call without a user in it, but a parked call
    // and an outside caller leaving a message with the voice mail (docs/call-model.md, "Service parties").
    for (const call of allCalls(state)) {
      expect(call.connections.length, `call ${call.callRef} is empty; ${where()}`).toBeGreaterThan(
        0,
      )
      expect(
        call.parked !== undefined ||
          call.hunt !== undefined ||
          isOutsideCallerAtVoicemail(call.connections) ||
          call.connections.some((c) => c.endpoint.loginName !== undefined),
        `call ${call.callRef} has no user; ${where()}`,
      ).toBe(true)
      // Every connection's device exists and belongs to the connection's user.
      for (const { endpoint } of call.connections) {
        if (endpoint.deviceId === undefined) {
          expect(endpoint.loginName, `outside party with a login; ${where()}`).toBeUndefined()
          continue
        }
        const device = state.devices[endpoint.deviceId]
        expect(device, `no device ${endpoint.deviceId}; ${where()}`).toBeDefined()
        expect(device?.loginName, `device ${endpoint.deviceId} owner; ${where()}`).toBe(
          endpoint.loginName,
        )
      }
    }
    // A device is in the calls its connections say: any per-device index of calls must agree.
    for (const device of Object.values(state.devices)) {
      const index = (device as unknown as Record<string, unknown>)['calls']
      if (!Array.isArray(index)) continue
      const calls = allCalls(state)
        .filter((call) => call.connections.some((c) => c.endpoint.deviceId === device.deviceId))
        .map((call) => call.callRef)
      expect([...index].sort(), `index of device ${device.deviceId}; ${where()}`).toEqual(
        calls.sort(),
      )
    }
    // The index of the calls by user and by device (call-index.ts) says what the connections say.
    for (const [field, keyOf] of [
      ['callsByUser', (c: Connection) => c.endpoint.loginName],
      ['callsByDevice', (c: Connection) => c.endpoint.deviceId],
    ] as const) {
      const index = state[field]
      const expected: Record<string, string[]> = {}
      for (const call of allCalls(state))
        for (const key of new Set(call.connections.map(keyOf)))
          if (key !== undefined) expected[key] = [...(expected[key] ?? []), call.callRef].sort()
      const actual = Object.fromEntries(
        Array.from(index, ([key, callRefs]) => [key, [...callRefs].sort()]),
      )
      expect(actual, `${field}; ${where()}`).toEqual(expected)
    }
    for (const login of LOGINS) {
      // BUSY exactly when the user has an active or held connection, and the user was told so.
      const busy = allCalls(state).some((call) =>
        call.connections.some(
          (c) => c.endpoint.loginName === login && BUSY_STATES.includes(c.state),
        ),
      )
      expect(this.userStates.get(login), `user state of ${login}; ${where()}`).toBe(
        busy ? 'BUSY' : 'FREE',
      )
      // What the user was told about each call is the call as the user sees it now.
      const told = this.told.get(login) ?? new Map()
      for (const call of allCalls(state)) {
        const view = callView(call, login, directory, allCalls(state))
        const known = told.get(call.callRef)
        if (view === undefined) {
          expect(
            known === undefined || known === 'removed',
            `${login} still in ${call.callRef}; ${where()}`,
          ).toBe(true)
          continue
        }
        expect(known, `${login} not told of ${call.callRef}; ${where()}`).not.toBe('removed')
        expect(
          known === undefined ? undefined : normalized(known as Call),
          `${login}'s view of ${call.callRef}; ${where()}`,
        ).toEqual(normalized(view))
      }
      for (const [callRef, known] of told)
        if (known !== 'removed')
          expect(
            callOf(state, callRef),
            `${login} never told ${callRef} ended; ${where()}`,
          ).toBeDefined()
    }
    this.checkHunts(state, where)
    this.checkDeskSharing(state, where)
    // Every ringing timeout belongs to a connection that still rings, every park timeout to a parked call.
    for (const timer of state.timers) {
      const command = timer.command
      if (command.type === 'parkTimeout')
        expect(
          callOf(state, command.callRef)?.parked,
          `stale ${JSON.stringify(timer)}; ${where()}`,
        ).toBeDefined()
      // The timers of a party (its ringing, auto answer, an outside rule) belong to that party, ringing
      // for all but an outside party's hang-up.
      if (command.type === 'huntQueueTimeout')
        expect(
          callOf(state, command.callRef)?.hunt,
          `stale ${JSON.stringify(timer)}; ${where()}`,
        ).toBeDefined()
      const party =
        command.type === 'ringingTimeout' ||
        command.type === 'huntNoAnswer' ||
        command.type === 'outsidePartyAnswers' ||
        command.type === 'outsidePartyRejects'
          ? { number: command.number, callRef: command.callRef, ringing: true }
          : command.type === 'deviceAnswers'
            ? { number: command.deviceId, callRef: command.callRef, ringing: true }
            : command.type === 'outsidePartyHangsUp'
              ? { number: command.number, callRef: command.callRef, ringing: false }
              : undefined
      if (party === undefined) continue
      expect(party.callRef, `timer without a call ${JSON.stringify(timer)}`).toBeDefined()
      const there = callOf(state, party.callRef ?? '')?.connections.some(
        (c) =>
          c.endpoint.number === party.number && (!party.ringing || c.state === 'RINGING_INCOMING'),
      )
      expect(there, `stale timer ${JSON.stringify(timer)}; ${where()}`).toBe(true)
    }
  }

  /**
   * Hunting groups: no member is offered two calls at once, an offered member rings (and only in a call a
   * group distributes), every queued call waits in its group's queue and the queue holds nothing else, and a
   * group's members are in it once and in no other group.
   */
  private checkHunts(state: TelephonyState, where: () => string): void {
    for (const call of allCalls(state))
      if (call.hunt !== undefined)
        reached.add(call.hunt.queuedAt === undefined ? 'offered' : 'queued')
    const offeredTo = new Map<string, string>()
    const queued = new Map<string, string[]>()
    for (const call of allCalls(state)) {
      for (const { endpoint, state: media } of call.connections) {
        if (endpoint.offeredBy === undefined) continue
        expect(call.hunt?.group, `offer outside a hunt in ${call.callRef}; ${where()}`).toBe(
          endpoint.offeredBy,
        )
        expect(media, `offered ${endpoint.number} not ringing; ${where()}`).toBe('RINGING_INCOMING')
        const login = endpoint.loginName ?? ''
        expect(
          offeredTo.get(login),
          `${login} offered ${call.callRef} and ${offeredTo.get(login)}; ${where()}`,
        ).toBeUndefined()
        offeredTo.set(login, call.callRef)
      }
      if (call.hunt?.queuedAt !== undefined)
        queued.set(call.hunt.group, [...(queued.get(call.hunt.group) ?? []), call.callRef])
      if (call.hunt !== undefined)
        expect(
          call.connections.filter((c) => c.endpoint.service === 'HUNTING_GROUP').length,
          `the group is not a party of ${call.callRef}; ${where()}`,
        ).toBe(1)
    }
    const seenMembers = new Set<string>()
    for (const group of Object.values(state.huntingGroups ?? {})) {
      expect([...group.queue].sort(), `queue of ${group.number}; ${where()}`).toEqual(
        (queued.get(group.number) ?? []).sort(),
      )
      for (const member of group.members) {
        expect(seenMembers.has(member), `${member} in two groups; ${where()}`).toBe(false)
        seenMembers.add(member)
      }
    }
  }

  /**
   * Desk sharing: the desk-sharing user's number is in service exactly while the user is logged on at a set,
   * a user is at one set at most, and a number out of service is in no call.
   */
  private checkDeskSharing(state: TelephonyState, where: () => string): void {
    const seats = Object.entries(state.deskSharing ?? {})
    const users = seats.map(([, login]) => login)
    expect(new Set(users).size, `a user at two sets; ${where()}`).toBe(users.length)
    for (const [set] of seats) expect(DESK_SETS, `${set} is no set; ${where()}`).toContain(set)
    const number = USERS.find((user) => user.loginName === DESK_USER)?.devices[0] ?? ''
    const inService = state.devices[number]?.state === 'IN_SERVICE'
    expect(inService, `${number} in service: ${inService}; ${where()}`).toBe(
      users.includes(DESK_USER),
    )
    const inCall = state.callsByDevice.get(number)?.length ?? 0
    if (!inService) expect(inCall, `${number} out of service in a call; ${where()}`).toBe(0)
    else if (inCall > 0) reached.add('desk-sharing call')
  }

  /** Every connection state change between two steps is one the table allows. */
  private checkTransitions(
    before: TelephonyState,
    after: TelephonyState,
    where: () => string,
  ): void {
    const previous = connectionStates(before)
    for (const [key, state] of connectionStates(after)) {
      const was = previous.get(key)
      if (was === undefined)
        expect(
          (CONNECTION_INITIAL_STATES as readonly MediaState[]).includes(state),
          `connection ${key} created ${state}; ${where()}`,
        ).toBe(true)
      else
        expect(canTransition(was, state), `connection ${key}: ${was} -> ${state}; ${where()}`).toBe(
          true,
        )
    }
  }

  /** Once every call ended: everybody was told, everybody is FREE, nothing is pending. */
  checkEnd(state: TelephonyState): void {
    const where = `after ${this.steps.length} steps:\n${this.steps.join('\n')}`
    expect(allCalls(state), where).toEqual([])
    expect(state.timers, where).toEqual([])
    for (const [login, told] of this.told) {
      for (const [callRef, known] of told)
        expect(known, `${login} never told ${callRef} ended; ${where}`).toBe('removed')
      expect(this.userStates.get(login), `${login} not FREE; ${where}`).toBe('FREE')
    }
  }
}

/** What the sequences reached of the hunting groups: a call offered to members, a call waiting. */
const reached = new Set<string>()

function runSequence(actions: readonly Action[], checker?: Checker): Driver {
  const driver = new Driver(checker?.observe)
  for (const step of actions) driver.act(step)
  driver.hangUpAll()
  checker?.checkEnd(driver.state)
  return driver
}

const parameters = (): fc.Parameters<[Action[]]> => ({
  numRuns: RUNS,
  ...(SEED !== undefined && { seed: SEED }),
  ...(PATH !== undefined && { path: PATH }),
})

describe('the call engine under random sequences of commands', () => {
  it(`keeps its invariants after every step, ends every call, and is deterministic (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: STEPS, size: 'max' }), (actions) => {
        const checked = runSequence(actions, new Checker())
        const again = runSequence(actions)
        expect(JSON.stringify(again.events)).toBe(JSON.stringify(checked.events))
        expect(JSON.stringify(again.state)).toBe(JSON.stringify(checked.state))
      }),
      parameters(),
    )
    // The sequences reach the hunting groups' states, not only the plain calls.
    if (RUNS >= 100) expect([...reached].sort()).toEqual(['desk-sharing call', 'offered', 'queued'])
  }, 120_000)

  it(`keeps them in consultations and calls to busy users, where the O2G additions act (${Math.ceil(RUNS / 4)} runs)`, () => {
    fc.assert(
      fc.property(
        fc.array(consultingAction, { minLength: 1, maxLength: STEPS, size: 'max' }),
        (actions) => {
          const checked = runSequence(actions, new Checker())
          const again = runSequence(actions)
          expect(JSON.stringify(again.events)).toBe(JSON.stringify(checked.events))
        },
      ),
      { ...parameters(), numRuns: Math.ceil(RUNS / 4) },
    )
  }, 120_000)
})
