/**
 * SubscriptionManager on one node (the embedded mode's MemorySubscriptionStore): the idle sweep on the clock,
 * touches throttled to a tenth of the timeout without making an expiry early, a quiet webhook kept, an expired
 * subscription found as gone, and the races a store between steps opens (docs/cluster.md, "Subscriptions").
 * Two nodes: test/cluster/subscriptions-across-nodes.test.ts.
 */
import { describe, expect, it, vi } from 'vitest'
import {
  manualClock,
  startNode,
  telephony,
  testDirectory,
  testSession,
} from '../../../test/support/subscription-nodes.js'
import { VirtualClock } from '../../../test/support/virtual-clock.js'
import { MemorySubscriptionStore } from '../../storage/memory/memory-subscription-store.js'
import { MemorySupervisionStore } from '../../storage/memory/memory-supervision-store.js'
import type { Directory } from '../directory/directory.js'
import type { Clock } from '../events.js'
import type { Session } from '../sessions/session.js'
import type { SubscriptionManagerOptions } from './subscription-manager.js'

const SECOND = 1000
const MIN = 60_000
const WEBHOOK = 'http://127.0.0.1:9/hook'

async function setUp(
  clock: Clock = manualClock().clock,
  options: SubscriptionManagerOptions & { directory?: Directory } = {},
) {
  const store = new MemorySubscriptionStore()
  const node = await startNode(store, new MemorySupervisionStore(), clock, options)
  return { ...node, store }
}

async function subscribe(
  node: Awaited<ReturnType<typeof setUp>>,
  session: Session,
  request = telephony(),
): Promise<string> {
  const created = await node.manager.create(session, request)
  if (!created.accepted) throw new Error(created.message)
  return created.subscription.subscriptionId
}

describe('the idle sweep', () => {
  it('runs every 5 s on the clock and removes a subscription at the first sweep from its expiry, until stopped', async () => {
    const clock = new VirtualClock()
    const node = await setUp(clock)
    node.manager.start()
    const id = await subscribe(node, testSession('alice'), telephony(undefined, { timeout: 2 }))
    await clock.advance(2 * MIN - 1)
    expect((await node.manager.find(id))?.isActive).toBe(true)
    await clock.advance(1)
    expect(node.removed.map((removed) => [removed.subscriptionId, removed.cause])).toEqual([
      [id, 'IDLE_TIMEOUT'],
    ])
    expect(node.delivery.held.has(id)).toBe(false)
    expect(node.delivery.count('discard', id)).toBe(1)
    node.manager.stop()
    expect(clock.pending).toBe(0)
  })

  it('sweeps at the interval it is given: an expiry waits for the next sweep', async () => {
    const clock = new VirtualClock()
    const node = await setUp(clock, { sweepIntervalSeconds: 60 })
    const alice = testSession('alice')
    node.manager.start()
    await clock.advance(30 * SECOND)
    const id = await subscribe(node, alice, telephony(undefined, { timeout: 2 }))
    // Expires at 2:30; the sweeps run at 2:00 and 3:00.
    await clock.advance(2 * MIN)
    expect(node.removed).toEqual([])
    await clock.advance(30 * SECOND)
    expect(node.removed.map((removed) => removed.subscriptionId)).toEqual([id])
    node.manager.stop()
  })

  it('reports a sweep that fails, and sweeps again on time', async () => {
    const clock = new VirtualClock()
    const node = await setUp(clock)
    const id = await subscribe(node, testSession('alice'), telephony(undefined, { timeout: 2 }))
    const due = vi.spyOn(node.store, 'due').mockRejectedValueOnce(new Error('store down'))
    node.manager.start()
    await clock.advance(5 * SECOND)
    expect(node.errors).toEqual([new Error('store down')])
    await clock.advance(2 * MIN)
    expect(due.mock.calls.length).toBeGreaterThan(2)
    expect(node.removed.map((removed) => removed.subscriptionId)).toEqual([id])
    node.manager.stop()
  })

  it('touches a quiet webhook subscription instead of removing it, and removes one whose events wait', async () => {
    const time = manualClock()
    const node = await setUp(time.clock)
    const alice = testSession('alice')
    const id = await subscribe(
      node,
      alice,
      telephony(undefined, { webHookUrl: WEBHOOK, timeout: 2 }),
    )
    node.delivery.quiet = true
    time.advance(2 * MIN)
    await node.manager.sweep()
    const kept = await node.store.find(id)
    expect(kept?.lastActivityAt).toBe(time.now())
    expect(kept?.expiresAt).toBe(time.now() + 2 * MIN)
    node.delivery.quiet = false
    time.advance(2 * MIN)
    await node.manager.sweep()
    expect(node.removed.map((removed) => [removed.subscriptionId, removed.cause])).toEqual([
      [id, 'IDLE_TIMEOUT'],
    ])
  })

  it('never sweeps a subscription that follows its session, nor writes its activity', async () => {
    const time = manualClock()
    const node = await setUp(time.clock)
    const touch = vi.spyOn(node.store, 'touch')
    const id = await subscribe(node, testSession('alice'), telephony(undefined, { timeout: 0 }))
    node.manager.touch({ subscriptionId: id, timeoutMinutes: 0 })
    time.advance(24 * 60 * MIN)
    await node.manager.sweep()
    expect((await node.manager.find(id))?.isActive).toBe(true)
    expect(touch).not.toHaveBeenCalled()
  })
})

