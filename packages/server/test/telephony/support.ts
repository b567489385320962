/**
 * A small telephony world for engine tests: users on devices 1001..1004 and an outside number reached through
 * the outside-line prefix 0, with helpers to run commands and read the events each user receives.
 */
import { expect } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { PlatformError } from '../../src/platform/platform-error.js'
import type { RoutingLookup } from '../../src/platform/routing/routing-profile.js'
import { execute } from '../../src/platform/telephony/call-engine.js'
import {
  DEFAULT_ENGINE_SETTINGS,
  type EngineContext,
  type EngineResult,
  type EngineSettings,
} from '../../src/platform/telephony/engine-operation.js'
import type {
  CallFeatures,
  PartyPerson,
  TelephonyDirectory,
} from '../../src/platform/telephony/telephony-directory.js'
import {
  callOf,
  type EngineCommand,
  initialState,
  type TelephonyState,
} from '../../src/platform/telephony/telephony-state.js'

/** The users, by device: alice, bob, carol (STANDARD) and dave (MULTIMEDIA). */
export const PEOPLE: Record<string, PartyPerson> = {
  '1001': { loginName: 'alice', firstName: 'Alice', lastName: 'Arnaud' },
  '1002': { loginName: 'bob', firstName: 'Bob', lastName: 'Bernard' },
  '1003': { loginName: 'carol', firstName: 'Carol', lastName: 'Chevalier' },
  '1004': { loginName: 'dave', firstName: 'Dave', lastName: 'Dubois', multimedia: true },
}
/** The key of the callRefs of the tests' states: the same callRefs at every run. */
export const TEST_CALL_REF_KEY = '5ca1ab1e'.repeat(8)

/** The outside number the tests call (dialed as OUTSIDE_PREFIX + OUTSIDE). */
export const OUTSIDE = '0612345678'
export const OUTSIDE_PREFIX = '0'

export const directory: TelephonyDirectory = {
  ownerOfDevice: (deviceId) => PEOPLE[deviceId],
  resolve: (dialed) => {
    const person = PEOPLE[dialed]
    if (person) return { number: dialed, deviceId: dialed, loginName: person.loginName }
    const byLogin = Object.entries(PEOPLE).find(([, p]) => p.loginName === dialed)
    if (byLogin) return { number: byLogin[0], deviceId: byLogin[0], loginName: dialed }
    if (dialed.startsWith(OUTSIDE_PREFIX) && dialed.length > 4)
      return { number: dialed.slice(OUTSIDE_PREFIX.length) }
    return undefined
  },
}

export const context: EngineContext = { directory, settings: DEFAULT_ENGINE_SETTINGS }

/** The empty state with every device in service. */
export function newState(): TelephonyState {
  return initialState(
    Object.entries(PEOPLE).map(([deviceId, person]) => ({
      deviceId,
      loginName: person.loginName,
      state: 'IN_SERVICE' as const,
      mutable: true,
      muted: false,
    })),
    TEST_CALL_REF_KEY,
  )
}

/** Runs commands one after the other on a state, at a clock that moves 1 s per command. */
export class World {
  state: TelephonyState = newState()
  now = 1_000

  run(command: EngineCommand): EngineResult {
    this.now += 1_000
    const result = execute(this.state, command, this.now, context)
    this.state = result.state
    return result
  }

  /** A call from `from`'s device to `callee`, answered by `answerer` (the callee's user) when given. */
  call(from: string, callee: string, answerer?: string): string {
    const device = deviceOf(from)
    const callRef = this.run({
      type: 'makeCall',
      loginName: from,
      deviceId: device,
      callee,
      autoAnswer: true,
    }).callRef
    if (callRef === undefined) throw new Error('no callRef')
    if (answerer !== undefined) this.run({ type: 'answer', loginName: answerer, callRef })
    return callRef
  }

