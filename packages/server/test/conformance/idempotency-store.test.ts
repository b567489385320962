/**
 * The idempotency stores, memory and Redis (when REDIS_URL names one), against one suite; and the memory store's
 * bound on the keys it holds.
 */
import { describe, expect, it } from 'vitest'
import type { IdempotencyTiming } from '../../src/storage/memory/memory-idempotency-store.js'
import { MemoryIdempotencyStore } from '../../src/storage/memory/memory-idempotency-store.js'
import { changeAcknowledgementChannel } from '../../src/storage/redis/redis-change-notices.js'
import { RedisIdempotencyStore } from '../../src/storage/redis/redis-idempotency-store.js'
import { describeWithRedis } from '../support/redis.js'
import { idempotencyStoreConformance } from './idempotency-store.js'

describe('MemoryIdempotencyStore', () => {
  idempotencyStoreConformance(async (timing) => ({
    store: new MemoryIdempotencyStore(timing),
    close: async () => {},
  }))

  it('holds at most its bound of keys, forgetting the oldest first', async () => {
    const store = new MemoryIdempotencyStore({
      leaseMs: 60_000,
      retentionMs: 600_000,
      maxEntries: 3,
    })
    for (const key of ['a', 'b', 'c', 'd']) await store.claim(key, 'f', 'holder')
    expect(store.size).toBe(3)
    expect(await store.claim('a', 'another request', 'holder')).toStrictEqual({
      kind: 'claimed',
      takenOver: false,
    })
    expect(await store.claim('d', 'another request', 'holder')).toStrictEqual({ kind: 'mismatch' })
  })

  it('drops the keys whose retention ended as others are claimed', async () => {
    let now = 0
    const store = new MemoryIdempotencyStore({ leaseMs: 10, retentionMs: 100, now: () => now })
    for (const key of ['a', 'b', 'c']) await store.claim(key, 'f', 'holder')
    now = 150
    await store.claim('d', 'f', 'holder')
    expect(store.size).toBe(1)
  })
})

describeWithRedis('RedisIdempotencyStore', (redis) => {
  let nodes = 0
  /** A node of the cluster: its store, and its presence (the subscription a living node holds). */
  const node = async (timing: IdempotencyTiming) => {
    nodes += 1
    const nodeId = `idempotency-node-${process.pid}-${nodes}`
    const client = await redis.client()
    const channelPrefix = changeAcknowledgementChannel(client, '')
    const presence = client.duplicate()
    await presence.subscribe(`${channelPrefix}${nodeId}`)
    return {
      store: new RedisIdempotencyStore(client, timing, { nodeId, channelPrefix }),
      /** The node dies: its connections close, and Redis drops its subscription. */
      die: () => presence.disconnect(),
      close: async () => presence.disconnect(),
    }
  }

  idempotencyStoreConformance(node)

  it('lets a retry take over at once a key whose node is gone, its lease still running', async () => {
    const long = { leaseMs: 60_000, retentionMs: 600_000 }
    const [dying, other] = [await node(long), await node(long)]
    try {
      await dying.store.claim('gone-1', 'f', 'holder-a')
      expect(await other.store.claim('gone-1', 'f', 'holder-b')).toStrictEqual({ kind: 'busy' })
      dying.die()
      await new Promise((resolve) => setTimeout(resolve, 100))

      expect(await other.store.claim('gone-1', 'f', 'holder-b')).toStrictEqual({
        kind: 'claimed',
        takenOver: true,
      })
      expect(await other.store.claim('gone-1', 'f', 'holder-c')).toStrictEqual({ kind: 'busy' })
    } finally {
      await Promise.all([dying.close(), other.close()])
    }
  })

  it('keeps a key in one hash, `idempotency:{key}`, expiring with its retention', async () => {
    const client = await redis.client()
    const store = new RedisIdempotencyStore(
      client,
      { leaseMs: 60_000, retentionMs: 600_000 },
      { nodeId: 'hash-node', channelPrefix: changeAcknowledgementChannel(client, '') },
    )
    await store.claim('hash-1', 'f', 'holder-a')
    await store.complete('hash-1', 'holder-a', { status: 204, headers: {}, body: '' })
    expect(await client.hgetall('idempotency:hash-1')).toMatchObject({ f: 'f', h: 'holder-a' })
    const ttl = await client.pttl('idempotency:hash-1')
    expect(ttl).toBeGreaterThan(590_000)
    expect(ttl).toBeLessThanOrEqual(600_000)
  })
})
