/** A clock tests drive: time moves only when the test advances it, and due timers then fire in order. */
import type { Clock, Timer } from '../../src/platform/events.js'

interface Scheduled {
  at: number
  sequence: number
  callback: () => void
  cancelled: boolean
}

export class VirtualClock implements Clock {
  private current: number
  private sequence = 0
  private scheduled: Scheduled[] = []

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start
  }

  now(): number {
    return this.current
  }

  setTimer(delayMs: number, callback: () => void): Timer {
    const entry: Scheduled = {
      at: this.current + Math.max(0, delayMs),
      sequence: this.sequence++,
      callback,
      cancelled: false,
    }
    this.scheduled.push(entry)
    return {
      cancel: () => {
        entry.cancelled = true
      },
    }
  }

  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(delayMs, resolve))
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in time order. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms
    for (;;) {
      const due = this.scheduled
        .filter((entry) => !entry.cancelled && entry.at <= end)
        .sort((a, b) => a.at - b.at || a.sequence - b.sequence)[0]
      if (due === undefined) break
      this.scheduled = this.scheduled.filter((entry) => entry !== due)
      this.current = Math.max(this.current, due.at)
      due.callback()
      await Promise.resolve()
    }
    this.current = end
    await new Promise((resolve) => setImmediate(resolve))
  }

  /** When the earliest timer waiting is due; undefined when none waits. */
  nextDueAt(): number | undefined {
    let next: number | undefined
    for (const entry of this.scheduled)
      if (!entry.cancelled && (next === undefined || entry.at < next)) next = entry.at
    return next
  }

  /** How many timers wait. */
  get pending(): number {
    return this.scheduled.filter((entry) => !entry.cancelled).length
  }
}
