/**
 * The in-memory EventQueue: a bounded array of events whose sequence numbers run without a gap, so that each
 * event's number is its place plus the first one's, and an event costs the queue one reference. Those before
 * `cursor` were taken and are kept for a replay (at most `replayable` of them, for at most `replayMs`); those
 * from `cursor` on wait. When more than `capacity` are held the oldest go: taken ones silently, waiting ones
 * counted lost. What is held is always one run of consecutive numbers, so a replay knows exactly what it can
 * no longer give.
 */
import type { Clock } from '../../platform/events.js'
import type {
  EventQueue,
  LoggedEvent,
  QueuedEvents,
  Rewound,
} from '../../platform/subscriptions/event-queue.js'

/** Default capacity of a subscription's queue, in events. */
export const DEFAULT_QUEUE_CAPACITY = 1000
/**
 * Default count of the last taken events kept for a channel that resumes (docs/subscriptions.md, "Resuming a
 * channel"): what was in flight when a connection was cut, which on loopback under load reached hundreds.
 */
export const DEFAULT_REPLAYABLE_EVENTS = 1000
/**
 * How long a taken event stays replayable: a client that lost its connection opens the channel again within
 * seconds (the SDKs at once). The bound in time keeps what a node holds proportional to the rate of events it
 * delivers, not to the number of its subscriptions times their capacity.
 */
export const DEFAULT_REPLAY_MS = 30_000

/** Real time, for queues made without a clock (unit tests of their order and bounds). */
const REAL_TIME: Pick<Clock, 'now'> = { now: () => Date.now() }

/**
 * The events all the queues of a node hold, against the node's limit (issue 15, finding 7: MAX_QUEUED_EVENTS).
 * A queue that would take the node past it drops its own oldest event instead, as a full queue does: a kept one
 * first (no loss), else a waiting one, announced with the limit named.
 */
export class QueuedEventsBudget {
  held = 0
  /** Why a queue lost events to the node's limit, in its loss notice. */
  readonly reason: string

  constructor(readonly limit: number) {
    this.reason = `this node holds the most queued events it may (MAX_QUEUED_EVENTS=${limit})`
  }

  get isExceeded(): boolean {
    return this.held > this.limit
  }
}

/** What bounds a queue. */
export interface EventQueueBounds {
  capacity?: number
  replayable?: number
  replayMs?: number
  clock?: Pick<Clock, 'now'>
  /** The node's limit, shared by all its queues; none when not given. */
  budget?: QueuedEventsBudget
}

export class MemoryEventQueue implements EventQueue {
  private events: string[] = []
  /** When each taken event was taken (the waiting ones' entries are 0). */
  private takenAt: number[] = []
  /** The index of the oldest event held. */
  private head = 0
  /** The index of the first event waiting. */
  private cursor = 0
  /** The sequence number of `events[0]`. */
  private firstSequence = 1
  private lost = 0
  /** Why the events counted in `lost` were lost, when not because the queue was full. */
  private lostReason: string | undefined
  /** The count of events held last told to the budget. */
  private reported = 0
  private readonly budget: QueuedEventsBudget | undefined
  private readonly capacity: number
  private readonly replayable: number
  private readonly replayMs: number
  private readonly clock: Pick<Clock, 'now'>

  constructor(bounds: EventQueueBounds = {}) {
    const { capacity, replayable, replayMs, clock, budget } = bounds
    this.budget = budget
    this.capacity = capacity ?? DEFAULT_QUEUE_CAPACITY
    this.replayable = replayable ?? DEFAULT_REPLAYABLE_EVENTS
    this.replayMs = replayMs ?? DEFAULT_REPLAY_MS
    this.clock = clock ?? REAL_TIME
  }

  push(event: string, taken = false): number {
    const takenNow = taken && this.cursor === this.events.length
    this.events.push(event)
    if (takenNow) {
      const now = this.clock.now()
      this.takenAt.push(now)
      this.cursor += 1
      this.forgetTaken(now)
    } else this.takenAt.push(0)
    this.report()
    const full = this.events.length - this.head > this.capacity
    if (full || this.budget?.isExceeded) {
      this.head += 1
      if (this.head > this.cursor) {
        this.cursor = this.head
        if (this.lost === 0) this.lostReason = full ? undefined : this.budget?.reason
        this.lost += 1
      }
      this.report()
    }
    this.compact()
    return this.lastSequence
  }

  drain(): QueuedEvents {
    return this.take(this.size)
  }

  take(max: number): QueuedEvents {
    const end = Math.min(this.cursor + max, this.events.length)
    const events: LoggedEvent[] = []
    const now = this.clock.now()
    for (let index = this.cursor; index < end; index++) {
      events.push({ sequence: this.firstSequence + index, event: this.events[index] as string })
      this.takenAt[index] = now
    }
    const taken: QueuedEvents = { events, lost: this.lost }
    if (this.lost > 0 && this.lostReason !== undefined) taken.reason = this.lostReason
    this.cursor = end
    this.lost = 0
    this.lostReason = undefined
    this.forgetTaken(now)
    this.compact()
    return taken
  }

  get size(): number {
    return this.events.length - this.cursor
  }

  get lastSequence(): number {
    return this.firstSequence + this.events.length - 1
  }

  get oldestTaken(): number | undefined {
    this.forgetTaken(this.clock.now())
    return this.head < this.cursor ? this.firstSequence + this.head : undefined
  }

  rewind(after: number): Rewound {
    this.forgetTaken(this.clock.now())
    // The last taken is the one before the first waiting.
    const firstWaiting = this.firstSequence + this.cursor
    if (after + 1 >= firstWaiting) return { missing: 0, missingFrom: after + 1 }
    const oldest = this.firstSequence + this.head
    this.cursor = this.head + Math.max(0, after + 1 - oldest)
    // What was dropped from the waiting events is in the missing run now, told once by the replay.
    this.lost = 0
    this.lostReason = undefined
    return { missing: Math.max(0, oldest - (after + 1)), missingFrom: after + 1 }
  }

  clear(): void {
    this.firstSequence += this.events.length
    this.events = []
    this.takenAt = []
    this.head = 0
    this.cursor = 0
    this.lost = 0
    this.lostReason = undefined
    this.report()
  }

  /** Tells the node's budget how many events this queue holds now. */
  private report(): void {
    if (this.budget === undefined) return
    const held = this.events.length - this.head
    this.budget.held += held - this.reported
    this.reported = held
  }

  /** Keeps at most `replayable` taken events, none taken longer than `replayMs` ago. */
  private forgetTaken(now: number): void {
    if (this.cursor - this.head > this.replayable) this.head = this.cursor - this.replayable
    const expired = now - this.replayMs
    while (this.head < this.cursor && (this.takenAt[this.head] as number) <= expired) this.head += 1
    this.report()
  }

  /**
   * Compacts once the dropped events are as many as those held (or the capacity), so that they do not keep
   * memory: each compaction at least halves the array, so its copies cost a constant per event.
   */
  private compact(): void {
    if (this.head === 0 || (this.head <= this.capacity && this.head * 2 < this.events.length))
      return
    this.events = this.events.slice(this.head)
    this.takenAt = this.takenAt.slice(this.head)
    this.firstSequence += this.head
    this.cursor -= this.head
    this.head = 0
  }
}
