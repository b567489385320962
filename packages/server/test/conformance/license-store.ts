/**
 * The LicenseStore conformance suite (style guide 6): every adapter passes the same cases, which are what
 * SessionManager relies on: a user holds a license once however many sessions take it, a session gives back
 * all it holds by its id (once, however often asked), and no more users than installed hold a right, however
 * many sessions acquire at once on however many nodes.
 */
import type { UserRight } from '@openness/wire'
import { expect, it } from 'vitest'
import type { LicenseStore } from '../../src/platform/sessions/license-store.js'

/** A store to test, and what the suite looks at beside the port. */
export interface LicenseStoreHandle {
  store: LicenseStore
  /** A store over the same data through a connection of its own (another node), or `store` itself. */
  other: LicenseStore
  /** What the adapter holds, named as the Redis keys (after the prefix), sorted. */
  keys(): Promise<string[]>
}

const INSTALLED: Readonly<Record<UserRight, number>> = {
  TELEPHONY_BASIC: 10,
  TELEPHONY_ADVANCED: 1,
  MESSAGING: 0,
  CONFERENCING: 2,
}
const T0 = 1_700_000_000_000

/** Declares the cases, each on a fresh, empty store from `create`. */
export function licenseStoreConformance(create: () => Promise<LicenseStoreHandle>): void {
  it('grants the rights with a free license and refuses the others, all in one call', async () => {
    const { store } = await create()
    const granted = await store.acquire(
      's1',
      'alice',
      ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'MESSAGING'],
      INSTALLED,
      T0,
    )
    expect(granted).toStrictEqual(['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED'])
    expect(await store.inUse('TELEPHONY_BASIC')).toBe(1)
    expect(await store.inUse('TELEPHONY_ADVANCED')).toBe(1)
    expect(await store.inUse('MESSAGING')).toBe(0)
    expect(await store.acquire('s2', 'bob', ['TELEPHONY_ADVANCED'], INSTALLED, T0)).toStrictEqual(
      [],
    )
  })

  it('counts a user once however many sessions take the right, and frees it with the last', async () => {
    const { store, other } = await create()
    expect(await store.acquire('s1', 'alice', ['TELEPHONY_ADVANCED'], INSTALLED, T0)).toStrictEqual(
      ['TELEPHONY_ADVANCED'],
    )
    expect(await other.acquire('s2', 'alice', ['TELEPHONY_ADVANCED'], INSTALLED, T0)).toStrictEqual(
      ['TELEPHONY_ADVANCED'],
    )
    expect(await store.inUse('TELEPHONY_ADVANCED')).toBe(1)
    await other.release('s1')
    expect(await store.inUse('TELEPHONY_ADVANCED')).toBe(1)
    expect(await store.acquire('s3', 'bob', ['TELEPHONY_ADVANCED'], INSTALLED, T0)).toStrictEqual(
      [],
    )
    await store.release('s2')
    expect(await store.inUse('TELEPHONY_ADVANCED')).toBe(0)
    expect(await store.acquire('s3', 'bob', ['TELEPHONY_ADVANCED'], INSTALLED, T0)).toStrictEqual([
      'TELEPHONY_ADVANCED',
    ])
  })

  it('gives back a session once however often it is released (its node, then the sweep)', async () => {
    const { store, other } = await create()
    await store.acquire('s1', 'alice', ['CONFERENCING'], INSTALLED, T0)
    await store.acquire('s2', 'alice', ['CONFERENCING'], INSTALLED, T0)
    await store.release('s1')
    await other.release('s1')
    await store.release('never-acquired')
    expect(await store.inUse('CONFERENCING')).toBe(1)
    await store.acquire('s3', 'bob', ['CONFERENCING'], INSTALLED, T0)
    expect(await store.acquire('s4', 'carol', ['CONFERENCING'], INSTALLED, T0)).toStrictEqual([])
  })

  it('takes a reference once when a session acquires the same right again', async () => {
    const { store } = await create()
    await store.acquire('s1', 'alice', ['CONFERENCING'], INSTALLED, T0)
    expect(await store.acquire('s1', 'alice', ['CONFERENCING'], INSTALLED, T0)).toStrictEqual([
      'CONFERENCING',
    ])
    await store.release('s1')
    expect(await store.inUse('CONFERENCING')).toBe(0)
  })

  it('lets a released license be acquired again, by the same user or another', async () => {
    const { store } = await create()
    await store.acquire('s1', 'alice', ['TELEPHONY_ADVANCED'], INSTALLED, T0)
    await store.release('s1')
    expect(await store.acquire('s2', 'alice', ['TELEPHONY_ADVANCED'], INSTALLED, T0)).toStrictEqual(
      ['TELEPHONY_ADVANCED'],
    )
    await store.release('s2')
    expect(await store.acquire('s3', 'bob', ['TELEPHONY_ADVANCED'], INSTALLED, T0)).toStrictEqual([
      'TELEPHONY_ADVANCED',
    ])
  })

  it('grants exactly the installed count to 50 users acquiring at once on two nodes', async () => {
    const { store, other } = await create()
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? store : other).acquire(
          `s${i}`,
          `user${i}`,
          ['TELEPHONY_BASIC'],
          INSTALLED,
          T0,
        ),
      ),
    )
    expect(results.filter((granted) => granted.length === 1)).toHaveLength(10)
    expect(await store.inUse('TELEPHONY_BASIC')).toBe(10)
  })

  it('counts once a user whose 20 sessions acquire at once, beside 40 other users', async () => {
    const { store, other } = await create()
    const attempts = [
      ...Array.from({ length: 20 }, (_, i) => ({ sessionId: `a${i}`, loginName: 'alice' })),
      ...Array.from({ length: 40 }, (_, i) => ({ sessionId: `o${i}`, loginName: `user${i}` })),
    ]
    const results = await Promise.all(
      attempts.map(({ sessionId, loginName }, i) =>
        (i % 2 === 0 ? store : other).acquire(
          sessionId,
          loginName,
          ['TELEPHONY_BASIC'],
          INSTALLED,
          T0,
        ),
      ),
    )
    const holders = new Set(
      attempts.filter((_, i) => results[i]?.length === 1).map((a) => a.loginName),
    )
    expect(holders.size).toBe(10)
    expect(await store.inUse('TELEPHONY_BASIC')).toBe(10)
  })

  it('names the sessions holding references taken before an instant, earliest first', async () => {
    const { store } = await create()
    await store.acquire('late', 'bob', ['TELEPHONY_BASIC'], INSTALLED, T0 + 2000)
    await store.acquire('early', 'alice', ['TELEPHONY_BASIC'], INSTALLED, T0)
    await store.acquire('refused', 'carol', ['MESSAGING'], INSTALLED, T0)
    expect(await store.holdingSessions(T0 + 2000, 10)).toStrictEqual(['early'])
    expect(await store.holdingSessions(T0 + 2001, 10)).toStrictEqual(['early', 'late'])
    expect(await store.holdingSessions(T0 + 2001, 1)).toStrictEqual(['early'])
    await store.release('early')
    expect(await store.holdingSessions(T0 + 2001, 10)).toStrictEqual(['late'])
  })

  it('holds nothing once every session released, after acquiring at once on two nodes', async () => {
    const { store, other, keys } = await create()
    const sessions = Array.from({ length: 30 }, (_, i) => ({ id: `s${i}`, login: `user${i % 7}` }))
    await Promise.all(
      sessions.map(({ id, login }, i) =>
        (i % 2 === 0 ? store : other).acquire(
          id,
          login,
          ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'CONFERENCING'],
          INSTALLED,
          T0,
        ),
      ),
    )
    expect(await keys()).not.toStrictEqual([])
    await Promise.all(sessions.map(({ id }, i) => (i % 2 === 0 ? other : store).release(id)))
    expect(await keys()).toStrictEqual([])
    for (const right of ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'CONFERENCING'] as const)
      expect(await store.inUse(right)).toBe(0)
  })
}
