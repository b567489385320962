/**
 * The follower that keeps a node's delivery in step with the store's changes: each subscription's changes in
 * the order heard (a slow read of a creation cannot bring back one removed meanwhile), a read that fails
 * reported, nothing told once closed.
 */
import { describe, expect, it, vi } from 'vitest'
import { subscriptionDraft } from '../../../test/support/subscription-fixtures.js'
import { RecordingDelivery } from '../../../test/support/subscription-nodes.js'
import { MemorySubscriptionStore } from '../../storage/memory/memory-subscription-store.js'
import { followSubscriptionChanges } from './subscription-change-follower.js'

const FILTER = { selectors: [], routes: [], supervisedUsers: [] }

async function setUp() {
  const store = new MemorySubscriptionStore()
  const delivery = new RecordingDelivery()
  const errors: unknown[] = []
  const follower = await followSubscriptionChanges(store, delivery, (error) => errors.push(error))
  return { store, delivery, errors, follower }
}

describe('followSubscriptionChanges', () => {
  it('attaches a creation, reroutes a replacement, detaches a removal', async () => {
    const { store, delivery } = await setUp()
    await store.create(subscriptionDraft('sub1'), 0)
    await store.replaceFilter('sub1', 1, FILTER, 1)
    await vi.waitFor(() => expect(delivery.calls).toEqual(['attach sub1@1', 'reroute sub1@2']))
    await store.remove('sub1', 'DELETED')
    expect(delivery.calls).toEqual(['attach sub1@1', 'reroute sub1@2', 'detach sub1'])
  })

  it("applies one subscription's changes in order: a removal heard during a creation's read comes after it", async () => {
    const { store, delivery } = await setUp()
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => {
      answer = resolve
    })
    const find = store.find.bind(store)
    // The record is read before the removal, its answer arrives after it.
    vi.spyOn(store, 'find').mockImplementationOnce(async (id) => {
      const found = await find(id)
      await answered
      return found
    })
    await store.create(subscriptionDraft('sub1'), 0)
    await store.remove('sub1', 'DELETED')
    expect(delivery.calls).toEqual([])
    answer()
    await vi.waitFor(() => expect(delivery.calls).toEqual(['attach sub1@1', 'detach sub1']))
  })

  it('reports a record it could not read, and applies the next changes', async () => {
    const { store, delivery, errors } = await setUp()
    vi.spyOn(store, 'find').mockRejectedValueOnce(new Error('store down'))
    await store.create(subscriptionDraft('sub1'), 0)
    await vi.waitFor(() => expect(errors).toEqual([new Error('store down')]))
    await store.replaceFilter('sub1', 1, FILTER, 1)
    await vi.waitFor(() => expect(delivery.calls).toEqual(['reroute sub1@2']))
  })

  it('loads the subscriptions that exist when it starts, and tells nothing once closed', async () => {
    const store = new MemorySubscriptionStore()
    await store.create(subscriptionDraft('sub1'), 0)
    const delivery = new RecordingDelivery()
    const follower = await followSubscriptionChanges(store, delivery, () => {})
    expect(delivery.calls).toEqual(['attach sub1@1'])
    await follower.close()
    await store.create(subscriptionDraft('sub2'), 0)
    await store.remove('sub1', 'DELETED')
    await new Promise((resolve) => setImmediate(resolve))
    expect(delivery.calls).toEqual(['attach sub1@1'])
  })

  it('closes what it followed when the first load fails', async () => {
    const store = new MemorySubscriptionStore()
    vi.spyOn(store, 'all').mockRejectedValueOnce(new Error('store down'))
    const delivery = new RecordingDelivery()
    await expect(followSubscriptionChanges(store, delivery, () => {})).rejects.toThrow('store down')
    await store.create(subscriptionDraft('sub1'), 0)
    await new Promise((resolve) => setImmediate(resolve))
    expect(delivery.calls).toEqual([])
  })
})
