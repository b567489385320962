/**
 * Delivery on the shared event log, on the memory log (the nodes share one) and on Redis when REDIS_URL names
 * one (each node its own client, as separate processes would have); then what only Redis shows: the commands one
 * publication costs, and one watcher connection per node.
 */
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SubscriptionEventLog } from '../../src/platform/subscriptions/subscription-event-log.js'
import { MemorySubscriptionEventLog } from '../../src/storage/memory/memory-subscription-event-log.js'
import { RedisSubscriptionEventLog } from '../../src/storage/redis/redis-subscription-event-log.js'
import {
  aliceEvent,
  type DeliveryNode,
  nextEvents,
  startDeliveryNode,
  subscriptionRecord,
} from '../support/delivery-nodes.js'
import { describeWithRedis } from '../support/redis.js'
import { VirtualClock } from '../support/virtual-clock.js'
import { loggedDeliveryScenarios } from './logged-delivery.js'

describe('delivery on the memory event log', () => {
  loggedDeliveryScenarios(async (capacity, replayable) => {
    const log = new MemorySubscriptionEventLog({
      clock: new VirtualClock(),
      ...(capacity !== undefined && { capacity }),
      ...(replayable !== undefined && { replayable }),
    })
    return { log: async () => log }
  })
})

describeWithRedis('delivery on the Redis event log', (redis) => {
  loggedDeliveryScenarios(async (capacity, replayable) => ({
    log: async () =>
      new RedisSubscriptionEventLog(await redis.client(), {
        ...(capacity !== undefined && { capacity }),
        ...(replayable !== undefined && { replayable }),
      }),
  }))

  describe('on Redis', () => {
    const ALICE = [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }]
    const watchName = `openness-test-watch-${randomBytes(6).toString('hex')}`
    const nodes: DeliveryNode[] = []

    afterEach(async () => {
      for (const node of nodes.splice(0)) await node.close()
    })

    async function start(
      name: string,
      records: ReturnType<typeof subscriptionRecord>[],
      wrap: (log: SubscriptionEventLog) => SubscriptionEventLog = (log) => log,
    ) {
      const log = wrap(
        new RedisSubscriptionEventLog(await redis.client(), {
          watcher: { connectionName: watchName },
        }),
      )
      const node = await startDeliveryNode({
        name,
        log,
        clock: new VirtualClock(),
        records: new Map(records.map((record) => [record.subscriptionId, record])),
      })
      for (const record of records) node.outlets.attach(record)
      nodes.push(node)
      return node
    }

    it('appends one publication to 1,000 subscriptions with 4 script calls (256 a call), sent together', async () => {
      const records = Array.from({ length: 1000 }, () => subscriptionRecord(ALICE))
      const a = await start('A', records)
      const commands = await redis.commandsDuring(async () => {
        a.router.publish(aliceEvent(1))
        await a.outlets.settled()
      })
      expect(commands.filter((command) => command.startsWith('eval'))).toHaveLength(4)
      expect(commands.filter((command) => !command.startsWith('eval'))).toEqual([])
      const probe = new RedisSubscriptionEventLog(await redis.client())
      for (const record of [records[0], records[999]])
        expect((await probe.read(record?.subscriptionId ?? '', 0, 10)).lastSequence).toBe(1)
    })

    it('delivers the events a wake-up carried without reading the log, every one once, in order', async () => {
      const records = Array.from({ length: 2 }, () => subscriptionRecord(ALICE))
      const a = await start('A', records)
      const reads: number[] = []
      /** The positions each subscription was armed at, in order (the watcher's `watch` calls). */
      const armed = new Map<string, number[]>()
      const b = await start(
        'B',
        records,
        (log) =>
          new Proxy(log, {
            get(target, property, receiver) {
              if (property === 'read')
                return (id: string, after: number | 'acknowledged', max: number) => {
                  reads.push(reads.length)
                  return target.read(id, after, max)
                }
              if (property === 'openWatcher')
                return async (...args: Parameters<SubscriptionEventLog['openWatcher']>) => {
                  const watcher = await target.openWatcher(...args)
                  const watch = watcher.watch.bind(watcher)
                  watcher.watch = (id, after, readerId) => {
                    armed.set(id, [...(armed.get(id) ?? []), after])
                    watch(id, after, readerId)
                  }
                  return watcher
                }
              const value = Reflect.get(target, property, receiver)
              return typeof value === 'function' ? value.bind(target) : value
            },
          }),
      )
      /**
       * Waits until every channel is armed after `position`, and its arming's check of the log is answered: a
       * wake-up finds a channel armed only once it re-armed after writing its last page (a channel woken before
       * reads, as it must), which a test that publishes as soon as its client has the events would race.
       */
      const armedAfter = async (position: number) => {
        await vi.waitFor(() => {
          for (const record of records)
            expect(armed.get(record.subscriptionId)?.at(-1)).toBe(position)
        })
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const clients = await Promise.all(records.map((record) => b.open(record.subscriptionId)))
      // Each channel reads once as it opens (after the acknowledged position), finds nothing, and waits.
      await armedAfter(0)
      expect(reads).toHaveLength(2)
      for (let round = 1; round <= 3; round++) {
        a.router.publish(aliceEvent(2 * round - 1))
        a.router.publish(aliceEvent(2 * round))
        for (const client of clients)
          expect(await nextEvents(client, 2)).toEqual([
            aliceEvent(2 * round - 1),
            aliceEvent(2 * round),
          ])
        await armedAfter(2 * round)
      }
      // Every page after the first came with its wake-up.
      expect(reads).toHaveLength(2)
      const probe = new RedisSubscriptionEventLog(await redis.client())
      for (const record of records) {
        const page = await probe.read(record.subscriptionId, 'acknowledged', 10)
        expect([page.after, page.lastSequence]).toEqual([6, 6])
      }
      for (const client of clients) client.close()
    })

    it('reads every channel of a node through one watcher connection, blocked in XREAD', async () => {
      const records = Array.from({ length: 3 }, () => subscriptionRecord(ALICE))
      const a = await start('A', records)
      const b = await start('B', records)
      const clients = await Promise.all(records.map((record) => b.open(record.subscriptionId)))
      a.router.publish(aliceEvent(1))
      for (const client of clients) expect(await nextEvents(client, 1)).toEqual([aliceEvent(1)])
      const admin = await redis.client()
      const list = ((await admin.client('LIST')) as string)
        .split('\n')
        .filter((line) => line.includes(`name=${watchName} `))
      expect(list).toHaveLength(1)
      for (const client of clients) client.close()
    })
  })
})
