/**
 * Gives the devices of the call engine's state rows of their own (JSON by deviceId, with the position that
 * keeps them in the order they were first saved), so that a save writes the devices it changed instead of
 * all of them inside the `telephony_state` row. A `telephony_state` row written before this migration
 * (devices and call index inline) stays readable: the store loads it as it is and writes it anew, devices
 * in rows, at its next save (call-state-json.ts `decodeState`, `legacy`); no data is moved here.
 */
import type { Kysely, Migration } from 'kysely'

/** Written with the schema builder alone so it runs unchanged on SQLite and PostgreSQL. */
export const callDevicesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('telephony_device')
      .addColumn('device_id', 'text', (col) => col.primaryKey().notNull())
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('record', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('telephony_device_position')
      .on('telephony_device')
      .column('position')
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('telephony_device').execute()
  },
}
