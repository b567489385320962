import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AdjustableClock } from './adjustable-clock.js'

const START = Date.UTC(2026, 0, 1)

beforeEach(() => {
  vi.useFakeTimers({ now: START, toFake: ['Date', 'setTimeout', 'clearTimeout'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('AdjustableClock', () => {
  it('is the system time until it is set forward, then the system time plus the offset', () => {
    const clock = new AdjustableClock()
    expect(clock.now()).toBe(START)
    vi.advanceTimersByTime(1_500)
    expect(clock.now()).toBe(START + 1_500)

    clock.advance(60_000)

    expect(clock.offsetMs).toBe(60_000)
    expect(clock.now()).toBe(START + 61_500)
    vi.advanceTimersByTime(500)
    expect(clock.now()).toBe(START + 62_000)
  })

  it('fires timers on real time as the system clock does', () => {
    const clock = new AdjustableClock()
    const fired: string[] = []
    clock.setTimer(1_000, () => fired.push('a'))
    const cancelled = clock.setTimer(500, () => fired.push('cancelled'))
    cancelled.cancel()

    vi.advanceTimersByTime(999)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(1)
    expect(fired).toEqual(['a'])
    expect(clock.pending).toBe(0)
  })

  it('fires at once, in due order and at the new time, the timers an advance makes due', () => {
    const clock = new AdjustableClock()
    const fired: [string, number][] = []
    const record = (name: string) => () => fired.push([name, clock.now()])
    clock.setTimer(30_000, record('30 s'))
    clock.setTimer(10_000, record('10 s'))
    clock.setTimer(10_000, record('10 s, set second'))
    clock.setTimer(0, record('now'))
    clock.setTimer(90_000, record('90 s'))

    clock.advance(31_000)

    expect(fired).toEqual([
      ['now', START + 31_000],
      ['10 s', START + 31_000],
      ['10 s, set second', START + 31_000],
      ['30 s', START + 31_000],
    ])
    expect(clock.pending).toBe(1)
  })

  it('re-arms the timers not yet due for the time left', () => {
    const clock = new AdjustableClock()
    const fired: number[] = []
    clock.setTimer(90_000, () => fired.push(clock.now()))

    clock.advance(60_000)
    vi.advanceTimersByTime(29_999)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(1)

    expect(fired).toEqual([START + 90_000])
    expect(clock.pending).toBe(0)
  })

  it('fires the timers a firing timer sets when they are due already, and not the cancelled ones', () => {
    const clock = new AdjustableClock()
    const fired: string[] = []
    let later = clock.setTimer(20_000, () => fired.push('later'))
    clock.setTimer(5_000, () => {
      fired.push('first')
      later.cancel()
      clock.setTimer(0, () => fired.push('set by first'))
      later = clock.setTimer(1_000, () => fired.push('re-set later'))
    })

    clock.advance(25_000)

    expect(fired).toEqual(['first', 'set by first'])
    vi.advanceTimersByTime(1_000)
    expect(fired).toEqual(['first', 'set by first', 're-set later'])
  })

  it('resolves sleeps when set forward', async () => {
    const clock = new AdjustableClock()
    let woken = false
    const sleeping = clock.sleep(3_600_000).then(() => {
      woken = true
    })
    clock.advance(3_599_999)
    await Promise.resolve()
    expect(woken).toBe(false)
    clock.advance(1)
    await sleeping
    expect(woken).toBe(true)
  })

  it('reports a failing timer and fires the others', () => {
    const errors: unknown[] = []
    const clock = new AdjustableClock({ onTimerError: (error) => errors.push(error) })
    const fired: string[] = []
    clock.setTimer(1_000, () => {
      throw new Error('boom')
    })
    clock.setTimer(2_000, () => fired.push('next'))

    clock.advance(5_000)

    expect(errors).toEqual([new Error('boom')])
    expect(fired).toEqual(['next'])
  })

  it('keeps a delay longer than setTimeout allows', () => {
    const clock = new AdjustableClock()
    const fired: number[] = []
    const thirtyDays = 30 * 86_400_000
    clock.setTimer(thirtyDays, () => fired.push(clock.now()))

    vi.advanceTimersByTime(2 ** 31 - 1)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(thirtyDays - (2 ** 31 - 1))
    expect(fired).toEqual([START + thirtyDays])
  })

  it('only moves forward', () => {
    const clock = new AdjustableClock()
    expect(() => clock.advance(-1)).toThrow(RangeError)
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError)
    expect(clock.now()).toBe(START)
  })

  it('restores an offset by setting the clock forward to it, and never back', () => {
    const clock = new AdjustableClock()
    const fired: string[] = []
    clock.setTimer(30_000, () => fired.push('a'))
    clock.restore(45_000)
    expect(clock.offsetMs).toBe(45_000)
    expect(fired).toEqual(['a'])
    clock.restore(10_000)
    expect(clock.offsetMs).toBe(45_000)
    expect(clock.now()).toBe(START + 45_000)
  })

  it('tells when its earliest timer is due', () => {
    const clock = new AdjustableClock()
    expect(clock.nextDueAt()).toBeUndefined()
    clock.setTimer(30_000, () => undefined)
    const first = clock.setTimer(5_000, () => undefined)
    expect(clock.nextDueAt()).toBe(START + 5_000)
    first.cancel()
    expect(clock.nextDueAt()).toBe(START + 30_000)
  })

  it('held, stands still and fires timers only when advanced; let go, catches up the time held', () => {
    const clock = new AdjustableClock()
    const fired: [string, number][] = []
    clock.setTimer(1_000, () => fired.push(['1 s', clock.now()]))
    clock.setTimer(4_000, () => fired.push(['4 s', clock.now()]))
    clock.setTimer(20_000, () => fired.push(['20 s', clock.now()]))
    const release = clock.hold()

    vi.advanceTimersByTime(3_000)
    expect(clock.now()).toBe(START)
    expect(fired).toEqual([])
    clock.advance(1_000)
    expect(fired).toEqual([['1 s', START + 1_000]])
    clock.setTimer(0, () => fired.push(['now', clock.now()]))
    vi.advanceTimersByTime(10)
    expect(fired).toHaveLength(1)
    clock.advance(0)
    expect(fired).toEqual([
      ['1 s', START + 1_000],
      ['now', START + 1_000],
    ])

    release()
    // 3,010 ms spent held: the clock follows the system's time again, 1 s ahead of it.
    expect(clock.now()).toBe(START + 3_010 + 1_000)
    expect(clock.offsetMs).toBe(1_000)
    expect(fired.at(-1)).toEqual(['4 s', START + 4_010])
    vi.advanceTimersByTime(16_000)
    expect(fired.at(-1)).toEqual(['20 s', START + 20_000])
    release()
    expect(clock.offsetMs).toBe(1_000)
  })

  it('goes on once every hold is let go', () => {
    const clock = new AdjustableClock()
    const outer = clock.hold()
    const inner = clock.hold()
    vi.advanceTimersByTime(1_000)
    inner()
    expect(clock.now()).toBe(START)
    outer()
    expect(clock.now()).toBe(START + 1_000)
  })
})
