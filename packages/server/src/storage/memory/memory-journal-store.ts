/**
 * The journal in the process's memory (the embedded mode; docs/journal.md): a ring of `size` slots, the oldest
 * overwritten by the newest, ids counted here (a slot's id follows from its place). A request, control action or
 * near-miss is stored as the record given (no copy, no serialization); a request in progress is stored when it
 * arrives and completed in place, its readers told then. An event's slot holds references only (the event the
 * delivery serialized, the subscription's id and login, its number and time): a fan-out to 10,000
 * subscriptions allocates nothing per subscription here, and the entry is made when it is read.
 */
import { eventRecord, type JournalRecord } from '../../platform/journal/journal-entry.js'
import type {
  JournalFollower,
  JournalPage,
  JournalRead,
  JournalStore,
  PlatformEvent,
} from '../../platform/ports.js'

const DONE = Promise.resolve()

export class MemoryJournalStore implements JournalStore {
  /** A slot's record, for any entry but an event's. */
  private readonly records: (JournalRecord | undefined)[]
  /** An event's slot: its time, subscription, login, event (or its JSON alone) and number. */
  private readonly ats: Float64Array
  private readonly subscriptions: (string | undefined)[]
  private readonly users: (string | undefined)[]
  private readonly sources: (PlatformEvent | undefined)[]
  private readonly jsons: (string | undefined)[]
  private readonly sequences: Float64Array
  /** Where the next entry goes. */
  private next = 0
  /** Entries held: up to the ring's size. */
  private held = 0
  private lastId = 0
  private readonly listeners = new Set<(record: JournalRecord) => void>()

  constructor(readonly size: number) {
    if (!(Number.isInteger(size) && size > 0))
      throw new Error(`the journal's size must be a whole number above 0, not ${size}`)
    this.records = new Array(size)
    this.ats = new Float64Array(size)
    this.subscriptions = new Array(size)
    this.users = new Array(size)
    this.sources = new Array(size)
    this.jsons = new Array(size)
    this.sequences = new Float64Array(size)
  }

  append(record: JournalRecord, pending = false): void {
    const slot = this.take()
    record.id = this.lastId
    this.records[slot] = record
    if (!pending && this.listeners.size > 0) this.tell(record)
  }

  appendEvent(
    at: number,
    subscription: string,
    user: string,
    source: PlatformEvent | undefined,
    json: string,
    sequence: number,
  ): void {
    const slot = this.take()
    this.ats[slot] = at
    this.subscriptions[slot] = subscription
    this.users[slot] = user
    this.sources[slot] = source
    // The JSON is kept only for the platform's own events, which come without their source.
    this.jsons[slot] = source === undefined ? json : undefined
    this.sequences[slot] = sequence
    if (this.listeners.size > 0) this.tell(this.recordAt(slot, this.lastId))
  }

  /** The record is in the ring already, as given: only the live readers are told, now it is complete. */
  complete(record: JournalRecord): void {
    if (this.listeners.size > 0) this.tell(record)
  }

  read(request: JournalRead): Promise<JournalPage> {
    const { match, after = 0, before = Number.POSITIVE_INFINITY, limit, order } = request
    const records: JournalRecord[] = []
    let more = false
    for (const record of order === 'newest' ? this.newestFirst() : this.oldestFirst()) {
      if (record.id <= after || record.id >= before || !match(record)) continue
      if (records.length === limit) {
        more = true
        break
      }
      records.push(record)
    }
    return Promise.resolve({ records, more })
  }

  clear(): Promise<void> {
    this.records.fill(undefined)
    this.subscriptions.fill(undefined)
    this.users.fill(undefined)
    this.sources.fill(undefined)
    this.jsons.fill(undefined)
    this.next = 0
    this.held = 0
    return DONE
  }

  follow(
    after: number | 'now',
    listener: (record: JournalRecord) => void,
  ): Promise<JournalFollower> {
    if (after !== 'now')
      for (const record of this.oldestFirst()) if (record.id > after) listener(record)
    this.listeners.add(listener)
    return Promise.resolve({
      close: () => {
        this.listeners.delete(listener)
        return DONE
      },
    })
  }

  settled(): Promise<void> {
    return DONE
  }

  /** The slot of the next entry, which takes the next id; the oldest is dropped when the ring is full. */
  private take(): number {
    const slot = this.next
    this.lastId += 1
    this.next = slot + 1 === this.records.length ? 0 : slot + 1
    if (this.held < this.records.length) this.held += 1
    this.records[slot] = undefined
    return slot
  }

  private tell(record: JournalRecord): void {
    for (const listener of this.listeners) listener(record)
  }

  /** The record of a slot whose entry has the id `id`. */
  private recordAt(slot: number, id: number): JournalRecord {
    const record = this.records[slot]
    if (record !== undefined) return record
    return eventRecord(
      id,
      this.ats[slot] ?? 0,
      this.subscriptions[slot] ?? '',
      this.users[slot] ?? '',
      this.sources[slot],
      this.jsons[slot] ?? '',
      this.sequences[slot] ?? 0,
    )
  }

  /** The entries held, the oldest first. */
  private *oldestFirst(): Generator<JournalRecord> {
    for (let back = this.held - 1; back >= 0; back--) yield this.recordBack(back)
  }

  private *newestFirst(): Generator<JournalRecord> {
    for (let back = 0; back < this.held; back++) yield this.recordBack(back)
  }

  /** The entry `back` places before the newest (0: the newest). */
  private recordBack(back: number): JournalRecord {
    const size = this.records.length
    return this.recordAt((this.next - 1 - back + 2 * size) % size, this.lastId - back)
  }
}
