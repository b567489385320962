/**
 * The requests of the memory journal (memory-journal-store.ts), kept field by field in columns, one slot of the
 * ring each, instead of as the objects the gateway made. An object the ring holds lives for as long as the ring
 * takes to come round (10,000 entries: seconds under load), longer than V8's young generation: every request's
 * entry was copied, promoted to the old generation and collected there, about a tenth of the authenticated read's
 * throughput (docs/performance.md, "auth-read"). The columns hold numbers, and strings the service holds anyway
 * (methods, operations, logins, session ids) or shares from a table of the paths seen: a request leaves nothing
 * new alive in the ring. Its entry is made again when it is read.
 */
import type {
  JournalError,
  JournalRecord,
  RequestDraft,
} from '../../platform/journal/journal-entry.js'

/** A request's entry as the gateway records it. */
type RequestRecord = RequestDraft & { id: number; at: number }

/** Paths shared as one string each, up to this many; the table starts over when it is full. */
const SHARED_PATHS = 1_024

export class JournalRequestColumns {
  private readonly methods: (string | undefined)[]
  private readonly paths: (string | undefined)[]
  private readonly queries: (string | undefined)[]
  private readonly operations: (string | undefined)[]
  /** NaN while the request is in progress. */
  private readonly statuses: Float64Array
  private readonly durations: Float64Array
  private readonly errors: (JournalError | undefined)[]
  private readonly users: (string | undefined)[]
  private readonly sessions: (string | undefined)[]
  private readonly calls: (string | undefined)[]
  private readonly subscriptions: (string | undefined)[]
  /** Each path seen, by itself: a request's path is a new string, which the ring would keep alive. */
  private readonly sharedPaths = new Map<string, string>()

  constructor(size: number) {
    this.methods = new Array(size)
    this.paths = new Array(size)
    this.queries = new Array(size)
    this.operations = new Array(size)
    this.statuses = new Float64Array(size)
    this.durations = new Float64Array(size)
    this.errors = new Array(size)
    this.users = new Array(size)
    this.sessions = new Array(size)
    this.calls = new Array(size)
    this.subscriptions = new Array(size)
  }

  /** Keeps `record` at `slot`: what it says of its arrival, and of its answer if it has one. */
  write(slot: number, record: RequestRecord): void {
    this.methods[slot] = record.method
    this.paths[slot] = this.shared(record.path)
    this.queries[slot] = record.query
    this.operations[slot] = record.operation
    this.answer(slot, record)
  }

  /** Keeps what `record` says of its answer at `slot` (nothing yet while it is in progress). */
  answer(slot: number, record: RequestRecord): void {
    this.statuses[slot] = record.status ?? Number.NaN
    this.durations[slot] = record.durationMs ?? Number.NaN
    this.errors[slot] = record.error
    this.users[slot] = record.user
    this.sessions[slot] = record.session
    this.calls[slot] = record.call
    this.subscriptions[slot] = record.subscription
  }

  /** The entry kept at `slot`, numbered `id` and recorded at `at`: only the fields it has. */
  record(slot: number, id: number, at: number): JournalRecord {
    const record: RequestRecord = {
      id,
      at,
      kind: 'request',
      method: this.methods[slot] ?? '',
      path: this.paths[slot] ?? '',
    }
    const query = this.queries[slot]
    if (query !== undefined) record.query = query
    const operation = this.operations[slot]
    if (operation !== undefined) record.operation = operation
    const status = this.statuses[slot] ?? Number.NaN
    if (!Number.isNaN(status)) record.status = status
    const durationMs = this.durations[slot] ?? Number.NaN
    if (!Number.isNaN(durationMs)) record.durationMs = durationMs
    const error = this.errors[slot]
    if (error !== undefined) record.error = error
    const user = this.users[slot]
    if (user !== undefined) record.user = user
    const session = this.sessions[slot]
    if (session !== undefined) record.session = session
    const call = this.calls[slot]
    if (call !== undefined) record.call = call
    const subscription = this.subscriptions[slot]
    if (subscription !== undefined) record.subscription = subscription
    return record
  }

  /** Lets go of every string and error kept. */
  clear(): void {
    for (const column of [
      this.methods,
      this.paths,
      this.queries,
      this.operations,
      this.errors,
      this.users,
      this.sessions,
      this.calls,
      this.subscriptions,
    ])
      column.fill(undefined)
    this.sharedPaths.clear()
  }

  /** The one string kept for `path`. */
  private shared(path: string): string {
    const kept = this.sharedPaths.get(path)
    if (kept !== undefined) return kept
    if (this.sharedPaths.size >= SHARED_PATHS) this.sharedPaths.clear()
    this.sharedPaths.set(path, path)
    return path
  }
}
