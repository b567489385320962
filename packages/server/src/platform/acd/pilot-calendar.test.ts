/**
 * A pilot's calendar on the clock (pilot-calendar.ts): which transition is in force at an instant and when the
 * next comes, within a day, across midnight, carried over from the days before, exception days replacing their
 * week day, in a time zone whose clocks change; and the checks of a date and a time of day.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { PilotCalendar, Transition } from './contact-center.js'
import { isCalendarDate, isTimeOfDay, nextTransition, transitionInForce } from './pilot-calendar.js'

const MINUTE = 60_000
const open = (time: string, ruleNumber = 1): Transition => ({ time, ruleNumber, mode: 'normal' })
const closed = (time: string, ruleNumber = 1): Transition => ({ time, ruleNumber, mode: 'closed' })
const calendar = (change: Partial<PilotCalendar>): PilotCalendar => ({
  normal: {},
  exceptions: {},
  ...change,
})
/** An instant in UTC: 1970-01-01 was a Thursday, 1970-01-05 a Monday. */
const utc = (year: number, month: number, day: number, hours = 0, minutes = 0) =>
  Date.UTC(year, month - 1, day, hours, minutes)

describe('a calendar without transitions', () => {
  it('has none in force and none to come', () => {
    expect(transitionInForce(calendar({}), 0)).toBeUndefined()
    expect(nextTransition(calendar({}), 0)).toBeUndefined()
  })
})

describe('the transitions of a week day', () => {
  // Written out of order: the day's transitions take effect in time order.
  const thursdays = calendar({ normal: { thursday: [closed('18:00', 2), open('08:00')] } })

  it('during the day: the last one passed is in force, the next one comes', () => {
    expect(transitionInForce(thursdays, utc(1970, 1, 1, 12))).toEqual({
      transition: open('08:00'),
      since: utc(1970, 1, 1, 8),
    })
    expect(nextTransition(thursdays, utc(1970, 1, 1, 12))).toEqual({
      transition: closed('18:00', 2),
      at: utc(1970, 1, 1, 18),
    })
  })

  it('at the very instant of a transition: in force, and the next one is the one after', () => {
    expect(transitionInForce(thursdays, utc(1970, 1, 1, 8))?.since).toBe(utc(1970, 1, 1, 8))
    expect(transitionInForce(thursdays, utc(1970, 1, 1, 8) - 1)?.transition).toEqual(
      closed('18:00', 2),
    )
    expect(nextTransition(thursdays, utc(1970, 1, 1, 8))?.at).toBe(utc(1970, 1, 1, 18))
  })

  it('before the first of the day: the last of the days before is in force, a week ago here', () => {
    expect(transitionInForce(thursdays, utc(1970, 1, 1, 7))).toEqual({
      transition: closed('18:00', 2),
      since: utc(1969, 12, 25, 18),
    })
    expect(nextTransition(thursdays, utc(1970, 1, 1, 7))?.at).toBe(utc(1970, 1, 1, 8))
  })

  it('after the last of the day: the next one is a week later', () => {
    expect(nextTransition(thursdays, utc(1970, 1, 1, 20))).toEqual({
      transition: open('08:00'),
      at: utc(1970, 1, 8, 8),
    })
    expect(transitionInForce(thursdays, utc(1970, 1, 6, 12))?.since).toBe(utc(1970, 1, 1, 18))
  })
})

describe('across midnight', () => {
  // Closed from Monday 22:00 to Tuesday 06:00.
  const nights = calendar({ normal: { monday: [closed('22:00')], tuesday: [open('06:00')] } })

  it('the evening transition is in force after midnight, until the morning one', () => {
    expect(transitionInForce(nights, utc(1970, 1, 5, 23, 30))?.since).toBe(utc(1970, 1, 5, 22))
    expect(transitionInForce(nights, utc(1970, 1, 6, 1))).toEqual({
      transition: closed('22:00'),
      since: utc(1970, 1, 5, 22),
    })
    expect(nextTransition(nights, utc(1970, 1, 5, 23, 30))).toEqual({
      transition: open('06:00'),
      at: utc(1970, 1, 6, 6),
    })
  })

  it('the morning one holds through the days without transitions, until next Monday', () => {
    expect(transitionInForce(nights, utc(1970, 1, 9, 12))?.since).toBe(utc(1970, 1, 6, 6))
    expect(nextTransition(nights, utc(1970, 1, 9, 12))?.at).toBe(utc(1970, 1, 12, 22))
  })
})

