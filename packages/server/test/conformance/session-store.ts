/**
 * The SessionStore conformance suite (style guide 6): every adapter passes the same cases, with the caller's
 * `now` driving every expiry, as a virtual clock would.
 */
import { expect, it } from 'vitest'
import type {
  SessionDraft,
  SessionRecord,
  SessionStoreTiming,
} from '../../src/platform/sessions/session-record.js'
import type { SessionStore } from '../../src/platform/sessions/session-store.js'

/** A store to test, and what the suite looks at beside the port. */
export interface SessionStoreHandle {
  store: SessionStore
  /** A store over the same data through a connection of its own (another node), or `store` itself. */
  other: SessionStore
  /** What the adapter holds, named as the Redis keys (after the prefix), sorted. */
  keys(): Promise<string[]>
  /** The time to live of a key in milliseconds, for adapters whose keys expire by themselves. */
  ttlMs?(key: string): Promise<number>
}

/** The timing every case runs with. */
export const TIMING: SessionStoreTiming = {
  timeToLiveSeconds: 60,
  graceSeconds: 6,
  tokenTimeToLiveSeconds: 120,
  closedRetentionSeconds: 3600,
}

const T0 = 1_700_000_000_000
const S = 1000
const TTL = TIMING.timeToLiveSeconds * S
const GRACE = TIMING.graceSeconds * S
const RETENTION = TIMING.closedRetentionSeconds * S

function draft(token: string, sessionId: string, owner = 'alice'): SessionDraft {
  return {
    sessionId,
    token,
    kind: 'USER',
    owner,
    actingAs: owner,
    admin: false,
    applicationName: 'crm',
    rights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED'],
  }
}

/** Issues a credential and opens its session at `now`; answers the session as opened. */
async function opened(
  store: SessionStore,
  token: string,
  sessionId: string,
  now: number,
  owner = 'alice',
): Promise<SessionRecord> {
  await store.issueCredential(token, owner, now)
  const opening = await store.open(draft(token, sessionId, owner), now)
  if (opening.state !== 'OPENED')
    throw new Error(`session ${sessionId} not opened: ${opening.state}`)
  return opening.session
}

const ids = (sessions: readonly SessionRecord[]) => sessions.map((session) => session.sessionId)

/**
 * Declares the cases, each on a fresh, empty store from `create`; with `keysExpire`, also that every key has
 * the time to live of what it stands for (`ttlMs`).
 */
