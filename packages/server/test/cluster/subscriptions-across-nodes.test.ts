/**
 * SubscriptionManager on two nodes over one store (docs/cluster.md, "Subscriptions"): on Redis, two stores on
 * two clients, as two nodes; in memory, one store two managers share, the model. A subscription made on one
 * node is found, replaced and removed on the other; each node's delivery follows through the store's changes;
 * a removal's effects (supervised users, the queue) run once, on the node whose claim won, whether the session
 * closed, the sweep ran or a PUT raced another.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SubscriptionStore } from '../../src/platform/subscriptions/subscription-store.js'
import type { SupervisionStore } from '../../src/platform/subscriptions/supervision-store.js'
import { MemorySubscriptionStore } from '../../src/storage/memory/memory-subscription-store.js'
import { MemorySupervisionStore } from '../../src/storage/memory/memory-supervision-store.js'
import { RedisSubscriptionStore } from '../../src/storage/redis/redis-subscription-store.js'
import { RedisSupervisionStore } from '../../src/storage/redis/redis-supervision-store.js'
import { describeWithRedis } from '../support/redis.js'
import {
  manualClock,
  startNode,
  type TestNode,
  telephony,
  testSession,
} from '../support/subscription-nodes.js'

const MIN = 60_000

/** What each node runs on. */
interface NodeStores {
  store: SubscriptionStore
  supervision: SupervisionStore
}

/** Two nodes on the stores `stores()` gives each, a clock they share, closed after the case. */
type TwoNodes = () => Promise<{ a: TestNode; b: TestNode } & ReturnType<typeof manualClock>>

/** Changes reach the other node through pub/sub on Redis: wait for them (5 s on a loaded machine). */
const eventually = (check: () => void | Promise<void>) =>
  vi.waitFor(check, { timeout: 5000, interval: 10 })

