/**
 * The communication log's index by user and date, kept in a table of its own and written in batches
 * (docs/comlog.md, "Storage"): SQLite's index on `comlog_record` wrote one more page in the transaction of
 * every call's end, the largest part of what the log cost a call (docs/performance.md, "The cost of writing
 * records"). `comlog_index_mark` holds the highest record id indexed; the records above it are indexed by the
 * next batch or before the next query that needs the index.
 */
import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely'

export const comlogUserIndexMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
    await db.schema
      .createTable('comlog_user_index')
      .addColumn('login_name', 'text', (col) => col.notNull())
      .addColumn('begin_at', 'bigint', (col) => col.notNull())
      .addColumn('record_id', sqlite ? 'integer' : 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('comlog_user_index_key', ['login_name', 'begin_at', 'record_id'])
      // On SQLite the key is the table itself: one B-tree, no row id.
      .$call((builder) => (sqlite ? builder.modifyEnd(sql`without rowid`) : builder))
      .execute()
    await db.schema
      .createTable('comlog_index_mark')
      .addColumn('name', 'text', (col) => col.primaryKey().notNull())
      .addColumn('indexed_through', 'bigint', (col) => col.notNull())
      .execute()
    await sql`insert into comlog_user_index (login_name, begin_at, record_id)
      select login_name, begin_at, record_id from comlog_record`.execute(db)
    await sql`insert into comlog_index_mark (name, indexed_through)
      select 'records', coalesce(max(record_id), 0) from comlog_record`.execute(db)
    await db.schema.dropIndex('comlog_record_user_date').execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('comlog_record_user_date')
      .on('comlog_record')
      .columns(['login_name', 'begin_at', 'record_id'])
      .execute()
    await db.schema.dropTable('comlog_index_mark').execute()
    await db.schema.dropTable('comlog_user_index').execute()
  },
}
