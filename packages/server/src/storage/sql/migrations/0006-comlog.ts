/**
 * The communication log (docs/comlog.md): one row per record, owned by one user, with the columns the
 * queries select on and the record's JSON. Numbered 0006: 0005 belongs to routing, built alongside.
 */
import type { Kysely, Migration } from 'kysely'

/** Written with the schema builder alone so it runs unchanged on SQLite and PostgreSQL. */
export const comlogMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('comlog_record')
      .addColumn('record_id', 'bigint', (col) => col.primaryKey().notNull())
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
    // The event summary's count of a user's unacknowledged missed calls, from the index alone.
    await db.schema
      .createIndex('comlog_record_user_missed')
      .on('comlog_record')
      .columns(['login_name', 'missed', 'acknowledged'])
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('comlog_record').execute()
  },
}
