import { describe, expect, it } from 'vitest'
import type { Clock } from '../ports.js'
import { LoginThrottle, type ThrottlePolicy, type ThrottleVerdict } from './login-throttle.js'

/** A clock that only moves when told; the throttle only reads it. */
class ManualClock implements Clock {
  constructor(public current = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.current
  }
  setTimer(): never {
    throw new Error('the throttle sets no timer')
  }
  sleep(): never {
    throw new Error('the throttle never sleeps')
  }
  advance(ms: number): void {
    this.current += ms
  }
}

const POLICY: ThrottlePolicy = {
  freeFailures: 2,
  baseDelayMs: 100,
  maxDelayMs: 350,
  lockAfterFailures: 6,
  lockMs: 10_000,
  windowMs: 60_000,
  maxKeys: 100,
}

const ALICE = 'alice'

function setup(policy: Partial<ThrottlePolicy> = {}) {
  const clock = new ManualClock()
  const throttle = new LoginThrottle(clock, { ...POLICY, ...policy })
  /** Makes `count` attempts on `key` that fail (attempt, then fail); returns what the last `fail` said. */
  const failTimes = (count: number, key = ALICE) => {
    let locked = false
    for (let i = 0; i < count; i++) {
      expect(throttle.attempt(key)).toMatchObject({ locked: false })
      locked = throttle.fail(key)
    }
    return locked
  }
  return { clock, throttle, failTimes }
}

const free: ThrottleVerdict = { locked: false, delayMs: 0 }
const delayed = (delayMs: number): ThrottleVerdict => ({ locked: false, delayMs })
const locked = (retryAfterMs: number): ThrottleVerdict => ({ locked: true, retryAfterMs })

