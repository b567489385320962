/**
 * The subscriptions' event logs, memory always and Redis when REDIS_URL names one, against one suite; then what
 * only Redis shows: its keys, their time to live, and a watcher told on its node's channel rather than polling.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { describe, expect, it, vi } from 'vitest'
import type { EventLogPage } from '../../src/platform/subscriptions/subscription-event-log.js'
import { MemorySubscriptionEventLog } from '../../src/storage/memory/memory-subscription-event-log.js'
import type { RedisEventLogWatcherOptions } from '../../src/storage/redis/redis-event-log-watcher.js'
import { RedisSubscriptionEventLog } from '../../src/storage/redis/redis-subscription-event-log.js'
import { describeWithRedis, type TestRedis } from '../support/redis.js'
import { VirtualClock } from '../support/virtual-clock.js'
import { subscriptionEventLogConformance } from './subscription-event-log.js'

describe('MemorySubscriptionEventLog', () => {
  subscriptionEventLogConformance(async (capacity, replayable) => {
    const clock = new VirtualClock()
    const log = new MemorySubscriptionEventLog({
      clock,
      ...(capacity !== undefined && { capacity }),
      ...(replayable !== undefined && { replayable }),
    })
    return { log, other: async () => log, pass: (ms) => clock.advance(ms), close: async () => {} }
  })
})

/** Names the watchers' connections after the suite, so that CLIENT LIST finds them among other runs'. */
const watchConnectionName = `openness-test-watch-${randomBytes(6).toString('hex')}`

/** The suite's watcher connections as CLIENT LIST shows them: one line of fields each. */
async function watcherConnections(client: Redis): Promise<string[]> {
  const list = (await client.client('LIST')) as string
  return list.split('\n').filter((line) => line.includes(`name=${watchConnectionName} `))
}

function redisLog(
  client: Redis,
  capacity?: number,
  replayable?: number,
  watcher: RedisEventLogWatcherOptions = {},
): RedisSubscriptionEventLog {
  return new RedisSubscriptionEventLog(client, {
    ...(capacity !== undefined && { capacity }),
    ...(replayable !== undefined && { replayable }),
    watcher: { connectionName: watchConnectionName, ...watcher },
  })
}

