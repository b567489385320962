/**
 * The change notices, memory (nodes of one process over one hub) always and Redis when REDIS_URL names one (two
 * clients, as two nodes), against one suite; and what only one adapter promises: the memory one alone costs
 * nothing, the Redis one names its channel with the prefix and tells its followers to reload everything once
 * its connection came back.
 */
import { describe, expect, it, vi } from 'vitest'
import { EVERY_KEY } from '../../src/platform/change-notices.js'
import {
  MemoryChangeNotices,
  MemoryNoticeHub,
} from '../../src/storage/memory/memory-change-notices.js'
import {
  changeNoticeChannel,
  RedisChangeNotices,
} from '../../src/storage/redis/redis-change-notices.js'
import { describeWithRedis } from '../support/redis.js'
import { changeNoticesConformance } from './change-notices.js'

describe('MemoryChangeNotices', () => {
  changeNoticesConformance(async () => {
    const hub = new MemoryNoticeHub()
    return {
      one: new MemoryChangeNotices(hub),
      two: new MemoryChangeNotices(hub),
      another: async () => new MemoryChangeNotices(hub),
    }
  })

  it('tells nobody on a node alone (the embedded mode), however many notices it announces', async () => {
    const alone = new MemoryChangeNotices()
    const heard: string[] = []
    alone.follow('directory', (key) => void heard.push(key))
    await alone.announce('directory', 'alice')
    await new Promise((resolve) => setImmediate(resolve))
    expect(heard).toStrictEqual([])
  })
})

describeWithRedis('RedisChangeNotices', (redis) => {
  let nodes = 0
  const open = async (acknowledgeTimeoutMs?: number) => {
    nodes += 1
    const nodeId = `node-${nodes}`
    const errors: unknown[] = []
    const client = await redis.client()
    const notices = await RedisChangeNotices.open(client, {
      nodeId,
      onError: (error) => errors.push(error),
      ...(acknowledgeTimeoutMs !== undefined && { acknowledgeTimeoutMs }),
    })
    return { notices, client, errors, nodeId }
  }

  changeNoticesConformance(async () => {
    const [one, two] = await Promise.all([open(), open()])
    return {
      one: one.notices,
      two: two.notices,
      another: async () => (await open()).notices,
    }
  })

  it('names its channel with the key prefix, which ioredis does not add to channels', async () => {
    const { notices, client } = await open()
    try {
      expect(changeNoticeChannel(client)).toBe(`${redis.target.keyPrefix}change-notices`)
      const channels = await client.pubsub('CHANNELS', `${redis.target.keyPrefix}*`)
      expect(channels).toContain(`${redis.target.keyPrefix}change-notices`)
    } finally {
      await notices.close()
    }
  })

  it('resolves an announce at its bound when a node that heard it never applies it, and reports that node', async () => {
    const one = await open(300)
    const two = await open()
    try {
      two.notices.follow('directory', () => new Promise<void>(() => {}))
      const started = Date.now()

      await one.notices.announce('directory', 'alice')

      expect(Date.now() - started).toBeGreaterThanOrEqual(250)
      expect(String(one.errors[0])).toMatch(
        /1 node\(s\) did not confirm within 300 ms that they applied the change of directory alice/,
      )
    } finally {
      await one.notices.close()
      await two.notices.close()
    }
  })

  it('acknowledges on the announcing node its own notice without telling its followers', async () => {
    const one = await open(5_000)
    try {
      const heard: string[] = []
      one.notices.follow('directory', (key) => void heard.push(key))
      const started = Date.now()

      // Alone on the channel: its own connection is the one receiver, and it counts itself.
      await one.notices.announce('directory', 'alice')

      expect(Date.now() - started).toBeLessThan(2_000)
      expect(heard).toStrictEqual([])
      expect(one.errors).toStrictEqual([])
    } finally {
      await one.notices.close()
    }
  })

  it('tells its followers to reload everything once its connection came back, then goes on', async () => {
    const one = await open()
    const two = await open()
    try {
      const directory: string[] = []
      const clock: string[] = []
      two.notices.follow('directory', (key) => void directory.push(key))
      two.notices.follow('clock', (key) => void clock.push(key))

      // Redis drops the subscribed connection, as a network failure would.
      const list = await one.client.client('LIST')
      const line = String(list)
        .split('\n')
        .find((entry) => entry.includes(`name=openness-change-notices-${two.nodeId} `))
      const id = line?.match(/\bid=(\d+)/)?.[1]
      expect(id).toBeDefined()
      await one.client.client('KILL', 'ID', id ?? '')

      await vi.waitFor(() => expect(directory).toStrictEqual([EVERY_KEY]), { timeout: 5_000 })
      expect(clock).toStrictEqual([EVERY_KEY])
      // A routing follower added later missed what the connection may have lost too.
      const routing: string[] = []
      two.notices.follow('routing', (key) => void routing.push(key))
      await vi.waitFor(() => expect(routing).toStrictEqual([EVERY_KEY]), { timeout: 5_000 })

      await one.notices.announce('directory', 'alice')
      await vi.waitFor(() => expect(directory).toStrictEqual([EVERY_KEY, 'alice']), {
        timeout: 5_000,
      })
      expect(two.errors).toStrictEqual([])
    } finally {
      await one.notices.close()
      await two.notices.close()
    }
  })
})
