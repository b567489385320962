/**
 * The subscriptions' event logs in the process (the embedded mode, and the model the Redis adapter is held to):
 * per subscription, the events held (contiguous sequence numbers, oldest first), the last number given and the
 * acknowledged position, and the reader that claimed it last. A log (or a claim) past its time to live is gone at
 * its next use; logs are dropped with their subscription. Watchers are woken in a microtask after the append that
 * concerns them.
 */
import type { Clock } from '../../platform/events.js'
import type { LoggedEvent } from '../../platform/subscriptions/event-queue.js'
import type {
  ClaimedLog,
  EventAppend,
  EventLogPage,
  EventLogWatcher,
  SubscriptionEventLog,
} from '../../platform/subscriptions/subscription-event-log.js'
import { DEFAULT_QUEUE_CAPACITY, DEFAULT_REPLAYABLE_EVENTS } from './memory-event-queue.js'

interface Log {
  /** Held events, oldest first; their sequence numbers follow one another. */
  events: LoggedEvent[]
  lastSequence: number
  acknowledged: number
  /** The origin of the last engine event taken (EventSink.publish), if any. */
  origin?: number
  expiresAt: number
}

/** The reader that claimed a subscription's log, kept apart from the log as Redis keeps its own key. */
interface Claim {
  reader: string
  /** The acknowledged position when the reader claimed the log. */
  from: number
  expiresAt: number
}

export class MemorySubscriptionEventLog implements SubscriptionEventLog {
  private readonly logs = new Map<string, Log>()
  private readonly claims = new Map<string, Claim>()
  private readonly watchers = new Set<MemoryEventLogWatcher>()
  private readonly clock: Clock
  private readonly capacity: number
  private readonly replayable: number

  constructor(options: { clock: Clock; capacity?: number; replayable?: number }) {
    this.clock = options.clock
    this.capacity = options.capacity ?? DEFAULT_QUEUE_CAPACITY
    this.replayable = options.replayable ?? DEFAULT_REPLAYABLE_EVENTS
  }

  async append(subscriptionId: string, event: string, ttlMs: number): Promise<number> {
    return this.appendNow(subscriptionId, event, ttlMs)
  }

  async appendMany(
    subscriptionIds: readonly string[],
    event: string,
    ttlMs: number,
    origin?: number,
  ): Promise<number[]> {
    return subscriptionIds.map((subscriptionId) =>
      this.appendNow(subscriptionId, event, ttlMs, origin),
    )
  }

  async appendBatch(appends: readonly EventAppend[], ttlMs: number): Promise<number[][]> {
    return appends.map(({ subscriptionIds, event, origin }) =>
      subscriptionIds.map((subscriptionId) => this.appendNow(subscriptionId, event, ttlMs, origin)),
    )
  }

  async read(
    subscriptionId: string,
    afterSequence: number | 'acknowledged',
    max: number,
  ): Promise<EventLogPage> {
    const log = this.live(subscriptionId)
    const after = afterSequence === 'acknowledged' ? (log?.acknowledged ?? 0) : afterSequence
    const reader = this.claimOf(subscriptionId)?.reader
    const claimed = reader === undefined ? {} : { reader }
    if (log === undefined) return { events: [], lost: 0, after, lastSequence: 0, ...claimed }
    const events = log.events.slice(this.indexAfter(log, after), this.indexAfter(log, after) + max)
    const firstHeld = events[0]?.sequence ?? log.lastSequence + 1
    return {
      events,
      lost: Math.max(0, firstHeld - after - 1),
      after,
      lastSequence: log.lastSequence,
      ...claimed,
    }
  }

  async acknowledge(
    subscriptionId: string,
    throughSequence: number,
    reader?: string,
  ): Promise<void> {
    const log = this.live(subscriptionId)
    if (log === undefined) return
    const claimed = this.claimOf(subscriptionId)?.reader
    if (reader !== undefined && claimed !== undefined && claimed !== reader) return
    const through = Math.min(throughSequence, log.lastSequence)
    if (through <= log.acknowledged) return
    log.acknowledged = through
    log.events = log.events.slice(this.indexAfter(log, through - this.replayable))
  }

  async claim(subscriptionId: string, reader: string, ttlMs: number): Promise<ClaimedLog> {
    const log = this.live(subscriptionId)
    const previous = this.claimOf(subscriptionId)
    const acknowledged = log?.acknowledged ?? 0
    this.claims.set(subscriptionId, {
      reader,
      from: acknowledged,
      expiresAt: this.clock.now() + ttlMs,
    })
    if (previous === undefined || previous.reader === reader) return {}
    // The replaced reader is woken, whatever its position: it reads, finds the log claimed, and ends.
    for (const watcher of this.watchers) watcher.claimed(subscriptionId)
    const first = Math.max(previous.from + 1, log?.events[0]?.sequence ?? acknowledged + 1)
    return first > acknowledged ? {} : { unconfirmed: { first, last: acknowledged } }
  }

  async release(subscriptionId: string, reader: string): Promise<void> {
    if (this.claimOf(subscriptionId)?.reader === reader) this.claims.delete(subscriptionId)
  }

