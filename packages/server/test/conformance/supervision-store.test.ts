/**
 * The supervision stores, memory always and Redis when REDIS_URL names one, against one suite; on Redis the
 * two stores of a case are two clients, as two nodes would be. And the Redis keys: none expires by itself.
 */
import { describe, expect, it } from 'vitest'
import { MemorySupervisionStore } from '../../src/storage/memory/memory-supervision-store.js'
import { RedisSupervisionStore } from '../../src/storage/redis/redis-supervision-store.js'
import { describeWithRedis } from '../support/redis.js'
import { supervisionStoreConformance } from './supervision-store.js'

describe('MemorySupervisionStore', () => {
  supervisionStoreConformance(async () => {
    const store = new MemorySupervisionStore()
    return { store, other: store, keys: async () => store.heldKeys() }
  })
})

describeWithRedis('RedisSupervisionStore', (redis) => {
  supervisionStoreConformance(async () => {
    await redis.cleanUp()
    const [one, two] = await Promise.all([redis.client(), redis.client()])
    return {
      store: new RedisSupervisionStore(one),
      other: new RedisSupervisionStore(two),
      keys: () => redis.keys(),
    }
  })

  it('keeps the count per user and each subscription set, none expiring', async () => {
    await redis.cleanUp()
    const client = await redis.client()
    const store = new RedisSupervisionStore(client)
    await store.hold('sub1', new Set(['alice', 'bob']), 5)
    await store.hold('sub2', new Set(['bob']), 5)
    expect(await redis.keys()).toStrictEqual(['supervised', 'supervision:sub1', 'supervision:sub2'])
    expect(await client.hgetall('supervised')).toStrictEqual({ alice: '1', bob: '2' })
    expect((await client.smembers('supervision:sub1')).sort()).toStrictEqual(['alice', 'bob'])
    for (const key of await redis.keys()) expect(await client.pttl(key)).toBe(-1)
  })
})
