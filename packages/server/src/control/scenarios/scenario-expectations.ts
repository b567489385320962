/**
 * Judges a run against what its file expects (docs/scenarios.md, "Expectations"): each user's events as an
 * ordered subsequence of what the user received, partially matched; the records written in each user's log
 * during the run, exactly and in order; each user's event summary at the end. A failure says what came instead.
 */

import { formatDirectoryPath } from '../../platform/directory/directory-problem.js'
import { isRecord } from '../../platform/directory/schema-problems.js'
import type { CallNames } from './call-names.js'
import { eventLine, recordLine } from './event-lines.js'
import { describeMismatch, type Mismatch, mismatches, show } from './scenario-matching.js'
import type { DeliveredEvent, ExpectationOutcome } from './scenario-result.js'
import { durationMs, formatTime } from './scenario-time.js'

/** An expected event, read from its file form. */
interface ExpectedEvent {
  name: string
  fields: unknown
  atMs?: number
}

function expectedEvent(item: unknown): ExpectedEvent {
  if (typeof item === 'string') return { name: item, fields: undefined }
  const record = isRecord(item) ? item : {}
  const name = Object.keys(record).find((key) => key !== 'at') ?? ''
  const atMs = record['at'] === undefined ? undefined : durationMs(record['at'])
  return { name, fields: record[name], ...(atMs !== undefined && { atMs }) }
}

/** The differences of one delivered event from an expected one (its time first). */
function eventMismatches(
  expected: ExpectedEvent,
  delivered: DeliveredEvent,
  calls: CallNames,
): Mismatch[] {
  const atMs = Math.round(delivered.at * 1000)
  const time: Mismatch[] =
    expected.atMs !== undefined && expected.atMs !== atMs
      ? [{ path: 'at', expected: formatTime(expected.atMs), actual: formatTime(atMs) }]
      : []
  return [...time, ...mismatches(expected.fields ?? null, delivered.event, calls).filter(notNull)]
}

/** `fields: null` (an event named with nothing under it) asks nothing of the event. */
function notNull(mismatch: Mismatch): boolean {
  return !(mismatch.path === '' && mismatch.expected === null)
}

/** The expected events of `user` against those it received. */
export function judgeEvents(
  user: string,
  items: readonly unknown[],
  received: readonly DeliveredEvent[],
  calls: CallNames,
): ExpectationOutcome {
  const expectation = formatDirectoryPath(['expect', 'events', user])
  const line = (delivered: DeliveredEvent) =>
    `${eventLine(delivered.event as Record<string, unknown>, calls)} at ${formatTime(Math.round(delivered.at * 1000))}`
  let from = 0
  const matched: string[] = []
  for (const [index, item] of items.entries()) {
    const expected = expectedEvent(item)
    const candidates = received
      .map((delivered, position) => ({ delivered, position }))
      .slice(from)
      .filter(
        ({ delivered }) => (delivered.event as { eventName?: unknown }).eventName === expected.name,
      )
    const found = candidates.find(
      ({ delivered }) => eventMismatches(expected, delivered, calls).length === 0,
    )
    if (found !== undefined) {
      matched.push(line(found.delivered))
      from = found.position + 1
      continue
    }
    const after = matched.length === 0 ? '' : ` after ${matched.at(-1)}`
    const closest = candidates
      .map(({ delivered }) => ({
        delivered,
        differences: eventMismatches(expected, delivered, calls),
      }))
      .sort((a, b) => a.differences.length - b.differences.length)[0]
    const instead =
      closest === undefined
        ? `; ${user} received no ${expected.name}${matched.length === 0 ? '' : ' after it'}${
            received.length > from
              ? `, but: ${received
                  .slice(from, from + 6)
                  .map(line)
                  .join('; ')}`
              : ''
          }`
        : `; the closest, ${line(closest.delivered)}: ${closest.differences.slice(0, 3).map(describeMismatch).join('; ')}`
    return {
      expectation,
      passed: false,
      detail: `[${index}] ${expected.name}${expected.fields ? ` ${show(expected.fields)}` : ''} not received${after}${instead}`,
    }
  }
  return {
    expectation,
    passed: true,
    detail: `${items.length} event${items.length === 1 ? '' : 's'} in order: ${matched.join('; ')}`,
  }
}

/** The records written in `user`'s log during the run (oldest first) against those expected, exactly. */
export function judgeRecords(
  user: string,
  expected: readonly unknown[],
  written: readonly unknown[],
  calls: CallNames,
): ExpectationOutcome {
  const expectation = formatDirectoryPath(['expect', 'comlog', user])
  if (written.length !== expected.length)
    return {
      expectation,
      passed: false,
      detail: `${expected.length} record${expected.length === 1 ? '' : 's'} expected, ${written.length} written during the run${written.length === 0 ? '' : `: ${written.map((record) => recordLine(record, user, calls)).join('; ')}`}`,
    }
  for (const [index, record] of expected.entries()) {
    const differences = mismatches(record, written[index], calls)
    if (differences.length > 0)
      return {
        expectation,
        passed: false,
        detail: `[${index}]: ${differences.slice(0, 3).map(describeMismatch).join('; ')}`,
      }
  }
  return {
    expectation,
    passed: true,
    detail: `${written.length} record${written.length === 1 ? '' : 's'}: ${written.map((record) => recordLine(record, user, calls)).join('; ')}`,
  }
}

/** The user's event summary at the end against the counters expected. */
export function judgeSummary(
  user: string,
  expected: unknown,
  summary: unknown,
  calls: CallNames,
): ExpectationOutcome {
  const expectation = formatDirectoryPath(['expect', 'eventSummary', user])
  const differences = mismatches(expected, summary, calls)
  return differences.length === 0
    ? { expectation, passed: true, detail: show(summary) }
    : { expectation, passed: false, detail: differences.map(describeMismatch).join('; ') }
}
