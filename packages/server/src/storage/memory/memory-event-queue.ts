/** The in-memory EventQueue: a bounded array that drops its oldest events when full. */
import type { EventQueue, QueuedEvents } from '../../platform/ports.js'

/** Default capacity of a subscription's queue, in events. */
export const DEFAULT_QUEUE_CAPACITY = 1000

export class MemoryEventQueue implements EventQueue {
  private events: string[] = []
  private head = 0
  private lost = 0

  constructor(private readonly capacity = DEFAULT_QUEUE_CAPACITY) {}

  push(event: string): void {
    this.events.push(event)
    if (this.events.length - this.head > this.capacity) {
      this.head += 1
      this.lost += 1
      // Compact now and then so that dropped events do not keep memory.
      if (this.head > this.capacity) {
        this.events = this.events.slice(this.head)
        this.head = 0
      }
    }
  }

  drain(): QueuedEvents {
    const drained = {
      events: this.head === 0 ? this.events : this.events.slice(this.head),
      lost: this.lost,
    }
    this.events = []
    this.head = 0
    this.lost = 0
    return drained
  }

  take(max: number): QueuedEvents {
    if (max >= this.size) return this.drain()
    const taken = { events: this.events.slice(this.head, this.head + max), lost: this.lost }
    this.head += max
    this.lost = 0
    // A queue taken from one event at a time may never empty: compact as push does.
    if (this.head > this.capacity) {
      this.events = this.events.slice(this.head)
      this.head = 0
    }
    return taken
  }

  get size(): number {
    return this.events.length - this.head
  }

  clear(): void {
    this.events = []
    this.head = 0
    this.lost = 0
  }
}
