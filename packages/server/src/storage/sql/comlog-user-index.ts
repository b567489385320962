/**
 * The communication log's index by user and date (`comlog_user_index`, migration 0007; docs/comlog.md,
 * "Storage"). Records are appended without it, in the transaction of a call's end; it is brought up to date
 * in batches: by the call store every INDEX_BATCH records, and by every query that reads through it, first.
 * `comlog_index_mark` holds the highest record id indexed: the records above it are the ones to index.
 * Record ids only grow (nextComRecordId never goes below the mark), so that no record is left under it.
 */
import type { Kysely } from 'kysely'
import type { CallDatabase } from './database.js'

/** How many records the call store appends before it indexes them, in the transaction of the last one. */
export const INDEX_BATCH = 128

const MARK = 'records'

/** The highest record id indexed (0 before any). */
export async function indexedThrough(db: Kysely<CallDatabase>): Promise<number> {
  const row = await db
    .selectFrom('comlog_index_mark')
    .select('indexed_through')
    .where('name', '=', MARK)
    .executeTakeFirst()
  return row === undefined ? 0 : Number(row.indexed_through)
}

/**
 * Indexes the records appended since the last batch; to be called in a transaction. Two reads by primary key
 * when the index is up to date.
 */
export async function indexNewRecords(trx: Kysely<CallDatabase>): Promise<void> {
  const through = await indexedThrough(trx)
  const { top } = await trx
    .selectFrom('comlog_record')
    .select((eb) => eb.fn.max('record_id').as('top'))
    .where('record_id', '>', through)
    .executeTakeFirstOrThrow()
  if (top === null || top === undefined) return
  await trx
    .insertInto('comlog_user_index')
    .columns(['login_name', 'begin_at', 'record_id'])
    .expression((eb) =>
      eb
        .selectFrom('comlog_record')
        .select(['login_name', 'begin_at', 'record_id'])
        .where('record_id', '>', through)
        .where('record_id', '<=', top),
    )
    .onConflict((oc) => oc.doNothing())
    .execute()
  // Never back: a transaction that read an older mark than another's, which indexed further, leaves it.
  await trx
    .insertInto('comlog_index_mark')
    .values({ name: MARK, indexed_through: top })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({
        indexed_through: eb
          .case()
          .when('excluded.indexed_through', '>', eb.ref('comlog_index_mark.indexed_through'))
          .then(eb.ref('excluded.indexed_through'))
          .else(eb.ref('comlog_index_mark.indexed_through'))
          .end(),
      })),
    )
    .execute()
}

/** Removes the index entries of the user's records among `recordIds` (records being deleted). */
export async function unindexRecords(
  trx: Kysely<CallDatabase>,
  loginName: string,
  recordIds: readonly number[],
): Promise<void> {
  if (recordIds.length === 0) return
  await trx
    .deleteFrom('comlog_user_index')
    .where('login_name', '=', loginName)
    .where('record_id', 'in', recordIds)
    .execute()
}