function acrossNodes(twoNodes: TwoNodes): void {
  it('finds, replaces and deletes on node B a subscription made on node A; each delivery follows', async () => {
    const { a, b } = await twoNodes()
    const alice = testSession('alice')
    const created = await a.manager.create(alice, telephony())
    if (!created.accepted) throw new Error(created.message)
    const id = created.subscription.subscriptionId
    expect(a.delivery.calls).toContain(`attach ${id}@1`)
    await eventually(() => expect(b.delivery.held.get(id)).toBe(1))

    const found = await b.manager.find(id)
    expect(found).toMatchObject({ subscriptionId: id, owner: 'alice', revision: 1, isActive: true })

    const replaced = await b.manager.replaceFilter(alice, id, {
      selectors: [{ names: ['OnCallCreated'] }],
    })
    expect(replaced.accepted && replaced.subscription.routes).toEqual([
      { eventNames: ['OnCallCreated'], loginNames: ['alice'] },
    ])
    expect(b.delivery.held.get(id)).toBe(2)
    await eventually(() => expect(a.delivery.held.get(id)).toBe(2))
    expect((await a.manager.find(id))?.revision).toBe(2)

    await b.manager.delete(alice, id)
    expect(b.delivery.held.has(id)).toBe(false)
    await eventually(() => expect(a.delivery.held.has(id)).toBe(false))
    expect(await a.manager.find(id)).toBeUndefined()
    // The queue is discarded once, by the node whose removal won; the removal told there only.
    expect([a.delivery.count('discard', id), b.delivery.count('discard', id)]).toEqual([0, 1])
    expect(b.removed.map((removed) => [removed.subscriptionId, removed.cause])).toEqual([
      [id, 'DELETED'],
    ])
    expect(a.removed).toEqual([])
    await expect(a.manager.delete(alice, id)).rejects.toMatchObject({ type: 'NOT_FOUND' })
    expect([...a.errors, ...b.errors]).toEqual([])
  })

  it("removes a session's subscriptions once when both nodes hear it closed: supervised users released once", async () => {
    const { a, b } = await twoNodes()
    const admin = testSession('admin', true)
    const ids: string[] = []
    for (const users of [['alice', 'bob'], ['carol']]) {
      const created = await a.manager.create(admin, telephony(users))
      if (!created.accepted) throw new Error(created.message)
      ids.push(created.subscription.subscriptionId)
    }
    expect(await a.supervision.count()).toBe(3)
    await eventually(() => expect([...b.delivery.held.keys()].sort()).toEqual([...ids].sort()))

    await Promise.all([
      a.manager.sessionClosed(admin.sessionId),
      b.manager.sessionClosed(admin.sessionId),
    ])

    const removed = [...a.removed, ...b.removed]
    expect(removed.map((subscription) => subscription.subscriptionId).sort()).toEqual(
      [...ids].sort(),
    )
    for (const subscription of removed) expect(subscription.cause).toBe('SESSION_CLOSED')
    expect([...a.supervision.released, ...b.supervision.released].sort()).toEqual([...ids].sort())
    for (const id of ids)
      expect(a.delivery.count('discard', id) + b.delivery.count('discard', id)).toBe(1)
    await eventually(async () => expect(await b.supervision.count()).toBe(0))
    await eventually(() => {
      expect(a.delivery.held.size).toBe(0)
      expect(b.delivery.held.size).toBe(0)
    })
    expect(await b.manager.count()).toBe(0)
  })

  it('answers two PUTs from one revision on two nodes both, the last one winning, its users held', async () => {
    const { a, b } = await twoNodes()
    const admin = testSession('admin', true)
    const created = await a.manager.create(admin, telephony(['alice']))
    if (!created.accepted) throw new Error(created.message)
    const id = created.subscription.subscriptionId
    // Both PUTs read revision 1 before either replaces: each node's first replacement waits for the other's.
    const revisions: number[] = []
    let arrived = 0
    let bothRead: () => void = () => {}
    const barrier = new Promise<void>((resolve) => {
      bothRead = resolve
    })
    // One store in memory, shared by both nodes: wrapped once.
    for (const store of new Set([a.store, b.store])) {
      const replace = store.replaceFilter.bind(store)
      vi.spyOn(store, 'replaceFilter').mockImplementation(async (...args) => {
        revisions.push(args[1])
        arrived += 1
        if (arrived === 2) bothRead()
        if (arrived <= 2) await barrier
        return replace(...args)
      })
    }

    const [onA, onB] = await Promise.all([
      a.manager.replaceFilter(admin, id, { selectors: [{ names: ['telephony'], ids: ['bob'] }] }),
      b.manager.replaceFilter(admin, id, {
        selectors: [{ names: ['telephony'], ids: ['carol', 'dave'] }],
      }),
    ])

    if (!onA.accepted || !onB.accepted) throw new Error('a PUT was refused')
    // One replaced from revision 1, the other was told CONFLICT and replaced again from revision 2.
    expect(revisions).toEqual([1, 1, 2])
    const last = onA.subscription.revision > onB.subscription.revision ? onA : onB
    expect([onA.subscription.revision, onB.subscription.revision].sort()).toEqual([2, 3])
    const stored = await a.manager.find(id)
    expect(stored?.revision).toBe(3)
    expect(stored?.supervisedUsers).toEqual(last.subscription.supervisedUsers)
    expect(await a.supervision.count()).toBe(last.subscription.supervisedUsers.size)
    await eventually(() => {
      expect(a.delivery.held.get(id)).toBe(3)
      expect(b.delivery.held.get(id)).toBe(3)
    })
  })

  it('removes an idle subscription once when both nodes sweep: released and discarded once', async () => {
    const { a, b, advance } = await twoNodes()
    const admin = testSession('admin', true)
    const created = await a.manager.create(admin, telephony(['alice'], { timeout: 2 }))
    if (!created.accepted) throw new Error(created.message)
    const id = created.subscription.subscriptionId
    await eventually(() => expect(b.delivery.held.get(id)).toBe(1))
    advance(2 * MIN - 1)
    await Promise.all([a.manager.sweep(), b.manager.sweep()])
    expect((await b.manager.find(id))?.isActive).toBe(true)

    advance(1)
    await Promise.all([a.manager.sweep(), b.manager.sweep(), a.manager.sweep(), b.manager.sweep()])

    const removed = [...a.removed, ...b.removed]
    expect(
      removed.map((subscription) => [subscription.subscriptionId, subscription.cause]),
    ).toEqual([[id, 'IDLE_TIMEOUT']])
    expect([...a.supervision.released, ...b.supervision.released]).toEqual([id])
    expect(a.delivery.count('discard', id) + b.delivery.count('discard', id)).toBe(1)
    await eventually(() => {
      expect(a.delivery.held.has(id)).toBe(false)
      expect(b.delivery.held.has(id)).toBe(false)
    })
    expect(await a.manager.find(id)).toBeUndefined()
  })

  it('attaches, on a node that starts, the subscriptions made before it, and follows them', async () => {
    const { a } = await twoNodes()
    const alice = testSession('alice')
    const created = await a.manager.create(alice, telephony())
    if (!created.accepted) throw new Error(created.message)
    const id = created.subscription.subscriptionId
    const late = await startNode(a.store, a.supervision, manualClock().clock)
    nodes.push(late)
    expect(late.delivery.held.get(id)).toBe(1)
    await a.manager.replaceFilter(alice, id, { selectors: [{ names: ['user'] }] })
    await eventually(() => expect(late.delivery.held.get(id)).toBe(2))
  })
}

/** Nodes started by the case, their followers closed after it. */
const nodes: TestNode[] = []
afterEach(async () => {
  for (const node of nodes.splice(0)) await node.follower.close()
})

async function twoNodesOver(
  stores: () => Promise<[NodeStores, NodeStores]>,
): Promise<{ a: TestNode; b: TestNode } & ReturnType<typeof manualClock>> {
  const time = manualClock()
  const [onA, onB] = await stores()
  const a = await startNode(onA.store, onA.supervision, time.clock)
  const b = await startNode(onB.store, onB.supervision, time.clock)
  nodes.push(a, b)
  return { a, b, ...time }
}

describe('SubscriptionManager on two nodes over one MemorySubscriptionStore', () => {
  acrossNodes(() =>
    twoNodesOver(async () => {
      const shared = {
        store: new MemorySubscriptionStore(),
        supervision: new MemorySupervisionStore(),
      }
      return [shared, shared]
    }),
  )
})

describeWithRedis('SubscriptionManager on two nodes over Redis', (redis) => {
  acrossNodes(() =>
    twoNodesOver(async () => {
      await redis.cleanUp()
      const [one, two] = await Promise.all([redis.client(), redis.client()])
      return [
        { store: new RedisSubscriptionStore(one), supervision: new RedisSupervisionStore(one) },
        { store: new RedisSubscriptionStore(two), supervision: new RedisSupervisionStore(two) },
      ]
    }),
  )
})
