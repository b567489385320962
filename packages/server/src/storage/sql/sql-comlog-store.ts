/**
 * The ComlogStore port on SQLite or PostgreSQL through Kysely (migration 0006): reads and changes one user's
 * records in `comlog_record`, every query going through the index on (login_name, begin_at, record_id).
 * Records are appended by SqlCallStore in the transaction that stores a call's end (`appendComRecords`).
 */
import type { ComRecord } from '@openness/wire'
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import type {
  ComRecordChange,
  ComRecordDraft,
  ComRecordFilter,
  ComRecordPage,
  StoredComRecord,
} from '../../platform/comlog/com-record.js'
import type { ComlogStore } from '../../platform/ports.js'
import type { CallDatabase, ComlogRecordTable } from './database.js'

/** At most this many ids a statement, under the 999-parameter bound of older SQLite builds. */
const ID_BATCH = 500
/** At eleven parameters a row. */
const ROW_BATCH = 80

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
    const { total } = await matching(this.#db, loginName, filter)
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow()
    const rows = await matching(this.#db, loginName, filter)
      .select(['record_id', 'login_name', 'acknowledged', 'missed', 'record'])
      .orderBy('begin_at', 'desc')
      .orderBy('record_id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute()
    return { totalCount: Number(total), records: rows.map(storedRecord) }
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
    return this.#db.transaction().execute(async (trx) => {
      const changed: ComRecordChange[] = []
      for (const ids of batches(recordIds)) {
        const rows = await trx
          .selectFrom('comlog_record')
          .select(['record_id', 'missed', 'acknowledged'])
          .where('login_name', '=', loginName)
          .where('record_id', 'in', ids)
          .where('acknowledged', '!=', flag)
          .execute()
        if (rows.length === 0) continue
        await trx
          .updateTable('comlog_record')
          .set({ acknowledged: flag })
          .where('login_name', '=', loginName)
          .where(
            'record_id',
            'in',
            rows.map((row) => row.record_id),
          )
          .execute()
        changed.push(...rows.map(change))
      }
      return changed
    })
  }

  async deleteRecords(loginName: string, recordIds: readonly number[]): Promise<ComRecordChange[]> {
    return this.#db.transaction().execute(async (trx) => {
      const deleted: ComRecordChange[] = []
      for (const ids of batches(recordIds)) {
        const rows = await trx
          .deleteFrom('comlog_record')
          .where('login_name', '=', loginName)
          .where('record_id', 'in', ids)
          .returning(['record_id', 'missed', 'acknowledged'])
          .execute()
        deleted.push(...rows.map(change))
      }
      return deleted
    })
  }

  async deleteMatching(loginName: string, filter: ComRecordFilter): Promise<ComRecordChange[]> {
    return this.#db.transaction().execute(async (trx) => {
      const rows = await matching(trx, loginName, filter)
        .select(['record_id', 'missed', 'acknowledged'])
        .execute()
      for (const ids of batches(rows.map((row) => Number(row.record_id))))
        await trx
          .deleteFrom('comlog_record')
          .where('login_name', '=', loginName)
          .where('record_id', 'in', ids)
          .execute()
      return rows.map(change)
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

/**
 * Appends records inside the caller's transaction (SqlCallStore.saveWithRecords), numbered from
 * `firstId`; resolves to the stored records.
 */
export async function appendComRecords(
  trx: Kysely<CallDatabase>,
  drafts: readonly ComRecordDraft[],
  firstId: number,
): Promise<StoredComRecord[]> {
  const stored: StoredComRecord[] = []
  const rows = drafts.map((draft, index) => {
    const recordId = firstId + index
    stored.push({
      loginName: draft.loginName,
      missed: draft.missed,
      record: { recordId, ...draft.record, acknowledged: false },
    })
    return {
      record_id: recordId,
      login_name: draft.loginName,
      begin_at: draft.beginAt,
      com_ref: draft.record.comRef,
      role: draft.role,
      answered: draft.answered ? 1 : 0,
      acknowledged: 0,
      missed: draft.missed ? 1 : 0,
      reason: draft.reason,
      remote_ids: `|${draft.remotePartyIds.join('|')}|`,
      record: JSON.stringify(draft.record),
    }
  })
  for (let start = 0; start < rows.length; start += ROW_BATCH)
    await trx
      .insertInto('comlog_record')
      .values(rows.slice(start, start + ROW_BATCH))
      .execute()
  return stored
}

/** One past the highest record id (1 when the log is empty). */
export async function nextComRecordId(db: Kysely<CallDatabase>): Promise<number> {
  const { last } = await db
    .selectFrom('comlog_record')
    .select((eb) => eb.fn.max('record_id').as('last'))
    .executeTakeFirstOrThrow()
  return last === null ? 1 : Number(last) + 1
}

/** The user's records that match the filter. */
function matching(
  db: Kysely<CallDatabase>,
  loginName: string,
  filter: ComRecordFilter,
): SelectQueryBuilder<CallDatabase, 'comlog_record', object> {
  let query = db.selectFrom('comlog_record').where('login_name', '=', loginName)
  if (filter.after !== undefined) query = query.where('begin_at', '>=', filter.after)
  if (filter.before !== undefined) query = query.where('begin_at', '<=', filter.before)
  if (filter.unacknowledgedOnly) query = query.where('acknowledged', '=', 0)
  if (filter.unansweredOnly) query = query.where('answered', '=', 0)
  if (filter.role !== undefined) query = query.where('role', '=', filter.role)
  if (filter.comRef !== undefined) query = query.where('com_ref', '=', filter.comRef)
  if (filter.remotePartyId !== undefined) {
    const escaped = filter.remotePartyId.replace(/[\\%_|]/g, (c) => `\\${c}`)
    // An explicit escape character: SQLite has none by default.
    query = query.where(sql<boolean>`remote_ids like ${`%|${escaped}|%`} escape '\\'`)
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
