/** The port of the login attempts the throttle counts (docs/security.md). */
import type { ThrottleVerdict } from './login-throttle.js'

/**
 * The failed authentication attempts of one kind of key (login names, or client addresses) and their locks,
 * under one `ThrottlePolicy` (login-throttle.ts; docs/cluster.md, "Login attempts"). An attempt reserves its
 * place before its password is checked and counts as a failure until it succeeds, so that at most
 * `lockAfterFailures` checks run for a key between two locks, however many arrive at once and on whichever
 * node (issue 15, item 6). Every time is the caller's `now`; each operation is atomic.
 */
export interface LoginAttemptStore {
  /**
   * Reserves an attempt on `key`: refused (`locked`) when the key is locked or already holds
   * `lockAfterFailures` attempts; otherwise counted, and delayed by the failures counted before it.
   */
  reserve(key: string, now: number): Promise<ThrottleVerdict>
  /** The attempt failed: locks the key when it holds `lockAfterFailures` attempts (true then). */
  fail(key: string, now: number): Promise<boolean>
  /**
   * The attempt succeeded: `reset` forgets the key's failures (a login that proved its password), `undo` only
   * takes back this attempt (an address other people may share, or an attempt refused by another key's lock).
   * A lock stays.
   */
  succeed(key: string, mode: 'reset' | 'undo', now: number): Promise<void>
  /** The time left on the key's lock at `now`, 0 when it is not locked. */
  lockedFor(key: string, now: number): Promise<number>
  /** Forgets every attempt and lock of this kind of key (a reset of the platform: docs/sandbox.md). */
  clear(): Promise<void>
}