describe('activity', () => {
  it('is written to the store at most once per tenth of the timeout while the subscription is hot', async () => {
    const time = manualClock()
    const node = await setUp(time.clock)
    const id = await subscribe(node, testSession('alice'))
    const touch = vi.spyOn(node.store, 'touch')
    const start = time.now()
    // Ten events a second for two minutes, on a 10-minute subscription: written at 0, 1:00 and 2:00.
    for (let tenth = 0; tenth <= 1200; tenth += 1) {
      node.manager.touch({ subscriptionId: id, timeoutMinutes: 10 })
      time.advance(100)
    }
    expect(touch.mock.calls).toEqual([
      [id, start],
      [id, start + MIN],
      [id, start + 2 * MIN],
    ])
  })

  it('not written yet still keeps the subscription: it expires a timeout after the last activity, not before', async () => {
    const time = manualClock()
    const node = await setUp(time.clock)
    const id = await subscribe(node, testSession('alice'), telephony(undefined, { timeout: 2 }))
    const start = time.now()
    node.manager.touch({ subscriptionId: id, timeoutMinutes: 2 })
    time.advance(10 * SECOND)
    // Within 12 s of the last write: kept on this node only.
    node.manager.touch({ subscriptionId: id, timeoutMinutes: 2 })
    expect((await node.store.find(id))?.lastActivityAt).toBe(start)
    time.advance(2 * MIN - 10 * SECOND)
    await node.manager.sweep()
    expect(node.removed).toEqual([])
    expect((await node.store.find(id))?.expiresAt).toBe(start + 10 * SECOND + 2 * MIN)
    time.advance(10 * SECOND - 1)
    await node.manager.sweep()
    expect(node.removed).toEqual([])
    time.advance(1)
    await node.manager.sweep()
    expect(node.removed.map((removed) => removed.subscriptionId)).toEqual([id])
  })

  it('reports a write that failed', async () => {
    const node = await setUp()
    const id = await subscribe(node, testSession('alice'))
    vi.spyOn(node.store, 'touch').mockRejectedValueOnce(new Error('store down'))
    node.manager.touch({ subscriptionId: id, timeoutMinutes: 10 })
    await vi.waitFor(() => expect(node.errors).toEqual([new Error('store down')]))
  })
})

describe('find', () => {
  it('answers an expired subscription the sweep has not reached as gone, and removes it once', async () => {
    const time = manualClock()
    const node = await setUp(time.clock)
    const id = await subscribe(node, testSession('alice'), telephony(undefined, { timeout: 2 }))
    time.advance(2 * MIN)
    expect(await node.manager.find(id)).toBeUndefined()
    expect(await node.manager.find(id)).toBeUndefined()
    expect(node.removed.map((removed) => [removed.subscriptionId, removed.cause])).toEqual([
      [id, 'IDLE_TIMEOUT'],
    ])
    expect(await node.store.find(id)).toBeUndefined()
  })

  it('refuses a PUT or a DELETE of an expired subscription with 404, as a removed one', async () => {
    const time = manualClock()
    const node = await setUp(time.clock)
    const alice = testSession('alice')
    const id = await subscribe(node, alice, telephony(undefined, { timeout: 2 }))
    const other = await subscribe(node, alice, telephony(undefined, { timeout: 3 }))
    time.advance(2 * MIN)
    // The one left is the session's only subscription now: no id needed.
    expect(
      await node.manager.replaceFilter(alice, undefined, telephony().filter ?? {}),
    ).toMatchObject({
      accepted: true,
      subscription: { subscriptionId: other },
    })
    await expect(node.manager.delete(alice, id)).rejects.toMatchObject({ type: 'NOT_FOUND' })
    expect(node.removed.map((removed) => [removed.subscriptionId, removed.cause])).toEqual([
      [id, 'IDLE_TIMEOUT'],
    ])
  })
})

