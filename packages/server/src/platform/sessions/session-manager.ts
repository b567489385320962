/**
 * Credentials (tokens) and the sessions opened with them (specification, "Authentication" items 3 and 6,
 * "States and transitions", "Limits"), kept in a SessionStore (docs/cluster.md, "Sessions and credentials"):
 * a request resolves its session with one store call, and whoever closes a session, of every caller that
 * tries, is the one that releases its licenses and tells the listeners. License references are taken when a
 * session opens and given back by session id (a LicenseStore, docs/cluster.md, "License references"), never
 * on a request.
 */

import { randomBytes } from 'node:crypto'
import type { SessionRequest } from '@openness/wire'
import type { StoredAccount } from '../directory/account.js'
import type { Directory } from '../directory/directory.js'
import type { Clock, Timer } from '../events.js'
import { PlatformError } from '../platform-error.js'
import { DEFAULT_QUOTAS } from '../quotas.js'
import type { LicenseStore } from './license-store.js'
import { Session } from './session.js'
import {
  isPastDeadline,
  type SessionKind,
  type SessionRecord,
  type SessionUse,
} from './session-record.js'
import type { SessionCloseCause } from './session-state.js'
import type { SessionStore } from './session-store.js'

/** Timing of credentials and sessions. */
export interface SessionTiming {
  /** SessionInfo.timeToLive: a session unused for this long closes. */
  timeToLiveSeconds: number
  /** Extra time before a session really expires (some clients keep alive exactly every timeToLive). */
  graceSeconds: number
  /** A credential not used to open a session within this time expires. */
  tokenTimeToLiveSeconds: number
  /** How long a closed session is remembered, so that its token answers "closed" rather than "unknown". */
  closedRetentionSeconds: number
  /** How often expired sessions and credentials are swept. */
  sweepIntervalSeconds: number
}

/** The grace the service gives by default: a tenth of timeToLive, at least 5 s. */
export function defaultGraceSeconds(timeToLiveSeconds: number): number {
  return Math.max(5, Math.ceil(timeToLiveSeconds / 10))
}

/** What a token stands for now. */
export type TokenStatus =
  | { state: 'UNKNOWN' }
  | { state: 'NO_SESSION'; loginName: string }
  | { state: 'OPEN'; session: Session }
  | { state: 'CLOSED'; session: Session }

/** Called once for every session that closes, whatever the cause. */
export type SessionClosedListener = (session: Session, cause: SessionCloseCause) => void

/** What SessionManager needs beside its collaborators. */
export interface SessionManagerOptions {
  /** Told of a sweep that failed (the store unreachable); the next sweep runs on time all the same. */
  onSweepFailure?: (error: unknown) => void
  /** A new unguessable token. */
  newToken?: () => string
  /** Open sessions one account may have; DEFAULT_QUOTAS' when absent (platform/quotas.ts). */
  maxSessionsPerAccount?: number
}

/** How many due sessions the sweep asks the store for at a time. */
const SWEEP_BATCH = 1000

/**
 * How old references must be before the sweep releases them for a session that is not open: far longer than
 * an open takes, so that an open in flight (licenses acquired, session not yet stored) is never robbed.
 */
const ORPHAN_REFERENCES_AGE_MS = 60_000

const NO_SESSION = Promise.resolve(undefined)

/** Issues credentials, opens, resolves, keeps alive and closes sessions. */
export class SessionManager {
  private readonly closedListeners: SessionClosedListener[] = []
  private sweepTimer: Timer | undefined
  private readonly newToken: () => string
  private readonly onSweepFailure: (error: unknown) => void
  private readonly maxSessionsPerAccount: number

  constructor(
    private readonly directory: Directory,
    private readonly licenses: LicenseStore,
    private readonly clock: Clock,
    readonly timing: SessionTiming,
    private readonly store: SessionStore,
    options: SessionManagerOptions = {},
  ) {
    this.newToken = options.newToken ?? (() => randomBytes(32).toString('base64url'))
    this.onSweepFailure = options.onSweepFailure ?? (() => {})
    this.maxSessionsPerAccount = options.maxSessionsPerAccount ?? DEFAULT_QUOTAS.sessionsPerAccount
  }

