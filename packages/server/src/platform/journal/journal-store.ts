/** The journal's port (docs/journal.md). */
import type { PlatformEvent } from '../events.js'
import type { JournalRecord } from './journal-entry.js'

/** A read of the journal's store: what it keeps, between which ids, how many, from which end. */
export interface JournalRead {
  /** Whether a record belongs in the page. */
  match(record: JournalRecord): boolean
  /** Ids after this one only (excluded). */
  after?: number
  /** Ids before this one only (excluded). */
  before?: number
  /** At most this many records; Infinity for all. */
  limit: number
  /** `newest`: from the latest record back; `oldest`: from the earliest on. */
  order: 'newest' | 'oldest'
}

/** A page of the journal: its records in the order read, and whether the store held more that matched. */
export interface JournalPage {
  records: JournalRecord[]
  more: boolean
}

/** A live reader of the journal; closed, it calls its listener no more. */
export interface JournalFollower {
  close(): Promise<void>
}

/**
 * The journal's entries (docs/journal.md): a bounded ring, the oldest dropped beyond its size. In memory alone;
 * in a cluster, one Redis stream every node appends to and reads, so that any node shows every node's entries.
 */
export interface JournalStore {
  /**
   * Keeps `record`, giving it the journal's next id; never waits, and never fails the caller. The memory store
   * sets `record.id` at once; a cluster's writes its records a moment later, in batches, numbered as written.
   * A `pending` record is a request in progress: it takes its place now, and `complete` says when its answer's
   * fields are in it (live readers get it then; a cluster's store writes it then, or after a second as it is).
   */
  append(record: JournalRecord, pending?: boolean): void
  /** The pending `record` is complete. */
  complete(record: JournalRecord): void
  /**
   * Keeps the entry of an event a subscription's queue took (eventRecord in journal-entry.ts makes it), given by
   * its parts, so that a fan-out to thousands of subscriptions allocates nothing per subscription in memory.
   */
  appendEvent(
    at: number,
    subscription: string,
    user: string,
    source: PlatformEvent | undefined,
    json: string,
    sequence: number,
  ): void
  read(request: JournalRead): Promise<JournalPage>
  /** Drops every record; ids go on from the last given. */
  clear(): Promise<void>
  /**
   * Calls `listener` with every record after the id `after` (`now`: recorded from now on), in id order: those
   * held first, then each as it is appended, on any node.
   */
  follow(after: number | 'now', listener: (record: JournalRecord) => void): Promise<JournalFollower>
  /** Resolves once every record appended so far is readable (a cluster's batches written). */
  settled(): Promise<void>
}
