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
    it('answers 0 when no offset was stored, then the sum of the advances', async () => {
      const db = await open(nextTarget(), true)
      try {
        const store = new SqlClockOffsetStore(serviceTables(db))
        expect(await store.load()).toBe(0)
        expect(await store.advance(60_000)).toBe(60_000)
        expect(await store.load()).toBe(60_000)
        expect(await store.advance(30_500.25)).toBe(90_500.25)
        expect(await store.load()).toBe(90_500.25)
      } finally {
        await db.destroy()
      }
    })

    it('adds up advances made at the same moment through several connections (several nodes)', async () => {
      const target = nextTarget()
      const db = await open(target, true)
      const others = target.kind === 'postgres' ? [await open(target), await open(target)] : []
      try {
        const stores = [db, ...others].map((each) => new SqlClockOffsetStore(serviceTables(each)))
        const answers = await Promise.all(
          Array.from({ length: 12 }, (_, index) =>
            stores[index % stores.length]?.advance(1_000 * (index + 1)),
          ),
        )
        const total = (12 * 13 * 1_000) / 2
        expect(await stores[0]?.load()).toBe(total)
        // Each advance answered the offset it stored: all different, the largest the sum.
        expect(new Set(answers).size).toBe(12)
        expect(Math.max(...answers.map(Number))).toBe(total)
      } finally {
        await Promise.all([db, ...others].map((each) => each.destroy()))
      }
    })

    it('refuses an advance that would set the clock back', async () => {
      const db = await open(nextTarget(), true)
      try {
        const store = new SqlClockOffsetStore(serviceTables(db))
        await expect(store.advance(-1)).rejects.toThrow(RangeError)
        expect(await store.load()).toBe(0)
      } finally {
        await db.destroy()
      }
    })

    it.runIf(reopenable)('keeps the offset across a reopen, as across a restart', async () => {
      const target = nextTarget()
      const first = await open(target, true)
      await new SqlClockOffsetStore(serviceTables(first)).advance(3_600_000)
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