describe('LoginThrottle', () => {
  // Verdict for the attempt that follows `failures` failed attempts of one key (freeFailures 2, base
  // 100 ms, cap 350 ms, lock at the 6th failure).
  it.each<[failures: number, verdict: ThrottleVerdict]>([
    [0, free],
    [1, free],
    [2, delayed(100)],
    [3, delayed(200)],
    [4, delayed(350)], // 400 capped at maxDelayMs
    [5, delayed(350)], // 800 capped at maxDelayMs
    [6, locked(10_000)],
  ])('after %i failures the next attempt gets %o', (failures, verdict) => {
    const { throttle, failTimes } = setup()
    failTimes(failures)
    expect(throttle.attempt(ALICE)).toEqual(verdict)
  })

  it('caps the delay at maxDelayMs however many failures precede', () => {
    const { throttle, failTimes } = setup({ lockAfterFailures: 1000 })
    failTimes(100)
    expect(throttle.attempt(ALICE)).toEqual(delayed(POLICY.maxDelayMs))
  })

  it('locks the key when `fail` finds lockAfterFailures failures, and says so only then', () => {
    const { throttle } = setup()
    for (let i = 1; i < POLICY.lockAfterFailures; i++) {
      throttle.attempt(ALICE)
      expect(throttle.fail(ALICE)).toBe(false)
      expect(throttle.lockedFor(ALICE)).toBe(0)
    }
    throttle.attempt(ALICE)
    expect(throttle.fail(ALICE)).toBe(true)
    expect(throttle.lockedFor(ALICE)).toBe(POLICY.lockMs)
  })

  it('does not lock on `fail` alone: only attempts are counted', () => {
    const { throttle } = setup()
    for (let i = 0; i < 2 * POLICY.lockAfterFailures; i++) expect(throttle.fail(ALICE)).toBe(false)
    expect(throttle.lockedFor(ALICE)).toBe(0)
    expect(throttle.attempt(ALICE)).toEqual(free)
  })

  it('keeps a lock for lockMs, refusing attempts without counting them, then starts again from zero', () => {
    const { clock, throttle, failTimes } = setup()
    expect(throttle.lockedFor(ALICE)).toBe(0)
    expect(failTimes(POLICY.lockAfterFailures)).toBe(true)
    expect(throttle.lockedFor(ALICE)).toBe(POLICY.lockMs)
    clock.advance(POLICY.lockMs - 1)
    expect(throttle.lockedFor(ALICE)).toBe(1)
    for (let i = 0; i < 10; i++) expect(throttle.attempt(ALICE)).toEqual(locked(1))
    clock.advance(1)
    expect(throttle.lockedFor(ALICE)).toBe(0)
    // The count restarted at zero and the refused attempts were not counted: the free failures are free.
    expect(throttle.attempt(ALICE)).toEqual(free)
    throttle.fail(ALICE)
    expect(throttle.attempt(ALICE)).toEqual(free)
    throttle.fail(ALICE)
    expect(throttle.attempt(ALICE)).toEqual(delayed(POLICY.baseDelayMs))
  })

  it('keeps the keys apart', () => {
    const { throttle, failTimes } = setup()
    failTimes(POLICY.lockAfterFailures, 'bob')
    expect(throttle.lockedFor('bob')).toBe(POLICY.lockMs)
    expect(throttle.lockedFor(ALICE)).toBe(0)
    expect(throttle.attempt(ALICE)).toEqual(free)
  })

  describe('a burst of parallel attempts', () => {
    it('gets growing delays: each attempt counts as a failure from its start', () => {
      const { throttle } = setup()
      const verdicts = Array.from({ length: 8 }, () => throttle.attempt(ALICE))
      expect(verdicts).toEqual([
        free,
        free,
        delayed(100),
        delayed(200),
        delayed(350),
        delayed(350),
        // Past lockAfterFailures: `attempt` does not lock, the first `fail` will.
        delayed(350),
        delayed(350),
      ])
      expect(throttle.lockedFor(ALICE)).toBe(0)
    })

    it('is locked by its first failure once it holds lockAfterFailures attempts', () => {
      const { clock, throttle } = setup()
      for (let i = 0; i < 8; i++) throttle.attempt(ALICE)
      expect(throttle.fail(ALICE)).toBe(true)
      expect(throttle.attempt(ALICE)).toEqual(locked(POLICY.lockMs))
      // The attempts still in flight fail later: they neither lock again nor extend the lock.
      clock.advance(300)
      for (let i = 0; i < 7; i++) expect(throttle.fail(ALICE)).toBe(false)
      expect(throttle.lockedFor(ALICE)).toBe(POLICY.lockMs - 300)
      // ... and they were forgotten with the lock: after it, the count starts from zero.
      clock.advance(POLICY.lockMs - 300)
      expect(throttle.attempt(ALICE)).toEqual(free)
    })

    it('counts the attempts of the burst even when a success ends one of them', () => {
      const { throttle } = setup()
      for (let i = 0; i < 4; i++) throttle.attempt(ALICE)
      throttle.succeed(ALICE, 'undo')
      expect(throttle.attempt(ALICE)).toEqual(delayed(200)) // 3 attempts still count
    })
  })

  describe('the window', () => {
    it('remembers failures for windowMs after the last one', () => {
      const { clock, throttle, failTimes } = setup()
      failTimes(3)
      clock.advance(POLICY.windowMs)
      expect(throttle.attempt(ALICE)).toEqual(delayed(200))
    })

    it('forgets them after that, and counting starts again from zero', () => {
      const { clock, throttle, failTimes } = setup()
      failTimes(3)
      clock.advance(POLICY.windowMs + 1)
      expect(throttle.attempt(ALICE)).toEqual(free)
      throttle.fail(ALICE)
      expect(throttle.attempt(ALICE)).toEqual(free)
      throttle.fail(ALICE)
      expect(throttle.attempt(ALICE)).toEqual(delayed(POLICY.baseDelayMs))
    })

    it('is measured from the most recent attempt', () => {
      const { clock, throttle, failTimes } = setup()
      failTimes(2)
      clock.advance(POLICY.windowMs / 2)
      failTimes(1)
      clock.advance(POLICY.windowMs / 2 + 1)
      expect(throttle.attempt(ALICE)).toEqual(delayed(200))
    })

    it('does not end a lock early', () => {
      const { clock, throttle, failTimes } = setup({ lockMs: 120_000 })
      failTimes(POLICY.lockAfterFailures)
      clock.advance(POLICY.windowMs + 1)
      const left = 120_000 - POLICY.windowMs - 1
      expect(throttle.lockedFor(ALICE)).toBe(left)
      expect(throttle.attempt(ALICE)).toEqual(locked(left))
    })
  })

  describe('succeed', () => {
    it("'reset' forgets every failure of the key", () => {
      const { throttle, failTimes } = setup()
      failTimes(3)
      expect(throttle.attempt(ALICE)).toEqual(delayed(200))
      throttle.succeed(ALICE, 'reset')
      // Two free failures again.
      expect(throttle.attempt(ALICE)).toEqual(free)
      throttle.fail(ALICE)
      expect(throttle.attempt(ALICE)).toEqual(free)
      throttle.fail(ALICE)
      expect(throttle.attempt(ALICE)).toEqual(delayed(POLICY.baseDelayMs))
    })

    it("'undo' takes back only the attempt that succeeded", () => {
      const { throttle, failTimes } = setup()
      failTimes(3)
      expect(throttle.attempt(ALICE)).toEqual(delayed(200))
      throttle.succeed(ALICE, 'undo')
      // The three failures remain; the success did not add a fourth.
      expect(throttle.attempt(ALICE)).toEqual(delayed(200))
      throttle.succeed(ALICE, 'undo')
      expect(throttle.attempt(ALICE)).toEqual(delayed(200))
    })

    it("'undo' of a key's only attempt forgets the key", () => {
      const { throttle } = setup()
      expect(throttle.attempt(ALICE)).toEqual(free)
      throttle.succeed(ALICE, 'undo')
      throttle.attempt(ALICE)
      throttle.fail(ALICE)
      throttle.attempt(ALICE)
      throttle.fail(ALICE)
      expect(throttle.attempt(ALICE)).toEqual(delayed(POLICY.baseDelayMs))
    })

    it('is harmless on a key that has no failures', () => {
      const { throttle } = setup()
      throttle.succeed(ALICE, 'reset')
      throttle.succeed(ALICE, 'undo')
      expect(throttle.lockedFor(ALICE)).toBe(0)
      expect(throttle.attempt(ALICE)).toEqual(free)
    })

    it.each(['reset', 'undo'] as const)("'%s' does not lift a lock", (mode) => {
      const { clock, throttle, failTimes } = setup()
      failTimes(POLICY.lockAfterFailures)
      clock.advance(1000)
      throttle.succeed(ALICE, mode)
      expect(throttle.lockedFor(ALICE)).toBe(POLICY.lockMs - 1000)
      expect(throttle.attempt(ALICE)).toEqual(locked(POLICY.lockMs - 1000))
    })
  })

  it('tracks at most maxKeys keys, forgetting the one whose last attempt is oldest', () => {
    // freeFailures 1: a key with one failure delays its next attempt by 100 ms, with two by 200 ms.
    const { throttle, failTimes } = setup({ maxKeys: 3, freeFailures: 1 })
    for (const key of ['k1', 'k2', 'k3']) failTimes(1, key)
    failTimes(1, 'k1') // k1 becomes the most recent; k2 is now the oldest
    failTimes(1, 'k4') // a fourth key: k2 is forgotten; from oldest: k3, k1, k4
    // Each probe below is an attempt, which makes its key the most recent.
    expect(throttle.attempt('k1')).toEqual(delayed(200)) // k3, k4, k1
    expect(throttle.attempt('k4')).toEqual(delayed(100)) // k3, k1, k4
    expect(throttle.attempt('k3')).toEqual(delayed(100)) // k1, k4, k3
    expect(throttle.attempt('k2')).toEqual(free) // forgotten; tracked again, k1 goes: k4, k3, k2
    expect(throttle.attempt('k1')).toEqual(free)
  })

  it('keeps a lock however many other keys fail after it: counters are forgotten, locks are not', () => {
    const { throttle, failTimes } = setup({ maxKeys: 3 })
    expect(failTimes(POLICY.lockAfterFailures)).toBe(true)
    for (let i = 0; i < 50; i++) failTimes(1, `spray-${i}`)
    expect(throttle.lockedFor(ALICE)).toBe(POLICY.lockMs)
    expect(throttle.attempt(ALICE)).toEqual(locked(POLICY.lockMs))
    // Counters are still bounded: the first keys of the spray are forgotten.
    expect(throttle.attempt('spray-0')).toEqual(free)
  })

  it('keeps at most maxKeys locks, forgetting the one that ends first', () => {
    const { clock, throttle, failTimes } = setup({ maxKeys: 2 })
    for (const key of ['l1', 'l2', 'l3']) {
      expect(failTimes(POLICY.lockAfterFailures, key)).toBe(true)
      clock.advance(1000)
    }
    expect(throttle.lockedFor('l1')).toBe(0)
    expect(throttle.lockedFor('l2')).toBe(POLICY.lockMs - 2000)
    expect(throttle.lockedFor('l3')).toBe(POLICY.lockMs - 1000)
  })
})
