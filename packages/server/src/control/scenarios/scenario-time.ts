/** Durations as a scenario file writes them (`3s`, `500ms`, `2m`, or seconds) and times as a result shows them. */
import { DURATION_PATTERN } from './scenario-document.js'

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 }
const DURATION = new RegExp(DURATION_PATTERN)

/** The milliseconds of a duration, rounded to the millisecond; undefined when it is not one. */
export function durationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return value >= 0 ? Math.round(value * 1000) : undefined
  if (typeof value !== 'string' || !DURATION.test(value)) return undefined
  const unit = value.endsWith('ms') ? 'ms' : value.slice(-1)
  return Math.round(Number.parseFloat(value) * (UNIT_MS[unit] ?? 1000))
}

/** Milliseconds as seconds, for the result (`12.5`). */
export function seconds(ms: number): number {
  return ms / 1000
}

/** Milliseconds as the timeline prints them: `12.5s`. */
export function formatTime(ms: number): string {
  return `${seconds(ms)}s`
}
