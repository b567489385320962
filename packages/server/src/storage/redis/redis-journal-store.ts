/**
 * The journal on Redis (the cluster mode; docs/journal.md): one stream every node appends to and reads, so
 * that the control plane of any node shows every node's entries. An entry's stream id is `0-{id}`, its id
 * counted by a key beside the stream in the script that appends, so ids grow across nodes and go on after a
 * clear; the stream is trimmed to about the journal's size (`MAXLEN ~`, Redis trims whole nodes of entries).
 * A node gathers the entries of one turn of the event loop and appends them in one script call; a request in
 * progress holds the entries recorded after it on this node until it is answered (a second at most), so that it
 * comes before the events its handling published. One still in progress then (a chunk channel open) is written
 * without its answer, which is kept when it comes in `journal:completed` (entry id → the answered entry), read
 * with it: stream entries cannot change. Live readers block in XREAD, each on a connection of its own; they get
 * such an entry as written, without its answer.
 */
import type { Redis } from 'ioredis'
import type { PlatformEvent } from '../../platform/events.js'
import { eventRecord, type JournalRecord } from '../../platform/journal/journal-entry.js'
import type {
  JournalFollower,
  JournalPage,
  JournalRead,
  JournalStore,
} from '../../platform/journal/journal-store.js'
import { RedisScript } from './redis-script.js'

const STREAM = 'journal'
const LAST_ID = 'journal:last'
/** The answered entries of requests written while in progress, by entry id, and their ids by score. */
const COMPLETED = 'journal:completed'
const COMPLETED_IDS = 'journal:completed-ids'
/** Entries one script call appends at most, and one read fetches. */
const BATCH = 500
/** How long a request in progress holds the records after it before it is written without its answer. */
const PENDING_MS = 1_000
/** Longest time one live read blocks before it is sent again (a connection silently lost is found by then). */
const BLOCK_MS = 5_000

/** KEYS: the stream, the last id given. ARGV: the stream's size, then the entries' JSON. */
const APPEND = new RedisScript(`
local count = #ARGV - 1
local id = redis.call('INCRBY', KEYS[2], count) - count
for i = 2, #ARGV do
  id = id + 1
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '0-' .. id, 'e', ARGV[i])
end
return id
`)

/**
 * KEYS: the completions, their ids, the stream. ARGV: an entry's id, the entry answered. Keeps it, and drops the
 * completions of entries the stream no longer holds (trimmed, or cleared).
 */
const COMPLETE = new RedisScript(`
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[1])
local first = redis.call('XRANGE', KEYS[3], '-', '+', 'COUNT', 1)[1]
local oldest = first and tonumber(string.match(first[1], '%-(%d+)$')) or (tonumber(ARGV[1]) + 1)
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. oldest)
for _, id in ipairs(gone) do redis.call('HDEL', KEYS[1], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. oldest)
return #gone
`)

type StreamEntry = [id: string, fields: string[]]

/** What the store needs besides its client. */
export interface RedisJournalStoreOptions {
  /** Entries kept, about (JOURNAL_SIZE). */
  size: number
  /** How long a request in progress holds the records after it (PENDING_MS by default; tests). */
  pendingMs?: number
  /** Told of appends that failed (their entries are lost) and of live reads that failed. */
  onError: (error: unknown) => void
}

/** A record waiting to be written: a pending one (a request in progress) until complete, or this old. */
interface Waiting {
  record: JournalRecord
  pending: boolean
  since: number
}

export class RedisJournalStore implements JournalStore {
  /** Records in the order appended; written in that order, up to the first still pending. */
  private waiting: Waiting[] = []
  private readonly pendingOf = new WeakMap<JournalRecord, Waiting>()
  /** Requests written while in progress: their entry ids, once the append that wrote them answered. */
  private readonly writtenEarly = new WeakMap<JournalRecord, Promise<number | undefined>>()
  private scheduled = false
  private retry: NodeJS.Timeout | undefined
  private inFlight: Promise<void> = Promise.resolve()

  constructor(
    private readonly client: Redis,
    private readonly options: RedisJournalStoreOptions,
  ) {}

  append(record: JournalRecord, pending = false): void {
    const waiting = { record, pending, since: pending ? Date.now() : 0 }
    this.waiting.push(waiting)
    if (pending) this.pendingOf.set(record, waiting)
    else this.schedule()
  }

  appendEvent(
    at: number,
    subscription: string,
    user: string,
    source: PlatformEvent | undefined,
    json: string,
    sequence: number,
  ): void {
    this.append(eventRecord(0, at, subscription, user, source, json, sequence))
  }