  async renew(subscriptionId: string, ttlMs: number): Promise<void> {
    const expiresAt = this.clock.now() + ttlMs
    const log = this.live(subscriptionId)
    if (log !== undefined) log.expiresAt = expiresAt
    const claim = this.claimOf(subscriptionId)
    if (claim !== undefined) claim.expiresAt = expiresAt
  }

  async drop(subscriptionId: string): Promise<void> {
    this.logs.delete(subscriptionId)
    this.claims.delete(subscriptionId)
  }

  /** One process: every watcher hears every append, whichever node's reader claimed the log. */
  async openWatcher(
    onEvents: (subscriptionIds: string[]) => void,
    _nodeId: string,
  ): Promise<EventLogWatcher> {
    const watcher = new MemoryEventLogWatcher(
      onEvents,
      (subscriptionId) => this.live(subscriptionId)?.events.at(-1)?.sequence ?? 0,
      (subscriptionId) => this.claimOf(subscriptionId)?.reader,
      () => this.watchers.delete(watcher),
    )
    this.watchers.add(watcher)
    return watcher
  }

  private appendNow(subscriptionId: string, event: string, ttlMs: number, origin?: number): number {
    const log = this.live(subscriptionId) ?? this.created(subscriptionId)
    if (origin !== undefined) {
      if (log.origin !== undefined && origin <= log.origin) return 0
      log.origin = origin
    }
    log.lastSequence += 1
    log.events.push({ sequence: log.lastSequence, event })
    if (log.events.length > this.capacity) log.events.shift()
    log.expiresAt = this.clock.now() + ttlMs
    for (const watcher of this.watchers) watcher.appended(subscriptionId, log.lastSequence)
    return log.lastSequence
  }

  private created(subscriptionId: string): Log {
    const log: Log = { events: [], lastSequence: 0, acknowledged: 0, expiresAt: 0 }
    this.logs.set(subscriptionId, log)
    return log
  }

  /** The subscription's log, unless none or past its time to live (then forgotten). */
  private live(subscriptionId: string): Log | undefined {
    const log = this.logs.get(subscriptionId)
    if (log === undefined || log.expiresAt > this.clock.now()) return log
    this.logs.delete(subscriptionId)
    return undefined
  }

  /** The subscription's claim, unless none or past its time to live (then forgotten). */
  private claimOf(subscriptionId: string): Claim | undefined {
    const claim = this.claims.get(subscriptionId)
    if (claim === undefined || claim.expiresAt > this.clock.now()) return claim
    this.claims.delete(subscriptionId)
    return undefined
  }

  /** The index in `log.events` of the first event after `sequence` (its length when none). */
  private indexAfter(log: Log, sequence: number): number {
    const first = log.events[0]?.sequence ?? log.lastSequence + 1
    return Math.min(log.events.length, Math.max(0, sequence + 1 - first))
  }
}

/** A watcher of memory logs: each armed subscription is named once, in a microtask after its event came. */
class MemoryEventLogWatcher implements EventLogWatcher {
  private readonly armed = new Map<string, number>()
  private woken = new Set<string>()
  private closed = false

  constructor(
    private readonly onEvents: (subscriptionIds: string[]) => void,
    private readonly lastHeld: (subscriptionId: string) => number,
    private readonly readerOf: (subscriptionId: string) => string | undefined,
    private readonly release: () => void,
  ) {}

  watch(subscriptionId: string, afterSequence: number, readerId?: string): void {
    if (this.closed) return
    this.armed.set(subscriptionId, afterSequence)
    const reader = readerId === undefined ? undefined : this.readerOf(subscriptionId)
    // Claimed by another reader (a lapsed claim, no reader, wakes nothing: the reader would arm again at once).
    if (reader !== undefined && reader !== readerId) this.name(subscriptionId)
    else this.appended(subscriptionId, this.lastHeld(subscriptionId))
  }

  unwatch(subscriptionId: string): void {
    this.armed.delete(subscriptionId)
    this.woken.delete(subscriptionId)
  }

  async close(): Promise<void> {
    this.closed = true
    this.armed.clear()
    this.woken.clear()
    this.release()
  }

  /** The subscription's log now holds events through `sequence`. */
  appended(subscriptionId: string, sequence: number): void {
    const after = this.armed.get(subscriptionId)
    if (after === undefined || sequence <= after) return
    this.name(subscriptionId)
  }

  /** Another reader claimed the subscription's log: woken whatever its position. */
  claimed(subscriptionId: string): void {
    if (this.armed.has(subscriptionId)) this.name(subscriptionId)
  }

  private name(subscriptionId: string): void {
    this.armed.delete(subscriptionId)
    if (this.woken.size === 0) queueMicrotask(() => this.wake())
    this.woken.add(subscriptionId)
  }

  private wake(): void {
    const subscriptionIds = [...this.woken]
    this.woken = new Set()
    if (subscriptionIds.length > 0) this.onEvents(subscriptionIds)
  }
}
