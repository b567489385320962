import { describe, expect, it } from 'vitest'
import { MemoryLicenseStore } from '../../storage/memory/memory-license-store.js'
import { MemorySessionStore } from '../../storage/memory/memory-session-store.js'
import type { StoredAccount } from '../directory/account.js'
import type { Directory } from '../directory/directory.js'
import type { Clock } from '../events.js'
import type { Session } from './session.js'
import { SessionManager, type SessionTiming } from './session-manager.js'
import type { SessionCloseCause } from './session-state.js'

const FIVE_BASIC = { TELEPHONY_BASIC: 5, TELEPHONY_ADVANCED: 0, MESSAGING: 0, CONFERENCING: 0 }
const TTL_MS = 300_000
const GRACE_MS = 30_000

/** A license store that records the sessions whose references a release gave back (not the idle releases). */
class RecordingLicenseStore extends MemoryLicenseStore {
  readonly released: string[] = []

  override async release(sessionId: string): Promise<void> {
    if (this.heldKeys().includes(`license-refs:${sessionId}`)) this.released.push(sessionId)
    await super.release(sessionId)
  }
}

/**
 * A user with one license right (the store grants it and records its releases), a clock the test sets, and
 * no sweep: only `use`, or a sweep the test runs, can find the session expired.
 */
function setUp() {
  let now = Date.UTC(2026, 0, 1)
  const clock: Clock = {
    now: () => now,
    setTimer: () => ({ cancel: () => {} }),
    sleep: () => Promise.resolve(),
  }
  const alice = {
    kind: 'USER',
    loginName: 'alice',
    record: { loginName: 'alice', apiRights: ['TELEPHONY_BASIC'] },
  } as unknown as StoredAccount
  const directory = {
    findAccount: () => alice,
    settings: { licenses: FIVE_BASIC },
  } as unknown as Directory
  const licenses = new RecordingLicenseStore()
  const timing: SessionTiming = {
    timeToLiveSeconds: TTL_MS / 1000,
    graceSeconds: GRACE_MS / 1000,
    tokenTimeToLiveSeconds: 60,
    closedRetentionSeconds: 600,
    sweepIntervalSeconds: 60,
  }
  const manager = new SessionManager(
    directory,
    licenses,
    clock,
    timing,
    new MemorySessionStore(timing),
  )
  const closed: [Session, SessionCloseCause][] = []
  manager.onSessionClosed((session, cause) => closed.push([session, cause]))
  return {
    manager,
    closed,
    licenses,
    released: licenses.released,
    advance: (ms: number) => {
      now += ms
    },
    now: () => now,
  }
}

describe('SessionManager.use', () => {
  it('answers nothing for no token, an unknown token and a credential without a session', async () => {
    const { manager } = setUp()
    const token = await manager.issueToken('alice')
    expect(await manager.use(undefined)).toBeUndefined()
    expect(await manager.use('unknown')).toBeUndefined()
    expect(await manager.use(token)).toBeUndefined()
  })

  it('restarts the timer of the open session on every use', async () => {
    const { manager, advance, now } = setUp()
    const token = await manager.issueToken('alice')
    const session = await manager.open(token, { applicationName: 'test' })
    advance(TTL_MS + GRACE_MS - 1)
    const used = await manager.use(token)
    expect(used?.sessionId).toBe(session.sessionId)
    expect(used?.expiresAt).toBe(now() + TTL_MS)
    expect(await manager.status(token)).toEqual({ state: 'OPEN', session: used })
  })

  it('closes the session as EXPIRED once timeToLive and the grace have passed, and tells the listeners once', async () => {
    const { manager, closed, advance } = setUp()
    const token = await manager.issueToken('alice')
    const session = await manager.open(token, { applicationName: 'test' })
    advance(TTL_MS + GRACE_MS)
    expect(await manager.use(token)).toBeUndefined()
    const status = await manager.status(token)
    expect(status.state).toBe('CLOSED')
    const closedSession = status.state === 'CLOSED' ? status.session : undefined
    expect(closedSession?.sessionId).toBe(session.sessionId)
    expect(closedSession?.state).toBe('CLOSED')
    expect(closedSession?.closeCause).toBe('EXPIRED')
    expect(await manager.use(token)).toBeUndefined()
    expect(closed).toEqual([[closedSession, 'EXPIRED']])
  })

  it('answers nothing for a closed session', async () => {
    const { manager } = setUp()
    const token = await manager.issueToken('alice')
    const session = await manager.open(token, { applicationName: 'test' })
    await manager.close(session)
    expect(await manager.use(token)).toBeUndefined()
    const status = await manager.status(token)
    expect(status.state === 'CLOSED' && status.session.closeCause).toBe('CLOSED_BY_CLIENT')
  })
})

