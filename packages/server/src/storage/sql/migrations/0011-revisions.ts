/**
 * Gives the rows that several nodes change a revision (docs/cluster.md, "No lost update"): an opaque token the
 * store writes anew with each change of the row, so that a change planned on a copy is written only while the
 * row still holds the revision the copy was read at. Rows stored before carry `0` until their next change.
 */
import type { Kysely, Migration } from 'kysely'

/** The tables whose rows carry a revision. */
const REVISED_TABLES = ['account', 'routing_profile'] as const

/** Written with the schema builder alone so it runs unchanged on SQLite and PostgreSQL. */
export const revisionsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const table of REVISED_TABLES)
      await db.schema
        .alterTable(table)
        .addColumn('revision', 'text', (col) => col.notNull().defaultTo('0'))
        .execute()
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of REVISED_TABLES)
      await db.schema.alterTable(table).dropColumn('revision').execute()
  },
}
