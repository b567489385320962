/**
 * Credentials and sessions in the process (the embedded mode). Every operation runs to its end before another
 * starts, so each is atomic as the port asks; records go in and out as copies, as they would through Redis.
 * Every request resolves its session here, so a copy is made only of what is handed out, and is shallow: the
 * rights are the one field of a record that is not a scalar.
 */

import {
  isPastDeadline,
  type SessionDraft,
  type SessionOpening,
  type SessionRecord,
  type SessionStoreTiming,
  type SessionUse,
  type StoredTokenStatus,
} from '../../platform/sessions/session-record.js'
import type { SessionCloseCause } from '../../platform/sessions/session-state.js'
import type { SessionStore } from '../../platform/sessions/session-store.js'

interface Credential {
  loginName: string
  /** Until a session opens: when the credential expires. Once its session closed: when it is forgotten. */
  forgetAt: number
  sessionId?: string
}

export class MemorySessionStore implements SessionStore {
  private readonly credentials = new Map<string, Credential>()
  private readonly sessions = new Map<string, SessionRecord>()
  private readonly openByOwner = new Map<string, Set<string>>()

  constructor(private readonly timing: SessionStoreTiming) {}

  async issueCredential(token: string, loginName: string, now: number): Promise<void> {
    const forgetAt = now + this.timing.tokenTimeToLiveSeconds * 1000
    this.credentials.set(token, { loginName, forgetAt })
  }

  async status(token: string, now: number): Promise<StoredTokenStatus> {
    const credential = this.credentials.get(token)
    if (credential === undefined) return { state: 'UNKNOWN' }
    const session = this.sessionOf(credential)
    if (session?.state !== 'OPEN' && now >= credential.forgetAt) return { state: 'UNKNOWN' }
    if (session === undefined) return { state: 'NO_SESSION', loginName: credential.loginName }
    return { state: session.state, session: copyOf(session) }
  }

  async use(token: string, now: number): Promise<SessionUse> {
    const credential = this.credentials.get(token)
    const session = credential && this.sessionOf(credential)
    if (session?.state !== 'OPEN') return { state: 'NONE' }
    if (isPastDeadline(session, now, this.timing))
      return { state: 'EXPIRED', session: this.closeOpen(session, 'EXPIRED', now) }
    session.expiresAt = now + this.timing.timeToLiveSeconds * 1000
    return { state: 'OPEN', session: copyOf(session) }
  }

  async open(draft: SessionDraft, now: number): Promise<SessionOpening> {
    const credential = this.credentials.get(draft.token)
    if (credential === undefined) return { state: 'UNKNOWN' }
    if (credential.sessionId !== undefined) return { state: 'TAKEN' }
    if (now >= credential.forgetAt) return { state: 'UNKNOWN' }
    const session: SessionRecord = {
      ...draft,
      rights: [...draft.rights],
      createdAt: now,
      expiresAt: now + this.timing.timeToLiveSeconds * 1000,
      state: 'OPEN',
    }
    credential.sessionId = session.sessionId
    this.sessions.set(session.sessionId, session)
    let owned = this.openByOwner.get(session.owner)
    if (owned === undefined) {
      owned = new Set()
      this.openByOwner.set(session.owner, owned)
    }
    owned.add(session.sessionId)
    return { state: 'OPENED', session: copyOf(session) }
  }

  async close(
    sessionId: string,
    cause: SessionCloseCause,
    now: number,
  ): Promise<SessionRecord | undefined> {
    const session = this.sessions.get(sessionId)
    if (session?.state !== 'OPEN') return undefined
    return this.closeOpen(session, cause, now)
  }

  async session(sessionId: string, now: number): Promise<SessionRecord | undefined> {
    const session = this.sessions.get(sessionId)
    const credential = session && this.credentials.get(session.token)
    if (session === undefined || credential === undefined) return undefined
    if (session.state !== 'OPEN' && now >= credential.forgetAt) return undefined
    return copyOf(session)
  }

  async openSessionsOf(owner: string): Promise<SessionRecord[]> {
    const owned = this.records(this.openByOwner.get(owner) ?? [])
    return owned.sort((a, b) => a.createdAt - b.createdAt).map(copyOf)
  }

  async openSessions(): Promise<SessionRecord[]> {
    return this.byDeadline(this.openRecords()).map(copyOf)
  }

  async due(now: number, limit: number): Promise<SessionRecord[]> {
    const due = this.openRecords().filter((session) => isPastDeadline(session, now, this.timing))
    return this.byDeadline(due).slice(0, limit).map(copyOf)
  }

  async forgetDue(now: number): Promise<number> {
    let forgotten = 0
    for (const [token, credential] of this.credentials) {
      const session = this.sessionOf(credential)
      if (session?.state === 'OPEN' || now < credential.forgetAt) continue
      this.credentials.delete(token)
      if (session !== undefined) this.sessions.delete(session.sessionId)
      forgotten++
    }
    return forgotten
  }

  async voidCredentialsOf(loginName: string): Promise<number> {
    let voided = 0
    for (const [token, credential] of this.credentials)
      if (credential.loginName === loginName && credential.sessionId === undefined) {
        this.credentials.delete(token)
        voided++
      }
    return voided
  }

  /**
   * What the store holds, named as the Redis adapter names its keys (docs/cluster.md): a test checks that
   * nothing is left once everything is forgotten.
   */
  heldKeys(): string[] {
    return [
      ...[...this.credentials.keys()].map((token) => `token:${token}`),
      ...[...this.sessions.keys()].map((sessionId) => `session:${sessionId}`),
      ...[...this.openByOwner.keys()].map((owner) => `sessions-of:${owner}`),
      ...new Set(
        [...this.credentials.values()]
          .filter((credential) => credential.sessionId === undefined)
          .map((credential) => `credentials-of:${credential.loginName}`),
      ),
    ].sort()
  }

  private sessionOf(credential: Credential): SessionRecord | undefined {
    return credential.sessionId === undefined ? undefined : this.sessions.get(credential.sessionId)
  }

  /** The stored records themselves, never to be handed out: copy those that are. */
  private records(sessionIds: Iterable<string>): SessionRecord[] {
    const records: SessionRecord[] = []
    for (const sessionId of sessionIds) {
      const session = this.sessions.get(sessionId)
      if (session !== undefined) records.push(session)
    }
    return records
  }

  private openRecords(): SessionRecord[] {
    return this.records([...this.openByOwner.values()].flatMap((owned) => [...owned]))
  }

  /** Earliest deadline first: every open session has the same grace, so earliest expiry first. */
  private byDeadline(sessions: SessionRecord[]): SessionRecord[] {
    return sessions.sort((a, b) => a.expiresAt - b.expiresAt)
  }

  private closeOpen(session: SessionRecord, cause: SessionCloseCause, now: number): SessionRecord {
    session.state = 'CLOSED'
    session.closeCause = cause
    session.closedAt = now
    const owned = this.openByOwner.get(session.owner)
    owned?.delete(session.sessionId)
    if (owned?.size === 0) this.openByOwner.delete(session.owner)
    const credential = this.credentials.get(session.token)
    if (credential !== undefined)
      credential.forgetAt = now + this.timing.closedRetentionSeconds * 1000
    return copyOf(session)
  }
}

/** A record as handed out: the store's own changes later (a use, a close) do not reach it, nor its to the store. */
function copyOf(session: SessionRecord): SessionRecord {
  return { ...session, rights: [...session.rights] }
}
