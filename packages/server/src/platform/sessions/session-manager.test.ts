import { describe, expect, it } from 'vitest'
import type { StoredAccount } from '../directory/account.js'
import type { Directory } from '../directory/directory.js'
import type { LicensePool } from '../licenses/license-pool.js'
import type { Clock } from '../ports.js'
import type { Session } from './session.js'
import { SessionManager } from './session-manager.js'
import type { SessionCloseCause } from './session-state.js'

const TTL_MS = 300_000
const GRACE_MS = 30_000

/** A user with no license, a clock the test sets, and no sweep: only `use` can find the session expired. */
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
    record: { loginName: 'alice', apiRights: [] },
  } as unknown as StoredAccount
  const directory = { findAccount: () => alice } as unknown as Directory
  const licenses = { acquire: () => true, release: () => {} } as unknown as LicensePool
  const manager = new SessionManager(directory, licenses, clock, {
    timeToLiveSeconds: TTL_MS / 1000,
    graceSeconds: GRACE_MS / 1000,
    tokenTimeToLiveSeconds: 60,
    closedRetentionSeconds: 600,
    sweepIntervalSeconds: 60,
  })
  const closed: [Session, SessionCloseCause][] = []
  manager.onSessionClosed((session, cause) => closed.push([session, cause]))
  return {
    manager,
    closed,
    advance: (ms: number) => {
      now += ms
    },
    now: () => now,
  }
}

describe('SessionManager.use', () => {
  it('answers nothing for no token, an unknown token and a credential without a session', () => {
    const { manager } = setUp()
    const token = manager.issueToken('alice')
    expect(manager.use(undefined)).toBeUndefined()
    expect(manager.use('unknown')).toBeUndefined()
    expect(manager.use(token)).toBeUndefined()
  })

  it('restarts the timer of the open session on every use', () => {
    const { manager, advance, now } = setUp()
    const token = manager.issueToken('alice')
    const session = manager.open(token, { applicationName: 'test' })
    advance(TTL_MS + GRACE_MS - 1)
    expect(manager.use(token)).toBe(session)
    expect(session.expiresAt).toBe(now() + TTL_MS)
    expect(manager.status(token)).toEqual({ state: 'OPEN', session })
  })

  it('closes the session as EXPIRED once timeToLive and the grace have passed, and tells the listeners once', () => {
    const { manager, closed, advance } = setUp()
    const token = manager.issueToken('alice')
    const session = manager.open(token, { applicationName: 'test' })
    advance(TTL_MS + GRACE_MS)
    expect(manager.use(token)).toBeUndefined()
    expect(session.state).toBe('CLOSED')
    expect(session.closeCause).toBe('EXPIRED')
    expect(manager.use(token)).toBeUndefined()
    expect(closed).toEqual([[session, 'EXPIRED']])
    expect(manager.status(token)).toEqual({ state: 'CLOSED', session })
  })

  it('answers nothing for a closed session', () => {
    const { manager } = setUp()
    const token = manager.issueToken('alice')
    const session = manager.open(token, { applicationName: 'test' })
    manager.close(session)
    expect(manager.use(token)).toBeUndefined()
    expect(session.closeCause).toBe('CLOSED_BY_CLIENT')
  })
})