describe('exception days', () => {
  const thursdays = calendar({ normal: { thursday: [open('08:00')] } })

  it('replace the transitions of their week day', () => {
    const holiday = { ...thursdays, exceptions: { '19700101': [closed('10:00', 2)] } }
    // 08:00 is not a transition that day: at 09:00, last week's 08:00 is still in force.
    expect(transitionInForce(holiday, utc(1970, 1, 1, 9))?.since).toBe(utc(1969, 12, 25, 8))
    expect(nextTransition(holiday, utc(1970, 1, 1, 7))).toEqual({
      transition: closed('10:00', 2),
      at: utc(1970, 1, 1, 10),
    })
    expect(transitionInForce(holiday, utc(1970, 1, 1, 11))?.transition).toEqual(closed('10:00', 2))
    // The Thursday after is a normal one again.
    expect(nextTransition(holiday, utc(1970, 1, 1, 11))?.at).toBe(utc(1970, 1, 8, 8))
  })

  it('an exception day with no transitions removes its week day ones: the next is the week after', () => {
    const skipped = { ...thursdays, exceptions: { '19700108': [] } }
    expect(nextTransition(skipped, utc(1970, 1, 1, 12))).toEqual({
      transition: open('08:00'),
      at: utc(1970, 1, 15, 8),
    })
  })

  it('an exception day weeks ahead comes in its time', () => {
    const later = calendar({ exceptions: { '19700125': [closed('09:00')] } })
    expect(nextTransition(later, utc(1970, 1, 1))).toEqual({
      transition: closed('09:00'),
      at: utc(1970, 1, 25, 9),
    })
  })

  it('the transition of an exception day weeks ago is still in force when none came since', () => {
    const earlier = calendar({ exceptions: { '19700101': [closed('09:00')] } })
    expect(transitionInForce(earlier, utc(1970, 1, 25))).toEqual({
      transition: closed('09:00'),
      since: utc(1970, 1, 1, 9),
    })
  })
})

