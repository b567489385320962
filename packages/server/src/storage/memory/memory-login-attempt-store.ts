/**
 * Failed authentication attempts and locks of one kind of key in the process (the embedded mode), under the
 * policy of login-throttle.ts, with the attempts in flight counted toward the lock (issue 15, item 6). Locks are
 * kept apart from the counters, each map bounded by the policy's maxKeys: a spray of attempts on many other
 * keys forgets old counters, never a lock.
 */

import type { LoginAttemptStore } from '../../platform/auth/login-attempt-store.js'
import type { ThrottlePolicy, ThrottleVerdict } from '../../platform/auth/login-throttle.js'
import { inFlightRetryAfter, throttleDelay } from '../../platform/auth/throttle-delay.js'

interface AttemptRecord {
  /** Attempts that failed or are in flight. */
  attempts: number
  lastAttemptAt: number
}

export class MemoryLoginAttemptStore implements LoginAttemptStore {
  /** By the time of the last attempt, oldest first. */
  private readonly records = new Map<string, AttemptRecord>()
  /** Key to the end of its lock; in the order the locks were set, hence the order they end in. */
  private readonly locks = new Map<string, number>()

  /** `scope` names the kind of key (`login`, `address`) in `heldKeys`, as the Redis adapter's keys. */
  constructor(
    private readonly policy: ThrottlePolicy,
    private readonly scope: string,
  ) {}

  async reserve(key: string, now: number): Promise<ThrottleVerdict> {
    const retryAfterMs = this.lockLeft(key, now)
    if (retryAfterMs > 0) return { locked: true, retryAfterMs }
    const record = this.current(key, now) ?? { attempts: 0, lastAttemptAt: now }
    if (record.attempts >= this.policy.lockAfterFailures)
      return { locked: true, retryAfterMs: inFlightRetryAfter(this.policy) }
    const delayMs = throttleDelay(this.policy, record.attempts)
    record.attempts += 1
    record.lastAttemptAt = now
    this.store(key, record)
    return { locked: false, delayMs }
  }

  async fail(key: string, now: number): Promise<boolean> {
    const record = this.current(key, now)
    if (record === undefined || record.attempts < this.policy.lockAfterFailures) return false
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

  async succeed(key: string, mode: 'reset' | 'undo', now: number): Promise<void> {
    const record = this.records.get(key)
    if (record === undefined || this.lockLeft(key, now) > 0) return
    if (mode === 'reset' || record.attempts <= 1) this.records.delete(key)
    else record.attempts -= 1
  }

  async lockedFor(key: string, now: number): Promise<number> {
    return this.lockLeft(key, now)
  }

  /** What the store holds, named as the Redis adapter's keys (after the prefix), sorted. */
  async clear(): Promise<void> {
    this.records.clear()
    this.locks.clear()
  }

  heldKeys(): string[] {
    return [
      ...[...this.records.keys()].map((key) => `attempts:${this.scope}:${key}`),
      ...[...this.locks.keys()].map((key) => `attempt-lock:${this.scope}:${key}`),
    ].sort()
  }

  private store(key: string, record: AttemptRecord): void {
    this.records.delete(key)
    this.records.set(key, record)
    if (this.records.size > this.policy.maxKeys) {
      const oldest = this.records.keys().next().value
      if (oldest !== undefined) this.records.delete(oldest)
    }
  }

  private current(key: string, now: number): AttemptRecord | undefined {
    const record = this.records.get(key)
    if (record === undefined) return undefined
    if (now - record.lastAttemptAt > this.policy.windowMs) {
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
}
