/**
 * Creates the tables of the call engine's state: one row per call in progress (JSON by callRef, with the
 * position that keeps the calls in the order they were created), and one row for the rest of the state.
 */
import type { Kysely, Migration } from 'kysely'

/** Written with the schema builder alone so it runs unchanged on SQLite and PostgreSQL. */
export const callsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('telephony_call')
      .addColumn('call_ref', 'text', (col) => col.primaryKey().notNull())
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('record', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('telephony_call_position')
      .on('telephony_call')
      .column('position')
      .execute()
    await db.schema
      .createTable('telephony_state')
      .addColumn('name', 'text', (col) => col.primaryKey().notNull())
      .addColumn('value', 'text', (col) => col.notNull())
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('telephony_state').execute()
    await db.schema.dropTable('telephony_call').execute()
  },
}