  /**
   * Starts sweeping expired sessions and credentials on the clock. The next sweep is set before this one
   * runs, as a clock moved far ahead fires every sweep that falls due in turn; two sweeps that overlap close
   * each session once all the same (the store's claim).
   */
  start(): void {
    const run = (): void => {
      this.scheduleSweep(run)
      this.sweep().catch(this.onSweepFailure)
    }
    this.scheduleSweep(run)
  }

  /** Stops the sweep and closes every open session. */
  async stop(): Promise<void> {
    this.sweepTimer?.cancel()
    await this.closeEach(await this.store.openSessions(), 'CLOSED_BY_CLIENT')
  }

  /** Registers a listener told of every session that closes (subscriptions follow their session). */
  onSessionClosed(listener: SessionClosedListener): void {
    this.closedListeners.push(listener)
  }

  /** A new unguessable credential for an authenticated account. */
  async issueToken(loginName: string): Promise<string> {
    const token = this.newToken()
    await this.store.issueCredential(token, loginName, this.clock.now())
    return token
  }

  /** What `token` stands for now, without touching any timer; an open session past its deadline closes. */
  async status(token: string | undefined): Promise<TokenStatus> {
    if (token === undefined) return { state: 'UNKNOWN' }
    const now = this.clock.now()
    const status = await this.store.status(token, now)
    if (status.state === 'UNKNOWN' || status.state === 'NO_SESSION') return status
    const { session } = status
    if (session.state === 'OPEN' && isPastDeadline(session, now, this.timing)) {
      const closed = await this.closeById(session.sessionId, 'EXPIRED')
      // Another caller closed it meanwhile: the store has it as that caller left it.
      const current = closed ?? (await this.store.session(session.sessionId, now))
      return current === undefined
        ? { state: 'UNKNOWN' }
        : { state: 'CLOSED', session: Session.fromRecord(current) }
    }
    return { state: session.state, session: Session.fromRecord(session) }
  }

  /**
   * The open session of `token`, its timer restarted; undefined when there is none. What {@link status}
   * answers OPEN for, read with one store call: every authenticated request comes here, so this is no async
   * function, only the store's promise and one continuation.
   */
  use(token: string | undefined): Promise<Session | undefined> {
    if (token === undefined) return NO_SESSION
    return this.store.use(token, this.clock.now()).then(this.sessionInUse)
  }

  /** Opens the one session `token` may open (specification, session lifecycle "none" row). */
  async open(token: string | undefined, request: SessionRequest): Promise<Session> {
    const status = await this.status(token)
    if (status.state === 'UNKNOWN' || token === undefined) throw noCredential()
    if (status.state !== 'NO_SESSION') throw credentialTaken(status.state === 'OPEN')
    const owner = this.directory.findAccount(status.loginName)
    if (owner === undefined)
      throw new PlatformError('INVALID_SESSION', 'The account no longer exists')
    await this.checkSessionQuota(owner.loginName)
    const target = this.sessionTarget(owner, request)
    const acting = target.account
    const sessionId = randomBytes(16).toString('hex')
    // A user session only takes licenses (an administrator's needs none); what it took is given back by its id.
    const takesLicenses = acting.kind === 'USER'
    const rights = takesLicenses
      ? await this.licenses.acquire(
          sessionId,
          acting.loginName,
          acting.record.apiRights,
          this.directory.settings.licenses,
          this.clock.now(),
        )
      : []
    const draft = {
      sessionId,
      token,
      kind: target.kind,
      owner: owner.loginName,
      actingAs: acting.loginName,
      admin: acting.kind === 'ADMINISTRATOR',
      applicationName: request.applicationName,
      rights,
    }
    const giveBack = async (): Promise<void> => {
      if (takesLicenses) await this.licenses.release(sessionId)
    }
    const opening = await this.store.open(draft, this.clock.now()).catch(async (error: unknown) => {
      await giveBack()
      throw error
    })
    if (opening.state === 'OPENED') return Session.fromRecord(opening.session)
    // The credential expired, or a concurrent open with it won, since the status above.
    await giveBack()
    throw opening.state === 'UNKNOWN' ? noCredential() : credentialTaken(true)
  }

