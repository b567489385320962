/**
 * A table of values of the service that belong neither to the directory nor to the calls, by name: for now
 * how far the control plane set the service's clock ahead (`clock_offset_ms`), which a restart goes on from.
 */
import type { Kysely, Migration } from 'kysely'

/** Written with the schema builder alone so it runs unchanged on SQLite and PostgreSQL. */
export const serviceStateMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('service_state')
      .addColumn('name', 'text', (col) => col.primaryKey().notNull())
      .addColumn('value', 'text', (col) => col.notNull())
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('service_state').execute()
  },
}
