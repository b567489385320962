/**
 * Credentials (tokens) and the sessions opened with them (specification, "Authentication" items 3 and 6,
 * "States and transitions", "Limits"). Everything lives in memory: a request resolves its session with
 * one map lookup.
 */
import { randomBytes } from 'node:crypto'
import type { SessionRequest, UserRight } from '@openness/wire'
import type { StoredAccount } from '../directory/account.js'
import type { Directory } from '../directory/directory.js'
import type { LicensePool } from '../licenses/license-pool.js'
import { PlatformError } from '../platform-error.js'
import type { Clock, Timer } from '../ports.js'
import { Session, type SessionKind } from './session.js'
import type { SessionCloseCause } from './session-state.js'

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

interface Credential {
  loginName: string
  /** Until a session opens: when the credential expires. Afterwards: when to forget it. */
  forgetAt: number
  session?: Session
}

/** Called once for every session that closes, whatever the cause. */
export type SessionClosedListener = (session: Session, cause: SessionCloseCause) => void

/** Issues credentials, opens, resolves, keeps alive and closes sessions. */
export class SessionManager {
  private readonly credentials = new Map<string, Credential>()
  private readonly openByOwner = new Map<string, Set<Session>>()
  private readonly closedListeners: SessionClosedListener[] = []
  private sweepTimer: Timer | undefined

  constructor(
    private readonly directory: Directory,
    private readonly licenses: LicensePool,
    private readonly clock: Clock,
    readonly timing: SessionTiming,
    private readonly newToken: () => string = () => randomBytes(32).toString('base64url'),
  ) {}

  /** Starts sweeping expired sessions and credentials on the clock. */
  start(): void {
    const run = (): void => {
      this.sweep()
      this.sweepTimer = this.clock.setTimer(this.timing.sweepIntervalSeconds * 1000, run)
    }
    this.sweepTimer = this.clock.setTimer(this.timing.sweepIntervalSeconds * 1000, run)
  }

  /** Stops the sweep and closes every open session. */
  stop(): void {
    this.sweepTimer?.cancel()
    for (const credential of this.credentials.values()) {
      if (credential.session?.isOpen) this.closeSession(credential.session, 'CLOSED_BY_CLIENT')
    }
  }

  /** Registers a listener told of every session that closes (subscriptions follow their session). */
  onSessionClosed(listener: SessionClosedListener): void {
    this.closedListeners.push(listener)
  }

  /** A new unguessable credential for an authenticated account. */
  issueToken(loginName: string): string {
    const token = this.newToken()
    const forgetAt = this.clock.now() + this.timing.tokenTimeToLiveSeconds * 1000
    this.credentials.set(token, { loginName, forgetAt })
    return token
  }

  /** What `token` stands for now, without touching any timer. */
  status(token: string | undefined): TokenStatus {
    const credential = token === undefined ? undefined : this.credentials.get(token)
    if (credential === undefined) return { state: 'UNKNOWN' }
    const { session } = credential
    if (session === undefined) {
      if (this.clock.now() >= credential.forgetAt) return { state: 'UNKNOWN' }
      return { state: 'NO_SESSION', loginName: credential.loginName }
    }
    if (session.isOpen && this.hasExpired(session)) this.closeSession(session, 'EXPIRED')
    return session.isOpen ? { state: 'OPEN', session } : { state: 'CLOSED', session }
  }

  /**
   * The open session of `token`, its timer restarted; undefined when there is none. What {@link status}
   * answers OPEN for, read with one look at the clock and no status record: every authenticated request
   * comes here.
   */
  use(token: string | undefined): Session | undefined {
    const session = token === undefined ? undefined : this.credentials.get(token)?.session
    if (session === undefined || !session.isOpen) return undefined
    const now = this.clock.now()
    if (this.hasExpired(session, now)) {
      this.closeSession(session, 'EXPIRED')
      return undefined
    }
    session.touch(now + this.timing.timeToLiveSeconds * 1000)
    return session
  }

