/**
 * A pilot's calendar on the platform clock (docs/contact-center.md, "Calendars"): which transition is in force
 * at an instant, and when the next one comes. Times of day are in the contact center's time zone (UTC when it
 * names none); an exception day (yyyyMMdd) replaces the normal day of its week day; a day without transitions
 * keeps the one in force at the end of the day before.
 */
import type { PilotCalendar, Transition, WeekDay } from './contact-center.js'
import { WEEK_DAYS } from './contact-center.js'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
/** How far back a calendar is searched for the transition in force, and ahead for the next one. */
const SEARCHED_DAYS = 8

const formatters = new Map<string, Intl.DateTimeFormat>()

/** A formatter of the zone's wall clock, made once per zone. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/** The wall clock of `timeZone` at `at`, as if it were UTC: the zone's offset is `wallClock - at`. */
function wallClock(at: number, timeZone: string): number {
  const parts: Record<string, number> = {}
  for (const part of formatterOf(timeZone).formatToParts(at))
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  return Date.UTC(
    parts['year'] ?? 1970,
    (parts['month'] ?? 1) - 1,
    parts['day'] ?? 1,
    parts['hour'] ?? 0,
    parts['minute'] ?? 0,
    parts['second'] ?? 0,
  )
}

/** Whether `timeZone` is a zone this runtime knows (the directory file's check). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone)
    return true
  } catch {
    return false
  }
}

/** A local day: its date as yyyyMMdd, its week day, and its midnight as a wall clock (ms, as if UTC). */
interface LocalDay {
  date: string
  day: WeekDay
  midnight: number
}

function localDay(wall: number): LocalDay {
  const midnight = Math.floor(wall / DAY) * DAY
  const date = new Date(midnight)
  const yyyyMMdd = `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}${String(date.getUTCDate()).padStart(2, '0')}`
  // getUTCDay: 0 is Sunday; WEEK_DAYS starts on Monday.
  const day = WEEK_DAYS[(date.getUTCDay() + 6) % 7] as WeekDay
  return { date: yyyyMMdd, day, midnight }
}

/** The minutes after midnight of an HH:mm time. */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number)
  return (hours ?? 0) * 60 + (minutes ?? 0)
}

/** The transitions of a local day, in time order: its exception day's if it has one, else its week day's. */
export function transitionsOfDay(
  calendar: PilotCalendar,
  date: string,
  day: WeekDay,
): Transition[] {
  const list = calendar.exceptions[date] ?? calendar.normal[day] ?? []
  return [...list].sort((a, b) => minutesOf(a.time) - minutesOf(b.time))
}

/** The instant (ms since the epoch) a zone's wall clock shows `wall`; the earlier one when it shows it twice. */
function instantOf(wall: number, timeZone: string): number {
  let at = wall - (wallClock(wall, timeZone) - wall)
  at = wall - (wallClock(at, timeZone) - at)
  return at
}

/** The transition in force at `now`, and when it began; undefined when the calendar has none. */
export function transitionInForce(
  calendar: PilotCalendar,
  now: number,
  timeZone = 'UTC',
): { transition: Transition; since: number } | undefined {
  const wall = wallClock(now, timeZone)
  for (let back = 0; back < SEARCHED_DAYS; back++) {
    const { date, day, midnight } = localDay(wall - back * DAY)
    const due = transitionsOfDay(calendar, date, day).filter(
      (transition) => midnight + minutesOf(transition.time) * MINUTE <= wall,
    )
    const last = due[due.length - 1]
    if (last !== undefined)
      return {
        transition: last,
        since: instantOf(midnight + minutesOf(last.time) * MINUTE, timeZone),
      }
  }
  return undefined
}

/** The next transition after `now` and its instant; undefined when none comes within a week. */
export function nextTransition(
  calendar: PilotCalendar,
  now: number,
  timeZone = 'UTC',
): { transition: Transition; at: number } | undefined {
  const wall = wallClock(now, timeZone)
  for (let ahead = 0; ahead < SEARCHED_DAYS; ahead++) {
    const { date, day, midnight } = localDay(wall + ahead * DAY)
    for (const transition of transitionsOfDay(calendar, date, day)) {
      const at = instantOf(midnight + minutesOf(transition.time) * MINUTE, timeZone)
      if (at > now) return { transition, at }
    }
  }
  return undefined
}

/** Whether `date` is a real day written yyyyMMdd (an exception day's key). */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{8}$/.test(date)) return false
  const year = Number(date.slice(0, 4))
  const month = Number(date.slice(4, 6))
  const day = Number(date.slice(6, 8))
  const made = new Date(Date.UTC(year, month - 1, day))
  return (
    made.getUTCFullYear() === year && made.getUTCMonth() === month - 1 && made.getUTCDate() === day
  )
}

/** Whether `time` is a time of day HH:mm. */
export function isTimeOfDay(time: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(time)
}
