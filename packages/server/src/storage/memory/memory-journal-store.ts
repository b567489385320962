/**
 * The journal in the process's memory (the embedded mode; docs/journal.md): a ring of `size` slots, the oldest
 * overwritten by the newest, ids counted here (a slot's id follows from its place). A control action or near-miss
 * is stored as the record given (no copy, no serialization). A request is kept field by field in columns
 * (journal-request-columns.ts), so that the ring keeps no object of its own alive: its place is taken when it
 * arrives, its answer's fields written when it completes, its readers told then. An event's slot holds what its
 * entry shows (its time, subscription and login, the event's name, the login it is about and its call, its number):
 * a fan-out to 10,000 subscriptions allocates nothing per subscription here, and the event, which the ring would
 * keep alive past V8's young generation, is not held. A request's or an event's entry is made when it is read.
 */

import type { PlatformEvent } from '../../platform/events.js'
import {
  eventCallOf,
  eventEntry,
  eventNameOf,
  type JournalRecord,
} from '../../platform/journal/journal-entry.js'
import type {
  JournalFollower,
  JournalPage,
  JournalRead,
  JournalStore,
} from '../../platform/journal/journal-store.js'
import { JournalRequestColumns } from './journal-request-columns.js'

const DONE = Promise.resolve()

/** What a slot holds: a record as given (control action, near-miss), an event's columns, or a request's. */
const RECORD = 0
const EVENT = 1
const REQUEST = 2

export class MemoryJournalStore implements JournalStore {
  /** What each slot holds: RECORD, EVENT or REQUEST. */
  private readonly holds: Uint8Array
  /** A slot's record, for a control action or a near-miss. */
  private readonly records: (JournalRecord | undefined)[]
  /** A request's or an event's time. */
  private readonly ats: Float64Array
  private readonly requests: JournalRequestColumns
  /** An event's slot: its subscription, login, event's name, the login it is about, its call and number. */
  private readonly subscriptions: (string | undefined)[]
  private readonly users: (string | undefined)[]
  private readonly eventNames: (string | undefined)[]
  private readonly abouts: (string | undefined)[]
  private readonly calls: (string | undefined)[]
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
    this.holds = new Uint8Array(size)
    this.records = new Array(size)
    this.ats = new Float64Array(size)
    this.requests = new JournalRequestColumns(size)
    this.subscriptions = new Array(size)
    this.users = new Array(size)
    this.eventNames = new Array(size)
    this.abouts = new Array(size)
    this.calls = new Array(size)
    this.sequences = new Float64Array(size)
  }

  append(record: JournalRecord, pending = false): void {
    const slot = this.take()
    record.id = this.lastId
    if (record.kind === 'request') {
      this.holds[slot] = REQUEST
      this.ats[slot] = record.at
      this.requests.write(slot, record)
    } else {
      this.holds[slot] = RECORD
      this.records[slot] = record
    }
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
    this.holds[slot] = EVENT
    this.ats[slot] = at
    this.subscriptions[slot] = subscription
    this.users[slot] = user
    this.eventNames[slot] = eventNameOf(source, json)
    this.abouts[slot] = source?.loginName
    this.calls[slot] = eventCallOf(source)
    this.sequences[slot] = sequence
    if (this.listeners.size > 0) this.tell(this.recordAt(slot, this.lastId))
  }

  /**
   * A request's answer is in `record`: kept in its slot if the ring still holds it (a chunk channel may stay open
   * for longer than the ring takes to come round), and the live readers told.
   */
  complete(record: JournalRecord): void {
    const back = this.lastId - record.id
    if (record.kind === 'request' && back >= 0 && back < this.held)
      this.requests.answer(this.slotBack(back), record)
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
    this.requests.clear()
    this.subscriptions.fill(undefined)
    this.users.fill(undefined)
    this.eventNames.fill(undefined)
    this.abouts.fill(undefined)
    this.calls.fill(undefined)
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
    const holds = this.holds[slot]
    if (holds === RECORD) return this.records[slot] as JournalRecord
    if (holds === REQUEST) return this.requests.record(slot, id, this.ats[slot] ?? 0)
    return eventEntry(
      id,
      this.ats[slot] ?? 0,
      this.subscriptions[slot] ?? '',
      this.users[slot] ?? '',
      this.eventNames[slot] ?? '',
      this.abouts[slot],
      this.calls[slot],
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
    return this.recordAt(this.slotBack(back), this.lastId - back)
  }

  /** The slot of the entry `back` places before the newest. */
  private slotBack(back: number): number {
    const size = this.records.length
    return (this.next - 1 - back + 2 * size) % size
  }
}
