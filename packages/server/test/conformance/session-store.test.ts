/** The session stores, memory always and Redis when REDIS_URL names one, against one suite. */
import { describe } from 'vitest'
import { MemorySessionStore } from '../../src/storage/memory/memory-session-store.js'
import { RedisSessionStore } from '../../src/storage/redis/redis-session-store.js'
import { describeWithRedis } from '../support/redis.js'
import { sessionStoreConformance, TIMING } from './session-store.js'

describe('MemorySessionStore', () => {
  sessionStoreConformance(async () => {
    const store = new MemorySessionStore(TIMING)
    return { store, other: store, keys: async () => store.heldKeys() }
  }, false)
})

describeWithRedis('RedisSessionStore', (redis) => {
  sessionStoreConformance(async () => {
    // Each case starts on an empty prefix: what an earlier case left must not count in this one's keys.
    await redis.cleanUp()
    const [one, two] = await Promise.all([redis.client(), redis.client()])
    return {
      store: new RedisSessionStore(one, TIMING),
      other: new RedisSessionStore(two, TIMING),
      keys: () => redis.keys(),
      ttlMs: (key) => one.pttl(key),
    }
  }, true)
})