describeWithRedis('RedisSubscriptionEventLog', (redis: TestRedis) => {
  describe('conformance', () => {
    subscriptionEventLogConformance(async (capacity, replayable) => {
      // The cases use the same subscription ids: each starts without the keys of the one before.
      const client = await redis.client()
      const left = await redis.keys()
      if (left.length > 0) await client.del(...left)
      return {
        log: redisLog(client, capacity, replayable),
        other: async () => redisLog(await redis.client(), capacity, replayable),
        pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        keys: () => redis.keys(),
        watcherConnections: async () => (await watcherConnections(client)).length,
        close: async () => {},
      }
    })
  })

  describe('on Redis', () => {
    async function fresh(): Promise<Redis> {
      const client = await redis.client()
      const left = await redis.keys()
      if (left.length > 0) await client.del(...left)
      return client
    }

    it('keeps a subscription in queue:{id} (entries 0-{sequence}), queue-seq:{id} and queue-ack:{id}', async () => {
      const client = await fresh()
      const log = redisLog(client, 3, 1)
      for (const event of ['e1', 'e2', 'e3', 'e4']) await log.append('s', event, 60_000)
      expect(await client.xlen('queue:s')).toBe(3)
      await log.acknowledge('s', 3)
      expect(await redis.keys()).toEqual(['queue-ack:s', 'queue-seq:s', 'queue:s'])
      // The last one acknowledged is kept for a channel that resumes, the one after waits.
      expect(await client.xrange('queue:s', '-', '+')).toEqual([
        ['0-3', ['e', 'e3']],
        ['0-4', ['e', 'e4']],
      ])
      expect(await client.get('queue-seq:s')).toBe('4')
      expect(await client.get('queue-ack:s')).toBe('3')
    })

    it('sets the time to live given on every key of the subscription (its claim queue-reader:{id} and queue-reader-from:{id} too), and renews it', async () => {
      const client = await fresh()
      const log = redisLog(client)
      await log.append('s', 'e1', 60_000)
      await log.acknowledge('s', 1)
      await log.append('s', 'e2', 60_000)
      await log.claim('s', 'channel', 60_000)
      expect(await client.get('queue-reader:s')).toBe('channel')
      const keys = [
        'queue:s',
        'queue-seq:s',
        'queue-ack:s',
        'queue-reader:s',
        'queue-reader-from:s',
      ]
      for (const key of keys) expect(await client.pttl(key)).toBeGreaterThan(55_000)
      await log.renew('s', 120_000)
      for (const key of keys) expect(await client.pttl(key)).toBeGreaterThan(115_000)
    })

    it('acknowledges the logs of one turn in one script call, each as if alone', async () => {
      const client = await fresh()
      const log = redisLog(client, 10, 1)
      for (const id of ['s1', 's2', 's3']) await log.appendMany([id], 'e', 60_000)
      await log.appendMany(['s1', 's2'], 'f', 60_000)
      await log.claim('s3', 'other', 60_000)
      const commands = await redis.commandsDuring(() =>
        Promise.all([
          log.acknowledge('s1', 1),
          // Past the last number given: acknowledged through the last.
          log.acknowledge('s2', 9),
          // Another reader claimed it: nothing moves.
          log.acknowledge('s3', 1, 'mine'),
          // An unknown subscription: no key made.
          log.acknowledge('s4', 1),
        ]),
      )
      expect(commands).toHaveLength(1)
      expect(commands[0]).toMatch(/^eval/)
      expect(
        await client.mget('queue-ack:s1', 'queue-ack:s2', 'queue-ack:s3', 'queue-ack:s4'),
      ).toEqual(['1', '2', null, null])
      // Trimmed through each acknowledged position but the last one kept.
      expect((await client.xrange('queue:s2', '-', '+')).map(([id]) => id)).toEqual(['0-2'])
    })

    it('checks the logs armed in the turn of the acknowledgements in their script call: no command of its own', async () => {
      const client = await fresh()
      const log = redisLog(client)
      for (const id of ['s1', 's2']) {
        await log.appendMany([id], 'e1', 60_000)
        await log.claim(id, 'node-w/channel/r1', 60_000)
      }
      await log.appendMany(['s2'], 'e2', 60_000)
      const woken: string[] = []
      const watcher = await log.openWatcher((ids) => woken.push(...ids), 'node-w')
      try {
        const commands = await redis.commandsDuring(async () => {
          const acknowledged = ['s1', 's2'].map((id) => log.acknowledge(id, 1, 'node-w/channel/r1'))
          for (const id of ['s1', 's2']) watcher.watch(id, 1, 'node-w/channel/r1')
          await Promise.all(acknowledged)
        })
        expect(commands).toHaveLength(1)
        expect(commands[0]).toMatch(/^eval/)
        // s2 holds an event after the position armed: the check in the acknowledgements' call woke it.
        await vi.waitFor(() => expect(woken).toEqual(['s2']))
        // Armed with no acknowledgement in its turn, a log is checked by a command of the watcher's own.
        const alone = await redis.commandsDuring(async () => {
          watcher.watch('s1', 1, 'node-w/channel/r1')
          await new Promise((resolve) => setImmediate(resolve))
        })
        expect(alone).toEqual(['mget'])
      } finally {
        await watcher.close()
      }
    })

    it('sends the acknowledgements asked before a claim ahead of it, as if each had been sent at once', async () => {
      const client = await fresh()
      const log = redisLog(client)
      await log.appendMany(['s'], 'e1', 60_000)
      await log.appendMany(['s'], 'e2', 60_000)
      await log.claim('s', 'old', 60_000)
      // The old reader acknowledges, then a new one claims in the same turn: the claim finds it acknowledged.
      const acknowledged = log.acknowledge('s', 2, 'old')
      const claimed = await log.claim('s', 'new', 60_000)
      await acknowledged
      expect(await client.get('queue-ack:s')).toBe('2')
      expect(claimed).toEqual({ unconfirmed: { first: 1, last: 2 } })
    })

    it('appends to hundreds of subscriptions in one call, across several script runs', async () => {
      const log = redisLog(await fresh())
      const ids = Array.from({ length: 600 }, (_, index) => `s${index}`)
      await log.append('s599', 'before', 60_000)
      const numbers = await log.appendMany(ids, 'shared', 60_000)
      expect(numbers).toEqual(ids.map((id) => (id === 's599' ? 2 : 1)))
      expect((await log.read('s300', 0, 10)).events).toEqual([{ sequence: 1, event: 'shared' }])
    })

    it('appends a batch larger than one script call takes, in order, in one pipeline', async () => {
      const log = redisLog(await fresh())
      const ids = Array.from({ length: 300 }, (_, index) => `s${index}`)
      const numbers = await log.appendBatch(
        [
          { subscriptionIds: ids, event: 'first' },
          { subscriptionIds: ids.slice(100), event: 'second', origin: 5 },
        ],
        60_000,
      )
      expect(numbers).toEqual([ids.map(() => 1), ids.slice(100).map(() => 2)])
      expect((await log.read('s299', 0, 10)).events.map((entry) => entry.event)).toEqual([
        'first',
        'second',
      ])
      expect((await log.read('s50', 0, 10)).events.map((entry) => entry.event)).toEqual(['first'])
    })

    it('wakes a watcher on its node’s channel, on a subscribed connection of its own, not polling', async () => {
      const client = await fresh()
      const log = redisLog(client)
      const id = `s-${randomBytes(6).toString('hex')}`
      const elsewhere = `${id}-elsewhere`
      await log.claim(id, 'node-w/channel/r1', 60_000)
      await log.claim(elsewhere, 'node-x/channel/r2', 60_000)
      const woken: string[][] = []
      const watcher = await log.openWatcher((ids) => woken.push(ids), 'node-w')
      try {
        watcher.watch(id, 0)
        watcher.watch(elsewhere, 0)
        await new Promise((resolve) => setTimeout(resolve, 1_100))
        const [line] = await watcherConnections(client)
        expect(line).toMatch(/ flags=P /)
        expect(line).toMatch(/ cmd=subscribe /)
        expect(Number(/ idle=(\d+) /.exec(line ?? '')?.[1])).toBeGreaterThanOrEqual(1)
        // Another cluster's node of the same name (no prefix in its channel) wakes nothing.
        const raw = new Redis(redis.target.url)
        try {
          await raw.publish(`event-log-wake:node-w`, `${id} 1`)
          // A log claimed by another node's reader tells that node, not this one.
          await log.append(elsewhere, 'theirs', 60_000)
          await new Promise((resolve) => setTimeout(resolve, 200))
          expect(woken).toEqual([])
          await log.append(id, 'ours', 60_000)
          await new Promise((resolve) => setTimeout(resolve, 200))
          expect(woken).toEqual([[id]])
        } finally {
          raw.disconnect()
        }
      } finally {
        await watcher.close()
      }
    })

    it('tells each node once per append call, naming its logs, their numbers and readers, each text once', async () => {
      const client = await fresh()
      const log = redisLog(client)
      await log.claim('a', 'node-w/channel/r1', 60_000)
      await log.claim('b', 'node-w/webhooks/r2', 60_000)
      await log.claim('c', 'node-x/channel/r3', 60_000)
      const listener = client.duplicate()
      const messages: [string, string][] = []
      try {
        const prefix = redis.target.keyPrefix
        await listener.psubscribe(`${prefix}event-log-wake:*`)
        listener.on('pmessage', (_pattern: string, channel: string, message: string) =>
          messages.push([channel.slice(prefix.length), message]),
        )
        await log.appendBatch(
          [
            { subscriptionIds: ['a', 'b', 'c', 'unclaimed'], event: 'e1' },
            { subscriptionIds: ['a'], event: 'e2' },
          ],
          60_000,
        )
        await new Promise((resolve) => setTimeout(resolve, 200))
        expect(messages.sort()).toEqual([
          [
            'event-log-wake:node-w',
            'a 1 node-w/channel/r1 0 b 1 node-w/webhooks/r2 0 a 2 node-w/channel/r1 1\n2 2\ne1e2',
          ],
          ['event-log-wake:node-x', 'c 1 node-x/channel/r3 0\n2\ne1'],
        ])
      } finally {
        listener.disconnect()
      }
    })

    it('hands an armed reader the events its wake-up carried, as a read would give them', async () => {
      const client = await fresh()
      const log = redisLog(client)
      await log.claim('a', 'node-w/channel/r1', 60_000)
      await log.claim('b', 'node-w/channel/r2', 60_000)
      await log.append('b', 'before', 60_000)
      const woken: { ids: string[]; pages: [string, EventLogPage][] }[] = []
      const watcher = await log.openWatcher(
        (ids, pages) => woken.push({ ids, pages: [...(pages ?? [])] }),
        'node-w',
      )
      try {
        watcher.watch('a', 0, 'node-w/channel/r1')
        watcher.watch('b', 1, 'node-w/channel/r2')
        await new Promise((resolve) => setTimeout(resolve, 100))
        // Texts of several bytes a character: the message counts bytes.
        const texts = ['{"name":"Gaëlle ☎"}', 'e2', '{"name":"Léa"}']
        await log.appendBatch(
          [
            { subscriptionIds: ['a', 'b'], event: texts[0] ?? '' },
            { subscriptionIds: ['a'], event: texts[1] ?? '' },
            { subscriptionIds: ['b'], event: texts[2] ?? '' },
          ],
          60_000,
        )
        await new Promise((resolve) => setTimeout(resolve, 200))
        expect(woken).toEqual([
          {
            ids: ['a', 'b'],
            pages: [
              ['a', await log.read('a', 0, 256)],
              ['b', await log.read('b', 1, 256)],
            ],
          },
        ])
        expect(woken[0]?.pages[1]?.[1].events.map((event) => event.event)).toEqual([
          texts[0],
          texts[2],
        ])
      } finally {
        await watcher.close()
      }
    })

    it('wakes without a page a reader the wake-up does not carry on from, or whose log another reader claimed', async () => {
      const client = await fresh()
      const log = redisLog(client)
      const woken: { ids: string[]; pages: string[] }[] = []
      const watcher = await log.openWatcher(
        (ids, pages) => woken.push({ ids, pages: [...(pages ?? new Map()).keys()] }),
        'node-w',
      )
      const raw = new Redis(redis.target.url)
      try {
        // Nothing logged, nothing claimed: arming wakes nothing; the messages below are the append script's.
        watcher.watch('behind', 1, 'node-w/channel/r1')
        watcher.watch('replaced', 0, 'node-w/channel/r2')
        watcher.watch('gap', 0, 'node-w/channel/r3')
        watcher.watch('old', 5, 'node-w/channel/r4')
        await new Promise((resolve) => setTimeout(resolve, 100))
        const channel = `${redis.target.keyPrefix}event-log-wake:node-w`
        await raw.publish(
          channel,
          [
            'behind 3 node-w/channel/r1 0 replaced 1 node-w/channel/other 0',
            'gap 1 node-w/channel/r3 0 gap 3 node-w/channel/r3 0 old 4 node-w/channel/r4 0',
          ].join(' ') + '\n1\nx',
        )
        await new Promise((resolve) => setTimeout(resolve, 200))
        expect(woken).toEqual([{ ids: ['behind', 'replaced', 'gap'], pages: [] }])
      } finally {
        raw.disconnect()
        await watcher.close()
      }
    })

    it('finds at its periodic check a wake-up no message brought', async () => {
      const client = await fresh()
      const log = redisLog(client, undefined, undefined, { checkMs: 100 })
      const woken: string[][] = []
      const watcher = await log.openWatcher((ids) => woken.push(ids), 'node-w')
      try {
        // Claimed by no reader of this node (a claim that lapsed): no message comes.
        watcher.watch('quiet', 0)
        await log.append('quiet', 'e1', 60_000)
        await new Promise((resolve) => setTimeout(resolve, 400))
        expect(woken).toEqual([['quiet']])
      } finally {
        await watcher.close()
      }
    })
  })
})
