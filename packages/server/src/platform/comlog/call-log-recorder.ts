/**
 * Follows each directory user's part in each call from the engine's events, and turns it into a record of
 * the user's communication log when the user leaves the call (OnCallRemoved): one record per user per call
 * the user took part in (docs/comlog.md). What it follows lives in memory; a restart seeds it from the calls
 * in progress (`seed`). `observe` works on copies, so that a command whose state fails to be stored leaves
 * nothing behind: its `commit` keeps them once the records are stored with the state.
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
import type { PlatformEvent } from '../ports.js'
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
  legs: Record<string, string>
  parties: Record<string, { identity: PartyInfo; anonymous?: boolean }>
  initialCalled?: PartyInfo
  associatedData?: string
  causes: string[]
  transferredBy?: string
}

/** What one command did to the log: the records to store with its state, and how to keep the rest. */
export interface LogChanges {
  drafts: ComRecordDraft[]
  /** Keeps what the command changed; call it once the drafts are stored. */
  commit(): void
}

type CallEvent = PlatformEvent & { callRef: string }

export class CallLogRecorder {
  /** The parts in progress by callRef, then login name. */
  readonly #parts = new Map<string, Map<string, Part>>()
  readonly #directory: TelephonyDirectory

  constructor(directory: TelephonyDirectory) {
    this.#directory = directory
  }

