/**
 * The journal's filters (docs/journal.md, "Reading"): read from a query string (`GET /journal`, its stream) or
 * from a verification's patterns, checked field by field (a PlatformError BAD_PARAMETER naming the field), and
 * matched against entries. One set of rules for the routes, the stream and the verification.
 */
import { PlatformError } from '../platform-error.js'
import { JOURNAL_KINDS, type JournalKind, type JournalRecord } from './journal-entry.js'

/** What entries a filter keeps; every field given must hold. */
export interface JournalFilter {
  kinds?: ReadonlySet<JournalKind>
  user?: string
  call?: string
  subscription?: string
  session?: string
  operation?: string
  /** An event's name. */
  event?: string
  method?: string
  path?: string
  /** The error's RestErrorInfo type. */
  error?: string
  /** A status, or a class of them: 404 is [404, 404], 4xx [400, 499]. */
  status?: readonly [number, number]
  /** Times of the service's clock, milliseconds, both included. */
  since?: number
  until?: number
  /** Entry ids, both excluded. */
  after?: number
  before?: number
}

/** The most entries one page holds, and how many it holds when the query does not say. */
export const MAX_LIMIT = 1000
export const DEFAULT_LIMIT = 100

/** Which end of the journal a page starts from. */
export type JournalOrder = 'newest' | 'oldest'

/** A read of the journal: its filter, how many entries at most, from which end. */
export interface JournalQuery {
  filter: JournalFilter
  limit: number
  order: JournalOrder
}

/** The string fields a filter and a pattern compare as they are. */
export const TEXT_FIELDS = [
  'user',
  'call',
  'subscription',
  'session',
  'operation',
  'event',
  'method',
  'path',
] as const

/** The filters of the journal: what an entry must hold (`GET /journal`, a verification's `within`, the CLI). */
export const FILTER_FIELDS = [
  'kind',
  ...TEXT_FIELDS,
  'error',
  'status',
  'since',
  'until',
  'after',
  'before',
] as const

/** The names `GET /journal` takes in its query: the filters, and how many entries in which order. */
export const QUERY_FIELDS = [...FILTER_FIELDS, 'limit', 'order'] as const

const bad = (field: string, message: string) =>
  new PlatformError('BAD_PARAMETER', `${field}: ${message}`)

/** One value of a query or pattern field: a string (or a number); a list for a repeated query parameter. */
function single(field: string, value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string' || value === '')
    throw bad(field, Array.isArray(value) ? 'given more than once' : 'a non-empty string')
  return value
}

/** `kind=event,request` or `kind=event&kind=request`. */
function kindsOf(value: unknown): Set<JournalKind> {
  const words = (Array.isArray(value) ? value : [value])
    .flatMap((one) => single('kind', one).split(','))
    .map((word) => word.trim())
  const kinds = new Set<JournalKind>()
  for (const word of words) {
    if (!(JOURNAL_KINDS as readonly string[]).includes(word))
      throw bad('kind', `'${word}' is not one of ${JOURNAL_KINDS.join(', ')}`)
    kinds.add(word as JournalKind)
  }
  return kinds
}

/** `404`, or `4xx` for a class. */
function statusOf(value: unknown): [number, number] {
  const text = single('status', value)
  const exact = /^[1-5]\d\d$/.test(text)
  if (exact) return [Number(text), Number(text)]
  const range = /^([1-5])xx$/i.exec(text)
  if (range?.[1]) return [Number(range[1]) * 100, Number(range[1]) * 100 + 99]
  throw bad('status', `'${text}' is not an HTTP status (404) nor a class of them (4xx)`)
}

/** An ISO date-time, as milliseconds. */
function timeOf(field: string, value: unknown): number {
  const text = single(field, value)
  const ms = /^\d{4}-\d\d-\d\d/.test(text) ? Date.parse(text) : Number.NaN
  if (Number.isNaN(ms))
    throw bad(field, `'${text}' is not an ISO date-time such as 2026-11-24T10:15:00Z`)
  return ms
}

/** A whole number from `min` to `max`. */
function integerOf(field: string, value: unknown, min: number, max: number): number {
  const text = single(field, value)
  const number = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN
  if (!(number >= min && number <= max))
    throw bad(field, `'${text}' is not a whole number from ${min} to ${max}`)
  return number
}

