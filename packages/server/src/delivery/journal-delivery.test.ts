/**
 * The delivery's journal entries (docs/journal.md, "Entries", kind event): one per (event, subscription), with
 * the event's name, call reference and its number in the subscription, from the embedded outlets (as a queue
 * takes it) and from the cluster's (once appended to the subscription's log); none when the journal is off.
 */
import { describe, expect, it } from 'vitest'
import { subscriptionRecord } from '../../test/support/delivery-nodes.js'
import { VirtualClock } from '../../test/support/virtual-clock.js'
import { Journal } from '../platform/journal/journal.js'
import type { JournalRecord } from '../platform/journal/journal-entry.js'
import { MemoryEventQueue } from '../storage/memory/memory-event-queue.js'
import { MemoryJournalStore } from '../storage/memory/memory-journal-store.js'
import { MemorySubscriptionEventLog } from '../storage/memory/memory-subscription-event-log.js'
import { EventRouter } from './event-router.js'
import { LoggedSubscriptionOutlets } from './logged-outlets.js'
import { SubscriptionOutlets } from './subscription-outlets.js'

const ROUTES = [{ eventNames: ['OnCallCreated', 'OnCallModified'], loginNames: ['alice'] }]
const WEBHOOK = {
  transport: async () => 200,
  policy: {
    secret: 'a-test-secret-of-16+',
    requestTimeoutMs: 1000,
    maxAttempts: 1,
    firstRetryDelayMs: 10,
    maxRetryDelayMs: 10,
  },
}

function journal() {
  const store = new MemoryJournalStore(100)
  const clock = new VirtualClock()
  return {
    journal: new Journal(store, clock),
    async records(): Promise<JournalRecord[]> {
      return (await store.read({ match: () => true, limit: 100, order: 'oldest' })).records
    },
  }
}

const events = (records: JournalRecord[]) =>
  records.map((record) =>
    record.kind === 'event'
      ? [record.subscription, record.user, record.event, record.call, record.sequence]
      : [],
  )

describe('embedded outlets', () => {
  function outlets(recorded?: Journal) {
    const router = new EventRouter()
    const clock = new VirtualClock()
    const outlets = new SubscriptionOutlets({
      router,
      clock,
      newQueue: () => new MemoryEventQueue({ clock }),
      onActivity: () => {},
      webhook: WEBHOOK,
      ...(recorded && { journal: recorded }),
    })
    return { router, outlets }
  }

  it('record each event a queue takes, one entry per subscription, numbered as the queue numbers it', async () => {
    const { journal: recorded, records } = journal()
    const { router, outlets: delivery } = outlets(recorded)
    const one = subscriptionRecord(ROUTES)
    const two = subscriptionRecord(ROUTES)
    delivery.attach(one)
    delivery.attach(two)
    router.publish({ eventName: 'OnCallCreated', loginName: 'alice', callRef: 'c1' })
    router.publish({ eventName: 'OnCallModified', loginName: 'alice', callRef: 'c1' })
    router.publish({ eventName: 'OnCallRemoved', loginName: 'alice', callRef: 'c1' })

    expect(events(await records())).toEqual([
      [one.subscriptionId, 'alice', 'OnCallCreated', 'c1', 1],
      [two.subscriptionId, 'alice', 'OnCallCreated', 'c1', 1],
      [one.subscriptionId, 'alice', 'OnCallModified', 'c1', 2],
      [two.subscriptionId, 'alice', 'OnCallModified', 'c1', 2],
    ])
  })

  it('record nothing without a journal (JOURNAL_SIZE=0)', async () => {
    const { records } = journal()
    const { router, outlets: delivery } = outlets()
    delivery.attach(subscriptionRecord(ROUTES))
    router.publish({ eventName: 'OnCallCreated', loginName: 'alice', callRef: 'c1' })
    expect(await records()).toEqual([])
  })
})

describe('cluster outlets', () => {
  it("record each event once appended to the subscription's log, with its number there", async () => {
    const { journal: recorded, records } = journal()
    const router = new EventRouter()
    const clock = new VirtualClock()
    const outlets = new LoggedSubscriptionOutlets({
      log: new MemorySubscriptionEventLog({ clock }),
      router,
      clock,
      nodeId: 'node-1',
      onActivity: () => {},
      onError: (error) => {
        throw error
      },
      webhook: WEBHOOK,
      journal: recorded,
    })
    const one = subscriptionRecord(ROUTES)
    outlets.attach(one)
    router.publish({ eventName: 'OnCallCreated', loginName: 'alice', callRef: 'c7' })
    router.publish({ eventName: 'OnCallModified', loginName: 'alice', callRef: 'c7' })
    await outlets.settled()
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve))

    expect(events(await records())).toEqual([
      [one.subscriptionId, 'alice', 'OnCallCreated', 'c7', 1],
      [one.subscriptionId, 'alice', 'OnCallModified', 'c7', 2],
    ])
    await outlets.close()
  })
})
