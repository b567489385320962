/** Creates the directory tables: accounts and directory-wide settings, JSON kept as text. */
import type { Kysely, Migration } from 'kysely'

/** The first schema: written with the schema builder alone so it runs unchanged on SQLite and PostgreSQL. */
export const directoryMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('account')
      .addColumn('login_name', 'text', (col) => col.primaryKey().notNull())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('record', 'text', (col) => col.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('password_changed_at', 'text')
      .addColumn('preferences', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createTable('directory_setting')
      .addColumn('name', 'text', (col) => col.primaryKey().notNull())
      .addColumn('value', 'text', (col) => col.notNull())
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('directory_setting').execute()
    await db.schema.dropTable('account').execute()
  },
}
