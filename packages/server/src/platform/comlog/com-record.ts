/**
 * A record of the communication log as the platform holds it: the wire ComRecord (wire facts 8.2) with the
 * user it belongs to and what the queries and the event summary select on (docs/comlog.md).
 */
import type { ComRecord, ComRecordReason, ComRecordRole } from '@openness/wire'

/** A record before the store gives it its id; `acknowledged` is false. */
export interface ComRecordDraft {
  /** The directory user whose log the record is in. */
  loginName: string
  /** The record as the wire shows it, without `recordId` and `acknowledged`. */
  record: Omit<ComRecord, 'recordId' | 'acknowledged'>
  /** When the user's part of the call began and ended, milliseconds since the epoch. */
  beginAt: number
  /** The user's role in the call. */
  role: ComRecordRole
  /** Whether the user answered (or, as caller, was answered). */
  answered: boolean
  reason: ComRecordReason
  /** Whether the record counts as a missed call while unacknowledged (`isMissed`). */
  missed: boolean
  /** The login names, phone numbers and participant ids of the other parties (remotePartyId). */
  remotePartyIds: readonly string[]
}

/** A stored record: the wire ComRecord and its owner. */
export interface StoredComRecord {
  loginName: string
  missed: boolean
  record: ComRecord
}

/** What a change did to one record: enough to tell whether the missed-call counter moved. */
export interface ComRecordChange {
  recordId: number
  /** Whether the record is a missed call. */
  missed: boolean
  /** Whether the record was acknowledged before the change. */
  wasAcknowledged: boolean
}

/** The reasons of an unanswered incoming call that is no missed call: the call was handed on, or reached the user. */
const NOT_MISSED: ReadonlySet<ComRecordReason> = new Set([
  'PICKUP',
  'RELEASED_ON_REDIRECT',
  // The caller intruded: it joined the call the user talks in (operations/intrusion.ts).
  'CONFERENCED',
])

/**
 * An incoming call the user neither answered nor handed on: not picked up by a colleague, not redirected by
 * the user, not joined to the user's other call by an intrusion (docs/event-summary.md, "Missed calls").
 */
export function isMissed(role: ComRecordRole, answered: boolean, reason: ComRecordReason): boolean {
  return role === 'CALLEE' && !answered && !NOT_MISSED.has(reason)
}

/** The selection of GET and DELETE /comlog/records (wire facts 8.2), in domain words. */
export interface ComRecordFilter {
  /** Records that began at or after this time (ms). */
  after?: number
  /** Records that began at or before this time (ms). */
  before?: number
  unacknowledgedOnly?: boolean
  unansweredOnly?: boolean
  role?: 'CALLER' | 'CALLEE'
  comRef?: string
  /** A login name, phone number or participant id of another party. */
  remotePartyId?: string
}

/** One page of a user's records, newest first, and how many match in all. */
export interface ComRecordPage {
  totalCount: number
  records: StoredComRecord[]
}
