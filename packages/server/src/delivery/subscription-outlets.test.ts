/**
 * The in-process outlets as a ChannelOutlets: known by subscription id and told of each subscription twice (by
 * the manager, and by the store's changes), so attach is idempotent, a reroute applies a higher revision only,
 * and a subscription detached does not come back with a late attach; a channel opened on a subscription this
 * node did not know attaches it first.
 */
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { SlowResponse } from '../../test/support/slow-response.js'
import { acceptedRecord, subscriptionDraft } from '../../test/support/subscription-fixtures.js'
import { VirtualClock } from '../../test/support/virtual-clock.js'
import type { SubscriptionRecord } from '../platform/subscriptions/subscription-record.js'
import { MemoryEventQueue } from '../storage/memory/memory-event-queue.js'
import { EventRouter } from './event-router.js'
import { SubscriptionOutlets } from './subscription-outlets.js'

function record(
  revision: number,
  eventNames: string[],
  more: Partial<SubscriptionRecord> = {},
): SubscriptionRecord {
  const routes = [{ eventNames, loginNames: ['alice'] }]
  return acceptedRecord(
    subscriptionDraft('sub1', { filter: { selectors: [], routes, supervisedUsers: [] } }),
    { expiresAt: 10 * 60_000, revision, ...more },
  )
}

function setUp() {
  const router = new EventRouter()
  const clock = new VirtualClock()
  const queues: MemoryEventQueue[] = []
  const active: string[] = []
  const outlets = new SubscriptionOutlets({
    router,
    clock,
    newQueue: () => {
      const queue = new MemoryEventQueue()
      queues.push(queue)
      return queue
    },
    onActivity: (subscription) =>
      active.push(`${subscription.subscriptionId}@${subscription.revision}`),
    webhook: {
      transport: () => new Promise<number>(() => {}),
      policy: {
        secret: 's',
        requestTimeoutMs: 5000,
        maxAttempts: 1,
        firstRetryDelayMs: 1000,
        maxRetryDelayMs: 1000,
      },
    },
  })
  const publish = (eventName: string) => router.publish({ eventName, loginName: 'alice' })
  return { router, clock, queues, outlets, publish, active }
}

describe('SubscriptionOutlets, told twice of each subscription', () => {
  it('attaches once: a second attach of the same revision changes nothing', () => {
    const { outlets, queues, publish, router } = setUp()
    outlets.attach(record(1, ['OnCallCreated']))
    outlets.attach(record(1, ['OnCallCreated']))
    publish('OnCallCreated')
    expect(queues).toHaveLength(1)
    expect(queues[0]?.size).toBe(1)
    expect(router.size).toBe(1)
  })

  it('reroutes to a higher revision only, whichever of attach or reroute brings it', () => {
    const { outlets, queues, publish } = setUp()
    outlets.attach(record(1, ['OnCallCreated']))
    outlets.reroute(record(3, ['OnCallRemoved']))
    outlets.reroute(record(2, ['OnCallCreated']))
    outlets.attach(record(2, ['OnCallCreated']))
    publish('OnCallCreated')
    expect(queues[0]?.size).toBe(0)
    publish('OnCallRemoved')
    expect(queues[0]?.size).toBe(1)
    expect(queues).toHaveLength(1)
  })

  it('attaches on a reroute of a subscription it did not know', () => {
    const { outlets, queues, publish } = setUp()
    outlets.reroute(record(2, ['OnCallCreated']))
    publish('OnCallCreated')
    expect(queues[0]?.size).toBe(1)
  })

  it('detaches: routes gone, queue cleared; a late attach or reroute does not bring it back', () => {
    const { outlets, queues, publish, router } = setUp()
    outlets.attach(record(1, ['OnCallCreated']))
    publish('OnCallCreated')
    outlets.detach('sub1')
    expect(queues[0]?.size).toBe(0)
    outlets.attach(record(1, ['OnCallCreated']))
    outlets.reroute(record(2, ['OnCallCreated']))
    publish('OnCallCreated')
    expect(queues).toHaveLength(1)
    expect(router.size).toBe(0)
    outlets.detach('sub1')
    expect(outlets.openChannels).toBe(0)
  })

  it('forgets a detached subscription after a minute', async () => {
    const { outlets, queues, clock } = setUp()
    outlets.detach('sub1')
    await clock.advance(60_000)
    outlets.detach('other')
    outlets.attach(record(1, ['OnCallCreated']))
    expect(queues).toHaveLength(1)
  })

  it('discards the queue of a subscription still held', async () => {
    const { outlets, queues, publish } = setUp()
    outlets.attach(record(1, ['OnCallCreated']))
    publish('OnCallCreated')
    await outlets.discard('sub1')
    expect(queues[0]?.size).toBe(0)
    await outlets.discard('unknown')
  })

  it('answers quiet for a webhook with nothing waiting only', async () => {
    const { outlets, publish } = setUp()
    const webhook = record(1, ['OnCallCreated'], { webHookUrl: 'http://127.0.0.1:9/hook' })
    expect(await outlets.isQuiet(webhook)).toBe(false)
    outlets.attach(webhook)
    expect(await outlets.isQuiet(webhook)).toBe(true)
    publish('OnCallCreated')
    expect(await outlets.isQuiet(webhook)).toBe(false)
    const chunk = record(1, ['OnCallCreated'], { subscriptionId: 'sub2' })
    outlets.attach(chunk)
    expect(await outlets.isQuiet(chunk)).toBe(false)
  })
})

describe('SubscriptionOutlets.openChannel', () => {
  it('attaches a subscription this node did not know, then opens its channel, the activity told with its record', () => {
    const { outlets, publish, active } = setUp()
    const response = new SlowResponse()
    expect(
      outlets.openChannel(record(2, ['OnCallCreated']), response as unknown as ServerResponse),
    ).toBe(true)
    expect(outlets.openChannels).toBe(1)
    publish('OnCallCreated')
    expect(response.written.at(-1)).toBe('{"eventName":"OnCallCreated","loginName":"alice"}\n')
    expect(active).toEqual(['sub1@2', 'sub1@2'])
    outlets.detach('sub1')
    expect(response.ended).toBe(true)
    expect(outlets.openChannels).toBe(0)
  })

  it('refuses a webhook subscription and one detached', () => {
    const { outlets } = setUp()
    const response = new SlowResponse() as unknown as ServerResponse
    const webhook = record(1, ['OnCallCreated'], { webHookUrl: 'http://127.0.0.1:9/hook' })
    expect(outlets.openChannel(webhook, response)).toBe(false)
    outlets.detach('sub2')
    expect(
      outlets.openChannel(record(1, ['OnCallCreated'], { subscriptionId: 'sub2' }), response),
    ).toBe(false)
    expect(outlets.openChannels).toBe(0)
  })
})
