/**
 * The ComlogStore port on SQLite or PostgreSQL through Kysely (migrations 0006 and 0007): reads and changes
 * one user's records in `comlog_record`, the queries by date going through `comlog_user_index`, brought up
 * to date first (comlog-user-index.ts). Records are appended by SqlCallStore in the transaction that stores a
 * call's end (comlog-record-appender.ts).
 */
import type { ComRecord } from '@openness/wire'
import { type Kysely, sql } from 'kysely'
import type {
  ComRecordChange,
  ComRecordFilter,
  ComRecordPage,
  StoredComRecord,
} from '../../platform/comlog/com-record.js'
import type { ComlogStore } from '../../platform/comlog/comlog-store.js'
import { indexNewRecords, unindexRecords } from './comlog-user-index.js'
import type { CallDatabase, ComlogRecordTable } from './database.js'

/** At most this many ids a statement, under the 999-parameter bound of older SQLite builds. */
const ID_BATCH = 500
type Row = Pick<
  ComlogRecordTable,
  'record_id' | 'login_name' | 'acknowledged' | 'missed' | 'record'
>
type ChangeRow = Pick<ComlogRecordTable, 'record_id' | 'missed' | 'acknowledged'>

export class SqlComlogStore implements ComlogStore {
  readonly #db: Kysely<CallDatabase>

  /** Takes `db`, migrated by `openDatabase` and seen through `callTables(db)`; never closes it. */
  constructor(db: Kysely<CallDatabase>) {
    this.#db = db
  }

  async findRecords(
    loginName: string,
    filter: ComRecordFilter,
    page: { offset: number; limit: number },
  ): Promise<ComRecordPage> {
    return this.#db.transaction().execute(async (trx) => {
      await indexNewRecords(trx)
      // Without a filter on the records' columns, the count reads the index alone.
      const { total } = await (onDatesOnly(filter)
        ? dated(trx, loginName, filter)
        : matching(trx, loginName, filter)
      )
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .executeTakeFirstOrThrow()
      const rows = await matching(trx, loginName, filter)
        .select(['r.record_id', 'r.login_name', 'r.acknowledged', 'r.missed', 'r.record'])
        .orderBy('i.begin_at', 'desc')
        .orderBy('i.record_id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute()
      return { totalCount: Number(total), records: rows.map(storedRecord) }
    })
  }

  async findRecord(loginName: string, recordId: number): Promise<StoredComRecord | undefined> {
    const row = await this.#db
      .selectFrom('comlog_record')
      .select(['record_id', 'login_name', 'acknowledged', 'missed', 'record'])
      .where('login_name', '=', loginName)
      .where('record_id', '=', recordId)
      .executeTakeFirst()
    return row === undefined ? undefined : storedRecord(row)
  }

  async acknowledge(
    loginName: string,
    recordIds: readonly number[],
    acknowledged: boolean,
  ): Promise<ComRecordChange[]> {
    const flag = acknowledged ? 1 : 0
    // One conditional UPDATE a batch, answering the rows it changed: two nodes acknowledging the same record at
    // once each report only what they changed, so that the record's change is told once.
    return this.#db.transaction().execute(async (trx) => {
      const changed: ComRecordChange[] = []
      for (const ids of batches(recordIds)) {
        const rows = await trx
          .updateTable('comlog_record')
          .set({ acknowledged: flag })
          .where('login_name', '=', loginName)
          .where('record_id', 'in', ids)
          .where('acknowledged', '!=', flag)
          .returning(['record_id', 'missed'])
          .execute()
        changed.push(...rows.map((row) => change({ ...row, acknowledged: 1 - flag })))
      }
      return changed
    })
  }

  async deleteRecords(loginName: string, recordIds: readonly number[]): Promise<ComRecordChange[]> {
    return this.#db.transaction().execute(async (trx) => {
      // Indexed first, so that the ids deleted are under the mark and never given again.
      await indexNewRecords(trx)
      const deleted: ComRecordChange[] = []
      for (const ids of batches(recordIds)) {
        const rows = await trx
          .deleteFrom('comlog_record')
          .where('login_name', '=', loginName)
          .where('record_id', 'in', ids)
          .returning(['record_id', 'missed', 'acknowledged'])
          .execute()
        await unindexRecords(
          trx,
          loginName,
          rows.map((row) => Number(row.record_id)),
        )
        deleted.push(...rows.map(change))
      }
      return deleted
    })
  }

  async deleteMatching(loginName: string, filter: ComRecordFilter): Promise<ComRecordChange[]> {
    return this.#db.transaction().execute(async (trx) => {
      await indexNewRecords(trx)
      const rows = await matching(trx, loginName, filter).select(['r.record_id']).execute()
      // What this DELETE removed, not what the query found: a record another node deleted meanwhile is told
      // by that node alone.
      const deleted: ComRecordChange[] = []
      for (const ids of batches(rows.map((row) => Number(row.record_id)))) {
        const removed = await trx
          .deleteFrom('comlog_record')
          .where('login_name', '=', loginName)
          .where('record_id', 'in', ids)
          .returning(['record_id', 'missed', 'acknowledged'])
          .execute()
        await unindexRecords(
          trx,
          loginName,
          removed.map((row) => Number(row.record_id)),
        )
        deleted.push(...removed.map(change))
      }
      return deleted
    })
  }

  async countUnacknowledgedMissed(loginName: string): Promise<number> {
    const { total } = await this.#db
      .selectFrom('comlog_record')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .where('login_name', '=', loginName)
      .where('missed', '=', 1)
      .where('acknowledged', '=', 0)
      .executeTakeFirstOrThrow()
    return Number(total)
  }
}

