/**
 * Voice mail (docs/voicemail.md): one row per voice message, owned by one mailbox (its owner's login
 * name), with its audio (a WAV file of at most MAX_VOICE_MESSAGE_BYTES) in the row.
 */
import { type Kysely, type Migration, SqliteAdapter } from 'kysely'

/** Written with the schema builder; the audio's type chosen by dialect (`blob` or `bytea`). */
export const voicemailMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
    await db.schema
      .createTable('voicemail_message')
      .addColumn('voicemail_id', 'text', (col) => col.primaryKey().notNull())
      .addColumn('login_name', 'text', (col) => col.notNull())
      .addColumn('from_party', 'text', (col) => col.notNull())
      .addColumn('deposited_at', 'bigint', (col) => col.notNull())
      .addColumn('duration', 'integer', (col) => col.notNull())
      .addColumn('unread', 'integer', (col) => col.notNull())
      .addColumn('high_priority', 'integer', (col) => col.notNull())
      .addColumn('audio_bytes', 'integer', (col) => col.notNull())
      .addColumn('audio', sqlite ? 'blob' : 'bytea', (col) => col.notNull())
      .execute()
    // A mailbox's messages by date: the listing and the counters.
    await db.schema
      .createIndex('voicemail_message_mailbox_date')
      .on('voicemail_message')
      .columns(['login_name', 'deposited_at', 'voicemail_id'])
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('voicemail_message').execute()
  },
}
