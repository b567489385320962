/**
 * The SupervisionStore conformance suite (style guide 6): every adapter passes the same cases, the rules of
 * the specification's "Events" item 7 as SubscriptionManager applies them (a user counts once however many
 * administrator subscriptions hold it; a replaced filter's users make room), with the limit checked in the
 * step that changes the count, however many subscriptions change at once on however many nodes.
 */
import { expect, it } from 'vitest'
import type { SupervisionStore } from '../../src/platform/subscriptions/supervision-store.js'

/** A store to test, and what the suite looks at beside the port. */
export interface SupervisionStoreHandle {
  store: SupervisionStore
  /** A store over the same data through a connection of its own (another node), or `store` itself. */
  other: SupervisionStore
  /** What the adapter holds, named as the Redis keys (after the prefix), sorted. */
  keys(): Promise<string[]>
}

const users = (...logins: string[]): Set<string> => new Set(logins)

/** Declares the cases, each on a fresh, empty store from `create`. */
export function supervisionStoreConformance(create: () => Promise<SupervisionStoreHandle>): void {
  it('starts empty, and counts the users a subscription holds within the limit', async () => {
    const { store } = await create()
    expect(await store.count()).toBe(0)
    expect(await store.hold('sub1', users('alice', 'bob'), 2)).toBe(true)
    expect(await store.count()).toBe(2)
  })

  it('refuses a subscription past the limit, changing nothing', async () => {
    const { store, other } = await create()
    await store.hold('sub1', users('alice', 'bob'), 3)
    expect(await other.hold('sub2', users('carol', 'dave'), 3)).toBe(false)
    expect(await store.count()).toBe(2)
    // Nothing of the refused subscription was kept: releasing it frees nothing.
    await other.release('sub2')
    expect(await store.count()).toBe(2)
    expect(await other.hold('sub2', users('carol'), 3)).toBe(true)
  })

  it('counts a user held by two subscriptions once, and frees it with the last', async () => {
    const { store, other } = await create()
    await store.hold('sub1', users('alice', 'bob'), 2)
    expect(await other.hold('sub2', users('bob'), 2)).toBe(true)
    expect(await store.count()).toBe(2)
    await store.release('sub1')
    expect(await store.count()).toBe(1)
    expect(await store.hold('sub3', users('carol'), 2)).toBe(true)
    expect(await store.hold('sub4', users('dave'), 2)).toBe(false)
    await other.release('sub2')
    expect(await store.count()).toBe(1)
  })

  it('replaces a filter within the limit: the users it gives back make room', async () => {
    const { store } = await create()
    await store.hold('sub1', users('alice', 'bob'), 2)
    expect(await store.hold('sub1', users('bob', 'carol'), 2)).toBe(true)
    expect(await store.count()).toBe(2)
    expect(await store.hold('sub1', users('bob', 'carol', 'erin'), 2)).toBe(false)
    // The refused replacement kept the filter before it: releasing gives back bob and carol.
    await store.release('sub1')
    expect(await store.count()).toBe(0)
  })

  it('replaces a filter: a user another subscription still holds is not freed', async () => {
    const { store } = await create()
    await store.hold('sub1', users('alice', 'bob'), 2)
    await store.hold('sub2', users('alice'), 2)
    expect(await store.hold('sub2', users('carol'), 2)).toBe(false)
    expect(await store.hold('sub1', users('bob', 'carol'), 2)).toBe(false)
    expect(await store.hold('sub1', users('bob'), 2)).toBe(true)
    expect(await store.count()).toBe(2)
  })

  it('lets users already held cost nothing, at the limit too', async () => {
    const { store, other } = await create()
    expect(await store.hold('sub1', users('alice', 'bob', 'carol'), 2)).toBe(false)
    await store.hold('sub1', users('alice', 'bob'), 2)
    expect(await other.hold('sub2', users('bob'), 2)).toBe(true)
    expect(await other.hold('sub3', users('alice', 'bob'), 2)).toBe(true)
    expect(await other.hold('sub4', users('carol'), 2)).toBe(false)
    expect(await store.count()).toBe(2)
  })

  it('replaces a filter by users all new when it gives back as many, and counts what it predicts', async () => {
    const { store } = await create()
    await store.hold('sub1', users('alice', 'bob'), 2)
    expect(await store.hold('sub1', users('carol', 'erin'), 2)).toBe(true)
    expect(await store.count()).toBe(2)
    expect(await store.hold('sub1', users('bob', 'carol', 'erin'), 3)).toBe(true)
    expect(await store.count()).toBe(3)
    // A user given back by a filter is free again for another subscription.
    expect(await store.hold('sub2', users('alice'), 4)).toBe(true)
    expect(await store.count()).toBe(4)
  })

  it('gives back a subscription once however often it is released, and an empty one holds nothing', async () => {
    const { store, other } = await create()
    await store.hold('sub1', users('alice'), 5)
    await store.hold('sub2', users('alice'), 5)
    await store.release('sub1')
    await other.release('sub1')
    await store.release('never-held')
    expect(await store.count()).toBe(1)
    expect(await store.hold('sub2', users(), 5)).toBe(true)
    expect(await store.count()).toBe(0)
  })

  it('accepts exactly as many users as the limit from 50 subscriptions created at once on two nodes', async () => {
    const { store, other } = await create()
    const accepted = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? store : other).hold(`sub${i}`, users(`user${i}`), 10),
      ),
    )
    expect(accepted.filter(Boolean)).toHaveLength(10)
    expect(await store.count()).toBe(10)
  })

  it('holds nothing once every subscription is released, after changes at once on two nodes', async () => {
    const { store, other, keys } = await create()
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? store : other).hold(`sub${i}`, users(`user${i % 4}`, `user${i % 7}`), 6),
      ),
    )
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? other : store).hold(`sub${i}`, users(`user${i % 5}`), 6),
      ),
    )
    expect(await keys()).not.toStrictEqual([])
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.release(`sub${i}`)))
    expect(await keys()).toStrictEqual([])
    expect(await store.count()).toBe(0)
  })
}