  /**
   * Refuses a new session of an account that has as many open as it may (its sessions past their deadline do
   * not count: the sweep closes them). Checked before the open: concurrent opens may pass it together.
   */
  private async checkSessionQuota(loginName: string): Promise<void> {
    const now = this.clock.now()
    const open = (await this.store.openSessionsOf(loginName)).filter(
      (session) => !isPastDeadline(session, now, this.timing),
    )
    if (open.length >= this.maxSessionsPerAccount)
      throw new PlatformError(
        'NOT_ALLOWED',
        `${loginName} has ${open.length} open sessions, the most an account may have ` +
          `(MAX_SESSIONS_PER_ACCOUNT=${this.maxSessionsPerAccount}): close one, or release it (POST /sessions/release)`,
      )
  }

  /** Closes `session` at its client's request; false when another caller closed it first. */
  async close(session: Session): Promise<boolean> {
    return (await this.closeById(session.sessionId, 'CLOSED_BY_CLIENT')) !== undefined
  }

  /** Keepalive: restarts the timer; false when `token` has no open session. */
  async keepalive(token: string | undefined): Promise<boolean> {
    return (await this.use(token)) !== undefined
  }

  /** The other open sessions of the account that opened `session`; those past their deadline close. */
  async otherSessions(session: Session): Promise<Session[]> {
    const now = this.clock.now()
    const owned = await this.store.openSessionsOf(session.owner)
    const others = owned.filter((other) => other.sessionId !== session.sessionId)
    const expired = others.filter((other) => isPastDeadline(other, now, this.timing))
    await this.closeEach(expired, 'EXPIRED')
    return others
      .filter((other) => !isPastDeadline(other, now, this.timing))
      .map((other) => Session.fromRecord(other))
  }

  /**
   * Releases another open session of the same account, with every license reference it held, so that
   * the licenses can be acquired again (POST /sessions/release).
   */
  async release(session: Session, sessionId: string): Promise<void> {
    if (sessionId === session.sessionId)
      throw new PlatformError(
        'BAD_PARAMETER',
        'This is the current session: close it with DELETE /sessions',
      )
    const others = await this.otherSessions(session)
    const other = others.find((candidate) => candidate.sessionId === sessionId)
    const released = other && (await this.closeById(other.sessionId, 'RELEASED'))
    if (released === undefined)
      throw new PlatformError('NOT_FOUND', `No other open session '${sessionId}' of this account`)
  }

  /**
   * The password of `loginName` changed (issue 15, finding 3; OWASP's session management guidance): its
   * credentials that opened no session are void, and every open session it opened closes, with its
   * subscriptions and channels, but `keep`, the session that changed it. Answers how many sessions this call
   * closed.
   */
  async passwordChanged(loginName: string, keep?: Session): Promise<number> {
    await this.store.voidCredentialsOf(loginName)
    const owned = await this.store.openSessionsOf(loginName)
    const others = owned.filter((session) => session.sessionId !== keep?.sessionId)
    return this.closeEach(others, 'PASSWORD_CHANGED')
  }

  /**
   * Closes every open session (a simulated switch-over of the platform), each releasing its licenses and
   * telling the listeners (its subscriptions follow); answers how many this call closed.
   */
  async closeAll(cause: SessionCloseCause): Promise<number> {
    return this.closeEach(await this.store.openSessions(), cause)
  }

  /**
   * Closes the sessions past their deadline, releases the license references of sessions that are not open
   * (a node that died between acquiring and opening, or between closing and releasing) and forgets the
   * credentials whose time ended.
   */
  async sweep(): Promise<void> {
    const now = this.clock.now()
    for (;;) {
      const due = await this.store.due(now, SWEEP_BATCH)
      await this.closeEach(due, 'EXPIRED')
      if (due.length < SWEEP_BATCH) break
    }
    await this.releaseOrphanReferences(now)
    await this.store.forgetDue(now)
  }

