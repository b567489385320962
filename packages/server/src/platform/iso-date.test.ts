/** IsoDateFormatter writes what Date#toISOString writes, for every kind of date. */
import { describe, expect, it } from 'vitest'
import { IsoDateFormatter } from './iso-date.js'

describe('IsoDateFormatter', () => {
  it('writes what toISOString writes: around the epoch, day and year boundaries, extended years, fractions', () => {
    const formatter = new IsoDateFormatter()
    const dates = [
      0,
      -1,
      1,
      999,
      1_000,
      59_999,
      86_399_999,
      86_400_000,
      -86_400_000,
      -86_400_001,
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1),
      Date.UTC(2024, 1, 29, 12),
      Date.UTC(10_000, 0, 1),
      Date.UTC(-1, 5, 15, 3, 4, 5, 6),
      8.64e15,
      -8.64e15,
      1_795_546_172_805.7,
      -0.5,
    ]
    for (const ms of dates)
      expect(formatter.format(ms), String(ms)).toBe(new Date(ms).toISOString())
  })

  it('writes what toISOString writes for dates at random, in order and out of order', () => {
    const formatter = new IsoDateFormatter()
    let seed = 42
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed / 2_147_483_648
    }
    let now = Date.UTC(2026, 10, 24)
    for (let i = 0; i < 20_000; i++) {
      now += Math.floor(random() * 5_000_000)
      const ms = i % 3 === 0 ? Math.floor((random() - 0.5) * 1.7e15) : now
      expect(formatter.format(ms)).toBe(new Date(ms).toISOString())
    }
  })

  it('throws a RangeError for an invalid date, as toISOString does', () => {
    const formatter = new IsoDateFormatter()
    for (const ms of [Number.NaN, 8.64e15 + 1, -8.64e15 - 1, Number.POSITIVE_INFINITY])
      expect(() => formatter.format(ms), String(ms)).toThrow(RangeError)
  })
})
