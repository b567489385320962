/**
 * The policy that slows down repeated authentication failures of one key (a login name, or a client
 * address): a few free attempts, then a delay that doubles with each failure, then a temporary lock
 * (docs/decisions.md). A LoginAttemptStore applies it (login-attempt-store.ts): an attempt counts as a failure
 * from the moment it is reserved until it succeeds, and no more attempts are admitted than the lock
 * threshold, so that a burst of parallel guesses is throttled like a sequence of them.
 */

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
