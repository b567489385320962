/**
 * The SubscriptionStore conformance suite (style guide 6): every adapter passes the same cases, with the
 * caller's `now` driving every expiry, and, where the adapter has two connections, the second as another node.
 */
import { expect, it, vi } from 'vitest'
import type {
  SubscriptionChange,
  SubscriptionDraft,
  SubscriptionFilterRecord,
} from '../../src/platform/subscriptions/subscription-record.js'
import type { SubscriptionStore } from '../../src/platform/subscriptions/subscription-store.js'
import { subscriptionDraft } from '../support/subscription-fixtures.js'

/** A store to test, and what the suite looks at beside the port. */
export interface SubscriptionStoreHandle {
  store: SubscriptionStore
  /** A store over the same data through a connection of its own (another node), or `store` itself. */
  other: SubscriptionStore
  /** What the adapter holds, named as the Redis keys (after the prefix), sorted. */
  keys(): Promise<string[]>
  /** The time to live of a key in milliseconds, for adapters whose keys expire by themselves. */
  ttlMs?(key: string): Promise<number>
}

const T0 = 1_700_000_000_000
const MIN = 60_000

const FILTER: SubscriptionFilterRecord = {
  selectors: [{ names: ['telephony'] }],
  routes: [{ eventNames: ['OnCallCreated', 'OnCallRemoved'], loginNames: ['alice'] }],
  supervisedUsers: [],
}

const OTHER_FILTER: SubscriptionFilterRecord = {
  selectors: [{ names: ['OnCallCreated'], ids: ['bob', 'carol'] }],
  routes: [{ eventNames: ['OnCallCreated'], loginNames: ['bob', 'carol'] }],
  supervisedUsers: ['bob', 'carol'],
}

function draft(subscriptionId: string, sessionId = 's1', timeoutMinutes = 10): SubscriptionDraft {
  return subscriptionDraft(subscriptionId, { sessionId, timeoutMinutes, filter: FILTER })
}

const ids = (records: readonly { subscriptionId: string }[]) =>
  records.map((record) => record.subscriptionId)

/**
 * Declares the cases, each on a fresh, empty store from `create`; with `keysExpire`, also that the keys have
 * the time to live of the subscription's expiry (`ttlMs`).
 */
