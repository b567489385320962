/**
 * The session stores, memory always and Redis when REDIS_URL names one, against one suite; and the cluster
 * mode's cache in front of either (two nodes, each with its cache, over one store), which must change nothing
 * the suite sees.
 */
import { afterAll, describe } from 'vitest'
import { CachedSessionStore } from '../../src/platform/sessions/cached-session-store.js'
import {
  MemoryChangeNotices,
  MemoryNoticeHub,
} from '../../src/storage/memory/memory-change-notices.js'
import { MemorySessionStore } from '../../src/storage/memory/memory-session-store.js'
import { RedisChangeNotices } from '../../src/storage/redis/redis-change-notices.js'
import { RedisSessionStore } from '../../src/storage/redis/redis-session-store.js'
import { describeWithRedis } from '../support/redis.js'
import { sessionStoreConformance, TIMING } from './session-store.js'

describe('MemorySessionStore', () => {
  sessionStoreConformance(async () => {
    const store = new MemorySessionStore(TIMING)
    return { store, other: store, keys: async () => store.heldKeys() }
  }, false)
})

describe('CachedSessionStore, two nodes over one MemorySessionStore', () => {
  sessionStoreConformance(async () => {
    const store = new MemorySessionStore(TIMING)
    const hub = new MemoryNoticeHub()
    const node = () =>
      new CachedSessionStore(store, { timing: TIMING, notices: new MemoryChangeNotices(hub) })
    return { store: node(), other: node(), keys: async () => store.heldKeys() }
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

describeWithRedis('CachedSessionStore, two nodes over Redis', (redis) => {
  const opened: RedisChangeNotices[] = []
  afterAll(() => Promise.all(opened.map((notices) => notices.close())))
  sessionStoreConformance(async () => {
    await redis.cleanUp()
    const [one, two] = await Promise.all([redis.client(), redis.client()])
    const node = async (client: typeof one, nodeId: string) => {
      const notices = await RedisChangeNotices.open(client, { nodeId })
      opened.push(notices)
      return new CachedSessionStore(new RedisSessionStore(client, TIMING), {
        timing: TIMING,
        notices,
      })
    }
    return {
      store: await node(one, 'node-1'),
      other: await node(two, 'node-2'),
      keys: () => redis.keys(),
      ttlMs: (key) => one.pttl(key),
    }
  }, true)
})
