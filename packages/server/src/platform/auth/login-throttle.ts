/**
 * Slows down repeated authentication failures for one login name or one client address: a few free
 * attempts, then a delay that doubles with each failure, then a temporary lock (docs/authentication.md).
 */
import type { Clock } from '../ports.js'

/** The throttling policy. */
export interface ThrottlePolicy {
  /** Failures answered without delay. */
  freeFailures: number
  /** Delay after the first failure past the free ones; doubles with each further failure. */
  baseDelayMs: number
  maxDelayMs: number
  /** Failures that lock the key. */
  lockAfterFailures: number
  lockMs: number
  /** Failures older than this are forgotten. */
  windowMs: number
  /** Keys tracked at most; the oldest are forgotten first. */
  maxKeys: number
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  freeFailures: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  lockAfterFailures: 10,
  lockMs: 5 * 60_000,
  windowMs: 15 * 60_000,
  maxKeys: 10_000,
}

/** The verdict for an attempt before it is checked. */
export type ThrottleVerdict =
  | { locked: true; retryAfterMs: number }
  | { locked: false; delayMs: number }

interface FailureRecord {
  failures: number
  lastFailureAt: number
  lockedUntil: number
}

/** Failure counters per key ("login:alice", "address:10.0.0.1"). */
export class LoginThrottle {
  private readonly records = new Map<string, FailureRecord>()

  constructor(
    private readonly clock: Clock,
    private readonly policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY,
  ) {}

  /** Whether an attempt on these keys is locked out, else how long to wait before answering it. */
  check(keys: readonly string[]): ThrottleVerdict {
    const now = this.clock.now()
    let delayMs = 0
    for (const key of keys) {
      const record = this.current(key, now)
      if (record === undefined) continue
      if (record.lockedUntil > now) return { locked: true, retryAfterMs: record.lockedUntil - now }
      delayMs = Math.max(delayMs, this.delayFor(record.failures))
    }
    return { locked: false, delayMs }
  }

  /** Counts a failure on every key; returns the keys that just got locked. */
  fail(keys: readonly string[]): string[] {
    const now = this.clock.now()
    const locked: string[] = []
    for (const key of keys) {
      const record = this.current(key, now) ?? { failures: 0, lastFailureAt: now, lockedUntil: 0 }
      record.failures += 1
      record.lastFailureAt = now
      if (record.failures >= this.policy.lockAfterFailures && record.lockedUntil <= now) {
        record.lockedUntil = now + this.policy.lockMs
        record.failures = 0
        locked.push(key)
      }
      this.records.delete(key)
      this.records.set(key, record)
      if (this.records.size > this.policy.maxKeys) {
        const oldest = this.records.keys().next().value
        if (oldest !== undefined) this.records.delete(oldest)
      }
    }
    return locked
  }

  /** Forgets the failures of a key after a success. */
  succeed(key: string): void {
    const record = this.records.get(key)
    if (record && record.lockedUntil <= this.clock.now()) this.records.delete(key)
  }

  private current(key: string, now: number): FailureRecord | undefined {
    const record = this.records.get(key)
    if (record === undefined) return undefined
    if (record.lockedUntil <= now && now - record.lastFailureAt > this.policy.windowMs) {
      this.records.delete(key)
      return undefined
    }
    return record
  }

  private delayFor(failures: number): number {
    const excess = failures - this.policy.freeFailures
    if (excess < 0) return 0
    return Math.min(this.policy.baseDelayMs * 2 ** excess, this.policy.maxDelayMs)
  }
}
