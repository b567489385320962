/**
 * Follows each directory user's part in each call from the engine's events, and turns it into a record of
 * the user's communication log when the user leaves the call (OnCallRemoved): one record per user per call
 * the user took part in (docs/comlog.md). What it follows lives in memory; a restart seeds it from the calls
 * in progress (`seed`). It follows each command as the command runs, before the command's batch is stored
 * (TelephonyService's group commit); when a batch fails to be stored, the service `restart`s it from the
 * calls as last stored, as a restart of the service would (docs/comlog.md).
 */
import type {
  Call,
  ComRecordParticipant,
  ComRecordReason,
  ComRecordRole,
  Leg,
  Participant,
  PartyInfo,
} from '@openness/wire'
import type { PlatformEvent } from '../events.js'
import { IsoDateFormatter } from '../iso-date.js'
import type { TelephonyDirectory } from '../telephony/telephony-directory.js'
import type { CallRecord } from '../telephony/telephony-state.js'
import { type ComRecordDraft, isMissed } from './com-record.js'

/** Causes that say how a user came into or went on in a call, kept for the reason (docs/comlog.md). */
const NOTABLE_CAUSES = new Set([
  'PICKED_UP',
  'REDIRECTED',
  'FORWARDED',
  'OVERFLOWN',
  'TRANSFERRED',
  'CONFERENCED',
  'PARKED',
  'BUSY',
  'DESTINATION_NOT_OBTAINABLE',
])
/** Causes with which a user comes into a call that was placed to someone else: the user is a CALLEE. */
const CALLEE_ARRIVALS = new Set([
  'DISTRIBUTED',
  'PICKED_UP',
  'REDIRECTED',
  'FORWARDED',
  'OVERFLOWN',
  'TRANSFERRED',
])

/** A user's part in one call, as followed so far. */
interface Part {
  loginName: string
  role: ComRecordRole
  beginAt: number
  answeredAt?: number
  heldSince?: number
  holdMs: number
  leg?: string
  /** The state of each of the user's legs, by device id. */
  legs: Map<string, string>
  /** The other parties as last described by the events, by participant id. */
  parties: Map<string, Participant>
  initialCalled?: PartyInfo
  associatedData?: string
  /** The notable causes met, in order. */
  causes: readonly string[]
  transferredBy?: string
  /**
   * Offered the call by a hunting group (it arrived DISTRIBUTED): a member who never answers it was never a
   * party of the call, and gets no record (docs/groups.md, "The communication log").
   */
  offered?: boolean
}

type CallEvent = PlatformEvent & { callRef: string }

export class CallLogRecorder {
  /** The parts in progress by callRef, then login name. */
  readonly #parts = new Map<string, Map<string, Part>>()
  readonly #directory: TelephonyDirectory
  /** Formats the records' dates (toISOString would cost more than the rest of a record). */
  readonly #dates = new IsoDateFormatter()

  constructor(directory: TelephonyDirectory) {
    this.#directory = directory
  }

  /** Starts following the users' parts in the calls in progress (after a restart). */
  seed(calls: Iterable<CallRecord>): void {
    for (const call of calls) {
      const parts = new Map<string, Part>()
      for (const { endpoint, state } of call.connections) {
        if (endpoint.loginName === undefined || parts.has(endpoint.loginName)) continue
        const callee =
          endpoint.offeredBy !== undefined ||
          call.distributedBy !== undefined ||
          endpoint.loginName === call.initialCalled.loginName ||
          this.#placedTo(endpoint.loginName, call.initialCalled.number, [endpoint.deviceId])
        const part = newPart(endpoint.loginName, callee ? 'CALLEE' : 'CALLER', call.createdAt)
        if (endpoint.offeredBy !== undefined) part.offered = true
        if (state === 'ACTIVE' || state === 'HELD') part.answeredAt = call.createdAt
        if (endpoint.deviceId !== undefined) part.leg = endpoint.deviceId
        parts.set(endpoint.loginName, part)
      }
      if (parts.size > 0) this.#parts.set(call.callRef, parts)
    }
  }

