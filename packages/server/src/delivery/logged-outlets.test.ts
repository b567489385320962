/**
 * LoggedSubscriptionOutlets on one node over the memory log: back pressure and bounded reads, acknowledgement only
 * of what was written, replacement and graceful ends, revisions, reported failures, the one watcher.
 */
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { aliceEvent, subscriptionRecord } from '../../test/support/delivery-nodes.js'
import { SlowResponse } from '../../test/support/slow-response.js'
import { VirtualClock } from '../../test/support/virtual-clock.js'
import type { SubscriptionEventLog } from '../platform/subscriptions/subscription-event-log.js'
import { MemorySubscriptionEventLog } from '../storage/memory/memory-subscription-event-log.js'
import { EventRouter } from './event-router.js'
import { LoggedSubscriptionOutlets } from './logged-outlets.js'

const ALICE = [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }]
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)

/** Lets the log's promises, the watcher's microtasks and the fan-out's end of turn run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve))
}

function node(
  options: { pageSize?: number; wrap?: (log: SubscriptionEventLog) => SubscriptionEventLog } = {},
) {
  const memory = new MemorySubscriptionEventLog({ clock: new VirtualClock() })
  const reads: (number | 'acknowledged')[] = []
  let watchers = 0
  const counted: SubscriptionEventLog = new Proxy(memory, {
    get(target, property) {
      if (property === 'read')
        return (id: string, after: number | 'acknowledged', max: number) => {
          reads.push(after)
          return target.read(id, after, max)
        }
      if (property === 'openWatcher')
        return (onEvents: (ids: string[]) => void, nodeId: string) => {
          watchers += 1
          return target.openWatcher(onEvents, nodeId)
        }
      const value = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  const log = options.wrap?.(counted) ?? counted
  const router = new EventRouter()
  const errors: unknown[] = []
  const clock = new VirtualClock()
  const outlets = new LoggedSubscriptionOutlets({
    log,
    router,
    clock,
    nodeId: 'node-1',
    onActivity: () => {},
    onError: (error) => errors.push(error),
    webhook: {
      transport: async () => 200,
      policy: {
        secret: 'a-test-secret-of-16+',
        requestTimeoutMs: 1000,
        maxAttempts: 1,
        firstRetryDelayMs: 10,
        maxRetryDelayMs: 10,
      },
    },
    ...(options.pageSize !== undefined && { pageSize: options.pageSize }),
  })
  const open = (record = subscriptionRecord(ALICE)) => {
    outlets.attach(record)
    const response = new SlowResponse()
    const opened = outlets.openChannel(record, response as unknown as ServerResponse)
    return { record, response, opened }
  }
  return {
    clock,
    memory,
    log,
    router,
    outlets,
    errors,
    reads,
    open,
    watchers: () => watchers,
    acknowledged: async (id: string) => (await memory.read(id, 'acknowledged', 1)).after,
  }
}

describe('LoggedSubscriptionOutlets', () => {
  it('reads one page at a time, nothing more while the socket is full, and acknowledges only what it took', async () => {
    const { router, open, reads, acknowledged, outlets } = node({ pageSize: 4 })
    const { record, response } = open()
    response.accepting = false
    for (const n of range(1, 10)) router.publish(aliceEvent(n))
    await settle()
    expect(response.numbers).toEqual([1, 2, 3, 4])
    const readsWhileFull = reads.length
    await settle()
    expect(reads).toHaveLength(readsWhileFull)
    expect(await acknowledged(record.subscriptionId)).toBe(0)

    response.accepting = true
    response.emit('drain')
    await settle()
    expect(response.numbers).toEqual(range(1, 10))
    expect(await acknowledged(record.subscriptionId)).toBe(10)
    expect(outlets.openChannels).toBe(1)
  })

  it('ends a channel gracefully once its page is written and acknowledged (the node drains)', async () => {
    const { router, open, acknowledged, outlets } = node({ pageSize: 4 })
    const { record, response } = open()
    response.accepting = false
    for (const n of range(1, 6)) router.publish(aliceEvent(n))
    await settle()
    outlets.endChannels()
    await settle()
    // The page in the socket's buffer is still on its way: the channel waits for it.
    expect(response.ended).toBe(false)
    response.accepting = true
    response.emit('drain')
    await settle()
    expect(response.ended).toBe(true)
    expect(response.numbers).toEqual([1, 2, 3, 4])
    // Its last line says why it ends, after the events.
    const lines = response.written.flatMap((chunk) => chunk.split('\n')).filter(Boolean)
    expect(lines.filter((line) => line.startsWith('{')).at(-1)).toContain(
      '"text":"Server stopping: open the channel again"',
    )
    expect(await acknowledged(record.subscriptionId)).toBe(4)
    expect(outlets.openChannels).toBe(0)
  })

  it('replaces the channel open on this node: the first ends, the second delivers what was not acknowledged', async () => {
    const { router, open, outlets } = node()
    const first = open()
    router.publish(aliceEvent(1))
    await settle()
    first.response.accepting = false
    router.publish(aliceEvent(2))
    await settle()
    const second = open(first.record)
    router.publish(aliceEvent(3))
    await settle()
    expect(first.response.ended).toBe(true)
    expect(first.response.numbers).toEqual([1, 2])
    // Event 2 sat in the first socket's buffer, never taken: the second channel delivers it again.
    expect(second.response.numbers).toEqual([2, 3])
    expect(outlets.openChannels).toBe(1)
  })

  it('keeps the routes of the highest revision held, and routes nothing for an older record', async () => {
    const { router, outlets, memory } = node()
    const record = subscriptionRecord(ALICE, { revision: 2 })
    outlets.attach(record)
    const bob = [{ eventNames: ['OnCallCreated'], loginNames: ['bob'] }]
    outlets.reroute({ ...record, revision: 1, filter: { ...record.filter, routes: bob } })
    router.publish(aliceEvent(1))
    outlets.reroute({ ...record, revision: 3, filter: { ...record.filter, routes: bob } })
    router.publish(aliceEvent(2))
    router.publish({ eventName: 'OnCallCreated', loginName: 'bob', n: 3 })
    await settle()
    const page = await memory.read(record.subscriptionId, 0, 10)
    expect(page.events.map((logged) => JSON.parse(logged.event).n)).toEqual([1, 3])
  })

  it('gives an engine event’s origin to every log it goes to, a variant’s too: published again, each log takes it once', async () => {
    const { router, outlets, memory } = node()
    const state = [{ eventNames: ['OnTelephonyState'], loginNames: ['alice'] }]
    const plain = subscriptionRecord(state)
    const java = subscriptionRecord(state, { dialect: 'java' })
    outlets.attach(plain)
    outlets.attach(java)
    const event = { eventName: 'OnTelephonyState', loginName: 'alice', state: { deviceStates: [] } }
    router.publish(event, 7)
    await outlets.settled()
    // The next owner publishes it again with the same origin, then the next event.
    router.publish(event, 7)
    router.publish(event, 8)
    await outlets.settled()
    for (const record of [plain, java])
      expect((await memory.read(record.subscriptionId, 0, 10)).lastSequence).toBe(2)
    // An event without an origin (not the engine's) is taken every time.
    router.publish(event)
    router.publish(event)
    await outlets.settled()
    expect((await memory.read(plain.subscriptionId, 0, 10)).lastSequence).toBe(4)
  })

  it('reports appends that failed, naming how many events for how many subscriptions', async () => {
    const { router, outlets, errors } = node({
      wrap: (log) =>
        new Proxy(log, {
          get(target, property) {
            if (property === 'appendBatch') return async () => Promise.reject(new Error('down'))
            const value = Reflect.get(target, property)
            return typeof value === 'function' ? value.bind(target) : value
          },
        }),
    })
    for (const _ of range(1, 3)) outlets.attach(subscriptionRecord(ALICE))
    router.publish(aliceEvent(1))
    router.publish(aliceEvent(2))
    await outlets.settled()
    expect(errors.map((error) => (error as Error).message)).toEqual([
      'event log: 2 events for 3 subscriptions not appended (lost for them)',
    ])
    expect((errors[0] as Error).cause).toEqual(new Error('down'))
  })

  it('claims the log again after a failed claim, and reports the failure', async () => {
    let refused = 0
    const { open, router, clock, errors } = node({
      wrap: (log) =>
        new Proxy(log, {
          get(target, property) {
            if (property === 'claim' && refused === 0)
              return async () => {
                refused += 1
                throw new Error('down')
              }
            const value = Reflect.get(target, property)
            return typeof value === 'function' ? value.bind(target) : value
          },
        }),
    })
    const { response } = open()
    router.publish(aliceEvent(1))
    await settle()
    expect(response.numbers).toEqual([])
    await clock.advance(1_000)
    await settle()
    expect(response.numbers).toEqual([1])
    expect(errors.map((error) => (error as Error).message)).toEqual([
      expect.stringMatching(/^event log: claiming the events of subscription .* failed$/),
    ])
  })

  it('shares one watcher among the channels of the node, and closes it', async () => {
    const { open, watchers, outlets, router } = node()
    const first = open()
    const second = open()
    await settle()
    router.publish(aliceEvent(1))
    await settle()
    expect(first.response.numbers).toEqual([1])
    expect(second.response.numbers).toEqual([1])
    expect(watchers()).toBe(1)
    await outlets.close()
    expect(first.response.ended && second.response.ended).toBe(true)
  })

  it('says a chunk subscription is never quiet, and opens no channel for a webhook one', async () => {
    const { outlets, open } = node()
    const channel = subscriptionRecord(ALICE)
    outlets.attach(channel)
    expect(await outlets.isQuiet(channel)).toBe(false)
    const webhook = subscriptionRecord(ALICE, { webHookUrl: 'http://127.0.0.1:1/hook' })
    expect(open(webhook).opened).toBe(false)
    expect(outlets.openChannels).toBe(0)
    expect(await outlets.isQuiet(webhook)).toBe(true)
  })

  it('forgets a discarded subscription’s log', async () => {
    const { outlets, router, memory } = node()
    const record = subscriptionRecord(ALICE)
    outlets.attach(record)
    router.publish(aliceEvent(1))
    await outlets.settled()
    expect((await memory.read(record.subscriptionId, 0, 10)).lastSequence).toBe(1)
    outlets.detach(record.subscriptionId)
    await outlets.discard(record.subscriptionId)
    expect((await memory.read(record.subscriptionId, 0, 10)).lastSequence).toBe(0)
  })
})
