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
/** How far back a calendar is searched for the transition in force, and ahead for the next one, at least. */
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

/**
 * The instant (ms since the epoch) a zone's wall clock shows `wall`: the earlier one when it shows it twice (the
 * clocks go back), the one they jump over it when they skip it (they go forward): so a later time of the day is
 * never an earlier instant.
 */
function instantOf(wall: number, timeZone: string): number {
  // With the zone's offsets a day before and a day after: the clocks change once at most between them.
  const candidates = [wall - DAY, wall + DAY].map(
    (near) => wall - (wallClock(near, timeZone) - near),
  )
  const exact = candidates.filter((at) => wallClock(at, timeZone) === wall)
  if (exact.length > 0) return Math.min(...exact)
  // Skipped: the first second whose wall clock is past `wall`, between the two candidates.
  let early = Math.min(...candidates)
  let late = Math.max(...candidates)
  while (late - early > 1_000) {
    const middle = early + Math.floor((late - early) / 2_000) * 1_000
    if (wallClock(middle, timeZone) >= wall) late = middle
    else early = middle
  }
  return late
}

/**
 * How many days a search from `wall` covers, `direction` ahead (1) or back (-1): a week and a day, and as far
 * beyond the farthest exception day that way (an exception day may be weeks away, or remove a week day's
 * transitions).
 */
function searchedDays(calendar: PilotCalendar, wall: number, direction: 1 | -1): number {
  const today = Math.floor(wall / DAY) * DAY
  let days = SEARCHED_DAYS
  for (const date of Object.keys(calendar.exceptions)) {
    if (!isCalendarDate(date)) continue
    const midnight = Date.UTC(
      Number(date.slice(0, 4)),
      Number(date.slice(4, 6)) - 1,
      Number(date.slice(6, 8)),
    )
    days = Math.max(days, ((midnight - today) / DAY) * direction + SEARCHED_DAYS)
  }
  return days
}

/** The transition in force at `now`, and when it began; undefined when the calendar has none. */
export function transitionInForce(
  calendar: PilotCalendar,
  now: number,
  timeZone = 'UTC',
): { transition: Transition; since: number } | undefined {
  const wall = wallClock(now, timeZone)
  const days = searchedDays(calendar, wall, -1)
  for (let back = 0; back < days; back++) {
    const { date, day, midnight } = localDay(wall - back * DAY)
    let last: { transition: Transition; since: number } | undefined
    for (const transition of transitionsOfDay(calendar, date, day)) {
      const since = instantOf(midnight + minutesOf(transition.time) * MINUTE, timeZone)
      if (since <= now) last = { transition, since }
    }
    if (last !== undefined) return last
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
  const days = searchedDays(calendar, wall, 1)
  for (let ahead = 0; ahead < days; ahead++) {
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
