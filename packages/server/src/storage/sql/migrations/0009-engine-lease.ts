/**
 * The lease of the call engine's owner in cluster mode (docs/cluster-engine.md, "Engine lease and fencing"): one
 * row per lease (`call-engine`), whose epoch each new owner increments, so that every transaction that stores the
 * engine's state can check that its writer is still the owner (fencing). Who owns it is decided by a PostgreSQL
 * advisory lock, not by the row; the row says which node took it and when, for operators.
 */
import type { Kysely, Migration } from 'kysely'

/** Written with the schema builder alone so it runs unchanged on SQLite (where the one node owns it). */
export const engineLeaseMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('engine_lease')
      .addColumn('name', 'text', (col) => col.primaryKey().notNull())
      .addColumn('epoch', 'bigint', (col) => col.notNull())
      .addColumn('owner_node', 'text', (col) => col.notNull())
      .addColumn('acquired_at', 'bigint', (col) => col.notNull())
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('engine_lease').execute()
  },
}
