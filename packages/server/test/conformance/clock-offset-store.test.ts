/** The SqlClockOffsetStore on every SQL target (sql-targets.ts): what it saves, a reopen reads back. */
import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
  type DatabaseTarget,
  type DirectoryDatabase,
  openDatabase,
  serviceTables,
} from '../../src/storage/sql/database.js'
import { SqlClockOffsetStore } from '../../src/storage/sql/sql-clock-offset-store.js'
import { onEverySqlTarget } from './sql-targets.js'

/** Opens the database; `empty` clears the service's table first (a PostgreSQL schema is shared by the run). */
async function open(target: DatabaseTarget, empty = false): Promise<Kysely<DirectoryDatabase>> {
  const db = await openDatabase(target)
  if (empty) await serviceTables(db).deleteFrom('service_state').execute()
  return db
}

onEverySqlTarget('SqlClockOffsetStore', (label, nextTarget, reopenable) =>
  describe(label, () => {
    it('answers 0 when no offset was saved, then the offset saved last', async () => {
      const db = await open(nextTarget(), true)
      try {
        const store = new SqlClockOffsetStore(serviceTables(db))
        expect(await store.load()).toBe(0)
        await store.save(60_000)
        expect(await store.load()).toBe(60_000)
        await store.save(90_500.25)
        expect(await store.load()).toBe(90_500.25)
      } finally {
        await db.destroy()
      }
    })

    it.runIf(reopenable)('keeps the offset across a reopen, as across a restart', async () => {
      const target = nextTarget()
      const first = await open(target, true)
      await new SqlClockOffsetStore(serviceTables(first)).save(3_600_000)
      await first.destroy()
      const second = await open(target)
      try {
        expect(await new SqlClockOffsetStore(serviceTables(second)).load()).toBe(3_600_000)
      } finally {
        await second.destroy()
      }
    })

    it('refuses a stored value that is not a number of milliseconds', async () => {
      const db = await open(nextTarget(), true)
      try {
        await serviceTables(db)
          .insertInto('service_state')
          .values({ name: 'clock_offset_ms', value: '"soon"' })
          .execute()
        await expect(new SqlClockOffsetStore(serviceTables(db)).load()).rejects.toThrow(
          /not a number of milliseconds/,
        )
      } finally {
        await db.destroy()
      }
    })
  }),
)
