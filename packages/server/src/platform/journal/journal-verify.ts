/**
 * WireMock-style verification of the journal (docs/journal.md, "Verification"): an ordered list of patterns,
 * each a partial entry, matched in that order against the entries (oldest first) within a window; each pattern
 * must match an entry after the one the previous pattern matched. A failure names the first pattern that found
 * no entry, and the entries closest to it, each with how it differs.
 */
import { PlatformError } from '../platform-error.js'
import type { Journal } from './journal.js'
import { type JournalEntry, type JournalRecord, shownEntry } from './journal-entry.js'
import {
  FILTER_FIELDS,
  filterOf,
  type JournalFilter,
  matches,
  mismatches,
  TEXT_FIELDS,
} from './journal-filter.js'

/** The fields a pattern may give: an entry's. */
export const PATTERN_FIELDS = ['kind', ...TEXT_FIELDS, 'error', 'status'] as const
/** The fields of the window (`within`): a query's filter. */
const WITHIN_FIELDS = FILTER_FIELDS
/** The most patterns one verification takes. */
export const MAX_PATTERNS = 100
/** The most near candidates a failure shows. */
const CANDIDATES = 3

/** A verification as asked: its patterns as given and as filters, and its window. */
export interface Verification {
  patterns: { given: Record<string, unknown>; filter: JournalFilter }[]
  within: JournalFilter
}

/** An entry close to the pattern that failed, and how it differs. */
export interface Candidate {
  entry: JournalEntry
  differences: string[]
}

/** What a verification answers. */
export type Verdict =
  | { matched: true; entries: JournalEntry[] }
  | {
      matched: false
      /** The index of the first pattern that matched no entry, from 0. */
      failedAt: number
      pattern: Record<string, unknown>
      /** The entries the patterns before it matched. */
      entries: JournalEntry[]
      /** Up to three entries of the window closest to the pattern, the closest first. */
      candidates: Candidate[]
    }

const bad = (message: string) => new PlatformError('BAD_PARAMETER', message)

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The verification `body` asks for: `{"patterns": [{...}, ...], "within": {...}}`, checked. */
export function verificationOf(body: unknown): Verification {
  if (!isObject(body)) throw bad('The body must be a JSON object with patterns')
  const unknown = Object.keys(body).filter((key) => key !== 'patterns' && key !== 'within')
  if (unknown.length > 0)
    throw bad(`${unknown.join(', ')}: not a known field (known fields: patterns, within)`)
  const { patterns, within } = body
  if (!Array.isArray(patterns) || patterns.length === 0 || patterns.length > MAX_PATTERNS)
    throw bad(`patterns: required, a list of 1 to ${MAX_PATTERNS} patterns`)
  return {
    patterns: patterns.map((given: unknown, index) => {
      const where = `patterns[${index}]`
      if (!isObject(given) || Object.keys(given).length === 0)
        throw bad(`${where}: an object with at least one of ${PATTERN_FIELDS.join(', ')}`)
      return { given, filter: prefixed(where, () => filterOf(given, PATTERN_FIELDS)) }
    }),
    within:
      within === undefined
        ? {}
        : isObject(within)
          ? prefixed('within', () => filterOf(within, WITHIN_FIELDS))
          : (() => {
              throw bad('within: an object of filters (since, until, after, user...)')
            })(),
  }
}

/** Runs `check`, a field's refusal named under `where` (`patterns[1].operation: ...`). */
function prefixed<T>(where: string, check: () => T): T {
  try {
    return check()
  } catch (error) {
    if (error instanceof PlatformError) throw bad(`${where}.${error.message}`)
    throw error
  }
}

/** Matches the verification's patterns in order against the journal's entries within its window. */
export async function verify(journal: Journal, verification: Verification): Promise<Verdict> {
  const records = await journal.all(verification.within)
  const found: JournalRecord[] = []
  let from = 0
  for (const [index, { given, filter }] of verification.patterns.entries()) {
    const at = records.findIndex((record, position) => position >= from && matches(filter, record))
    const record = records[at]
    if (record === undefined)
      return {
        matched: false,
        failedAt: index,
        pattern: given,
        entries: found.map(shownEntry),
        candidates: candidates(records, filter, found.at(-1)),
      }
    found.push(record)
    from = at + 1
  }
  return { matched: true, entries: found.map(shownEntry) }
}

/**
 * The entries that differ least from `filter` (agreeing with at least one of its fields), the closest first, the
 * earliest among equals; an entry that matches it whole but comes before `previous` (the entry the previous
 * pattern matched) is said to be out of order.
 */
function candidates(
  records: readonly JournalRecord[],
  filter: JournalFilter,
  previous: JournalRecord | undefined,
): Candidate[] {
  const fields = Object.values(filter).filter((value) => value !== undefined).length
  return records
    .map((record) => {
      const differences = mismatches(filter, record)
      const early = differences.length === 0 && previous !== undefined
      if (early)
        differences.push(
          `order: it comes before entry ${previous.id}, which the previous pattern matched`,
        )
      return { record, differences, close: early || differences.length < fields }
    })
    .filter(({ differences, close }) => close && differences.length > 0)
    .sort((a, b) => a.differences.length - b.differences.length || a.record.id - b.record.id)
    .slice(0, CANDIDATES)
    .map(({ record, differences }) => ({ entry: shownEntry(record), differences }))
}
