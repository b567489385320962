/** A clock the control plane can set forward: the running service's AdjustableClock, or a test's. */
export interface AdjustableTime {
  now(): number
  /** Moves the time forward by `ms`, firing the timers that fall due. */
  advance(ms: number): void | Promise<void>
  /** How far ahead of the system's time it is, when it follows the system's time. */
  readonly offsetMs?: number
  /** When its earliest timer waiting is due: with it, scenarios step from one due time to the next. */
  nextDueAt?(): number | undefined
  /** Stops it following the system's time until the function returned is called (a scenario run). */
  hold?(): () => void
}
