/**
 * The journal (docs/journal.md): what the gateway, the delivery and the control plane did, kept in a bounded
 * store (JournalStore: a ring in memory, a Redis stream in a cluster), each entry stamped by the service's
 * clock; read by filters, followed live, and verified against an ordered list of patterns. Recording never
 * waits and never throws: the gateway records after the answer is sent, the delivery as a queue takes an event.
 */

import type { Clock, PlatformEvent } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { JournalDraft, JournalEntry, JournalRecord } from './journal-entry.js'
import { shownEntry } from './journal-entry.js'
import { type JournalFilter, type JournalQuery, matches } from './journal-filter.js'
import type { JournalFollower, JournalStore } from './journal-store.js'

/** A page of entries as `GET /journal` answers it. */
export interface JournalAnswer {
  entries: JournalEntry[]
  /** The query's filter for the next page, when the journal held more: `before` (newest first) or `after`. */
  next?: { before: number } | { after: number }
}

export class Journal {
  /** Whether entries are kept (JOURNAL_SIZE above 0). */
  readonly enabled: boolean

  constructor(
    private readonly store: JournalStore | undefined,
    private readonly clock: Clock,
    /** Told of a live reader that threw; the reader is closed. */
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.enabled = store !== undefined
  }

  /**
   * Keeps the entry of a request that just arrived, in progress (its status not known yet): it takes its place
   * now, before what its handling causes (the events it publishes); `complete` adds the answer's fields.
   */
  begin(draft: JournalDraft): JournalRecord | undefined {
    if (this.store === undefined) return undefined
    const record = draft as JournalRecord
    record.id = 0
    record.at = this.clock.now()
    this.store.append(record, true)
    return record
  }

  /** The request `begin` kept was answered: the caller set its answer's fields on it. */
  complete(record: JournalRecord): void {
    this.store?.complete(record)
  }

  /** Keeps `draft` as an entry now (it becomes the record: no copy). */
  record(draft: JournalDraft): void {
    if (this.store === undefined) return
    const record = draft as JournalRecord
    record.id = 0
    record.at = this.clock.now()
    this.store.append(record)
  }

  /**
   * Keeps the event a subscription's queue took as number `sequence`. On the hot path of a fan-out: the store
   * keeps references to what the delivery holds (the event, the subscription's id and login), and makes the
   * entry when it is read.
   */
  event(
    subscription: string,
    user: string,
    source: PlatformEvent | undefined,
    json: string,
    sequence: number,
  ): void {
    this.store?.appendEvent(this.clock.now(), subscription, user, source, json, sequence)
  }

  /** The entries `query` asks for, and where the next page starts when there are more. */
  async query(query: JournalQuery): Promise<JournalAnswer> {
    const { filter, limit, order } = query
    const { records, more } = await this.storeOrNone().read({
      match: (record) => matches(filter, record),
      ...(filter.after !== undefined && { after: filter.after }),
      ...(filter.before !== undefined && { before: filter.before }),
      limit,
      order,
    })
    const last = records.at(-1)
    return {
      entries: records.map(shownEntry),
      ...(more &&
        last !== undefined && {
          next: order === 'newest' ? { before: last.id } : { after: last.id },
        }),
    }
  }

  /** Every record `filter` keeps, oldest first (a verification reads the whole journal). */
  async all(filter: JournalFilter): Promise<JournalRecord[]> {
    const { records } = await this.storeOrNone().read({
      match: (record) => matches(filter, record),
      ...(filter.after !== undefined && { after: filter.after }),
      ...(filter.before !== undefined && { before: filter.before }),
      limit: Number.POSITIVE_INFINITY,
      order: 'oldest',
    })
    return records
  }

  /** Drops every entry; ids go on. */
  clear(): Promise<void> {
    return this.storeOrNone().clear()
  }

  /**
   * Calls `listener` with each entry `filter` keeps, recorded from now on (or after the id `filter.after`, held
   * ones first), until closed.
   */
  follow(filter: JournalFilter, listener: (entry: JournalEntry) => void): Promise<JournalFollower> {
    let follower: JournalFollower | undefined
    let failed = false
    return this.storeOrNone()
      .follow(filter.after ?? 'now', (record) => {
        if (failed || !matches(filter, record)) return
        try {
          listener(shownEntry(record))
        } catch (error) {
          failed = true
          this.onError(error)
          void follower?.close()
        }
      })
      .then((opened) => {
        follower = opened
        return opened
      })
  }

  /** Resolves once every entry recorded so far is readable. */
  settled(): Promise<void> {
    return this.store?.settled() ?? Promise.resolve()
  }

  private storeOrNone(): JournalStore {
    if (this.store === undefined) throw new PlatformError('NOT_FOUND', JOURNAL_OFF)
    return this.store
  }
}

/** What the journal's routes answer when it is off (JOURNAL_SIZE=0): 404 NOT_FOUND saying so. */
export const JOURNAL_OFF =
  'The journal is off (JOURNAL_SIZE=0): start the service with JOURNAL_SIZE above 0 to keep one'