/** The user's index entries in the filter's dates (the index alone). */
function dated(db: Kysely<CallDatabase>, loginName: string, filter: ComRecordFilter) {
  let query = db.selectFrom('comlog_user_index as i').where('i.login_name', '=', loginName)
  if (filter.after !== undefined) query = query.where('i.begin_at', '>=', filter.after)
  if (filter.before !== undefined) query = query.where('i.begin_at', '<=', filter.before)
  return query
}

/** Whether the filter selects on dates alone (then counting needs the index only). */
function onDatesOnly(filter: ComRecordFilter): boolean {
  return (
    !filter.unacknowledgedOnly &&
    !filter.unansweredOnly &&
    filter.role === undefined &&
    filter.comRef === undefined &&
    filter.remotePartyId === undefined
  )
}

/** The user's records that match the filter, through the index (`i`) to the records (`r`). */
function matching(db: Kysely<CallDatabase>, loginName: string, filter: ComRecordFilter) {
  let query = dated(db, loginName, filter).innerJoin(
    'comlog_record as r',
    'r.record_id',
    'i.record_id',
  )
  if (filter.unacknowledgedOnly) query = query.where('r.acknowledged', '=', 0)
  if (filter.unansweredOnly) query = query.where('r.answered', '=', 0)
  if (filter.role !== undefined) query = query.where('r.role', '=', filter.role)
  if (filter.comRef !== undefined) query = query.where('r.com_ref', '=', filter.comRef)
  if (filter.remotePartyId !== undefined) {
    const escaped = filter.remotePartyId.replace(/[\\%_|]/g, (c) => `\\${c}`)
    // An explicit escape character: SQLite has none by default.
    query = query.where(sql<boolean>`r.remote_ids like ${`%|${escaped}|%`} escape '\\'`)
  }
  return query
}

function storedRecord(row: Row): StoredComRecord {
  const record = JSON.parse(row.record) as Omit<ComRecord, 'recordId' | 'acknowledged'>
  return {
    loginName: row.login_name,
    missed: Number(row.missed) === 1,
    record: { recordId: Number(row.record_id), ...record, acknowledged: row.acknowledged === 1 },
  }
}

function change(row: ChangeRow): ComRecordChange {
  return {
    recordId: Number(row.record_id),
    missed: Number(row.missed) === 1,
    wasAcknowledged: Number(row.acknowledged) === 1,
  }
}

function* batches(ids: readonly number[]): Generator<number[]> {
  for (let start = 0; start < ids.length; start += ID_BATCH)
    yield ids.slice(start, start + ID_BATCH)
}
