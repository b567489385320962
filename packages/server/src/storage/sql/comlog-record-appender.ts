/**
 * Appending the records of the communication log in the transaction that stores a call's end
 * (call-write-plan.ts): the hot path of the log, one statement per call's end, and the batches
 * that index the appended records by user and date (comlog-user-index.ts).
 */
import { ComRecord } from '@openness/wire'
import fastJsonStringify from 'fast-json-stringify'
import { CompiledQuery, type Kysely } from 'kysely'
import { Type } from 'typebox'
import type { ComRecordDraft, StoredComRecord } from '../../platform/comlog/com-record.js'
import { indexedThrough } from './comlog-user-index.js'
import type { CallDatabase, ComlogRecordTable } from './database.js'

/** At eleven parameters a row, a statement stays under the 999-parameter bound of older SQLite builds. */
const ROW_BATCH = 80

/** The stored record's serializer, compiled on first use (a few ms: not at every start). */
let recordSerializer: ((record: ComRecordDraft['record']) => string) | undefined

/**
 * A record's JSON as stored (`comlog_record.record`: the wire ComRecord without the id and the acknowledged
 * flag, which have columns of their own), by a function compiled from the wire schema, twice at every call's
 * end: 1.7 × faster than JSON.stringify on these objects alone, about 2 µs a call's end in the service
 * (docs/performance.md). Its keys come in the schema's order; a property outside the schema is left out (the
 * draft's type is the schema's).
 */
export function storedRecordJson(record: ComRecordDraft['record']): string {
  recordSerializer ??= fastJsonStringify(Type.Omit(ComRecord, ['recordId', 'acknowledged']))
  return recordSerializer(record)
}

/** The columns of an appended record, in the order of its statement's parameters. */
export const APPEND_COLUMNS = [
  'record_id',
  'login_name',
  'begin_at',
  'com_ref',
  'role',
  'answered',
  'acknowledged',
  'missed',
  'reason',
  'remote_ids',
  'record',
] as const satisfies readonly (keyof ComlogRecordTable)[]

type AppendRow = Pick<ComlogRecordTable, (typeof APPEND_COLUMNS)[number]>

/** A record's values in APPEND_COLUMNS order, each of its column's type. */
type ValuesOf<Columns extends readonly (keyof ComlogRecordTable)[]> = {
  -readonly [I in keyof Columns]: ComlogRecordTable[Columns[I]]
}
type AppendValues = ValuesOf<typeof APPEND_COLUMNS>

/**
 * The rows of the records numbered from `firstId`, their values in APPEND_COLUMNS order, and the records
 * as the store returns them once written. Written as plain loops and literals: it runs at every call's end.
 */
export function appendRows(
  drafts: readonly ComRecordDraft[],
  firstId: number,
): { rows: unknown[][]; stored: StoredComRecord[] } {
  const stored: StoredComRecord[] = new Array(drafts.length)
  const rows: unknown[][] = new Array(drafts.length)
  for (let index = 0; index < drafts.length; index++) {
    const draft = drafts[index] as ComRecordDraft
    const recordId = firstId + index
    const record: ComRecord = { recordId, ...draft.record, acknowledged: false }
    stored[index] = { loginName: draft.loginName, missed: draft.missed, record }
    const values: AppendValues = [
      recordId,
      draft.loginName,
      draft.beginAt,
      draft.record.comRef,
      draft.role,
      draft.answered ? 1 : 0,
      0,
      draft.missed ? 1 : 0,
      draft.reason,
      `|${draft.remotePartyIds.join('|')}|`,
      storedRecordJson(draft.record),
    ]
    rows[index] = values
  }
  return { rows, stored }
}

/**
 * Appends records inside the caller's transaction (SqlCallStore), on the hot path of every call's end: the
 * statement for a number of rows is compiled once (through Kysely, for the dialect) and then run with new
 * parameters, which spares the query builder's work on every call (docs/performance.md, "The cost of
 * writing records").
 */
export class ComRecordAppender {
  /** The SQL of the insert of n rows, by n. */
  readonly #statements = new Map<number, string>()

  /** Appends `rows` (appendRows), at most ROW_BATCH a statement, their values in one list each. */
  async append(trx: Kysely<CallDatabase>, rows: readonly unknown[][]): Promise<void> {
    for (let start = 0; start < rows.length; start += ROW_BATCH) {
      const end = Math.min(rows.length, start + ROW_BATCH)
      const parameters: unknown[] = []
      for (let index = start; index < end; index++) {
        const row = rows[index] as unknown[]
        for (let column = 0; column < row.length; column++) parameters.push(row[column])
      }
      await trx.executeQuery(CompiledQuery.raw(this.#statement(trx, end - start), parameters))
    }
  }

  /** The insert of `count` rows in the dialect of `db`, its parameters in APPEND_COLUMNS order, row by row. */
  #statement(db: Kysely<CallDatabase>, count: number): string {
    let statement = this.#statements.get(count)
    if (statement === undefined) {
      const row: AppendRow = {
        record_id: 0,
        login_name: '',
        begin_at: 0,
        com_ref: '',
        role: '',
        answered: 0,
        acknowledged: 0,
        missed: 0,
        reason: '',
        remote_ids: '',
        record: '',
      }
      statement = db
        .insertInto('comlog_record')
        .values(Array.from({ length: count }, () => row))
        .compile().sql
      this.#statements.set(count, statement)
    }
    return statement
  }
}

/**
 * One past the highest record id, stored or indexed (1 when the log has never had a record): an id is never
 * given twice, not even after the newest records were deleted, so that a record is never under the index
 * mark unindexed (comlog-user-index.ts) and a client never sees one id name two records.
 */
export async function nextComRecordId(db: Kysely<CallDatabase>): Promise<number> {
  const { last } = await db
    .selectFrom('comlog_record')
    .select((eb) => eb.fn.max('record_id').as('last'))
    .executeTakeFirstOrThrow()
  return Math.max(last === null ? 0 : Number(last), await indexedThrough(db)) + 1
}
