/**
 * One page of a subscription's event log on its way to a chunk channel or a webhook sender
 * (docs/cluster-events.md, "Delivery on the event log"): the EventQueue both already read, filled by their reader
 * a page at a time with the loss the page reported, so that the channel's loss notice and the sender's are the
 * embedded mode's. It knows the sequence numbers of what it handed over, which the reader acknowledges once
 * delivered.
 */
import type {
  EventQueue,
  LoggedEvent,
  QueuedEvents,
} from '../platform/subscriptions/event-queue.js'

export class LoggedEventBuffer implements Pick<EventQueue, 'push' | 'drain' | 'take' | 'size'> {
  private events: LoggedEvent[] = []
  private head = 0
  private lost = 0
  private reason: string | undefined
  /** The position the page filled last goes through: its last event, or the end of a loss. */
  private filledThrough = 0
  /** The position through which everything was handed over (events taken, losses announced). */
  private handed = 0
  /** Events taken by a webhook sender and not yet reported delivered, oldest first. */
  private readonly taken: number[] = []

  /** Called when a take empties the buffer: its reader reads the next page while the last event goes out. */
  onEmptied: (() => void) | undefined

  /**
   * Holds `events` (after what the buffer holds), with `lost` more to announce (for `reason`, when not the
   * queue's bound), through sequence `through`.
   */
  fill(events: readonly LoggedEvent[], lost: number, through: number, reason?: string): void {
    if (lost > 0 && this.lost === 0) this.reason = reason
    if (this.head > 0) {
      this.events = this.events.slice(this.head)
      this.head = 0
    }
    this.events.push(...events)
    this.lost += lost
    this.filledThrough = through
  }

  /** The buffer is filled from the log only. */
  push(): never {
    throw new Error('a logged event buffer is filled from the event log')
  }

  drain(): QueuedEvents {
    const drained = {
      events: this.events.slice(this.head),
      lost: this.lost,
      ...(this.lost > 0 && this.reason !== undefined && { reason: this.reason }),
    }
    this.clear()
    this.handed = this.filledThrough
    return drained
  }

  take(max: number): QueuedEvents {
    const events = this.events.slice(this.head, this.head + max)
    const taken = { events, lost: this.lost }
    this.head += events.length
    this.lost = 0
    for (const { sequence } of events) this.taken.push(sequence)
    this.handed = this.size === 0 ? this.filledThrough : (events.at(-1)?.sequence ?? this.handed)
    if (events.length > 0 && this.size === 0) this.onEmptied?.()
    return taken
  }

  get size(): number {
    return this.events.length - this.head
  }

  clear(): void {
    this.events = []
    this.head = 0
    this.lost = 0
    this.reason = undefined
  }

  /** The position through which everything was handed over. */
  get handedThrough(): number {
    return this.handed
  }

  /** The sequence number of the oldest event taken and not yet delivered, now delivered; undefined when none. */
  delivered(): number | undefined {
    return this.taken.shift()
  }

  /**
   * The X-Openness-Sequence of a webhook delivery just taken: twice the event's sequence number, and for a loss
   * notice the odd number before the event it precedes (or before the end of the loss), so that numbers only grow
   * and stay the same when another node delivers the same event again.
   */
  numberOf(kind: 'event' | 'notice'): number {
    return kind === 'event' ? 2 * this.handed : 2 * this.handed - 1
  }
}
