/**
 * Slows down repeated authentication failures of one key (a login name, or a client address): a few
 * free attempts, then a delay that doubles with each failure, then a temporary lock (docs/decisions.md).
 * An attempt counts as a failure from the moment it starts until it succeeds, so that a burst of
 * parallel guesses is throttled like a sequence of them.
 */
import type { Clock } from '../ports.js'

/** The throttling policy of one kind of key. */
export interface ThrottlePolicy {
  /** Failures answered without delay. */
  freeFailures: number
  /** Delay of the attempt that follows `freeFailures` failures; doubles with each further failure. */
  baseDelayMs: number
  maxDelayMs: number
  /** Failures that lock the key. */
  lockAfterFailures: number
  lockMs: number
  /** Failures older than this (since the last one) are forgotten. */
  windowMs: number
  /**
   * Keys whose failures are counted, at most (those whose last failure is oldest are forgotten first); as
   * many locks at most, apart (the lock that ends first is forgotten first).
   */
  maxKeys: number
}

/** Per login name: a person mistyping gets 3 free tries; a guesser is locked after 10. */
export const DEFAULT_LOGIN_POLICY: ThrottlePolicy = {
  freeFailures: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  lockAfterFailures: 10,
  lockMs: 5 * 60_000,
  windowMs: 15 * 60_000,
  maxKeys: 10_000,
}

/** Per client address: many people may share one (NAT, proxy), so the thresholds are higher. */
export const DEFAULT_ADDRESS_POLICY: ThrottlePolicy = {
  ...DEFAULT_LOGIN_POLICY,
  freeFailures: 20,
  lockAfterFailures: 100,
}

/** The verdict for an attempt. */
export type ThrottleVerdict =
  | { locked: true; retryAfterMs: number }
  | { locked: false; delayMs: number }

interface FailureRecord {
  failures: number
  lastFailureAt: number
}

/**
 * Failure counters and locks of one kind of key. Locks are kept apart from the counters, each map bounded
 * by maxKeys: a spray of attempts on many other keys forgets old counters, never a lock (a lock takes
 * lockAfterFailures failures of its key, so a spray cannot make many).
 */
export class LoginThrottle {
  /** By the time of the last failure, oldest first. */
  private readonly records = new Map<string, FailureRecord>()
  /** Key to the end of its lock; in the order the locks were set, hence the order they end in. */
  private readonly locks = new Map<string, number>()

  constructor(
    private readonly clock: Clock,
    private readonly policy: ThrottlePolicy,
  ) {}

  /**
   * Starts an attempt on `key`: refused when the key is locked; otherwise counted as a failure until
   * `succeed` says otherwise, and delayed by the failures counted before it.
   */
  attempt(key: string): ThrottleVerdict {
    const now = this.clock.now()
    const retryAfterMs = this.lockLeft(key, now)
    if (retryAfterMs > 0) return { locked: true, retryAfterMs }
    const record = this.current(key, now) ?? { failures: 0, lastFailureAt: now }
    const delayMs = this.delayFor(record.failures)
    record.failures += 1
    record.lastFailureAt = now
    this.store(key, record)
    return { locked: false, delayMs }
  }

  /** The time left on the key's lock, 0 when it is not locked. */
  lockedFor(key: string): number {
    return this.lockLeft(key, this.clock.now())
  }

  /** Confirms that the attempt failed; locks the key when it reached the limit (true then). */
  fail(key: string): boolean {
    const now = this.clock.now()
    const record = this.current(key, now)
    if (record === undefined || record.failures < this.policy.lockAfterFailures) return false
    if (this.lockLeft(key, now) > 0) return false
    // Counting starts again from zero once the lock ends.
    this.records.delete(key)
    this.locks.set(key, now + this.policy.lockMs)
    if (this.locks.size > this.policy.maxKeys) {
      const soonest = this.locks.keys().next().value
      if (soonest !== undefined) this.locks.delete(soonest)
    }
    return true
  }

  /**
   * The attempt succeeded: `reset` forgets the key's failures (a login that proved its password),
   * `undo` only takes back this attempt (an address that other people may share).
   */
  succeed(key: string, mode: 'reset' | 'undo'): void {
    const record = this.records.get(key)
    if (record === undefined || this.lockLeft(key, this.clock.now()) > 0) return
    if (mode === 'reset' || record.failures <= 1) this.records.delete(key)
    else record.failures -= 1
  }

  private store(key: string, record: FailureRecord): void {
    this.records.delete(key)
    this.records.set(key, record)
    if (this.records.size > this.policy.maxKeys) {
      const oldest = this.records.keys().next().value
      if (oldest !== undefined) this.records.delete(oldest)
    }
  }

  private current(key: string, now: number): FailureRecord | undefined {
    const record = this.records.get(key)
    if (record === undefined) return undefined
    if (now - record.lastFailureAt > this.policy.windowMs) {
      this.records.delete(key)
      return undefined
    }
    return record
  }

  /** Milliseconds left on the key's lock; an ended lock is forgotten. */
  private lockLeft(key: string, now: number): number {
    const until = this.locks.get(key)
    if (until === undefined) return 0
    if (until > now) return until - now
    this.locks.delete(key)
    return 0
  }

  private delayFor(failures: number): number {
    const excess = failures - this.policy.freeFailures
    if (excess < 0) return 0
    return Math.min(this.policy.baseDelayMs * 2 ** excess, this.policy.maxDelayMs)
  }
}
