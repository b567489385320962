/**
 * The way to the call engine's owner, memory always and Redis when REDIS_URL names one, against one suite; then
 * what only Redis shows: the owner's read blocked in XREADGROUP, and an answer whose reply was missed.
 */
import type { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import type { EngineCommandQueue } from '../../src/platform/telephony/engine-command-queue.js'
import { MemoryEngineCommandQueue } from '../../src/storage/memory/memory-engine-command-queue.js'
import {
  ENGINE_COMMANDS_KEY,
  engineAnswerKey,
} from '../../src/storage/redis/engine-command-stream.js'
import { RedisEngineCommandQueue } from '../../src/storage/redis/redis-engine-command-queue.js'
import { describeWithRedis, type TestRedis } from '../support/redis.js'
import { VirtualClock } from '../support/virtual-clock.js'
import {
  type EngineCommandQueueBounds,
  type EngineCommandQueueHandle,
  engineCommandQueueConformance,
} from './engine-command-queue.js'

describe('MemoryEngineCommandQueue', () => {
  engineCommandQueueConformance(async (bounds) => {
    const clock = new VirtualClock()
    const queue = new MemoryEngineCommandQueue({ clock, ...bounds })
    return {
      node: async () => queue,
      pass: (ms) => clock.advance(ms),
      unacknowledged: async () => queue.unacknowledged,
      close: () => queue.close(),
    }
  })
})

/** Real time passing, for the Redis adapter's bounds. */
const pass = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Nodes over the suite's Redis, each with a client of its own, starting from no key. */
async function redisNodes(
  redis: TestRedis,
  bounds: EngineCommandQueueBounds,
): Promise<EngineCommandQueueHandle & { client: Redis }> {
  const client = await redis.client()
  const left = await redis.keys()
  if (left.length > 0) await client.del(...left)
  const nodes = new Map<string, Promise<EngineCommandQueue>>()
  const node = (name: string) => {
    let queue = nodes.get(name)
    if (queue === undefined) {
      queue = redis
        .client()
        .then((own) =>
          RedisEngineCommandQueue.open(own, { nodeId: name, blockMs: 2_000, ...bounds }),
        )
      nodes.set(name, queue)
    }
    return queue
  }
  return {
    client,
    node,
    pass,
    unacknowledged: async () =>
      (await client.exists(ENGINE_COMMANDS_KEY)) ? client.xlen(ENGINE_COMMANDS_KEY) : 0,
    keys: async () =>
      Promise.all(
        (await redis.keys()).map(async (key) => ({ key, ttlMs: await client.pttl(key) })),
      ),
    close: async () => {
      for (const queue of nodes.values()) await (await queue).close()
    },
  }
}

describeWithRedis('RedisEngineCommandQueue', (redis: TestRedis) => {
  describe('conformance', () => {
    engineCommandQueueConformance((bounds) => redisNodes(redis, bounds))
  })

  describe('on Redis', () => {
    const bounds = { timeoutMs: 1_000, answerRetentionMs: 60_000 }

    it("blocks the owner's read in XREADGROUP on engine:commands, not polling", async () => {
      const handle = await redisNodes(redis, bounds)
      try {
        const owner = await (await handle.node('owner-x')).consume(async () => ({
          result: { events: [] },
          batch: 1,
        }))
        await pass(1_100)
        const list = (await handle.client.client('LIST')) as string
        const line = list
          .split('\n')
          .find((entry) => entry.includes('name=openness-engine-commands-owner-x '))
        expect(line).toMatch(/ flags=b /)
        expect(line).toMatch(/ cmd=xreadgroup /)
        expect(Number(/ idle=(\d+) /.exec(line ?? '')?.[1])).toBeGreaterThanOrEqual(1)
        await owner.stop()
      } finally {
        await handle.close()
      }
    })

    it('reads the remembered answer at the bound when the reply on the channel was missed', async () => {
      const handle = await redisNodes(redis, bounds)
      try {
        // An owner that answered while the submitter did not listen: only the remembered answer is left.
        const answer = { result: { callRef: 'c1', events: [] }, batch: 7 }
        const submitter = await handle.node('b')
        const waiting = submitter.submit('r1', {
          kind: 'snapshot',
          loginName: 'alice',
        })
        await handle.client.set(engineAnswerKey('r1'), JSON.stringify({ answer }), 'PX', 60_000)
        expect(await waiting).toEqual(answer)
      } finally {
        await handle.close()
      }
    })
  })
})