  /** How many parts are followed (tests). */
  get size(): number {
    let size = 0
    for (const parts of this.#parts.values()) size += parts.size
    return size
  }

  /** Forgets every part and follows the calls in progress anew, as after a restart (a batch not stored). */
  restart(calls: Iterable<CallRecord>): void {
    this.#parts.clear()
    this.seed(calls)
  }

  /** Reads a command's events, at `now`, and follows them; returns the records of the users who left a call. */
  observe(events: readonly PlatformEvent[], now: number): ComRecordDraft[] {
    const drafts: ComRecordDraft[] = []
    for (const event of events) {
      if (!isCallEvent(event)) continue
      const { loginName, callRef } = event
      switch (event.eventName) {
        case 'OnCallCreated':
          this.#put(callRef, loginName, this.#created(event, now))
          break
        case 'OnCallModified': {
          const previous = event['previousCallRef']
          if (typeof previous === 'string' && previous !== callRef) {
            const moved = this.#take(previous, loginName)
            if (moved !== undefined && this.#get(callRef, loginName) === undefined)
              this.#put(callRef, loginName, moved)
          }
          let part = this.#get(callRef, loginName)
          if (part === undefined) {
            part = newPart(loginName, 'CALLER', now)
            this.#put(callRef, loginName, part)
          }
          follow(part, event, now)
          break
        }
        case 'OnCallRemoved': {
          const part = this.#take(callRef, loginName)
          if (part !== undefined && !(part.offered === true && part.answeredAt === undefined))
            drafts.push(this.#draft(part, callRef, event['cause'], now))
        }
      }
    }
    return drafts
  }

  #get(callRef: string, loginName: string): Part | undefined {
    return this.#parts.get(callRef)?.get(loginName)
  }

  #put(callRef: string, loginName: string, part: Part): void {
    let parts = this.#parts.get(callRef)
    if (parts === undefined) {
      parts = new Map()
      this.#parts.set(callRef, parts)
    }
    parts.set(loginName, part)
  }

  /** Removes the user's part in the call and returns it. */
  #take(callRef: string, loginName: string): Part | undefined {
    const parts = this.#parts.get(callRef)
    const part = parts?.get(loginName)
    if (part === undefined) return undefined
    parts?.delete(loginName)
    if (parts?.size === 0) this.#parts.delete(callRef)
    return part
  }