describe('races between the steps of a request', () => {
  it('answers one of two DELETEs at once, the other 404 NOT_FOUND; removed once', async () => {
    const node = await setUp()
    const alice = testSession('alice')
    const id = await subscribe(node, alice)
    const results = await Promise.allSettled([
      node.manager.delete(alice, id),
      node.manager.delete(alice, id),
    ])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    const refused = results.find((result) => result.status === 'rejected')
    expect(refused?.status === 'rejected' && refused.reason).toMatchObject({ type: 'NOT_FOUND' })
    expect(node.removed.map((removed) => removed.subscriptionId)).toEqual([id])
    expect(node.delivery.count('discard', id)).toBe(1)
  })

  it("answers DELETE of another session's subscription or an unknown id 404, removing nothing", async () => {
    const node = await setUp()
    const id = await subscribe(node, testSession('alice'))
    await expect(node.manager.delete(testSession('alice'), id)).rejects.toMatchObject({
      type: 'NOT_FOUND',
    })
    await expect(node.manager.delete(testSession('alice'), 'f'.repeat(32))).rejects.toMatchObject({
      type: 'NOT_FOUND',
    })
    expect((await node.manager.find(id))?.isActive).toBe(true)
    expect(node.removed).toEqual([])
  })

  it('gives back the users a PUT held when the subscription was removed before its replacement, and answers 404', async () => {
    const node = await setUp()
    const admin = testSession('admin', true)
    const id = await subscribe(node, admin, telephony(['alice']))
    const replace = node.store.replaceFilter.bind(node.store)
    vi.spyOn(node.store, 'replaceFilter').mockImplementationOnce(async (...args) => {
      await node.manager.sessionClosed(admin.sessionId)
      return replace(...args)
    })
    await expect(
      node.manager.replaceFilter(admin, id, {
        selectors: [{ names: ['telephony'], ids: ['bob'] }],
      }),
    ).rejects.toMatchObject({ type: 'NOT_FOUND' })
    expect(await node.supervision.count()).toBe(0)
    expect(node.delivery.held.has(id)).toBe(false)
  })

  it('holds the users of the filter stored when a PUT told CONFLICT is then refused by the limit', async () => {
    const directory = testDirectory(10)
    const node = await setUp(manualClock().clock, { directory })
    const admin = testSession('admin', true)
    const id = await subscribe(node, admin, telephony(['alice']))
    // Both PUTs hold their users, then replace from revision 1; the limit falls to 1 in between.
    let arrived = 0
    let bothHeld: () => void = () => {}
    const barrier = new Promise<void>((resolve) => {
      bothHeld = resolve
    })
    const replace = node.store.replaceFilter.bind(node.store)
    vi.spyOn(node.store, 'replaceFilter').mockImplementation(async (...args) => {
      arrived += 1
      if (arrived === 2) {
        directory.settings.licenses.TELEPHONY_ADVANCED = 1
        bothHeld()
      }
      if (arrived <= 2) await barrier
      return replace(...args)
    })
    const [first, second] = await Promise.all([
      node.manager.replaceFilter(admin, id, {
        selectors: [{ names: ['telephony'], ids: ['bob'] }],
      }),
      node.manager.replaceFilter(admin, id, {
        selectors: [{ names: ['telephony'], ids: ['carol', 'dave'] }],
      }),
    ])
    expect(first).toMatchObject({ accepted: true, subscription: { revision: 2 } })
    expect(second).toMatchObject({
      accepted: false,
      message: expect.stringMatching(/at most 1 users/),
    })
    expect((await node.manager.find(id))?.supervisedUsers).toEqual(new Set(['bob']))
    expect(await node.supervision.count()).toBe(1)
  })

  it('keeps nothing when the store fails to create: the users held go back', async () => {
    const node = await setUp()
    vi.spyOn(node.store, 'create').mockRejectedValueOnce(new Error('store down'))
    await expect(
      node.manager.create(testSession('admin', true), telephony(['alice', 'bob'])),
    ).rejects.toThrow('store down')
    expect(await node.supervision.count()).toBe(0)
    expect(node.delivery.calls).toEqual([])
  })
})