  /** Expects the command to be refused with the error type, and the state to be unchanged. */
  refuses(command: EngineCommand, type: PlatformError['type']): void {
    const before = JSON.stringify(this.state)
    let error: unknown
    try {
      execute(this.state, command, this.now + 1_000, context)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(PlatformError)
    expect((error as PlatformError).type).toBe(type)
    expect(JSON.stringify(this.state)).toBe(before)
  }
}

/** The main device of a user. */
export function deviceOf(loginName: string): string {
  const entry = Object.entries(PEOPLE).find(([, person]) => person.loginName === loginName)
  if (entry === undefined) throw new Error(`no user ${loginName}`)
  return entry[0]
}

/** The events one user receives. */
export function eventsOf(events: readonly PlatformEvent[], loginName: string): PlatformEvent[] {
  return events.filter((event) => event.loginName === loginName)
}

/** A one-line digest of an event: name, callRef, cause and, where set, the key payload fields. */
export function digest(event: PlatformEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { eventName: event.eventName }
  for (const key of [
    'callRef',
    'previousCallRef',
    'replacedByCallRef',
    'cause',
    'newDestination',
    'state',
  ])
    if (event[key] !== undefined) out[key] = event[key]
  const callData = event['callData'] as { state?: string } | undefined
  if (callData?.state !== undefined) out['callState'] = callData.state
  const legs = (event['legs'] ?? event['modifiedLegs']) as { deviceId: string; state: string }[]
  if (legs?.length) out['legs'] = legs.map((leg) => `${leg.deviceId}:${leg.state}`)
  const participants = event['participants'] as { participantId: string }[] | undefined
  if (participants) out['participants'] = participants.map((p) => p.participantId)
  const added = event['addedParticipants'] as { participantId: string }[] | undefined
  if (added?.length) out['added'] = added.map((p) => p.participantId)
  const removed = event['removedParticipantIds'] as string[] | undefined
  if (removed?.length) out['removed'] = removed
  return out
}

/** The digests of the events one user receives. */
export function seen(
  events: readonly PlatformEvent[],
  loginName: string,
): Record<string, unknown>[] {
  return eventsOf(events, loginName).map(digest)
}

/** The connections of a call in the state, as `number:STATE`. */
export function connections(state: TelephonyState, callRef: string): string[] | undefined {
  return callOf(state, callRef)?.connections.map(
    (connection) => `${connection.endpoint.number}:${connection.state}`,
  )
}

// ---------------------------------------------------------------------------------------------------------
// Call features (redirect, pickup, park, callbacks, recording, media): the same users, with the features
// the directory offers them, a voice mail on 8000, and alice's second device 1011 for device moves.

export const VOICEMAIL = '8000'
/** alice's second device. */
export const ALICE_SOFTPHONE = '1011'
const ALL_FEATURES: CallFeatures = {
  voicemail: VOICEMAIL,
  park: true,
  recording: true,
  callBack: true,
}
/** The pickup group of the four users: any of them may pick up the others' calls. */
export const PICKUP_GROUP = 'office'
/**
 * The features of each user: everything for alice, bob and carol; dave (MULTIMEDIA) voice mail and recording;
 * all four in one pickup group (pickup-groups.test.ts tries the others).
 */
export const FEATURES: Record<string, CallFeatures> = {
  alice: { ...ALL_FEATURES, pickupGroup: PICKUP_GROUP },
  bob: { ...ALL_FEATURES, pickupGroup: PICKUP_GROUP },
  carol: { ...ALL_FEATURES, pickupGroup: PICKUP_GROUP },
  dave: { voicemail: VOICEMAIL, recording: true, pickupGroup: PICKUP_GROUP },
}
const FEATURE_PEOPLE: Record<string, PartyPerson> = { ...PEOPLE }
if (PEOPLE['1001']) FEATURE_PEOPLE[ALICE_SOFTPHONE] = PEOPLE['1001']

export const featureDirectory: TelephonyDirectory = {
  ownerOfDevice: (deviceId) => FEATURE_PEOPLE[deviceId],
  resolve: (dialed) =>
    dialed === ALICE_SOFTPHONE
      ? { number: dialed, deviceId: dialed, loginName: 'alice' }
      : directory.resolve(dialed),
  featuresOf: (loginName) => FEATURES[loginName] ?? {},
}

/** The PartyInfo of a user's device, as calls show it. */
export function userParty(deviceId: string) {
  const person = FEATURE_PEOPLE[deviceId]
  if (person === undefined) throw new Error(`no device ${deviceId}`)
  return {
    id: { loginName: person.loginName, phoneNumber: deviceId },
    firstName: person.firstName,
    lastName: person.lastName,
    type: { main: 'USER' },
    vcardPath: `${person.loginName}.vcf`,
  }
}

/** A World on the feature directory, with settings of its own and a clock that fires due timers. */
export class FeatureWorld extends World {
  readonly context: EngineContext

  constructor(
    settings: Partial<EngineSettings> = {},
    telephonyDirectory: TelephonyDirectory = featureDirectory,
    routing?: RoutingLookup,
  ) {
    super()
    this.context = {
      directory: telephonyDirectory,
      settings: { ...DEFAULT_ENGINE_SETTINGS, ...settings },
      ...(routing && { routing }),
    }
    this.state = initialState(
      Object.entries(FEATURE_PEOPLE).map(([deviceId, person]) => ({
        deviceId,
        loginName: person.loginName,
        state: 'IN_SERVICE' as const,
        mutable: true,
        muted: false,
      })),
      TEST_CALL_REF_KEY,
    )
  }

  override run(command: EngineCommand): EngineResult {
    this.now += 1_000
    const result = execute(this.state, command, this.now, this.context)
    this.state = result.state
    return result
  }

  override refuses(command: EngineCommand, type: PlatformError['type']): void {
    const before = JSON.stringify(this.state)
    let error: unknown
    try {
      execute(this.state, command, this.now + 1_000, this.context)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(PlatformError)
    expect((error as PlatformError).type).toBe(type)
    expect(JSON.stringify(this.state)).toBe(before)
  }

  /** A call from `from`'s device to alice's desk phone 1001, picked up and answered on her softphone. */
  callAliceOnSoftphone(from: string): string {
    const callRef = this.call(from, '1001')
    this.run({
      type: 'pickup',
      loginName: 'alice',
      deviceId: ALICE_SOFTPHONE,
      otherCallRef: callRef,
      otherPhoneNumber: '1001',
      autoAnswer: true,
    })
    return callRef
  }

  /** Moves the clock on by `ms`, running the timers that fall due in order; returns their events. */
  advance(ms: number): PlatformEvent[] {
    const until = this.now + ms
    const events: PlatformEvent[] = []
    for (;;) {
      const due = [...this.state.timers]
        .sort((a, b) => a.at - b.at)
        .find((timer) => timer.at <= until)
      if (due === undefined) break
      this.state = { ...this.state, timers: this.state.timers.filter((timer) => timer !== due) }
      this.now = due.at
      const result = execute(this.state, due.command, this.now, this.context)
      this.state = result.state
      events.push(...result.events)
    }
    this.now = until
    return events
  }
}

/** The event names one user receives, with their cause when they have one (`OnCallRemoved:REDIRECTED`). */
export function namesOf(events: readonly PlatformEvent[], loginName: string): string[] {
  return eventsOf(events, loginName).map((event) =>
    typeof event['cause'] === 'string' ? `${event.eventName}:${event['cause']}` : event.eventName,
  )
}