/**
 * The filter that `fields` describe, checked; `allowed` are the names it may use (others are refused, naming
 * them). Values are strings (query parameters) or, in a JSON pattern, strings and numbers.
 */
export function filterOf(
  fields: Readonly<Record<string, unknown>>,
  allowed: readonly string[] = QUERY_FIELDS,
): JournalFilter {
  const unknown = Object.keys(fields).filter((name) => !allowed.includes(name))
  if (unknown.length > 0)
    throw bad(unknown.join(', '), `not a known field (known fields: ${allowed.join(', ')})`)
  const filter: JournalFilter = {}
  const given = (name: string) => fields[name] !== undefined
  if (given('kind')) filter.kinds = kindsOf(fields['kind'])
  for (const name of TEXT_FIELDS) if (given(name)) filter[name] = single(name, fields[name])
  if (given('error')) filter.error = single('error', fields['error'])
  if (given('status')) filter.status = statusOf(fields['status'])
  if (given('since')) filter.since = timeOf('since', fields['since'])
  if (given('until')) filter.until = timeOf('until', fields['until'])
  if (given('after')) filter.after = integerOf('after', fields['after'], 0, Number.MAX_SAFE_INTEGER)
  if (given('before'))
    filter.before = integerOf('before', fields['before'], 1, Number.MAX_SAFE_INTEGER)
  if (filter.since !== undefined && filter.until !== undefined && filter.since > filter.until)
    throw bad('until', 'before since: no entry can match')
  return filter
}

/** The query `GET /journal` describes: its filter, limit (DEFAULT_LIMIT) and order (newest first). */
export function queryOf(fields: Readonly<Record<string, unknown>>): JournalQuery {
  const { limit, order, ...rest } = fields
  const filter = filterOf(rest)
  const chosen = order === undefined ? 'newest' : single('order', order)
  if (chosen !== 'newest' && chosen !== 'oldest')
    throw bad('order', `'${chosen}' is not one of newest, oldest`)
  return {
    filter,
    limit: limit === undefined ? DEFAULT_LIMIT : integerOf('limit', limit, 1, MAX_LIMIT),
    order: chosen,
  }
}

/** Whether `record` passes every field of `filter`. */
export function matches(filter: JournalFilter, record: JournalRecord): boolean {
  return mismatches(filter, record, true).length === 0
}

/**
 * The fields of `filter` that `record` does not pass, each said as `field: expected x, got y`; with `first`,
 * only the first found (a plain match).
 */
export function mismatches(filter: JournalFilter, record: JournalRecord, first = false): string[] {
  const found: string[] = []
  const fields = record as unknown as Readonly<Record<string, unknown>>
  const differ = (field: string, expected: unknown, got: unknown) => {
    found.push(
      `${field}: expected ${String(expected)}, got ${got === undefined ? 'none' : String(got)}`,
    )
    return first
  }
  if (filter.kinds !== undefined && !filter.kinds.has(record.kind))
    if (differ('kind', [...filter.kinds].join(' or '), record.kind)) return found
  if (filter.after !== undefined && !(record.id > filter.after))
    if (differ('after', `an id after ${filter.after}`, record.id)) return found
  if (filter.before !== undefined && !(record.id < filter.before))
    if (differ('before', `an id before ${filter.before}`, record.id)) return found
  if (filter.since !== undefined && record.at < filter.since)
    if (differ('since', new Date(filter.since).toISOString(), new Date(record.at).toISOString()))
      return found
  if (filter.until !== undefined && record.at > filter.until)
    if (differ('until', new Date(filter.until).toISOString(), new Date(record.at).toISOString()))
      return found
  for (const name of TEXT_FIELDS) {
    const expected = filter[name]
    if (expected !== undefined && fields[name] !== expected)
      if (differ(name, expected, fields[name])) return found
  }
  if (filter.error !== undefined) {
    const type = 'error' in record ? record.error?.type : undefined
    if (type !== filter.error && differ('error', filter.error, type)) return found
  }
  if (filter.status !== undefined) {
    const status = 'status' in record ? record.status : undefined
    const [low, high] = filter.status
    if (status === undefined || status < low || status > high)
      if (differ('status', low === high ? low : `${String(low).charAt(0)}xx`, status)) return found
  }
  return found
}