describe('SessionManager closing', () => {
  it('releases the licenses and tells the listeners once when a DELETE, a use, the sweep and a switch-over race', async () => {
    const { manager, closed, released, advance } = setUp()
    const token = await manager.issueToken('alice')
    const session = await manager.open(token, { applicationName: 'test' })
    advance(TTL_MS + GRACE_MS)
    const outcomes = await Promise.all([
      manager.close(session),
      manager.use(token),
      manager.sweep(),
      manager.closeAll('SWITCH_OVER'),
    ])
    expect(outcomes[0]).toBe(true)
    expect(outcomes[1]).toBeUndefined()
    expect(outcomes[3]).toBe(0)
    expect(closed.map(([other, cause]) => [other.sessionId, cause])).toEqual([
      [session.sessionId, 'CLOSED_BY_CLIENT'],
    ])
    expect(released).toEqual([session.sessionId])
    expect(await manager.close(session)).toBe(false)
    expect(closed).toHaveLength(1)
  })

  it('sweeps the sessions past their deadline, and forgets their credentials after the closed retention', async () => {
    const { manager, closed, released, advance } = setUp()
    const token = await manager.issueToken('alice')
    const session = await manager.open(token, { applicationName: 'test' })
    advance(TTL_MS + GRACE_MS - 1)
    await manager.sweep()
    expect(await manager.openCount()).toBe(1)
    advance(1)
    await manager.sweep()
    expect(await manager.openCount()).toBe(0)
    expect(closed.map(([other, cause]) => [other.sessionId, cause])).toEqual([
      [session.sessionId, 'EXPIRED'],
    ])
    expect(released).toEqual([session.sessionId])
    expect((await manager.status(token)).state).toBe('CLOSED')
    advance(600_000)
    await manager.sweep()
    expect(await manager.status(token)).toEqual({ state: 'UNKNOWN' })
  })

  it('gives back the licenses it acquired when the credential opened a session meanwhile', async () => {
    const { manager, released, licenses } = setUp()
    const token = await manager.issueToken('alice')
    const first = manager.open(token, { applicationName: 'first' })
    const second = manager
      .open(token, { applicationName: 'second' })
      .catch((error: unknown) => error)
    expect((await first).applicationName).toBe('first')
    expect(await second).toMatchObject({
      type: 'NOT_EXPECTED',
      message: 'A session is already open with this credential',
    })
    expect(released).toHaveLength(1)
    expect(released).not.toContain((await first).sessionId)
    expect(await licenses.inUse('TELEPHONY_BASIC')).toBe(1)
    expect(await manager.openCount()).toBe(1)
  })

  it('takes the licenses at open, not on a request, and holds them once per session', async () => {
    const { manager, licenses } = setUp()
    const token = await manager.issueToken('alice')
    const session = await manager.open(token, { applicationName: 'test' })
    expect(session.rights).toEqual(['TELEPHONY_BASIC'])
    const before = licenses.heldKeys()
    await manager.use(token)
    await manager.keepalive(token)
    expect(licenses.heldKeys()).toEqual(before)
    expect(before).toContain(`license-refs:${session.sessionId}`)
  })

  it('sweeps the references of sessions that are not open once they are over a minute old, never an open one', async () => {
    const { manager, licenses, released, advance, now } = setUp()
    const token = await manager.issueToken('alice')
    const open = await manager.open(token, { applicationName: 'test' })
    // A node died between acquiring and opening: references of a session that never existed.
    await licenses.acquire('never-opened', 'bob', ['TELEPHONY_BASIC'], { ...FIVE_BASIC }, now())
    advance(60_000)
    await manager.sweep()
    expect(released).toEqual([])
    advance(1)
    await manager.sweep()
    expect(released).toEqual(['never-opened'])
    expect(await licenses.inUse('TELEPHONY_BASIC')).toBe(1)
    expect(licenses.heldKeys()).toContain(`license-refs:${open.sessionId}`)
  })
})