export function subscriptionStoreConformance(
  create: () => Promise<SubscriptionStoreHandle>,
  keysExpire: boolean,
): void {
  it('keeps a created subscription as given, with its times, revision 1 and ACCEPTED', async () => {
    const { store, other } = await create()
    const given = {
      ...draft('sub1'),
      admin: true,
      mode: 'CHUNK_MULTIPART' as const,
      keepaliveMinutes: 3,
      webHookUrl: 'http://127.0.0.1:9000/hook',
      dialect: 'java' as const,
      filter: OTHER_FILTER,
    }
    const expected = {
      ...given,
      createdAt: T0,
      lastActivityAt: T0,
      expiresAt: T0 + 10 * MIN,
      revision: 1,
      state: 'ACCEPTED',
    }

    expect(await store.create(given, T0)).toStrictEqual(expected)
    expect(await other.find('sub1')).toStrictEqual(expected)
    expect(await other.find('unknown')).toBeUndefined()
  })

  it('refuses an id already used, keeping the first', async () => {
    const { store, other } = await create()
    await store.create(draft('sub1', 's1'), T0)

    expect(await other.create(draft('sub1', 's2'), T0 + 1)).toBeUndefined()
    expect((await store.find('sub1'))?.sessionId).toBe('s1')
    expect(ids(await store.ofSession('s2'))).toStrictEqual([])
  })

  it('gives no expiry to a subscription that follows its session, and never finds it due', async () => {
    const { store } = await create()
    const created = await store.create(draft('sub1', 's1', 0), T0)

    expect(created?.expiresAt).toBeUndefined()
    expect(await store.touch('sub1', T0 + MIN)).toBe(true)
    expect((await store.find('sub1'))?.expiresAt).toBeUndefined()
    expect(await store.due(T0 + 10_000 * MIN, 10)).toStrictEqual([])
  })

  it("lists a session's subscriptions oldest first, and no other session's", async () => {
    const { store, other } = await create()
    await store.create(draft('b', 's1'), T0 + 2)
    await store.create(draft('a', 's1'), T0 + 1)
    await store.create(draft('c', 's2'), T0)

    expect(ids(await other.ofSession('s1'))).toStrictEqual(['a', 'b'])
    expect(ids(await other.ofSession('s2'))).toStrictEqual(['c'])
    expect(ids(await other.ofSession('s3'))).toStrictEqual([])
    expect(await other.countOfSession('s1')).toBe(2)
    expect(await other.countOfSession('s3')).toBe(0)
    await store.remove('a', 'DELETED')
    expect(ids(await other.ofSession('s1'))).toStrictEqual(['b'])
    expect(await other.countOfSession('s1')).toBe(1)
    expect(await store.countOfSession('s1')).toBe(1)
  })

  it('replaces the filter from the current revision: the next revision, and activity', async () => {
    const { store, other } = await create()
    await store.create(draft('sub1'), T0)

    const replaced = await other.replaceFilter('sub1', 1, OTHER_FILTER, T0 + MIN)
    expect(replaced).toStrictEqual({
      state: 'REPLACED',
      subscription: expect.objectContaining({
        filter: OTHER_FILTER,
        revision: 2,
        lastActivityAt: T0 + MIN,
        expiresAt: T0 + 11 * MIN,
      }),
    })
    expect(await store.find('sub1')).toStrictEqual(
      replaced.state === 'REPLACED' ? replaced.subscription : undefined,
    )
  })

  it('tells a replacement from a stale revision CONFLICT with the record as it is, changing nothing', async () => {
    const { store, other } = await create()
    await store.create(draft('sub1'), T0)
    await store.replaceFilter('sub1', 1, OTHER_FILTER, T0 + MIN)

    const stale = await other.replaceFilter('sub1', 1, FILTER, T0 + 2 * MIN)
    expect(stale).toStrictEqual({
      state: 'CONFLICT',
      subscription: expect.objectContaining({ filter: OTHER_FILTER, revision: 2 }),
    })
    expect(await store.find('sub1')).toMatchObject({ filter: OTHER_FILTER, revision: 2 })
    expect(await other.replaceFilter('gone', 1, FILTER, T0)).toStrictEqual({ state: 'NOT_FOUND' })
  })

  it('lets exactly one of two nodes replacing from the same revision win', async () => {
    const { store, other } = await create()
    await store.create(draft('sub1'), T0)

    const outcomes = await Promise.all([
      store.replaceFilter('sub1', 1, OTHER_FILTER, T0 + 1),
      other.replaceFilter('sub1', 1, FILTER, T0 + 1),
    ])
    const states = outcomes.map((outcome) => outcome.state).sort()
    expect(states).toStrictEqual(['CONFLICT', 'REPLACED'])
    expect((await store.find('sub1'))?.revision).toBe(2)
  })

  it('moves the expiry with activity, never back, and tells a touch of a removed one false', async () => {
    const { store, other } = await create()
    await store.create(draft('sub1'), T0)

    expect(await other.touch('sub1', T0 + 4 * MIN)).toBe(true)
    expect(await store.find('sub1')).toMatchObject({
      lastActivityAt: T0 + 4 * MIN,
      expiresAt: T0 + 14 * MIN,
    })
    expect(await store.touch('sub1', T0 + MIN)).toBe(true)
    expect((await store.find('sub1'))?.expiresAt).toBe(T0 + 14 * MIN)
    await store.remove('sub1', 'DELETED')
    expect(await other.touch('sub1', T0 + 5 * MIN)).toBe(false)
    expect(await store.find('sub1')).toBeUndefined()
  })

  it('removes a subscription once: the one remover gets the record as removed, every other nothing', async () => {
    const { store, other } = await create()
    await store.create(draft('sub1'), T0)

    const removals = await Promise.all([
      store.remove('sub1', 'IDLE_TIMEOUT'),
      other.remove('sub1', 'SESSION_CLOSED'),
      other.remove('sub1', 'DELETED'),
    ])
    const removed = removals.filter((removal) => removal !== undefined)
    expect(removed).toHaveLength(1)
    expect(removed[0]).toMatchObject({ subscriptionId: 'sub1', state: 'REMOVED' })
    expect(['IDLE_TIMEOUT', 'SESSION_CLOSED', 'DELETED']).toContain(removed[0]?.removeCause)
    expect(await store.find('sub1')).toBeUndefined()
    expect(await store.remove('sub1', 'DELETED')).toBeUndefined()
  })

  it('finds due the subscriptions expired at now, earliest first, at most the limit', async () => {
    const { store, other } = await create()
    await store.create(draft('late', 's1', 5), T0 + MIN)
    await store.create(draft('early', 's1', 5), T0)
    await store.create(draft('touched', 's1', 5), T0)
    await store.create(draft('follows', 's1', 0), T0)
    await store.touch('touched', T0 + 3 * MIN)

    expect(ids(await other.due(T0 + 5 * MIN - 1, 10))).toStrictEqual([])
    expect(ids(await other.due(T0 + 5 * MIN, 10))).toStrictEqual(['early'])
    expect(ids(await other.due(T0 + 8 * MIN, 10))).toStrictEqual(['early', 'late', 'touched'])
    expect(ids(await other.due(T0 + 8 * MIN, 2))).toStrictEqual(['early', 'late'])
    await store.remove('early', 'IDLE_TIMEOUT')
    expect(ids(await other.due(T0 + 8 * MIN, 10))).toStrictEqual(['late', 'touched'])
  })

  it('loads every subscription, as changed', async () => {
    const { store, other } = await create()
    await store.create(draft('a', 's1'), T0)
    await store.create(draft('b', 's2', 0), T0)
    await store.create(draft('c', 's2'), T0)
    await store.replaceFilter('b', 1, OTHER_FILTER, T0 + 1)
    await store.remove('c', 'DELETED')

    const all = await other.all()
    expect(ids(all).sort()).toStrictEqual(['a', 'b'])
    expect(all.find((record) => record.subscriptionId === 'b')?.filter).toStrictEqual(OTHER_FILTER)
  })

  it('tells every node of each creation, filter replacement and removal, in order, and not of activity', async () => {
    const { store, other } = await create()
    const heard: SubscriptionChange[] = []
    const follower = await other.changes((change) => heard.push(change))

    await store.create(draft('sub1'), T0)
    await store.touch('sub1', T0 + 1)
    await store.replaceFilter('sub1', 1, OTHER_FILTER, T0 + 2)
    await store.replaceFilter('sub1', 1, FILTER, T0 + 3)
    await store.remove('sub1', 'DELETED')
    await store.remove('sub1', 'DELETED')
    await store.create(draft('sub2'), T0 + 4)

    const expected: SubscriptionChange[] = [
      { subscriptionId: 'sub1', kind: 'created' },
      { subscriptionId: 'sub1', kind: 'filter' },
      { subscriptionId: 'sub1', kind: 'removed' },
      { subscriptionId: 'sub2', kind: 'created' },
    ]
    await vi.waitFor(() => expect(heard).toHaveLength(expected.length), { timeout: 5_000 })
    expect(heard).toStrictEqual(expected)
    await follower.close()
  })

  it('stops telling a follower once it is closed', async () => {
    const { store, other } = await create()
    const heard: SubscriptionChange[] = []
    const closed = await other.changes((change) => heard.push(change))
    const open: SubscriptionChange[] = []
    const follower = await other.changes((change) => open.push(change))
    await closed.close()

    await store.create(draft('sub1'), T0)
    await vi.waitFor(() => expect(open).toHaveLength(1), { timeout: 5_000 })
    expect(heard).toStrictEqual([])
    await follower.close()
  })

  it('leaves nothing behind once every subscription is removed', async () => {
    const { store, keys } = await create()
    await store.create(draft('a', 's1'), T0)
    await store.create(draft('b', 's1', 0), T0)
    expect(await keys()).toStrictEqual([
      'subscription:a',
      'subscription:b',
      'subscriptions',
      'subscriptions-of:s1',
    ])

    await store.remove('a', 'SESSION_CLOSED')
    await store.remove('b', 'SESSION_CLOSED')
    expect(await keys()).toStrictEqual([])
  })

  it.skipIf(!keysExpire)(
    "gives a subscription's keys its expiry plus the sweep margin, renewed with activity; none when it follows its session",
    async () => {
      const { store, ttlMs } = await create()
      if (ttlMs === undefined) throw new Error('an adapter whose keys expire tells their TTL')
      const now = Date.now()
      await store.create(draft('a', 's1', 5), now)
      await store.create(draft('b', 's2', 0), now)
      const margin = 10 * MIN

      expect(await ttlMs('subscription:a')).toBeGreaterThan(5 * MIN + margin - 1000)
      expect(await ttlMs('subscription:a')).toBeLessThanOrEqual(5 * MIN + margin)
      expect(await ttlMs('subscriptions-of:s1')).toBeGreaterThan(5 * MIN + margin - 1000)
      expect(await ttlMs('subscription:b')).toBe(-1)
      expect(await ttlMs('subscriptions-of:s2')).toBe(-1)
      expect(await ttlMs('subscriptions')).toBe(-1)

      await store.create(draft('c', 's1', 30), now)
      expect(await ttlMs('subscriptions-of:s1')).toBeGreaterThan(30 * MIN + margin - 1000)
      await store.create(draft('d', 's1', 0), now)
      expect(await ttlMs('subscriptions-of:s1')).toBe(-1)
    },
  )
}
