/**
 * The communication log as users see it (docs/comlog.md): their records, acknowledging and deleting them,
 * and the unifiedComLog events of each change (wire facts 8.2). The records themselves are written by the
 * call engine's store with the calls' ends; `recordsStored` publishes them. Every operation acts on one
 * user's records: a record of another user is not found.
 */
import type { ComRecord } from '@openness/wire'
import type { EventSink } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { Committed } from '../telephony/telephony-service.js'
import type { ComRecordChange, ComRecordFilter, ComRecordPage } from './com-record.js'
import type { ComlogStore } from './comlog-store.js'
import type { EventSummaryService } from './event-summary.js'

export class ComlogService {
  readonly #store: ComlogStore
  readonly #events: EventSink
  readonly #summary: EventSummaryService

  constructor(store: ComlogStore, events: EventSink, summary: EventSummaryService) {
    this.#store = store
    this.#events = events
    this.#summary = summary
  }

  /**
   * After a command of the call engine: OnComRecordCreated for each record stored with it, and a new event
   * summary for the users whose missed calls or call back requests changed.
   */
  engineCommitted({ before, after, records }: Committed): void {
    const changed = new Set<string>()
    for (const { loginName, record, missed } of records) {
      this.#events.publish({ eventName: 'OnComRecordCreated', loginName, record })
      if (missed) changed.add(loginName)
    }
    if (before.callbacks !== after.callbacks) {
      const users = new Set([
        ...Object.keys(before.callbacks ?? {}),
        ...Object.keys(after.callbacks ?? {}),
      ])
      for (const user of users)
        if ((before.callbacks?.[user]?.length ?? 0) !== (after.callbacks?.[user]?.length ?? 0))
          changed.add(user)
    }
    for (const user of changed) void this.#summary.changed(user)
  }

  /** One page of the user's records matching `filter`, newest first. */
  findRecords(
    loginName: string,
    filter: ComRecordFilter,
    page: { offset: number; limit: number },
  ): Promise<ComRecordPage> {
    return this.#store.findRecords(loginName, filter, page)
  }

  /** The user's record; NOT_FOUND when the user has none with this id. */
  async findRecord(loginName: string, recordId: number): Promise<ComRecord> {
    const found = await this.#store.findRecord(loginName, recordId)
    if (found === undefined) throw new PlatformError('NOT_FOUND', `No record ${recordId}`)
    return found.record
  }

  /** Sets the acknowledged flag of the user's records among `recordIds`: OnComRecordsAck or UnAck. */
  async acknowledge(
    loginName: string,
    recordIds: readonly number[],
    acknowledged: boolean,
  ): Promise<void> {
    const changes = await this.#store.acknowledge(loginName, recordIds, acknowledged)
    if (changes.length === 0) return
    this.#events.publish({
      eventName: acknowledged ? 'OnComRecordsAck' : 'OnComRecordsUnAck',
      loginName,
      recordIds: changes.map((change) => change.recordId),
    })
    if (changes.some((change) => change.missed)) await this.#summary.changed(loginName)
  }

  /** Deletes one of the user's records; NOT_FOUND when the user has none with this id. */
  async deleteRecord(loginName: string, recordId: number): Promise<void> {
    const deleted = await this.#store.deleteRecords(loginName, [recordId])
    if (deleted.length === 0) throw new PlatformError('NOT_FOUND', `No record ${recordId}`)
    await this.#deleted(loginName, deleted)
  }

  /** Deletes those of the user's records among `recordIds` (the others are not the user's: ignored). */
  async deleteRecords(loginName: string, recordIds: readonly number[]): Promise<number> {
    const deleted = await this.#store.deleteRecords(loginName, recordIds)
    await this.#deleted(loginName, deleted)
    return deleted.length
  }

  /** Deletes the user's records matching `filter` (every record with an empty filter). */
  async deleteMatching(loginName: string, filter: ComRecordFilter): Promise<number> {
    const deleted = await this.#store.deleteMatching(loginName, filter)
    await this.#deleted(loginName, deleted)
    return deleted.length
  }

  async #deleted(loginName: string, deleted: readonly ComRecordChange[]): Promise<void> {
    if (deleted.length === 0) return
    this.#events.publish({
      eventName: 'OnComRecordsDeleted',
      loginName,
      recordIds: deleted.map((change) => change.recordId),
    })
    if (deleted.some((change) => change.missed && !change.wasAcknowledged))
      await this.#summary.changed(loginName)
  }
}