  #created(event: CallEvent, now: number): Part {
    const callData = event['callData'] as Call['callData']
    const cause = event['cause']
    const initial = callData?.initialCalled?.id
    const legs = (event['legs'] as Leg[] | undefined) ?? []
    const called =
      initial !== undefined &&
      (initial.loginName === event.loginName ||
        this.#placedTo(
          event.loginName,
          initial.phoneNumber,
          legs.map((leg) => leg.deviceId),
        ))
    const role: ComRecordRole =
      called || (typeof cause === 'string' && CALLEE_ARRIVALS.has(cause)) ? 'CALLEE' : 'CALLER'
    const part = newPart(event.loginName, role, now)
    if (cause === 'DISTRIBUTED') part.offered = true
    follow(part, event, now)
    return part
  }

  /**
   * Whether a call whose initialCalled is `number` was placed to the user on one of `deviceIds`: the number is
   * one of them (an extension dialed), or reaches the user as an incoming call to it does (a public number,
   * DDI, mapped to an extension, or a user's companyPhone: TelephonyDirectory.resolveIncoming).
   */
  #placedTo(
    loginName: string,
    number: string | undefined,
    deviceIds: readonly (string | undefined)[],
  ): boolean {
    if (number === undefined) return false
    if (deviceIds.includes(number)) return true
    return this.#directory.resolveIncoming?.(number)?.loginName === loginName
  }

  /** The record of a part that ended with `cause`. */
  #draft(part: Part, callRef: string, cause: unknown, now: number): ComRecordDraft {
    if (part.heldSince !== undefined) part.holdMs += now - part.heldSince
    const answered = part.answeredAt !== undefined
    const reason = reasonOf(
      part,
      typeof cause === 'string' ? cause : undefined,
      answered,
      this.#directory,
    )
    const remoteRole: ComRecordRole = part.role === 'CALLER' ? 'CALLEE' : 'CALLER'
    const person = part.leg === undefined ? undefined : this.#directory.ownerOfDevice(part.leg)
    // Built by assignment rather than conditional spreads: this runs at every call's end, for each user.
    const id: PartyInfo['id'] = { loginName: part.loginName }
    if (part.leg !== undefined) id.phoneNumber = part.leg
    const identity: PartyInfo = { id }
    if (person?.firstName !== undefined) identity.firstName = person.firstName
    if (person?.lastName !== undefined) identity.lastName = person.lastName
    identity.type = { main: 'USER' }
    const own: ComRecordParticipant = { role: part.role, answered, identity, reason }
    if (part.initialCalled !== undefined) own.initialCalled = part.initialCalled
    if (part.leg !== undefined) own.leg = part.leg
    const remotePartyIds = new Set<string>()
    const participants: ComRecordParticipant[] = [own]
    for (const [participantId, party] of part.parties) {
      const identity = identityOf(party)
      remotePartyIds.add(participantId)
      if (identity.id.loginName) remotePartyIds.add(identity.id.loginName)
      if (identity.id.phoneNumber) remotePartyIds.add(identity.id.phoneNumber)
      const participant: ComRecordParticipant = { role: remoteRole, answered, identity, reason }
      if (party.anonymous) participant.anonymous = true
      participants.push(participant)
    }
    const record: ComRecordDraft['record'] = {
      comRef: callRef,
      participants,
      beginDate: this.#dates.format(part.beginAt),
      endDate: this.#dates.format(now),
      holdDuration: Math.round(part.holdMs / 1000),
    }
    if (part.answeredAt !== undefined) record.convDate = this.#dates.format(part.answeredAt)
    if (part.transferredBy !== undefined) record.transferredBy = part.transferredBy
    if (part.associatedData !== undefined) record.associatedData = part.associatedData
    return {
      loginName: part.loginName,
      beginAt: part.beginAt,
      role: part.role,
      answered,
      reason,
      missed: isMissed(part.role, answered, reason),
      remotePartyIds: [...remotePartyIds],
      record,
    }
  }
}

function newPart(loginName: string, role: ComRecordRole, now: number): Part {
  return {
    loginName,
    role,
    beginAt: now,
    holdMs: 0,
    legs: new Map(),
    parties: new Map(),
    causes: [],
  }
}

function isCallEvent(event: PlatformEvent): event is CallEvent {
  return typeof event['callRef'] === 'string'
}

/** Updates a part from an OnCallCreated or OnCallModified of its user. */
function follow(part: Part, event: CallEvent, now: number): void {
  setLegs(part, event['legs'])
  setLegs(part, event['addedLegs'])
  setLegs(part, event['modifiedLegs'])
  const removedLegs = event['removedLegs'] as readonly Leg[] | undefined
  if (removedLegs !== undefined) for (const leg of removedLegs) part.legs.delete(leg.deviceId)
  if (part.leg === undefined) for (const deviceId of part.legs.keys()) part.leg ??= deviceId
  let active = false
  let held = false
  for (const state of part.legs.values()) {
    if (state === 'ACTIVE') active = true
    else if (state === 'HELD') held = true
  }
  if (active) {
    part.answeredAt ??= now
    if (part.heldSince !== undefined) part.holdMs += now - part.heldSince
    delete part.heldSince
  } else if (held) {
    part.answeredAt ??= now
    part.heldSince ??= now
  }
  setParties(part, event['participants'])
  setParties(part, event['addedParticipants'])
  setParties(part, event['modifiedParticipants'])
  const cause = event['cause']
  if (typeof cause === 'string' && NOTABLE_CAUSES.has(cause) && !part.causes.includes(cause))
    part.causes = [...part.causes, cause]
  if (cause === 'TRANSFERRED') {
    const by = (event['removedParticipantIds'] as readonly string[] | undefined)?.[0]
    if (by !== undefined) part.transferredBy = part.parties.get(by)?.identity?.id.loginName ?? by
  }
  const callData = event['callData'] as Call['callData']
  if (callData?.initialCalled !== undefined) part.initialCalled ??= callData.initialCalled
  if (callData?.associatedData !== undefined) part.associatedData = callData.associatedData
}

