/**
 * The waits of the login throttle's policy (login-throttle.ts) that stores of attempts share with the Redis
 * script computing the same (redis-login-attempt-store.ts).
 */
import type { ThrottlePolicy } from './login-throttle.js'

/** The delay of an attempt that follows `failures` counted failures: doubles past the free ones, capped. */
export function throttleDelay(policy: ThrottlePolicy, failures: number): number {
  const excess = failures - policy.freeFailures
  if (excess < 0) return 0
  return Math.min(policy.baseDelayMs * 2 ** excess, policy.maxDelayMs)
}

/**
 * How long an attempt refused because the key holds `lockAfterFailures` attempts still in flight should wait:
 * the longest delay those attempts wait before their check, at least 1 ms (a refusal always names a wait).
 */
export function inFlightRetryAfter(policy: ThrottlePolicy): number {
  return Math.max(policy.maxDelayMs, 1)
}
