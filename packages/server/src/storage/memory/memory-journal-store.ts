/**
 * The journal in the process's memory (the embedded mode; docs/journal.md): a ring of `size` records, the
 * oldest overwritten by the newest, ids counted here. Appending stores the record as it is given (no copy, no
 * serialization) and tells the live readers, if any; a request in progress is stored when it arrives and
 * completed in place, its readers told then.
 */
import type { JournalRecord } from '../../platform/journal/journal-entry.js'
import type {
  JournalFollower,
  JournalPage,
  JournalRead,
  JournalStore,
} from '../../platform/ports.js'

const DONE = Promise.resolve()

export class MemoryJournalStore implements JournalStore {
  private readonly ring: (JournalRecord | undefined)[]
  /** Where the next record goes. */
  private next = 0
  /** Records held: up to the ring's size. */
  private held = 0
  private lastId = 0
  private readonly listeners = new Set<(record: JournalRecord) => void>()

  constructor(readonly size: number) {
    if (!(Number.isInteger(size) && size > 0))
      throw new Error(`the journal's size must be a whole number above 0, not ${size}`)
    this.ring = new Array(size)
  }

  append(record: JournalRecord, pending = false): void {
    this.lastId += 1
    record.id = this.lastId
    this.ring[this.next] = record
    this.next = this.next + 1 === this.ring.length ? 0 : this.next + 1
    if (this.held < this.ring.length) this.held += 1
    if (!pending && this.listeners.size > 0) this.tell(record)
  }

  /** The record is in the ring already, as given: only the live readers are told, now it is complete. */
  complete(record: JournalRecord): void {
    if (this.listeners.size > 0) this.tell(record)
  }

  private tell(record: JournalRecord): void {
    for (const listener of this.listeners) listener(record)
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
    this.ring.fill(undefined)
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

  private *oldestFirst(): Generator<JournalRecord> {
    const size = this.ring.length
    const start = (this.next - this.held + size) % size
    for (let index = 0; index < this.held; index++) {
      const record = this.ring[(start + index) % size]
      if (record !== undefined) yield record
    }
  }

  private *newestFirst(): Generator<JournalRecord> {
    const size = this.ring.length
    for (let index = 1; index <= this.held; index++) {
      const record = this.ring[(this.next - index + size) % size]
      if (record !== undefined) yield record
    }
  }
}
