/**
 * Credentials and sessions in Redis (the cluster mode; docs/cluster.md, "Sessions and credentials"): any node
 * resolves any token, a request's use of its session is one script, and a session closes once cluster-wide.
 * Keys: `token:{token}` and `session:{sessionId}` (hashes), `sessions-of:{loginName}` (a set of open session
 * ids), `sessions-due` (open session ids by deadline), `credentials-due` (tokens by when they are forgotten).
 * Every key of a credential or session has the TTL of what it stands for; the sorted sets empty themselves as
 * sessions close and credentials are forgotten.
 */
import type { Redis } from 'ioredis'
import {
  openRetentionMs,
  type SessionDraft,
  type SessionOpening,
  type SessionRecord,
  type SessionStoreTiming,
  type SessionUse,
  type StoredTokenStatus,
} from '../../platform/sessions/session-record.js'
import type { SessionCloseCause, SessionState } from '../../platform/sessions/session-state.js'
import type { SessionStore } from '../../platform/sessions/session-store.js'
import {
  CLOSE,
  FORGET_DUE,
  LIST,
  OPEN,
  STATUS,
  USE,
  VOID_CREDENTIALS,
} from './redis-session-scripts.js'

const SESSIONS_DUE = 'sessions-due'
const CREDENTIALS_DUE = 'credentials-due'
const tokenKey = (token: string) => `token:${token}`
const sessionKey = (sessionId: string) => `session:${sessionId}`
const sessionsOfKey = (loginName: string) => `sessions-of:${loginName}`
/** The credentials of a login that opened no session yet (a password change voids them). */
const credentialsOfKey = (loginName: string) => `credentials-of:${loginName}`

export class RedisSessionStore implements SessionStore {
  /** The client's key prefix, for the keys scripts name themselves (redis-session-scripts.ts). */
  private readonly prefix: string

  constructor(
    private readonly client: Redis,
    private readonly timing: SessionStoreTiming,
  ) {
    this.prefix = client.options.keyPrefix ?? ''
  }

  async issueCredential(token: string, loginName: string, now: number): Promise<void> {
    const ttlMs = this.timing.tokenTimeToLiveSeconds * 1000
    const forgetAt = now + ttlMs
    await this.client
      .multi()
      .hset(tokenKey(token), { loginName, forgetAt })
      .pexpire(tokenKey(token), ttlMs)
      .zadd(CREDENTIALS_DUE, forgetAt, token)
      .sadd(credentialsOfKey(loginName), token)
      .pexpire(credentialsOfKey(loginName), ttlMs)
      .exec()
  }

  async status(token: string, now: number): Promise<StoredTokenStatus> {
    const found = (await STATUS.run(this.client, [tokenKey(token)], [this.prefix])) as unknown[]
    const [loginName, forgetAt, fields] = found as [string?, string?, string[]?]
    if (loginName === undefined) return { state: 'UNKNOWN' }
    const session = fields !== undefined && fields.length > 0 ? sessionOf(fields) : undefined
    if (session?.state !== 'OPEN' && now >= Number(forgetAt)) return { state: 'UNKNOWN' }
    if (session === undefined) return { state: 'NO_SESSION', loginName }
    return { state: session.state, session }
  }

  async use(token: string, now: number): Promise<SessionUse> {
    const { timeToLiveSeconds, graceSeconds, closedRetentionSeconds } = this.timing
    const [state, fields] = (await USE.run(
      this.client,
      [tokenKey(token), SESSIONS_DUE, CREDENTIALS_DUE],
      [
        this.prefix,
        now,
        timeToLiveSeconds * 1000,
        graceSeconds * 1000,
        closedRetentionSeconds * 1000,
        openRetentionMs(this.timing),
      ],
    )) as [SessionUse['state'], string[]?]
    if (state === 'NONE' || fields === undefined) return { state: 'NONE' }
    return { state, session: sessionOf(fields) }
  }

