/**
 * Snapshots of the platform (docs/sandbox.md): one row per named snapshot, its image serialized in the row.
 */
import { type Kysely, type Migration, SqliteAdapter } from 'kysely'

/** Written with the schema builder; the image's type chosen by dialect (`blob` or `bytea`). */
export const platformSnapshotMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
    await db.schema
      .createTable('platform_snapshot')
      .addColumn('name', 'text', (col) => col.primaryKey().notNull())
      .addColumn('taken_at', 'bigint', (col) => col.notNull())
      .addColumn('bytes', 'integer', (col) => col.notNull())
      .addColumn('image', sqlite ? 'blob' : 'bytea', (col) => col.notNull())
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('platform_snapshot').execute()
  },
}
