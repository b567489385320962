/**
 * Mini messages (docs/telephony-api.md, "Mini messages"): one row per unread message, in its recipient's queue
 * (`login_name`) at `position`, which orders the queue (the most recent has the highest); a message read is
 * deleted.
 */
import type { Kysely, Migration } from 'kysely'

/** Written with the schema builder alone so it runs unchanged on SQLite and PostgreSQL. */
export const miniMessagesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('mini_message')
      .addColumn('message_id', 'text', (col) => col.primaryKey().notNull())
      .addColumn('login_name', 'text', (col) => col.notNull())
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('sender', 'text', (col) => col.notNull())
      .addColumn('sent_at', 'bigint', (col) => col.notNull())
      .addColumn('text', 'text', (col) => col.notNull())
      .execute()
    // A queue in order, and two nodes that push at the same place refused one of them.
    await db.schema
      .createIndex('mini_message_queue')
      .on('mini_message')
      .columns(['login_name', 'position'])
      .unique()
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('mini_message').execute()
  },
}
