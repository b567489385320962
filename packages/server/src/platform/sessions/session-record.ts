/**
 * Credentials and sessions as a SessionStore keeps them (docs/cluster.md, "Sessions and credentials"): plain
 * JSON records, so that any node of a cluster reads what another wrote. The rules every store applies are here
 * once: when a session is past its deadline (specification, "States and transitions": the session timer ends,
 * plus the service's grace), and when a credential is forgotten.
 */
import type { UserRight } from '@openness/wire'
import type { SessionCloseCause, SessionState } from './session-state.js'

/** The timing a store applies, in seconds (the fields of SessionTiming it needs). */
export interface SessionStoreTiming {
  /** A session unused for this long expires (SessionInfo.timeToLive). */
  timeToLiveSeconds: number
  /** Extra time after the expiry before the session really closes. */
  graceSeconds: number
  /** A credential that opened no session within this time is forgotten. */
  tokenTimeToLiveSeconds: number
  /** How long a closed session, and its credential, are remembered. */
  closedRetentionSeconds: number
}

/** What a session is opened with: the store gives it its times and its state. */
export type SessionDraft = Omit<SessionInit, 'createdAt' | 'expiresAt'>

/** A session as stored: open, or closed and remembered for the closed retention. */
export interface SessionRecord extends SessionInit {
  state: SessionState
  /** Why it closed, once CLOSED. */
  closeCause?: SessionCloseCause
  /** When it closed (milliseconds since the epoch), once CLOSED. */
  closedAt?: number
}

/** What a token stands for at a time, as stored. An OPEN session may be past its deadline: see isPastDeadline. */
export type StoredTokenStatus =
  | { state: 'UNKNOWN' }
  | { state: 'NO_SESSION'; loginName: string }
  | { state: 'OPEN' | 'CLOSED'; session: SessionRecord }

/** What a request's use of its token found. */
export type SessionUse =
  /** The session is open; its timer restarted. */
  | { state: 'OPEN'; session: SessionRecord }
  /** The session was past its deadline: this very use closed it (EXPIRED), and its caller releases what it held. */
  | { state: 'EXPIRED'; session: SessionRecord }
  /** No open session: unknown or forgotten token, a credential without a session, or a closed session. */
  | { state: 'NONE' }

/** What opening a session with a token did. */
export type SessionOpening =
  | { state: 'OPENED'; session: SessionRecord }
  /** The token is unknown, or its time to live ended. */
  | { state: 'UNKNOWN' }
  /** The token opened a session already (specification, "Limits": one session per token). */
  | { state: 'TAKEN' }

/** When the open session closes unless used before: its expiry plus the grace (milliseconds). */
export function deadlineOf(session: SessionRecord, timing: SessionStoreTiming): number {
  return session.expiresAt + timing.graceSeconds * 1000
}

/** True when the open session's timer ended at `now`, the deadline itself included. */
export function isPastDeadline(
  session: SessionRecord,
  now: number,
  timing: SessionStoreTiming,
): boolean {
  return now >= deadlineOf(session, timing)
}

/**
 * How long a store keeps an open session's records (milliseconds from its last use): to its deadline, then as
 * long as a closed one is remembered, so that the sweep that closes it late still finds it.
 */
export function openRetentionMs(timing: SessionStoreTiming): number {
  return (timing.timeToLiveSeconds + timing.graceSeconds + timing.closedRetentionSeconds) * 1000
}

/** What a session is opened with. */
export interface SessionInit {
  sessionId: string
  token: string
  kind: SessionKind
  /** Login name of the account that authenticated. */
  owner: string
  /** Login name the session acts as: the owner, or the supervised account. */
  actingAs: string
  /** True when the session acts as an administrator account. */
  admin: boolean
  applicationName: string
  /** Licenses the session obtained for the account it acts as. */
  rights: UserRight[]
  createdAt: number
  expiresAt: number
}

/** The three session kinds of the specification ("Authentication", item 7). */
export type SessionKind = 'USER' | 'ADMINISTRATOR' | 'SUPERVISED'
