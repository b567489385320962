/**
 * The engine's change feed, memory always and Redis when REDIS_URL names one, against one suite; then what only
 * Redis shows: the stream, its entry ids, and followers blocked in XREAD rather than polling.
 */
import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { MemoryEngineChangeFeed } from '../../src/storage/memory/memory-engine-change-feed.js'
import { RedisEngineChangeFeed } from '../../src/storage/redis/redis-engine-change-feed.js'
import { describeWithRedis, type TestRedis } from '../support/redis.js'
import { engineChangeFeedConformance } from './engine-change-feed.js'

describe('MemoryEngineChangeFeed', () => {
  engineChangeFeedConformance(async (capacity) => {
    const feed = new MemoryEngineChangeFeed({ ...(capacity !== undefined && { capacity }) })
    return { feed, other: async () => feed }
  })
})

/** Names the followers' connections after the suite, so that CLIENT LIST finds them among other runs'. */
const connectionName = `openness-test-feed-${randomBytes(6).toString('hex')}`

describeWithRedis('RedisEngineChangeFeed', (redis: TestRedis) => {
  async function fresh(): Promise<Redis> {
    const client = await redis.client()
    const left = await redis.keys()
    if (left.length > 0) await client.del(...left)
    return client
  }

  describe('conformance', () => {
    engineChangeFeedConformance(async (capacity) => {
      const options = { connectionName, ...(capacity !== undefined && { capacity }) }
      const feed = new RedisEngineChangeFeed(await fresh(), options)
      return { feed, other: async () => new RedisEngineChangeFeed(await redis.client(), options) }
    })
  })

  it('keeps the batches in the stream engine:changes, entry ids 0-{batch}, trimmed to the bound', async () => {
    const client = await fresh()
    const feed = new RedisEngineChangeFeed(client, { capacity: 2 })
    for (const number of [1, 2, 3])
      await feed.publish({
        batch: number,
        epoch: 7,
        calls: [],
        removedCalls: [],
        replaceDevices: false,
        devices: [],
        removedDevices: [],
      })
    expect(await redis.keys()).toEqual(['engine:changes'])
    const entries = await client.xrange('engine:changes', '-', '+')
    expect(entries.map(([id]) => id)).toEqual(['0-2', '0-3'])
    expect(entries[0]?.[1].slice(0, 2)).toEqual(['e', '7'])
  })

  it('sends the entry in its place even when Redis forgot the script: a command sent once queued runs after it', async () => {
    const client = await fresh()
    const feed = new RedisEngineChangeFeed(client)
    const empty = {
      calls: [],
      removedCalls: [],
      replaceDevices: false,
      devices: [],
      removedDevices: [],
    }
    await feed.publish({ batch: 1, epoch: 1, ...empty })
    // As after a restart of Redis: a script sent by its SHA alone would be refused, then sent again behind
    // what the node sent meanwhile (its events' appends).
    await client.script('FLUSH')
    let after: Promise<unknown> | undefined
    await feed.publish({ batch: 2, epoch: 1, ...empty }, () => {
      after = client.xrange('engine:changes', '-', '+')
    })
    const entries = (await after) as [string, string[]][]
    expect(entries.map(([id]) => id)).toEqual(['0-1', '0-2'])
  })

  it('follows from a connection blocked in XREAD, not polling', async () => {
    const client = await fresh()
    const feed = new RedisEngineChangeFeed(client, { connectionName })
    const follower = await feed.follow(0, async () => 0)
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      const list = (await client.client('LIST')) as string
      const [line] = list.split('\n').filter((entry) => entry.includes(`name=${connectionName} `))
      expect(line).toMatch(/ flags=b /)
      expect(line).toMatch(/ cmd=xread /)
      expect(Number(/ idle=(\d+) /.exec(line ?? '')?.[1])).toBeGreaterThanOrEqual(1)
    } finally {
      await follower.close()
    }
  })
})
