/** Creates the table of users' routing (docs/routing.md): one row per user whose routing was changed. */
import type { Kysely, Migration } from 'kysely'

/** Written with the schema builder alone so it runs unchanged on SQLite and PostgreSQL. */
export const routingMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('routing_profile')
      .addColumn('login_name', 'text', (col) => col.primaryKey().notNull())
      .addColumn('profile', 'text', (col) => col.notNull())
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('routing_profile').execute()
  },
}
