/** One open (or closed) session: who opened it, whom it acts as, and its timer. */

import type { UserRight } from '@openness/wire'
import { PlatformError } from '../platform-error.js'
import type { SessionInit, SessionKind, SessionRecord } from './session-record.js'
import { canTransition, type SessionCloseCause, type SessionState } from './session-state.js'

/**
 * A session as one request sees it. SessionManager builds one from the stored record for each request and
 * keeps none between requests: two are the same session when their `sessionId` is. Only `transition` changes
 * its state; `touch` moves its timer.
 */
export class Session {
  readonly sessionId: string
  readonly token: string
  readonly kind: SessionKind
  readonly owner: string
  readonly actingAs: string
  readonly admin: boolean
  readonly applicationName: string
  readonly rights: readonly UserRight[]
  readonly createdAt: number
  private currentExpiresAt: number
  private currentState: SessionState = 'OPEN'
  private currentCloseCause: SessionCloseCause | undefined

  constructor(init: SessionInit) {
    this.sessionId = init.sessionId
    this.token = init.token
    this.kind = init.kind
    this.owner = init.owner
    this.actingAs = init.actingAs
    this.admin = init.admin
    this.applicationName = init.applicationName
    this.rights = init.rights
    this.createdAt = init.createdAt
    this.currentExpiresAt = init.expiresAt
  }

  /** The session a stored record describes, in the state it was stored in. */
  static fromRecord(record: SessionRecord): Session {
    const session = new Session(record)
    session.currentState = record.state
    session.currentCloseCause = record.closeCause
    return session
  }

  get state(): SessionState {
    return this.currentState
  }

  /** When the session expires unless used before (milliseconds since the epoch). */
  get expiresAt(): number {
    return this.currentExpiresAt
  }

  get closeCause(): SessionCloseCause | undefined {
    return this.currentCloseCause
  }

  get isOpen(): boolean {
    return this.currentState === 'OPEN'
  }

  /** Restarts the session timer (any use of the session, or keepalive). */
  touch(expiresAt: number): void {
    this.transition('OPEN')
    this.currentExpiresAt = expiresAt
  }

  /** Closes the session; the caller releases what it held. */
  close(cause: SessionCloseCause): void {
    this.transition('CLOSED')
    this.currentCloseCause = cause
  }

  private transition(to: SessionState): void {
    if (!canTransition(this.currentState, to))
      throw new PlatformError(
        'INVALID_SESSION',
        `The session is ${this.currentState.toLowerCase()}`,
      )
    this.currentState = to
  }
}
