/** The real clock: Date.now and setTimeout, unref'd so that a timer never keeps the process alive. */
import type { Clock, Timer } from '../platform/events.js'

export class SystemClock implements Clock {
  now(): number {
    return Date.now()
  }

  setTimer(delayMs: number, callback: () => void): Timer {
    const handle = setTimeout(callback, delayMs)
    handle.unref()
    return { cancel: () => clearTimeout(handle) }
  }

  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, delayMs))
  }
}