  /** Starts following the users' parts in the calls in progress (after a restart). */
  seed(calls: Iterable<CallRecord>): void {
    for (const call of calls) {
      const parts = new Map<string, Part>()
      for (const { endpoint, state } of call.connections) {
        if (endpoint.loginName === undefined || parts.has(endpoint.loginName)) continue
        const callee = endpoint.loginName === call.initialCalled.loginName
        parts.set(endpoint.loginName, {
          ...newPart(endpoint.loginName, callee ? 'CALLEE' : 'CALLER', call.createdAt),
          ...((state === 'ACTIVE' || state === 'HELD') && { answeredAt: call.createdAt }),
          ...(endpoint.deviceId !== undefined && { leg: endpoint.deviceId }),
        })
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

  /** Reads a command's events, at `now`: the records of the users who left a call. */
  observe(events: readonly PlatformEvent[], now: number): LogChanges {
    const work = new Map<string, Map<string, Part>>()
    const drafts: ComRecordDraft[] = []
    const partsOf = (callRef: string): Map<string, Part> => {
      let parts = work.get(callRef)
      if (parts === undefined) {
        const kept = this.#parts.get(callRef)
        parts = new Map([...(kept ?? [])].map(([login, part]) => [login, clonePart(part)]))
        work.set(callRef, parts)
      }
      return parts
    }
    for (const event of events) {
      if (!isCallEvent(event)) continue
      const { loginName, callRef } = event
      if (event.eventName === 'OnCallCreated') {
        partsOf(callRef).set(loginName, this.#created(event, now))
        continue
      }
      if (event.eventName === 'OnCallModified') {
        const previous = event['previousCallRef']
        if (typeof previous === 'string' && previous !== callRef) {
          const moved = partsOf(previous).get(loginName)
          partsOf(previous).delete(loginName)
          if (moved !== undefined && !partsOf(callRef).has(loginName))
            partsOf(callRef).set(loginName, moved)
        }
        const part = partsOf(callRef).get(loginName) ?? newPart(loginName, 'CALLER', now)
        partsOf(callRef).set(loginName, part)
        follow(part, event, now)
        continue
      }
      if (event.eventName === 'OnCallRemoved') {
        const part = partsOf(callRef).get(loginName)
        partsOf(callRef).delete(loginName)
        if (part !== undefined) drafts.push(this.#draft(part, callRef, event['cause'], now))
      }
    }
    return {
      drafts,
      commit: () => {
        for (const [callRef, parts] of work)
          if (parts.size === 0) this.#parts.delete(callRef)
          else this.#parts.set(callRef, parts)
      },
    }
  }

  #created(event: CallEvent, now: number): Part {
    const callData = event['callData'] as Call['callData']
    const cause = event['cause']
    const initial = callData?.initialCalled?.id
    const legs = (event['legs'] as Leg[] | undefined) ?? []
    const called =
      initial !== undefined &&
      (initial.loginName === event.loginName ||
        legs.some((leg) => leg.deviceId === initial.phoneNumber))
    const role: ComRecordRole =
      called || (typeof cause === 'string' && CALLEE_ARRIVALS.has(cause)) ? 'CALLEE' : 'CALLER'
    const part = newPart(event.loginName, role, now)
    follow(part, event, now)
    return part
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
    const own: ComRecordParticipant = {
      role: part.role,
      answered,
      identity: {
        id: { loginName: part.loginName, ...(part.leg !== undefined && { phoneNumber: part.leg }) },
        ...(person?.firstName !== undefined && { firstName: person.firstName }),
        ...(person?.lastName !== undefined && { lastName: person.lastName }),
        type: { main: 'USER' },
      },
      reason,
      ...(part.initialCalled !== undefined && { initialCalled: part.initialCalled }),
      ...(part.leg !== undefined && { leg: part.leg }),
    }
    const remotePartyIds = new Set<string>()
    const others = Object.entries(part.parties).map(([participantId, party]) => {
      remotePartyIds.add(participantId)
      if (party.identity.id.loginName) remotePartyIds.add(party.identity.id.loginName)
      if (party.identity.id.phoneNumber) remotePartyIds.add(party.identity.id.phoneNumber)
      return {
        role: remoteRole,
        answered,
        identity: party.identity,
        ...(party.anonymous && { anonymous: true }),
        reason,
      } satisfies ComRecordParticipant
    })
    const iso = (ms: number) => new Date(ms).toISOString()
    return {
      loginName: part.loginName,
      beginAt: part.beginAt,
      role: part.role,
      answered,
      reason,
      missed: isMissed(part.role, answered, reason),
      remotePartyIds: [...remotePartyIds],
      record: {
        comRef: callRef,
        participants: [own, ...others],
        beginDate: iso(part.beginAt),
        ...(part.answeredAt !== undefined && { convDate: iso(part.answeredAt) }),
        endDate: iso(now),
        holdDuration: Math.round(part.holdMs / 1000),
        ...(part.transferredBy !== undefined && { transferredBy: part.transferredBy }),
        ...(part.associatedData !== undefined && { associatedData: part.associatedData }),
      },
    }
  }
}

function newPart(loginName: string, role: ComRecordRole, now: number): Part {
  return { loginName, role, beginAt: now, holdMs: 0, legs: {}, parties: {}, causes: [] }
}

function clonePart(part: Part): Part {
  return { ...part, legs: { ...part.legs }, parties: { ...part.parties }, causes: [...part.causes] }
}

function isCallEvent(event: PlatformEvent): event is CallEvent {
  return typeof event['callRef'] === 'string'
}

/** Updates a part from an OnCallCreated or OnCallModified of its user. */
function follow(part: Part, event: CallEvent, now: number): void {
  const list = <T>(key: string) => (event[key] as T[] | undefined) ?? []
  for (const leg of [...list<Leg>('legs'), ...list<Leg>('addedLegs'), ...list<Leg>('modifiedLegs')])
    part.legs[leg.deviceId] = leg.state
  for (const leg of list<Leg>('removedLegs')) delete part.legs[leg.deviceId]
  part.leg ??= Object.keys(part.legs)[0]
  const states = Object.values(part.legs)
  if (states.includes('ACTIVE')) {
    part.answeredAt ??= now
    if (part.heldSince !== undefined) part.holdMs += now - part.heldSince
    delete part.heldSince
  } else if (states.includes('HELD')) {
    part.answeredAt ??= now
    part.heldSince ??= now
  }
  for (const participant of [
    ...list<Participant>('participants'),
    ...list<Participant>('addedParticipants'),
    ...list<Participant>('modifiedParticipants'),
  ]) {
    const identity = participant.identity ?? { id: { phoneNumber: participant.participantId } }
    part.parties[participant.participantId] = {
      identity,
      ...(participant.anonymous && { anonymous: true }),
    }
  }
  const cause = event['cause']
  if (typeof cause === 'string' && NOTABLE_CAUSES.has(cause) && !part.causes.includes(cause))
    part.causes.push(cause)
  if (cause === 'TRANSFERRED') {
    const by = list<string>('removedParticipantIds')[0]
    const party = by === undefined ? undefined : part.parties[by]
    if (by !== undefined) part.transferredBy = party?.identity.id.loginName ?? by
  }
  const callData = event['callData'] as Call['callData']
  if (callData?.initialCalled !== undefined) part.initialCalled ??= callData.initialCalled
  if (callData?.associatedData !== undefined) part.associatedData = callData.associatedData
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
  const services = Object.values(part.parties).filter(
    (party) => party.identity.type?.main === 'SERVICE',
  )
  if (services.length === 0) return false
  const logins = new Set([part.loginName])
  for (const party of Object.values(part.parties))
    if (party.identity.id.loginName !== undefined) logins.add(party.identity.id.loginName)
  const voicemails = new Set(
    [...logins].map((login) => directory.featuresOf?.(login)?.voicemail).filter(Boolean),
  )
  return services.some((party) => voicemails.has(party.identity.id.phoneNumber))
}
