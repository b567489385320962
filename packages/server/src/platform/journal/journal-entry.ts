/**
 * What the journal keeps (docs/journal.md): one entry per API request, per event a subscription's queue took,
 * per control-plane action that changes something, and per API request no route matched (a near-miss). Each
 * entry carries its journal's id (1, 2, 3... in the order recorded) and its time on the service's clock; the
 * other fields depend on its kind, and are named as the filters and the verification's patterns name them.
 */

/** Entries the journal keeps when JOURNAL_SIZE does not say; the most it may be set to. */
export const DEFAULT_JOURNAL_SIZE = 10_000
export const MAX_JOURNAL_SIZE = 1_000_000

/** The kinds of entries. */
export const JOURNAL_KINDS = ['request', 'event', 'control', 'near-miss'] as const
export type JournalKind = (typeof JOURNAL_KINDS)[number]

/** The error an answer carried (its RestErrorInfo's type and helpMessage). */
export interface JournalError {
  type: string
  message: string
}

/** A route a near-miss may have meant. */
export interface JournalSuggestion {
  method: string
  /** The route's path, its parameters written `{name}`. */
  path: string
  operation?: string
}

/** The fields every HTTP entry (request, near-miss, control) has. */
interface HttpFields {
  method: string
  /** The path, without the query. */
  path: string
  /** The query as sent, any value of a parameter whose name suggests a secret replaced by `***`. */
  query?: string
  /** Absent while the request is in progress (a chunk channel open, a slow answer). */
  status?: number
  /** From the request's arrival to the answer's last byte, in milliseconds; absent while in progress. */
  durationMs?: number
  /** The route's OpenAPI operationId. */
  operation?: string
  error?: JournalError
}

/** An API request that a route answered. */
export interface RequestDraft extends HttpFields {
  kind: 'request'
  /** The login of the session (or of the Basic credentials of an authentication). */
  user?: string
  session?: string
  /** The call reference the path names. */
  call?: string
  /** The subscription the path names. */
  subscription?: string
}

/** An API request no route matched (404, or 405 for a known path with another method). */
export interface NearMissDraft extends HttpFields {
  kind: 'near-miss'
  /** Up to three routes it may have meant, the closest first. */
  suggestions: JournalSuggestion[]
}

/** A control-plane action that changes something (any method but GET and HEAD). */
export interface ControlDraft extends HttpFields {
  kind: 'control'
  /** What the route does (its OpenAPI summary). */
  summary?: string
  /** The user the path names (`/users/{loginName}/...`). */
  user?: string
}

/** An event a subscription's queue took. */
export interface EventDraft {
  kind: 'event'
  subscription: string
  /** The login the subscription belongs to. */
  user: string
  /** The event's name (`OnCallModified`). */
  event: string
  /** The login the event is about, when it is not the subscription's (an administrator's supervision). */
  about?: string
  /** The event's call reference, when it has one. */
  call?: string
  /** The event's sequence number in the subscription. */
  sequence: number
}

/** An entry before the journal gives it its id. */
export type JournalDraft = RequestDraft | NearMissDraft | ControlDraft | EventDraft

/** An entry as a store keeps it: its id, its time (milliseconds since the epoch) and its fields. */
export type JournalRecord = JournalDraft & { id: number; at: number }

/** An entry as the control plane shows it: its time as an ISO string. */
export type JournalEntry = JournalDraft & { id: number; at: string }

/** The entry a record shows as. */
export function shownEntry(record: JournalRecord): JournalEntry {
  return { ...record, at: new Date(record.at).toISOString() }
}

/** `"eventName":"OnX"` in an event serialized without its source (the platform's own events). */
const EVENT_NAME = /"eventName":"([^"]*)"/

/** An event as the delivery holds it: its name, the login it is about, its other fields. */
type EventSource = { eventName: string; loginName?: string; [field: string]: unknown }

/** The name of an event: its source's, or read from its JSON (the platform's own events come without a source). */
export function eventNameOf(source: EventSource | undefined, json: string): string {
  return source?.eventName ?? EVENT_NAME.exec(json)?.[1] ?? ''
}

/** The call reference an event carries, if any. */
export function eventCallOf(source: EventSource | undefined): string | undefined {
  const call = source?.['callRef']
  return typeof call === 'string' ? call : undefined
}

/**
 * The record of an event a subscription's queue took, from what the delivery holds: the event (`source`, or
 * only its serialized form `json` for the platform's own events), the subscription and its login, the number.
 */
export function eventRecord(
  id: number,
  at: number,
  subscription: string,
  user: string,
  source: EventSource | undefined,
  json: string,
  sequence: number,
): JournalRecord {
  return eventEntry(
    id,
    at,
    subscription,
    user,
    eventNameOf(source, json),
    source?.loginName,
    eventCallOf(source),
    sequence,
  )
}

/** The record of an event from its parts: its name, the login it is about and its call, when it has them. */
export function eventEntry(
  id: number,
  at: number,
  subscription: string,
  user: string,
  event: string,
  about: string | undefined,
  call: string | undefined,
  sequence: number,
): JournalRecord {
  return {
    id,
    at,
    kind: 'event',
    subscription,
    user,
    event,
    ...(about !== undefined && about !== user && { about }),
    ...(call !== undefined && { call }),
    sequence,
  }
}
