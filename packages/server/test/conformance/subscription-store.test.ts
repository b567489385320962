/**
 * The subscription stores, memory always and Redis when REDIS_URL names one, against one suite; on Redis the
 * two stores of a case are two clients, as two nodes would be. And what only the memory adapter promises: its
 * listeners are told within the operation.
 */
import { describe, expect, it } from 'vitest'
import type { SubscriptionChange } from '../../src/platform/subscriptions/subscription-record.js'
import { MemorySubscriptionStore } from '../../src/storage/memory/memory-subscription-store.js'
import { RedisSubscriptionStore } from '../../src/storage/redis/redis-subscription-store.js'
import { describeWithRedis } from '../support/redis.js'
import { subscriptionDraft } from '../support/subscription-fixtures.js'
import { subscriptionStoreConformance } from './subscription-store.js'

describe('MemorySubscriptionStore', () => {
  subscriptionStoreConformance(async () => {
    const store = new MemorySubscriptionStore()
    return { store, other: store, keys: async () => store.heldKeys() }
  }, false)

  it('tells its listeners synchronously, before the operation resolves', async () => {
    const store = new MemorySubscriptionStore()
    const heard: SubscriptionChange[] = []
    await store.changes((change) => heard.push(change))
    const creating = store.create(subscriptionDraft('sub1'), 0)
    expect(heard).toStrictEqual([{ subscriptionId: 'sub1', kind: 'created' }])
    await creating
  })
})

describeWithRedis('RedisSubscriptionStore', (redis) => {
  subscriptionStoreConformance(async () => {
    // Each case starts on an empty prefix: what an earlier case left must not count in this one's keys.
    await redis.cleanUp()
    const [one, two] = await Promise.all([redis.client(), redis.client()])
    return {
      store: new RedisSubscriptionStore(one),
      other: new RedisSubscriptionStore(two),
      keys: () => redis.keys(),
      ttlMs: (key) => one.pttl(key),
    }
  }, true)
})