export function sessionStoreConformance(
  create: () => Promise<SessionStoreHandle>,
  keysExpire: boolean,
): void {
  it('knows an issued credential until its time to live ends, and no other token', async () => {
    const { store } = await create()
    await store.issueCredential('t1', 'alice', T0)

    expect(await store.status('t1', T0)).toStrictEqual({ state: 'NO_SESSION', loginName: 'alice' })
    expect(await store.status('t1', T0 + 120 * S - 1)).toStrictEqual({
      state: 'NO_SESSION',
      loginName: 'alice',
    })
    expect(await store.status('t1', T0 + 120 * S)).toStrictEqual({ state: 'UNKNOWN' })
    expect(await store.status('never-issued', T0)).toStrictEqual({ state: 'UNKNOWN' })
  })

  it('opens one session per credential, as plain data every node reads', async () => {
    const { store, other } = await create()
    await store.issueCredential('t1', 'alice', T0)
    const opening = await store.open(draft('t1', 's1'), T0 + S)

    const expected: SessionRecord = {
      ...draft('t1', 's1'),
      createdAt: T0 + S,
      expiresAt: T0 + S + TTL,
      state: 'OPEN',
    }
    expect(opening).toStrictEqual({ state: 'OPENED', session: expected })
    expect(JSON.parse(JSON.stringify(expected))).toStrictEqual(expected)
    expect(await other.status('t1', T0 + 2 * S)).toStrictEqual({ state: 'OPEN', session: expected })
    expect(await other.session('s1', T0 + 2 * S)).toStrictEqual(expected)
    expect(await other.open(draft('t1', 's2'), T0 + 2 * S)).toStrictEqual({ state: 'TAKEN' })
    expect(await store.open(draft('unknown', 's3'), T0)).toStrictEqual({ state: 'UNKNOWN' })
    await store.issueCredential('t2', 'alice', T0)
    expect(await store.open(draft('t2', 's4'), T0 + 120 * S)).toStrictEqual({ state: 'UNKNOWN' })
    expect(await store.session('s2', T0 + 2 * S)).toBeUndefined()
  })

  it('restarts the timer on each use, and answers NONE without an open session', async () => {
    const { store, other } = await create()
    await opened(store, 't1', 's1', T0)
    await store.issueCredential('t2', 'bob', T0)

    const use = await other.use('t1', T0 + 50 * S)
    expect(use.state).toBe('OPEN')
    expect(use.state === 'OPEN' && use.session.expiresAt).toBe(T0 + 50 * S + TTL)
    const status = await store.status('t1', T0 + 51 * S)
    expect(status.state === 'OPEN' && status.session.expiresAt).toBe(T0 + 50 * S + TTL)
    expect(await store.use('t2', T0)).toStrictEqual({ state: 'NONE' })
    expect(await store.use('unknown', T0)).toStrictEqual({ state: 'NONE' })
  })

  it('expires a session exactly at its expiry plus the grace, the use that finds it closing it', async () => {
    const { store } = await create()
    const session = await opened(store, 't1', 's1', T0)
    const deadline = T0 + TTL + GRACE

    expect((await store.use('t1', deadline - 1)).state).toBe('OPEN')
    const renewedDeadline = deadline - 1 + TTL + GRACE
    expect((await store.use('t1', renewedDeadline - 1)).state).toBe('OPEN')
    const lastDeadline = renewedDeadline - 1 + TTL + GRACE
    const expired = await store.use('t1', lastDeadline)

    const closed: SessionRecord = {
      ...session,
      expiresAt: lastDeadline - GRACE,
      state: 'CLOSED',
      closeCause: 'EXPIRED',
      closedAt: lastDeadline,
    }
    expect(expired).toStrictEqual({ state: 'EXPIRED', session: closed })
    expect(await store.use('t1', lastDeadline)).toStrictEqual({ state: 'NONE' })
    expect(await store.status('t1', lastDeadline)).toStrictEqual({
      state: 'CLOSED',
      session: closed,
    })
  })

  it('closes a session once: of two concurrent closers, exactly one is told it closed it', async () => {
    const { store, other } = await create()
    await opened(store, 't1', 's1', T0)
    await opened(store, 't2', 's2', T0)

    const closers = await Promise.all([
      store.close('s1', 'CLOSED_BY_CLIENT', T0 + S),
      other.close('s1', 'RELEASED', T0 + S),
    ])
    const winners = closers.filter((closed) => closed !== undefined)
    expect(winners).toHaveLength(1)
    expect(winners[0]?.state).toBe('CLOSED')
    const status = await store.status('t1', T0 + 2 * S)
    expect(status.state === 'CLOSED' && status.session.closeCause).toBe(winners[0]?.closeCause)

    const deadline = T0 + TTL + GRACE
    const racers = await Promise.all([
      store.use('t2', deadline),
      other.close('s2', 'EXPIRED', deadline),
    ])
    const expiredByUse = racers[0].state === 'EXPIRED' ? 1 : 0
    const closedBySweep = racers[1] === undefined ? 0 : 1
    expect(expiredByUse + closedBySweep).toBe(1)
    expect(await store.close('s2', 'CLOSED_BY_CLIENT', deadline)).toBeUndefined()
  })

  it('remembers a closed session for the closed retention, then forgets it with its credential', async () => {
    const { store } = await create()
    await opened(store, 't1', 's1', T0)
    const closedAt = T0 + 10 * S
    const closed = await store.close('s1', 'CLOSED_BY_CLIENT', closedAt)
    const forgetAt = closedAt + RETENTION

    expect(await store.session('s1', forgetAt - 1)).toStrictEqual(closed)
    expect(await store.status('t1', forgetAt - 1)).toStrictEqual({
      state: 'CLOSED',
      session: closed,
    })
    expect(await store.forgetDue(forgetAt - 1)).toBe(0)
    expect(await store.status('t1', forgetAt)).toStrictEqual({ state: 'UNKNOWN' })
    expect(await store.session('s1', forgetAt)).toBeUndefined()
    expect(await store.forgetDue(forgetAt)).toBe(1)
    expect(await store.status('t1', closedAt)).toStrictEqual({ state: 'UNKNOWN' })
  })

  it("lists an owner's open sessions, oldest first, and every open session", async () => {
    const { store, other } = await create()
    await opened(store, 'ta', 'alice-1', T0)
    await opened(store, 'tb', 'bob-1', T0 + S, 'bob')
    await opened(store, 'tc', 'alice-2', T0 + 2 * S)
    await opened(store, 'td', 'alice-3', T0 + 3 * S)
    await store.close('alice-3', 'RELEASED', T0 + 4 * S)
    await store.use('ta', T0 + 5 * S)

    expect(ids(await other.openSessionsOf('alice'))).toStrictEqual(['alice-1', 'alice-2'])
    expect(ids(await other.openSessionsOf('bob'))).toStrictEqual(['bob-1'])
    expect(await other.openSessionsOf('carol')).toStrictEqual([])
    expect(ids(await other.openSessions())).toStrictEqual(['bob-1', 'alice-2', 'alice-1'])
  })

  it('lists the sessions due at a time, earliest deadline first, as many as asked', async () => {
    const { store } = await create()
    await opened(store, 't1', 's1', T0)
    await opened(store, 't2', 's2', T0 + 10 * S)
    await opened(store, 't3', 's3', T0 + 20 * S)
    await opened(store, 't4', 's4', T0 + 30 * S)
    await store.use('t1', T0 + 25 * S)
    const deadline = (openedAt: number) => openedAt + TTL + GRACE

    expect(ids(await store.due(deadline(T0 + 10 * S) - 1, 10))).toStrictEqual([])
    expect(ids(await store.due(deadline(T0 + 20 * S), 10))).toStrictEqual(['s2', 's3'])
    expect(ids(await store.due(deadline(T0 + 30 * S), 10))).toStrictEqual(['s2', 's3', 's1', 's4'])
    expect(ids(await store.due(deadline(T0 + 30 * S), 2))).toStrictEqual(['s2', 's3'])
    await store.close('s2', 'EXPIRED', deadline(T0 + 30 * S))
    expect(ids(await store.due(deadline(T0 + 30 * S), 10))).toStrictEqual(['s3', 's1', 's4'])
  })

  it("voids a login's credentials that opened no session, never one that did nor another login's", async () => {
    const handle = await create()
    const { store } = handle
    await store.issueCredential('u1', 'alice', T0)
    await store.issueCredential('u2', 'alice', T0)
    await opened(store, 't1', 's1', T0)
    await store.issueCredential('b1', 'bob', T0)
    expect(await handle.keys()).toContain('credentials-of:alice')

    expect(await store.voidCredentialsOf('alice')).toBe(2)
    expect(await store.status('u1', T0 + S)).toStrictEqual({ state: 'UNKNOWN' })
    expect(await store.open(draft('u2', 's2'), T0 + S)).toStrictEqual({ state: 'UNKNOWN' })
    expect((await store.status('t1', T0 + S)).state).toBe('OPEN')
    expect(await store.status('b1', T0 + S)).toStrictEqual({
      state: 'NO_SESSION',
      loginName: 'bob',
    })
    expect(await store.voidCredentialsOf('alice')).toBe(0)
    const keys = await handle.keys()
    expect(keys).not.toContain('credentials-of:alice')
    expect(keys).toContain('credentials-of:bob')
  })

  it('holds nothing once every credential and session is forgotten', async () => {
    const handle = await create()
    const { store } = handle
    await store.issueCredential('unused', 'carol', T0)
    await opened(store, 't1', 's1', T0)
    await opened(store, 't2', 's2', T0, 'bob')
    await opened(store, 't3', 's3', T0)
    await store.use('t1', T0 + S)
    await store.close('s2', 'CLOSED_BY_CLIENT', T0 + 2 * S)
    const deadline = T0 + TTL + GRACE
    expect((await store.use('t3', deadline)).state).toBe('EXPIRED')
    for (const session of await store.due(T0 + 2 * TTL, 10))
      await store.close(session.sessionId, 'EXPIRED', T0 + 2 * TTL)
    expect(await handle.keys()).not.toStrictEqual([])

    expect(await store.forgetDue(T0 + 2 * TTL + RETENTION)).toBe(4)
    expect(await handle.keys()).toStrictEqual([])
  })

  const ttlCase = 'gives each key the time to live of what it stands for'
  it.skipIf(!keysExpire)(
    keysExpire
      ? ttlCase
      : `${ttlCase} (skipped: this adapter's records do not expire by themselves)`,
    async () => {
      const handle = await create()
      const { store } = handle
      const ttlMs = handle.ttlMs ?? (() => Promise.reject(new Error('keysExpire needs ttlMs')))
      const near = async (key: string, expected: number) => {
        const left = await ttlMs(key)
        expect(left).toBeGreaterThan(expected - 5 * S)
        expect(left).toBeLessThanOrEqual(expected)
      }
      await store.issueCredential('t1', 'alice', T0)
      await near('token:t1', 120 * S)
      await store.open(draft('t1', 's1'), T0)
      for (const key of ['token:t1', 'session:s1', 'sessions-of:alice'])
        await near(key, TTL + GRACE + RETENTION)
      await store.close('s1', 'CLOSED_BY_CLIENT', T0 + S)
      for (const key of ['token:t1', 'session:s1']) await near(key, RETENTION)
      expect(await handle.keys()).toStrictEqual(['credentials-due', 'session:s1', 'token:t1'])
    },
  )
}
