/**
 * The contact center's tickets (docs/contact-center.md, "Tickets"): one row per ACD call, a column per field of
 * the AcdTicket, times and durations in milliseconds, the fields a ticket may lack nullable. Read by closing time,
 * all of them or a pilot's or an agent's; pruned by closing time.
 */
import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely'

/** Written with the schema builder, the ticket id's collation chosen by dialect. */
export const acdTicketsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('acd_ticket')
      // Tickets are read in (closed_at, ticket_id) order: ids compare by code point on every dialect, as
      // SQLite's default collation does and PostgreSQL's "C" does (the database's own may be a language's).
      .addColumn('ticket_id', 'text', (col) =>
        (isSqlite(db) ? col : col.modifyFront(sql`collate "C"`)).primaryKey().notNull(),
      )
      .addColumn('pilot', 'text', (col) => col.notNull())
      .addColumn('queue', 'text')
      .addColumn('processing_group', 'text')
      .addColumn('caller', 'text', (col) => col.notNull())
      .addColumn('call_ref', 'text', (col) => col.notNull())
      .addColumn('arrived_at', 'bigint', (col) => col.notNull())
      .addColumn('queued_at', 'bigint')
      .addColumn('answered_at', 'bigint')
      .addColumn('ended_at', 'bigint', (col) => col.notNull())
      .addColumn('closed_at', 'bigint', (col) => col.notNull())
      .addColumn('agent', 'text')
      .addColumn('offers', 'integer', (col) => col.notNull())
      .addColumn('refusals', 'integer', (col) => col.notNull())
      .addColumn('wait_ms', 'bigint', (col) => col.notNull())
      .addColumn('queue_wait_ms', 'bigint', (col) => col.notNull())
      .addColumn('handling_ms', 'bigint', (col) => col.notNull())
      .addColumn('wrap_up_ms', 'bigint', (col) => col.notNull())
      .addColumn('outcome', 'text', (col) => col.notNull())
      .addColumn('overflow_to', 'text')
      .addColumn('transaction_code', 'text')
      .execute()
    // Every read (a period, paged by the last ticket) and the prune.
    await db.schema
      .createIndex('acd_ticket_closed')
      .on('acd_ticket')
      .columns(['closed_at', 'ticket_id'])
      .execute()
    // A pilot's tickets of a period, and an agent's.
    await db.schema
      .createIndex('acd_ticket_pilot_closed')
      .on('acd_ticket')
      .columns(['pilot', 'closed_at'])
      .execute()
    await db.schema
      .createIndex('acd_ticket_agent_closed')
      .on('acd_ticket')
      .columns(['agent', 'closed_at'])
      .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('acd_ticket').execute()
  },
}

/** Whether the migration runs on SQLite. */
function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter
}