describe('in a time zone whose clocks change (Europe/Paris)', () => {
  const PARIS = 'Europe/Paris'
  // Sunday 31 March 2024: at 02:00 CET (01:00Z) the clocks jump to 03:00 CEST.
  const mornings = calendar({ normal: { saturday: [open('08:00')], sunday: [closed('08:00')] } })

  it('a time of day is the local one: 08:00 is 07:00Z in winter, 06:00Z once in summer time', () => {
    expect(nextTransition(mornings, utc(2024, 3, 30), PARIS)).toEqual({
      transition: open('08:00'),
      at: utc(2024, 3, 30, 7),
    })
    expect(nextTransition(mornings, utc(2024, 3, 30, 12), PARIS)).toEqual({
      transition: closed('08:00'),
      at: utc(2024, 3, 31, 6),
    })
    expect(transitionInForce(mornings, utc(2024, 3, 31, 5, 59), PARIS)?.since).toBe(
      utc(2024, 3, 30, 7),
    )
    expect(transitionInForce(mornings, utc(2024, 3, 31, 6), PARIS)?.since).toBe(utc(2024, 3, 31, 6))
  })

  it('in UTC (no zone) the same calendar is at 08:00Z', () => {
    expect(nextTransition(mornings, utc(2024, 3, 30, 12))?.at).toBe(utc(2024, 3, 31, 8))
  })

  it('a time the clocks skip takes effect when they jump over it, and is in force from then', () => {
    const skipped = calendar({ normal: { sunday: [closed('02:30')] } })
    expect(nextTransition(skipped, utc(2024, 3, 31), PARIS)?.at).toBe(utc(2024, 3, 31, 1))
    expect(transitionInForce(skipped, utc(2024, 3, 31, 1, 10), PARIS)?.since).toBe(
      utc(2024, 3, 31, 1),
    )
    expect(transitionInForce(skipped, utc(2024, 3, 31, 1) - 1, PARIS)?.since).toBe(
      utc(2024, 3, 24, 1, 30),
    )
  })

  it('a time the clocks show twice (27 October 2024) takes effect the first time', () => {
    const twice = calendar({ normal: { sunday: [closed('02:30')] } })
    // 02:30 CEST is 00:30Z, 02:30 CET 01:30Z.
    expect(nextTransition(twice, utc(2024, 10, 27), PARIS)?.at).toBe(utc(2024, 10, 27, 0, 30))
    expect(nextTransition(twice, utc(2024, 10, 27, 0, 30), PARIS)?.at).toBe(utc(2024, 11, 3, 1, 30))
    expect(transitionInForce(twice, utc(2024, 10, 27, 0, 45), PARIS)?.since).toBe(
      utc(2024, 10, 27, 0, 30),
    )
  })

  /**
   * Whatever the instant around the changes of the clocks, the two agree: the transition in force began at or
   * before it, nothing changes until the next one, which is in force from its instant on.
   */
  it('transitionInForce and nextTransition agree at every instant around the changes', () => {
    const times = ['00:30', '01:59', '02:00', '02:10', '02:30', '02:59', '03:00', '03:10', '08:00']
    const days = ['saturday', 'sunday'] as const
    const transition = fc.record({
      time: fc.constantFrom(...times),
      ruleNumber: fc.integer({ min: 1, max: 3 }),
      mode: fc.constantFrom('normal' as const, 'closed' as const),
    })
    const around = fc.oneof(
      fc.integer({ min: utc(2024, 3, 30), max: utc(2024, 4, 1) }),
      fc.integer({ min: utc(2024, 10, 26), max: utc(2024, 10, 28) }),
    )
    fc.assert(
      fc.property(
        fc.record({
          saturday: fc.array(transition, { maxLength: 3 }),
          sunday: fc.array(transition, { minLength: 1, maxLength: 4 }),
        }),
        around,
        (normal, at) => {
          const cal = calendar({ normal: Object.fromEntries(days.map((d) => [d, normal[d]])) })
          const now = Math.floor(at / MINUTE) * MINUTE
          const inForce = transitionInForce(cal, now, PARIS)
          const next = nextTransition(cal, now, PARIS)
          expect(inForce).toBeDefined()
          expect(next).toBeDefined()
          if (inForce === undefined || next === undefined) return
          expect(inForce.since).toBeLessThanOrEqual(now)
          expect(next.at).toBeGreaterThan(now)
          expect(transitionInForce(cal, next.at - 1, PARIS)).toEqual(inForce)
          expect(transitionInForce(cal, next.at, PARIS)?.since).toBe(next.at)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('the checks of a calendar change', () => {
  it('isCalendarDate: a real day written yyyyMMdd', () => {
    for (const date of ['19700101', '20240229', '20241231']) expect(isCalendarDate(date)).toBe(true)
    for (const date of ['20230229', '20241301', '20240100', '1970011', '1970-01-01', 'monday'])
      expect(isCalendarDate(date), date).toBe(false)
  })

  it('isTimeOfDay: HH:mm from 00:00 to 23:59', () => {
    for (const time of ['00:00', '08:05', '23:59']) expect(isTimeOfDay(time)).toBe(true)
    for (const time of ['24:00', '7:30', '07:60', '07:30:00', '0730', ''])
      expect(isTimeOfDay(time), time).toBe(false)
  })
})
