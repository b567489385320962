/** The platform health stores, memory and Redis, against one suite; and what the Redis one leaves in Redis. */
import { describe, expect, it } from 'vitest'
import { MemoryPlatformHealthStore } from '../../src/storage/memory/memory-platform-health.js'
import { RedisPlatformHealthStore } from '../../src/storage/redis/redis-platform-health-store.js'
import { describeWithRedis, TestRedis } from '../support/redis.js'
import { platformHealthStoreConformance } from './platform-health-store.js'

describe('MemoryPlatformHealthStore', () => {
  platformHealthStoreConformance(async () => ({
    store: new MemoryPlatformHealthStore(),
    close: async () => {},
  }))
})

describeWithRedis('RedisPlatformHealthStore', (redis) => {
  platformHealthStoreConformance(async () => {
    // Every case on a prefix of its own: the key is the whole cluster's, so cases must not share it.
    const own = new TestRedis(redis.target.url)
    const client = await own.client()
    return {
      store: new RedisPlatformHealthStore(client),
      another: async () => new RedisPlatformHealthStore(await own.client()),
      close: () => own.cleanUp(),
    }
  }, true)

  it('keeps the health as JSON in the one key `health`, with no expiry', async () => {
    const client = await redis.client()
    const store = new RedisPlatformHealthStore(client)
    expect(await redis.keys()).toStrictEqual([])
    await store.replace(await store.load(), {
      pbxLinkUp: false,
      ctiLinkUp: false,
      pbxLoaded: false,
    })
    expect(await redis.keys()).toStrictEqual(['health'])
    expect(JSON.parse((await client.get('health')) ?? 'null')).toStrictEqual({
      pbxLinkUp: false,
      ctiLinkUp: false,
      pbxLoaded: false,
    })
    expect(await client.pttl('health')).toBe(-1)
  })
})
