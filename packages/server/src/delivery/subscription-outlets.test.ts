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
    newQueue: (forReplay) => {
      const queue = new MemoryEventQueue({ replayable: forReplay ? 100 : 0, clock })
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
    expect(response.written.at(-1)).toBe(
      '{"eventName":"OnCallCreated","loginName":"alice","sequence":1}\n',
    )
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

/** The lines a response carried, parsed, `Chunk started` left out. */
function lines(response: SlowResponse): Record<string, unknown>[] {
  return response.written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line['text'] !== 'Chunk started')
}

/** A subscription's channel opened on a fresh response, `resumeFrom` passed on. */
function open(outlets: SubscriptionOutlets, resumeFrom?: number): SlowResponse {
  const response = new SlowResponse()
  outlets.openChannel(
    record(1, ['OnCallCreated']),
    response as unknown as ServerResponse,
    resumeFrom,
  )
  return response
}

const cutNoticeOf = (first: number, last: number) => ({
  eventName: 'OnChannelInformation',
  text: `${first === last ? `Event ${first}` : `Events ${first} to ${last}`} may not have reached the previous channel, which ended abruptly: open the channel with Last-Event-ID: ${first - 1} to receive them again, or resynchronize`,
  firstSequence: first,
  lastSequence: last,
})

describe('SubscriptionOutlets: resuming a channel (issue 15, finding 9)', () => {
  it('after a channel cut by its client, opens the next with a notice naming what it wrote, then what waited', () => {
    const { outlets, publish } = setUp()
    const first = open(outlets)
    publish('OnCallCreated')
    publish('OnCallCreated')
    expect(lines(first).map((line) => line['sequence'])).toEqual([1, 2])
    first.emit('close')
    publish('OnCallCreated')
    const second = open(outlets)
    expect(lines(second)).toEqual([
      cutNoticeOf(1, 2),
      { eventName: 'OnCallCreated', loginName: 'alice', sequence: 3 },
    ])
    // Told once: a channel ended by the server (a node that stops) leaves nothing to tell.
    outlets.endChannels()
    expect(lines(open(outlets))).toEqual([])
  })

  it('counts a channel opened again while still open here as cut: its client left it unnoticed', () => {
    const { outlets, publish } = setUp()
    open(outlets)
    publish('OnCallCreated')
    expect(lines(open(outlets))).toEqual([cutNoticeOf(1, 1)])
  })

  it('says nothing when the cut channel had written nothing', () => {
    const { outlets, publish } = setUp()
    open(outlets).emit('close')
    publish('OnCallCreated')
    expect(lines(open(outlets))).toEqual([
      { eventName: 'OnCallCreated', loginName: 'alice', sequence: 1 },
    ])
  })

  it('resumes from the last event its client received: the events after it again, then the new ones', () => {
    const { outlets, publish } = setUp()
    const first = open(outlets)
    for (let n = 0; n < 4; n++) publish('OnCallCreated')
    first.emit('close')
    publish('OnCallCreated')
    const resumed = open(outlets, 2)
    expect(lines(resumed).map((line) => line['sequence'])).toEqual([3, 4, 5])
    publish('OnCallCreated')
    expect(lines(resumed).map((line) => line['sequence'])).toEqual([3, 4, 5, 6])
  })

  it('names the events no longer held when resumed from too far back, then gives those it holds', () => {
    const { outlets, publish } = setUp()
    const first = open(outlets)
    for (let n = 0; n < 150; n++) publish('OnCallCreated')
    first.emit('close')
    const resumed = lines(open(outlets, 10))
    expect(resumed[0]).toEqual({
      eventName: 'OnChannelInformation',
      text: '40 events lost: no longer held for a channel that resumes; resynchronize',
      firstSequence: 11,
      lastSequence: 50,
    })
    expect(resumed.slice(1).map((line) => line['sequence'])).toEqual(
      Array.from({ length: 100 }, (_, index) => 51 + index),
    )
  })

  it('keeps nothing for a replay in a webhook subscription’s queue: only a channel resumes', () => {
    const { outlets, queues, publish } = setUp()
    outlets.attach(record(1, ['OnCallCreated'], { webHookUrl: 'http://127.0.0.1:9/hook' }))
    publish('OnCallCreated')
    queues[0]?.take(1)
    expect(queues[0]?.oldestTaken).toBeUndefined()
  })

  it('resumes from the last event given, or a number it never gave, as from where the queue stands', () => {
    const { outlets, publish } = setUp()
    const first = open(outlets)
    publish('OnCallCreated')
    first.emit('close')
    expect(lines(open(outlets, 1))).toEqual([])
    expect(lines(open(outlets, 99))).toEqual([])
  })
})
