/**
 * The communication log (docs/comlog.md): one row per record, owned by one user, with the columns the
 * queries select on and the record's JSON. Numbered 0006: 0005 belongs to routing, built alongside.
 */
import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely'

/** Written with the schema builder, the id's type chosen by dialect. */
export const comlogMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('comlog_record')
      // On SQLite an `integer` primary key is the row id itself: one B-tree less to write per record
      // (docs/performance.md, "comlog-query"); PostgreSQL needs `bigint` for int64 ids.
      .addColumn('record_id', isSqlite(db) ? 'integer' : 'bigint', (col) =>
        col.primaryKey().notNull(),
      )
      .addColumn('login_name', 'text', (col) => col.notNull())
      .addColumn('begin_at', 'bigint', (col) => col.notNull())
      .addColumn('com_ref', 'text', (col) => col.notNull())
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('answered', 'integer', (col) => col.notNull())
      .addColumn('acknowledged', 'integer', (col) => col.notNull())
      .addColumn('missed', 'integer', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('remote_ids', 'text', (col) => col.notNull())
      .addColumn('record', 'text', (col) => col.notNull())
      .execute()
    // A user's records by date: every query and the first page of a large history (docs/performance.md).
    await db.schema
      .createIndex('comlog_record_user_date')
      .on('comlog_record')
      .columns(['login_name', 'begin_at', 'record_id'])
      .execute()
    // The event summary's count of a user's unacknowledged missed calls, from the index alone; partial, so
    // that the records that are no missed call (most) never write it.
    await db.schema
      .createIndex('comlog_record_user_missed')
      .on('comlog_record')
      .columns(['login_name', 'acknowledged'])
      .where(sql.ref('missed'), '=', 1)
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('comlog_record').execute()
  },
}

/** Whether the migration runs on SQLite. */
function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter
}
