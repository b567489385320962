/**
 * The search context stores, memory and Redis, against one suite; and what the Redis one leaves in Redis:
 * one hash a session, whose TTL is the life left to its last context, and no key once its contexts are gone.
 */
import { describe, expect, it } from 'vitest'
import type { SearchContext } from '../../src/platform/directory-search/search-context.js'
import { MemorySearchContextStore } from '../../src/storage/memory/memory-search-context-store.js'
import { RedisSearchContextStore } from '../../src/storage/redis/redis-search-context-store.js'
import { describeWithRedis } from '../support/redis.js'
import { NOW, searchContextStoreConformance } from './search-context-store.js'

describe('MemorySearchContextStore', () => {
  searchContextStoreConformance(async () => ({
    store: new MemorySearchContextStore(),
    close: async () => {},
  }))
})

describeWithRedis('RedisSearchContextStore', (redis) => {
  // Cases share the suite's prefix: each runs on fresh sessions, freed afterwards.
  searchContextStoreConformance(async (clock) => {
    const client = await redis.client()
    return {
      store: new RedisSearchContextStore(client, clock),
      close: async () => {
        const keys = await redis.keys()
        if (keys.length > 0) await client.del(...keys)
      },
    }
  })

  const MINUTE = 60_000
  const clock = { now: () => NOW }
  /** The keys of the sessions named `{name}-…` (the cases below each use sessions of their own). */
  async function keysOf(name: string): Promise<string[]> {
    return (await redis.keys()).filter((key) => key.startsWith(`search:${name}-`))
  }
  function context(loginName: string, lifeMs: number): SearchContext {
    return {
      loginName,
      state: 'SEARCHING',
      batches: [[{ id: { loginName } }]],
      expiresAt: NOW + lifeMs,
    }
  }

  it('keeps a session in one hash, `search:{sessionId}`, of context JSON by login name', async () => {
    const client = await redis.client()
    const store = new RedisSearchContextStore(client, clock)
    await store.save('hash-1', context('alice', MINUTE))
    await store.save('hash-1', context('bob', MINUTE))
    expect(await keysOf('hash')).toStrictEqual(['search:hash-1'])
    const fields = await client.hgetall('search:hash-1')
    expect(Object.keys(fields).sort()).toStrictEqual(['alice', 'bob'])
    expect(JSON.parse(fields['alice'] ?? 'null')).toStrictEqual(context('alice', MINUTE))
    await store.deleteSession('hash-1')
  })

  it('gives the key the life left to its last context on the platform clock, never shortened', async () => {
    const client = await redis.client()
    const store = new RedisSearchContextStore(client, clock)
    await store.save('ttl-1', context('alice', MINUTE))
    expect(await client.pttl('search:ttl-1')).toBeGreaterThan(MINUTE - 5_000)
    expect(await client.pttl('search:ttl-1')).toBeLessThanOrEqual(MINUTE)
    await store.save('ttl-1', context('bob', 5 * MINUTE))
    expect(await client.pttl('search:ttl-1')).toBeGreaterThan(5 * MINUTE - 5_000)
    await store.save('ttl-1', context('alice', 2 * MINUTE))
    expect(await client.pttl('search:ttl-1')).toBeGreaterThan(5 * MINUTE - 5_000)
    await store.deleteSession('ttl-1')
  })

  it('leaves no key behind once a session is freed, or its last context is', async () => {
    const client = await redis.client()
    const store = new RedisSearchContextStore(client, clock)
    await store.save('gone-1', context('alice', MINUTE))
    await store.save('gone-1', context('bob', MINUTE))
    await store.deleteSession('gone-1')
    await store.save('gone-2', context('alice', MINUTE))
    await store.delete('gone-2', 'alice')
    await store.save('gone-3', context('alice', MINUTE))
    await store.save('gone-3', context('alice', MINUTE))
    expect(await keysOf('gone')).toStrictEqual(['search:gone-3'])
    await store.save('gone-3', context('alice', 0))
    expect(await keysOf('gone')).toStrictEqual([])
  })

  it('leaves no key behind once its contexts are read expired', async () => {
    const client = await redis.client()
    const store = new RedisSearchContextStore(client, clock)
    await store.save('expired-1', context('alice', MINUTE))
    await store.save('expired-1', context('bob', 2 * MINUTE))
    await store.save('expired-2', context('alice', MINUTE))
    expect(await keysOf('expired')).toStrictEqual(['search:expired-1', 'search:expired-2'])
    expect(await store.contexts('expired-1', NOW + 2 * MINUTE)).toStrictEqual([])
    expect(await store.find('expired-2', 'alice', NOW + MINUTE)).toBeUndefined()
    expect(await keysOf('expired')).toStrictEqual([])
  })
})