function setLegs(part: Part, legs: unknown): void {
  if (legs === undefined) return
  for (const leg of legs as readonly Leg[]) part.legs.set(leg.deviceId, leg.state)
}

function setParties(part: Part, participants: unknown): void {
  if (participants === undefined) return
  for (const participant of participants as readonly Participant[])
    part.parties.set(participant.participantId, participant)
}

/** A party's identity; a party the engine describes without one is known by its participant id. */
function identityOf(party: Participant): PartyInfo {
  return party.identity ?? { id: { phoneNumber: party.participantId } }
}

/**
 * The reason of a record (docs/comlog.md, "Reasons"): the cause the user left the call with when it says
 * why, else how the call went on (transfer, conference, pickup, redirection, voice mail), else NORMAL when
 * answered and ABANDONED when not.
 */
function reasonOf(
  part: Part,
  cause: string | undefined,
  answered: boolean,
  directory: TelephonyDirectory,
): ComRecordReason {
  switch (cause) {
    case 'TRANSFERRED':
      return 'RELEASED_ON_TRANSFER'
    case 'REDIRECTED':
      return 'RELEASED_ON_REDIRECT'
    case 'OVERFLOWN':
      return 'VOICEMAIL'
    case 'PICKED_UP':
      return 'PICKUP'
    case 'CONFERENCED':
      return 'CONFERENCED'
    case 'FORWARDED':
      return 'FORWARDED'
    case 'BUSY':
      return 'BUSY'
    case 'DESTINATION_NOT_OBTAINABLE':
      return 'INVALID_NUMBER'
    case 'NOT_ANSWERED':
      if (!answered) return 'ABANDONED'
  }
  if (cause === 'PARKED') return answered ? 'NORMAL' : 'ABANDONED'
  if (reachedVoicemail(part, directory)) return 'VOICEMAIL'
  if (part.causes.includes('TRANSFERRED')) return 'TRANSFERRED'
  if (part.causes.includes('CONFERENCED')) return 'CONFERENCED'
  if (part.causes.includes('PICKED_UP')) return 'PICKUP'
  if (part.causes.includes('FORWARDED')) return 'FORWARDED'
  if (part.causes.includes('REDIRECTED')) return 'REDIRECTED'
  if (part.causes.includes('OVERFLOWN')) return 'VOICEMAIL'
  if (!answered && part.causes.includes('BUSY')) return 'BUSY'
  if (!answered && part.causes.includes('DESTINATION_NOT_OBTAINABLE')) return 'INVALID_NUMBER'
  return answered ? 'NORMAL' : 'ABANDONED'
}

/**
 * Whether the user's part reached a voice mail: a SERVICE party whose number is the voice mail of the user or
 * of another party (a park slot is a SERVICE party too, on another number).
 */
function reachedVoicemail(part: Part, directory: TelephonyDirectory): boolean {
  const services = [...part.parties.values()].filter(
    (party) => party.identity?.type?.main === 'SERVICE',
  )
  if (services.length === 0) return false
  const logins = new Set([part.loginName])
  for (const party of part.parties.values())
    if (party.identity?.id.loginName !== undefined) logins.add(party.identity.id.loginName)
  const voicemails = new Set(
    [...logins].map((login) => directory.featuresOf?.(login)?.voicemail).filter(Boolean),
  )
  return services.some((party) => voicemails.has(party.identity?.id.phoneNumber))
}
