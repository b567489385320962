/**
 * The engine's transactional outbox in a cluster (docs/cluster-engine.md, "Events of a batch whose owner died"): a
 * stored batch keeps its events (`TelephonyState.unpublished`) until they are known to be in the logs, and an
 * engine started on such a state publishes them again, each with its origin, so that a log takes every event
 * once, in order, even when the owner that stored the batch died before its appends.
 */
import { describe, expect, it } from 'vitest'
import type { EventSink, PlatformEvent } from '../../src/platform/events.js'
import { eventOrigin } from '../../src/platform/telephony/event-origin.js'
import { TelephonyService } from '../../src/platform/telephony/telephony-service.js'
import type { EngineCommand } from '../../src/platform/telephony/telephony-state.js'
import { MemoryCallStore } from '../../src/storage/memory/memory-call-store.js'
import { MemorySubscriptionEventLog } from '../../src/storage/memory/memory-subscription-event-log.js'
import { devicesOf, FOUR_PEOPLE, telephonyDirectoryOf } from '../support/telephony-people.js'
import { VirtualClock } from '../support/virtual-clock.js'

/** What an engine published: each event with its origin. */
class OriginSink implements EventSink {
  readonly published: { eventName: string; loginName: string; origin: number | undefined }[] = []
  constructor(private readonly then?: (event: PlatformEvent, origin?: number) => void) {}
  publish(event: PlatformEvent, origin?: number): void {
    this.published.push({ eventName: event.eventName, loginName: event.loginName, origin })
    this.then?.(event, origin)
  }
}

/** A `published` the test settles by hand: each call waits for the next `confirm()`. */
class Confirmations {
  private waiting: (() => void)[] = []
  readonly published = (): Promise<void> =>
    new Promise((resolve) => {
      this.waiting.push(resolve)
    })
  async confirm(): Promise<void> {
    for (const resolve of this.waiting.splice(0)) resolve()
    await new Promise((resolve) => setImmediate(resolve))
  }
}

const makeCall: EngineCommand = {
  type: 'makeCall',
  loginName: 'alice',
  deviceId: '1001',
  callee: '1002',
  autoAnswer: true,
}

function start(
  store: MemoryCallStore,
  sink: EventSink,
  cluster?: { published: () => Promise<void> },
): Promise<TelephonyService> {
  return TelephonyService.start({
    store,
    directory: telephonyDirectoryOf(FOUR_PEOPLE),
    clock: new VirtualClock(),
    events: sink,
    devices: devicesOf(FOUR_PEOPLE),
    ...(cluster && { onStored: () => {}, published: cluster.published }),
  })
}

describe('the engine’s events kept with their batch in a cluster', () => {
  it('stores a batch’s events with its state, numbered by batch and index, until they are known published', async () => {
    const store = new MemoryCallStore()
    const sink = new OriginSink()
    const confirmations = new Confirmations()
    const service = await start(store, sink, confirmations)
    const { events, callRef = '' } = await service.execute(makeCall)
    const batch = service.state.batch ?? 0
    expect(events.length).toBeGreaterThan(0)
    expect(sink.published.map((entry) => entry.origin)).toEqual(
      events.map((_, index) => eventOrigin(batch, index)),
    )
    expect((await store.load())?.unpublished).toEqual([{ batch, events }])

    // Not yet confirmed: the next batch keeps both; once confirmed, the batch after keeps only its own.
    const answered = await service.execute({ type: 'answer', loginName: 'bob', callRef })
    expect(answered.events.length).toBeGreaterThan(0)
    expect((await store.load())?.unpublished).toEqual([
      { batch, events },
      { batch: batch + 1, events: answered.events },
    ])
    await confirmations.confirm()
    const held = await service.execute({ type: 'hold', loginName: 'alice', callRef })
    expect((await store.load())?.unpublished).toEqual([{ batch: batch + 2, events: held.events }])
    await service.stop()
  })

  it('publishes again, before anything else, the events of the batches its predecessor may not have published', async () => {
    const store = new MemoryCallStore()
    const log = new MemorySubscriptionEventLog({ clock: new VirtualClock() })
    // A supervisor's log takes every event; the dying owner's appends reach it for the first event only.
    const line = (event: PlatformEvent) => `${event.eventName} ${event.loginName}`
    let appends = 0
    const dying = new OriginSink((event, origin) => {
      if (appends++ === 0) void log.appendMany(['all'], line(event), 60_000, origin)
    })
    const first = await start(store, dying, new Confirmations())
    const { events, callRef = '' } = await first.execute(makeCall)
    expect(events.length).toBeGreaterThan(1)

    // The next owner, on the same stored state.
    const next = new OriginSink((event, origin) => {
      void log.appendMany(['all'], line(event), 60_000, origin)
    })
    const second = await start(store, next, new Confirmations())
    expect(next.published).toEqual(dying.published)
    const taken = (await log.read('all', 0, 100)).events.map((entry) => entry.event)
    expect(taken).toEqual(events.map(line))

    // Its own batches go on from there, numbered after the last one stored: their origins are greater.
    const batch = second.state.batch ?? 0
    const released = await second.execute({ type: 'release', loginName: 'alice', callRef })
    expect(next.published.slice(dying.published.length).map((entry) => entry.origin)).toEqual(
      released.events.map((_, index) => eventOrigin(batch + 1, index)),
    )
    await first.stop()
    await second.stop()
  })

  it('keeps nothing and numbers nothing in the embedded mode', async () => {
    const store = new MemoryCallStore()
    const sink = new OriginSink()
    const service = await start(store, sink)
    await service.execute(makeCall)
    expect(sink.published.every((entry) => entry.origin === undefined)).toBe(true)
    expect((await store.load())?.unpublished).toBeUndefined()
    await service.stop()
  })
})
