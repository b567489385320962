/**
 * The clock of the running service (docs/control-plane.md, "The clock"): the system's time plus an offset
 * that the control plane sets forward, and a reset or restore sets back (`setOffset`). Its timers are kept
 * with the time they are due at, on that clock:
 * moving it forward fires at once, in due order, the timers that fall due, and re-arms the others for the
 * time left, so that ringing, park, session and subscription timeouts behave as if the time had passed.
 * Otherwise it is the SystemClock: real timers, unref'd (a sleep's is not, as a bare setTimeout would not be).
 */
import type { Clock, Timer } from '../platform/events.js'

/** The longest delay setTimeout keeps (2^31 - 1 ms, about 24.8 days); a longer one is re-armed when it ends. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1

interface Scheduled {
  /** The clock's time it is due at. */
  due: number
  /** Creation order: timers due at the same time fire in the order they were set. */
  sequence: number
  callback: () => void
  /** False for a sleep: its real timer keeps the process alive, as a bare setTimeout would. */
  unref: boolean
  handle?: ReturnType<typeof setTimeout>
}

/** Options of the clock. */
export interface AdjustableClockOptions {
  /** Told of an error a timer's callback threw while `advance` fired it; by default it is thrown as a timer's would be. */
  onTimerError?: (error: unknown) => void
}

export class AdjustableClock implements Clock {
  #offset = 0
  #sequence = 0
  /** The system's time at which the clock was held (hold()), while it is. */
  #heldAt: number | undefined
  /** How many holds are in force. */
  #holds = 0
  readonly #scheduled = new Set<Scheduled>()
  readonly #onTimerError: (error: unknown) => void

  constructor(options: AdjustableClockOptions = {}) {
    this.#onTimerError =
      options.onTimerError ??
      ((error) =>
        process.nextTick(() => {
          throw error
        }))
  }

  now(): number {
    return (this.#heldAt ?? Date.now()) + this.#offset
  }

  /** How far ahead of the system's time the clock is, in milliseconds. */
  get offsetMs(): number {
    return this.#offset
  }

  /** How many timers wait. */
  get pending(): number {
    return this.#scheduled.size
  }

  /** When the earliest timer waiting is due, on this clock; undefined when none waits. */
  nextDueAt(): number | undefined {
    let next: number | undefined
    for (const entry of this.#scheduled)
      if (next === undefined || entry.due < next) next = entry.due
    return next
  }

  /**
   * Stops the clock following the system's time: it then moves only by `advance`, and its timers fire only
   * then, so that a scenario run (control/scenarios) sees exactly the times it sets, whatever the time its own
   * work takes. The function returned lets go: the clock follows the system's time again, catching up the
   * time spent held (the offset stays as the advances left it), and fires what fell due meanwhile. Holds
   * nest: the clock goes on once every hold is let go.
   */
  hold(): () => void {
    this.#holds++
    if (this.#heldAt === undefined) {
      this.#heldAt = Date.now()
      for (const entry of this.#scheduled) this.#arm(entry)
    }
    let released = false
    return () => {
      if (released) return
      released = true
      if (--this.#holds > 0) return
      this.#heldAt = undefined
      this.advance(0)
    }
  }

  setTimer(delayMs: number, callback: () => void): Timer {
    return this.#schedule(delayMs, callback, true)
  }

  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.#schedule(delayMs, resolve, false))
  }

  /**
   * Sets the clock forward by `ms`: the timers due by the new time fire now, earliest first (those they
   * set that are due already too), each seeing the new time; the others are re-armed for the time left.
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`The clock only moves forward: ${ms} ms`)
    this.#offset += ms
    const now = this.now()
    for (;;) {
      const due = [...this.#scheduled]
        .filter((entry) => entry.due <= now)
        .sort((a, b) => a.due - b.due || a.sequence - b.sequence)
      if (due.length === 0) break
      // A callback may cancel a timer that comes later in the list: only those still scheduled fire.
      for (const entry of due) if (this.#scheduled.has(entry)) this.#fire(entry)
    }
    for (const entry of this.#scheduled) this.#arm(entry)
  }

  /**
   * Sets the clock forward to `offsetMs` ahead of the system's time, as `advance` does, when it is behind
   * that (a restart going on from the offset it stored); a clock already as far ahead stays as it is.
   */
  restore(offsetMs: number): void {
    if (offsetMs > this.#offset) this.advance(offsetMs - this.#offset)
  }

  /**
   * Sets the clock to `offsetMs` ahead of the system's time, back as well as forward (a reset or restore of
   * the platform: docs/sandbox.md). Forward, it is an `advance`; back, the timers keep the time they are due
   * at, on this clock, and are re-armed for the longer wait.
   */
  setOffset(offsetMs: number): void {
    if (!Number.isFinite(offsetMs)) throw new RangeError(`Not an offset: ${offsetMs} ms`)
    if (offsetMs >= this.#offset) {
      this.advance(offsetMs - this.#offset)
      return
    }
    this.#offset = offsetMs
    for (const entry of this.#scheduled) this.#arm(entry)
  }

  #schedule(delayMs: number, callback: () => void, unref: boolean): Timer {
    const entry: Scheduled = {
      due: this.now() + Math.max(0, delayMs),
      sequence: this.#sequence++,
      callback,
      unref,
    }
    this.#scheduled.add(entry)
    this.#arm(entry)
    return { cancel: () => this.#cancel(entry) }
  }

  /** (Re-)arms the real timer of `entry` for the time left until it is due; none while the clock is held. */
  #arm(entry: Scheduled): void {
    if (entry.handle !== undefined) clearTimeout(entry.handle)
    entry.handle = undefined
    if (this.#heldAt !== undefined) return
    const left = Math.min(MAX_TIMEOUT_MS, Math.max(0, entry.due - this.now()))
    entry.handle = setTimeout(() => {
      entry.handle = undefined
      if (!this.#scheduled.has(entry)) return
      // Early (a delay beyond setTimeout's longest, or the system's time behind the timers'): wait on.
      if (this.now() < entry.due) this.#arm(entry)
      else {
        this.#scheduled.delete(entry)
        entry.callback()
      }
    }, left)
    if (entry.unref) entry.handle.unref()
  }

  /** Runs a timer that `advance` made due; a throwing callback does not stop the others. */
  #fire(entry: Scheduled): void {
    this.#cancel(entry)
    try {
      entry.callback()
    } catch (error) {
      this.#onTimerError(error)
    }
  }

  #cancel(entry: Scheduled): void {
    this.#scheduled.delete(entry)
    if (entry.handle !== undefined) clearTimeout(entry.handle)
    entry.handle = undefined
  }
}