  /** How many sessions are open now. */
  async openCount(): Promise<number> {
    return (await this.store.openSessions()).length
  }

  private sessionTarget(
    owner: StoredAccount,
    request: SessionRequest,
  ): { kind: SessionKind; account: StoredAccount } {
    const supervised = request.supervisedAccount
    if (supervised === undefined)
      return { kind: owner.kind === 'ADMINISTRATOR' ? 'ADMINISTRATOR' : 'USER', account: owner }
    if (owner.kind !== 'ADMINISTRATOR' || !owner.record.supervisor)
      throw new PlatformError(
        'NOT_ALLOWED',
        'Only an administrator with the supervisor role may open a supervised session',
      )
    const account = this.directory.findSupervisedAccount(supervised.type, supervised.id)
    if (account === undefined)
      throw new PlatformError(
        'NOT_FOUND',
        `supervisedAccount: no account with ${supervised.type} '${supervised.id}'`,
      )
    return { kind: 'SUPERVISED', account }
  }

  /**
   * The references held, since before the open in flight could have taken them, by sessions the store does
   * not know as open: given back. The oldest first, at most one batch a sweep.
   */
  private async releaseOrphanReferences(now: number): Promise<void> {
    const holding = await this.licenses.holdingSessions(now - ORPHAN_REFERENCES_AGE_MS, SWEEP_BATCH)
    const releasing = holding.map(async (sessionId) => {
      const session = await this.store.session(sessionId, now)
      if (session?.state !== 'OPEN') await this.licenses.release(sessionId)
    })
    await Promise.all(releasing)
  }

  /**
   * What a request's use found; the use that closed an expired session runs the close effects (then only,
   * the answer waits for them).
   */
  private readonly sessionInUse = (used: SessionUse): Session | undefined | Promise<undefined> => {
    if (used.state === 'OPEN') return Session.fromRecord(used.session)
    if (used.state === 'EXPIRED') return this.closed(used.session, 'EXPIRED').then(() => undefined)
    return undefined
  }

  /** Closes each session; answers how many this call closed. */
  private async closeEach(sessions: SessionRecord[], cause: SessionCloseCause): Promise<number> {
    const closing = sessions.map((session) => this.closeById(session.sessionId, cause))
    return (await Promise.all(closing)).filter((closed) => closed !== undefined).length
  }

  /**
   * The claim: the store closes the session for one caller only, and only that caller releases the licenses
   * and tells the listeners. Resolves to the record as closed when this call closed it.
   */
  private async closeById(
    sessionId: string,
    cause: SessionCloseCause,
  ): Promise<SessionRecord | undefined> {
    const closed = await this.store.close(sessionId, cause, this.clock.now())
    if (closed !== undefined) await this.closed(closed, cause)
    return closed
  }

  /**
   * The close effects, once per closed session: its licenses released by its id, the listeners told. The
   * listeners are told whether or not the release succeeds; a release left undone is the sweep's.
   */
  private async closed(record: SessionRecord, cause: SessionCloseCause): Promise<void> {
    const releasing = record.rights.length > 0 ? this.licenses.release(record.sessionId) : undefined
    const session = Session.fromRecord(record)
    for (const listener of this.closedListeners) listener(session, cause)
    await releasing
  }

  private scheduleSweep(run: () => void): void {
    this.sweepTimer = this.clock.setTimer(this.timing.sweepIntervalSeconds * 1000, run)
  }
}

function noCredential(): PlatformError {
  return new PlatformError('INVALID_SESSION', 'No valid credential: authenticate first')
}

function credentialTaken(open: boolean): PlatformError {
  return new PlatformError(
    'NOT_EXPECTED',
    open
      ? 'A session is already open with this credential'
      : 'This credential already opened a session; authenticate again',
  )
}