  async open(draft: SessionDraft, now: number): Promise<SessionOpening> {
    const expiresAt = now + this.timing.timeToLiveSeconds * 1000
    const session: SessionRecord = { ...draft, createdAt: now, expiresAt, state: 'OPEN' }
    const { state: _state, expiresAt: _expiresAt, ...fixed } = session
    const state = (await OPEN.run(
      this.client,
      [
        tokenKey(draft.token),
        sessionKey(draft.sessionId),
        sessionsOfKey(draft.owner),
        SESSIONS_DUE,
        CREDENTIALS_DUE,
        credentialsOfKey(draft.owner),
      ],
      [
        draft.sessionId,
        JSON.stringify(fixed),
        now,
        expiresAt,
        expiresAt + this.timing.graceSeconds * 1000,
        openRetentionMs(this.timing),
        draft.token,
      ],
    )) as 'OPENED' | 'UNKNOWN' | 'TAKEN'
    return state === 'OPENED' ? { state, session: structuredClone(session) } : { state }
  }

  async close(
    sessionId: string,
    cause: SessionCloseCause,
    now: number,
  ): Promise<SessionRecord | undefined> {
    const fields = (await CLOSE.run(
      this.client,
      [sessionKey(sessionId), SESSIONS_DUE, CREDENTIALS_DUE],
      [this.prefix, sessionId, cause, now, this.timing.closedRetentionSeconds * 1000],
    )) as string[] | null
    return fields === null ? undefined : sessionOf(fields)
  }

  async session(sessionId: string, now: number): Promise<SessionRecord | undefined> {
    const fields = await this.client.hgetall(sessionKey(sessionId))
    if (fields['record'] === undefined) return undefined
    const session = sessionFromHash(fields)
    const retentionMs = this.timing.closedRetentionSeconds * 1000
    if (session.closedAt !== undefined && now >= session.closedAt + retentionMs) return undefined
    return session
  }

  async openSessionsOf(owner: string): Promise<SessionRecord[]> {
    const sessions = await this.list(sessionsOfKey(owner), '+inf', -1)
    return sessions.sort((a, b) => a.createdAt - b.createdAt)
  }

  async openSessions(): Promise<SessionRecord[]> {
    return this.list(SESSIONS_DUE, '+inf', -1)
  }

  async due(now: number, limit: number): Promise<SessionRecord[]> {
    return this.list(SESSIONS_DUE, now, limit)
  }

  async forgetDue(now: number): Promise<number> {
    return (await FORGET_DUE.run(this.client, [CREDENTIALS_DUE], [this.prefix, now])) as number
  }

  async voidCredentialsOf(loginName: string): Promise<number> {
    return (await VOID_CREDENTIALS.run(
      this.client,
      [credentialsOfKey(loginName), CREDENTIALS_DUE],
      [this.prefix],
    )) as number
  }

  /** The sessions a set names, up to the score `max` and `limit` of them for a sorted set. */
  private async list(key: string, max: number | '+inf', limit: number): Promise<SessionRecord[]> {
    const found = (await LIST.run(this.client, [key], [this.prefix, max, limit])) as string[][]
    return found.map(sessionOf)
  }
}

/** A session from the flat field list HGETALL answers inside a script. */
function sessionOf(fields: readonly string[]): SessionRecord {
  const hash: Record<string, string> = {}
  for (let i = 0; i + 1 < fields.length; i += 2) hash[fields[i] as string] = fields[i + 1] as string
  return sessionFromHash(hash)
}

function sessionFromHash(hash: Record<string, string>): SessionRecord {
  const { record, expiresAt, state, closeCause, closedAt } = hash
  return {
    ...(JSON.parse(record ?? '{}') as Omit<SessionRecord, 'expiresAt' | 'state'>),
    expiresAt: Number(expiresAt),
    state: state as SessionState,
    ...(closeCause !== undefined && { closeCause: closeCause as SessionCloseCause }),
    ...(closedAt !== undefined && { closedAt: Number(closedAt) }),
  }
}
