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

const ALICE = 'login:alice'
const ADDRESS = 'address:10.0.0.1'

function setup(policy: Partial<ThrottlePolicy> = {}) {
  const clock = new ManualClock()
  const throttle = new LoginThrottle(clock, { ...POLICY, ...policy })
  /** Counts `count` failures on `keys`; returns the keys the last one locked. */
  const failTimes = (count: number, keys: readonly string[] = [ALICE]) => {
    let locked: string[] = []
    for (let i = 0; i < count; i++) locked = throttle.fail(keys)
    return locked
  }
  return { clock, throttle, failTimes }
}

const free: ThrottleVerdict = { locked: false, delayMs: 0 }
const delayed = (delayMs: number): ThrottleVerdict => ({ locked: false, delayMs })

describe('LoginThrottle policy', () => {
  // Verdict for the attempt that follows `failures` failures of one key (freeFailures 2, base 100 ms,
  // cap 350 ms, lock at the 6th failure).
  it.each<[failures: number, verdict: ThrottleVerdict]>([
    [0, free],
    [1, free],
    [2, delayed(100)],
    [3, delayed(200)],
    [4, delayed(350)], // 400 capped at maxDelayMs
    [5, delayed(350)], // 800 capped at maxDelayMs
    [6, { locked: true, retryAfterMs: 10_000 }],
  ])('after %i failures the next attempt gets %o', (failures, verdict) => {
    const { throttle, failTimes } = setup()
    failTimes(failures)
    expect(throttle.check([ALICE])).toEqual(verdict)
  })

  it('reports the key that the failure reaching lockAfterFailures locks, and only then', () => {
    const { throttle } = setup()
    for (let i = 1; i < POLICY.lockAfterFailures; i++) expect(throttle.fail([ALICE])).toEqual([])
    expect(throttle.fail([ALICE])).toEqual([ALICE])
  })

  it('keeps a lock for lockMs, then unlocks with the failure count reset', () => {
    const { clock, throttle, failTimes } = setup()
    failTimes(POLICY.lockAfterFailures)
    clock.advance(POLICY.lockMs - 1)
    expect(throttle.check([ALICE])).toEqual({ locked: true, retryAfterMs: 1 })
    clock.advance(1)
    expect(throttle.check([ALICE])).toEqual(free)
    // The count restarted at zero: the free failures are free again.
    failTimes(POLICY.freeFailures)
    expect(throttle.check([ALICE])).toEqual(delayed(POLICY.baseDelayMs))
  })

  it('locks an attempt as soon as any of its keys is locked', () => {
    const { throttle, failTimes } = setup()
    failTimes(POLICY.lockAfterFailures, [ADDRESS])
    expect(throttle.check([ALICE, ADDRESS])).toMatchObject({ locked: true })
    expect(throttle.check([ALICE])).toEqual(free)
  })

  it('delays an attempt by the largest delay of its keys', () => {
    const { throttle, failTimes } = setup()
    failTimes(2, [ALICE, ADDRESS])
    failTimes(2, [ADDRESS])
    expect(throttle.check([ALICE])).toEqual(delayed(100))
    expect(throttle.check([ALICE, ADDRESS])).toEqual(delayed(350))
  })

  it('forgets failures windowMs after the last one', () => {
    const { clock, throttle, failTimes } = setup()
    failTimes(3)
    clock.advance(POLICY.windowMs)
    expect(throttle.check([ALICE])).toEqual(delayed(200))
    clock.advance(1)
    expect(throttle.check([ALICE])).toEqual(free)
    // Counting starts again from zero.
    failTimes(1)
    expect(throttle.check([ALICE])).toEqual(free)
  })

  it('measures the window from the most recent failure', () => {
    const { clock, throttle, failTimes } = setup()
    failTimes(2)
    clock.advance(POLICY.windowMs / 2)
    failTimes(1)
    clock.advance(POLICY.windowMs / 2 + 1)
    expect(throttle.check([ALICE])).toEqual(delayed(200))
  })

  it('does not let the window end a lock early', () => {
    const { clock, throttle, failTimes } = setup({ lockMs: 120_000 })
    failTimes(POLICY.lockAfterFailures)
    clock.advance(POLICY.windowMs + 1)
    expect(throttle.check([ALICE])).toEqual({
      locked: true,
      retryAfterMs: 120_000 - POLICY.windowMs - 1,
    })
  })

  it('forgets the failures of the login key after a success, not those of the address', () => {
    const { throttle, failTimes } = setup()
    failTimes(3, [ALICE, ADDRESS])
    throttle.succeed(ALICE)
    expect(throttle.check([ALICE])).toEqual(free)
    expect(throttle.check([ADDRESS])).toEqual(delayed(200))
  })

  it('does not lift a lock on success', () => {
    const { throttle, failTimes } = setup()
    failTimes(POLICY.lockAfterFailures)
    throttle.succeed(ALICE)
    expect(throttle.check([ALICE])).toMatchObject({ locked: true })
  })

  it('tracks at most maxKeys keys, forgetting the one whose last failure is oldest', () => {
    const { throttle } = setup({ maxKeys: 3, freeFailures: 1 })
    for (const key of ['k1', 'k2', 'k3']) throttle.fail([key])
    throttle.fail(['k1']) // k1 becomes the most recent; k2 is now the oldest
    throttle.fail(['k4'])
    expect(throttle.check(['k2'])).toEqual(free)
    for (const key of ['k3', 'k4']) expect(throttle.check([key])).toEqual(delayed(100))
    throttle.fail(['k5'])
    expect(throttle.check(['k3'])).toEqual(free)
    expect(throttle.check(['k1'])).toEqual(delayed(200)) // two failures kept
  })
})