  /** Opens the one session `token` may open (specification, session lifecycle "none" row). */
  open(token: string | undefined, request: SessionRequest): Session {
    const status = this.status(token)
    if (status.state === 'UNKNOWN' || token === undefined)
      throw new PlatformError('INVALID_SESSION', 'No valid credential: authenticate first')
    if (status.state !== 'NO_SESSION')
      throw new PlatformError(
        'NOT_EXPECTED',
        status.state === 'OPEN'
          ? 'A session is already open with this credential'
          : 'This credential already opened a session; authenticate again',
      )
    const owner = this.directory.findAccount(status.loginName)
    if (owner === undefined)
      throw new PlatformError('INVALID_SESSION', 'The account no longer exists')
    const target = this.sessionTarget(owner, request)
    const acting = target.account
    const rights =
      acting.kind === 'USER' ? this.acquireLicenses(acting.record.apiRights, acting.loginName) : []
    const now = this.clock.now()
    const session = new Session({
      sessionId: randomBytes(16).toString('hex'),
      token,
      kind: target.kind,
      owner: owner.loginName,
      actingAs: acting.loginName,
      admin: acting.kind === 'ADMINISTRATOR',
      applicationName: request.applicationName,
      rights,
      createdAt: now,
      expiresAt: this.expiryFromNow(),
    })
    const credential = this.credentials.get(token)
    if (credential) credential.session = session
    this.openSessionsOf(owner.loginName).add(session)
    return session
  }

  /** Closes the session of `token`; the caller has checked that it is open. */
  close(session: Session): void {
    this.closeSession(session, 'CLOSED_BY_CLIENT')
  }

  /** Keepalive: restarts the timer; false when `token` has no open session. */
  keepalive(token: string | undefined): boolean {
    return this.use(token) !== undefined
  }

  /** The other open sessions of the account that opened `session`. */
  otherSessions(session: Session): Session[] {
    const sessions = [...(this.openByOwner.get(session.owner) ?? [])]
    return sessions.filter(
      (other) => other !== session && this.status(other.token).state === 'OPEN',
    )
  }

  /**
   * Releases another open session of the same account, with every license reference it held, so that
   * the licenses can be acquired again (POST /sessions/release).
   */
  release(session: Session, sessionId: string): void {
    if (sessionId === session.sessionId)
      throw new PlatformError(
        'BAD_PARAMETER',
        'This is the current session: close it with DELETE /sessions',
      )
    const other = this.otherSessions(session).find((candidate) => candidate.sessionId === sessionId)
    if (other === undefined)
      throw new PlatformError('NOT_FOUND', `No other open session '${sessionId}' of this account`)
    this.closeSession(other, 'RELEASED')
  }

  /**
   * Closes every open session (a simulated switch-over of the platform), each releasing its licenses and
   * telling the listeners (its subscriptions follow); answers how many closed.
   */
  closeAll(cause: SessionCloseCause): number {
    const open = [...this.openByOwner.values()].flatMap((sessions) => [...sessions])
    for (const session of open) this.closeSession(session, cause)
    return open.length
  }

  /** Closes expired sessions and forgets expired credentials. */
  sweep(): void {
    const now = this.clock.now()
    for (const [token, credential] of this.credentials) {
      const { session } = credential
      if (session?.isOpen && this.hasExpired(session)) this.closeSession(session, 'EXPIRED')
      else if (!session?.isOpen && now >= credential.forgetAt) this.credentials.delete(token)
    }
  }

  /** How many sessions are open now. */
  get openCount(): number {
    let count = 0
    for (const sessions of this.openByOwner.values()) count += sessions.size
    return count
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

  private acquireLicenses(apiRights: readonly UserRight[], loginName: string): UserRight[] {
    return apiRights.filter((right) => this.licenses.acquire(right, loginName))
  }

  private closeSession(session: Session, cause: SessionCloseCause): void {
    session.close(cause)
    for (const right of session.rights) this.licenses.release(right, session.actingAs)
    const sessions = this.openByOwner.get(session.owner)
    sessions?.delete(session)
    if (sessions?.size === 0) this.openByOwner.delete(session.owner)
    const credential = this.credentials.get(session.token)
    if (credential)
      credential.forgetAt = this.clock.now() + this.timing.closedRetentionSeconds * 1000
    for (const listener of this.closedListeners) listener(session, cause)
  }

  private hasExpired(session: Session, now = this.clock.now()): boolean {
    return now >= session.expiresAt + this.timing.graceSeconds * 1000
  }

  private expiryFromNow(): number {
    return this.clock.now() + this.timing.timeToLiveSeconds * 1000
  }

  private openSessionsOf(owner: string): Set<Session> {
    let sessions = this.openByOwner.get(owner)
    if (sessions === undefined) {
      sessions = new Set()
      this.openByOwner.set(owner, sessions)
    }
    return sessions
  }
}