  complete(record: JournalRecord): void {
    const waiting = this.pendingOf.get(record)
    if (waiting !== undefined) {
      this.pendingOf.delete(record)
      waiting.pending = false
      this.schedule()
      return
    }
    const written = this.writtenEarly.get(record)
    if (written === undefined) return
    this.writtenEarly.delete(record)
    const answered = JSON.stringify(record)
    const previous = this.inFlight
    this.inFlight = written
      .then(async (id) => {
        if (id !== undefined)
          await COMPLETE.run(this.client, [COMPLETED, COMPLETED_IDS, STREAM], [id, answered])
      })
      .then(
        () => previous,
        async (error: unknown) => {
          await previous
          this.options.onError(
            new Error('journal: the answer of a request in progress not recorded (lost)', {
              cause: error,
            }),
          )
        },
      )
  }

  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.flush())
  }

  async read(request: JournalRead): Promise<JournalPage> {
    await this.settled()
    const { match, limit, order } = request
    const records: JournalRecord[] = []
    // Exclusive bounds: `(0-5` is after 5.
    let low = request.after === undefined ? '-' : `(0-${request.after}`
    let high = request.before === undefined ? '+' : `(0-${request.before}`
    for (;;) {
      const page = (
        order === 'newest'
          ? await this.client.xrevrange(STREAM, high, low, 'COUNT', BATCH)
          : await this.client.xrange(STREAM, low, high, 'COUNT', BATCH)
      ) as StreamEntry[]
      for (const record of await this.answered(page.map(recordOf))) {
        if (!match(record)) continue
        if (records.length === limit) return { records, more: true }
        records.push(record)
      }
      const last = page.at(-1)
      if (last === undefined || page.length < BATCH) return { records, more: false }
      if (order === 'newest') high = `(${last[0]}`
      else low = `(${last[0]}`
    }
  }

  async clear(): Promise<void> {
    await this.settled()
    await this.client.del(STREAM, COMPLETED, COMPLETED_IDS)
  }

  /** `records`, those of requests written in progress replaced by their answered entries where kept. */
  private async answered(records: JournalRecord[]): Promise<JournalRecord[]> {
    const open = records.filter(
      (record) => record.kind === 'request' && record.status === undefined,
    )
    if (open.length === 0) return records
    const kept = await this.client.hmget(COMPLETED, ...open.map((record) => String(record.id)))
    const byId = new Map<number, JournalRecord>()
    open.forEach((record, index) => {
      const json = kept[index]
      if (json) byId.set(record.id, { ...(JSON.parse(json) as JournalRecord), id: record.id })
    })
    return byId.size === 0 ? records : records.map((record) => byId.get(record.id) ?? record)
  }

  async follow(
    after: number | 'now',
    listener: (record: JournalRecord) => void,
  ): Promise<JournalFollower> {
    let position =
      after === 'now' ? `0-${Number((await this.client.get(LAST_ID)) ?? 0)}` : `0-${after}`
    const reader = this.client.duplicate({ connectionName: 'openness-journal-follow' })
    let closed = false
    const loop = (async () => {
      while (!closed) {
        try {
          const reply = (await reader.xread(
            'COUNT',
            BATCH,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            STREAM,
            position,
          )) as [string, StreamEntry[]][] | null
          for (const entry of reply?.[0]?.[1] ?? []) {
            position = entry[0]
            if (!closed) listener(recordOf(entry))
          }
        } catch (error) {
          if (closed) return
          this.options.onError(error)
          await new Promise((resolve) => setTimeout(resolve, 1_000))
        }
      }
    })()
    return {
      close: async () => {
        if (closed) return
        closed = true
        reader.disconnect()
        await loop
      },
    }
  }

  async settled(): Promise<void> {
    if (this.scheduled) this.flush()
    await this.inFlight
  }

  /**
   * Writes the records waiting, in order, up to the first request still in progress (so that a request keeps
   * its place before the events its handling published); one in progress for PENDING_MS is written as it is.
   */
  private flush(): void {
    this.scheduled = false
    clearTimeout(this.retry)
    this.retry = undefined
    const now = Date.now()
    const pendingMs = this.options.pendingMs ?? PENDING_MS
    let count = 0
    for (const waiting of this.waiting) {
      if (waiting.pending && now - waiting.since < pendingMs) break
      if (waiting.pending) this.pendingOf.delete(waiting.record)
      count += 1
    }
    const blocked = this.waiting[count]
    if (blocked !== undefined)
      this.retry = setTimeout(() => this.flush(), blocked.since + pendingMs - now).unref()
    if (count === 0) return
    const written = this.waiting.splice(0, count)
    const entries = written.map(({ record }) => JSON.stringify(record))
    const calls = []
    for (let start = 0; start < entries.length; start += BATCH)
      calls.push({
        keys: [STREAM, LAST_ID],
        args: [this.options.size, ...entries.slice(start, start + BATCH)],
      })
    const appended = APPEND.runMany(this.client, calls)
    // The ids of the requests written in progress, for their answers (complete): each call returns its last id.
    written.forEach(({ record, pending }, index) => {
      if (!pending) return
      const call = Math.floor(index / BATCH)
      const last = Math.min(entries.length, (call + 1) * BATCH) - 1
      this.writtenEarly.set(
        record,
        appended.then(
          (replies) => Number(replies[call]) - (last - index),
          () => undefined,
        ),
      )
    })
    const previous = this.inFlight
    this.inFlight = appended.then(
      () => previous,
      async (error: unknown) => {
        await previous
        this.options.onError(
          new Error(`journal: ${entries.length} entries not appended (lost)`, { cause: error }),
        )
      },
    )
  }
}

/** A stream entry `[0-{id}, ['e', json]]` as a record. */
function recordOf([id, fields]: StreamEntry): JournalRecord {
  const record = JSON.parse(fields[1] ?? '{}') as JournalRecord
  record.id = Number(id.slice(id.indexOf('-') + 1))
  return record
}
