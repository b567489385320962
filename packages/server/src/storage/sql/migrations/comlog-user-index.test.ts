/** Migration 0007 on a log written before it: the records stay found, through the new index. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { initialState } from '../../../platform/telephony/telephony-state.js'
import { callTables, openDatabase } from '../database.js'
import { SqlCallStore } from '../sql-call-store.js'
import { SqlComlogStore } from '../sql-comlog-store.js'
import { MIGRATIONS } from './index.js'

describe('migration 0007 (the log indexed by user and date in a table of its own)', () => {
  it('indexes the records stored before it, and numbers the next ones after them', async () => {
    const root = await mkdtemp(join(tmpdir(), 'openness-migration-'))
    const filename = join(root, 'before.sqlite3')
    try {
      const before = new Kysely<unknown>({
        dialect: new SqliteDialect({ database: new SQLite(filename) }),
      })
      const { '0007-comlog-user-index': _, ...upTo0006 } = MIGRATIONS
      const { error } = await new Migrator({
        db: before,
        provider: { getMigrations: async () => upTo0006 },
        allowUnorderedMigrations: true,
      }).migrateToLatest()
      expect(error).toBeUndefined()
      const record = JSON.stringify({ comRef: 'old-call', participants: [], holdDuration: 0 })
      for (const [id, login, day] of [
        [7, 'alice', 1],
        [9, 'alice', 2],
        [8, 'bob', 1],
      ] as const)
        await sql`insert into comlog_record (record_id, login_name, begin_at, com_ref, role, answered,
          acknowledged, missed, reason, remote_ids, record)
          values (${id}, ${login}, ${day * 86_400_000}, ${`old-${id}`}, 'CALLER', 1, 0, 0, 'NORMAL', '|x|',
          ${record})`.execute(before)
      await before.destroy()

      const db = callTables(await openDatabase({ kind: 'sqlite', filename }))
      try {
        const page = await new SqlComlogStore(db).findRecords('alice', {}, { offset: 0, limit: 9 })
        expect(page.totalCount).toBe(2)
        expect(page.records.map((stored) => stored.record.recordId)).toStrictEqual([9, 7])
        const [next] = await new SqlCallStore(db, { ownsDatabase: false }).saveWithRecords(
          initialState([], '5ca1ab1e'.repeat(8)),
          { changedCallRefs: [], removedCallRefs: [] },
          [
            {
              loginName: 'alice',
              beginAt: 3 * 86_400_000,
              role: 'CALLEE',
              answered: true,
              reason: 'NORMAL',
              missed: false,
              remotePartyIds: [],
              record: {
                comRef: 'new-call',
                participants: [],
                beginDate: new Date(3 * 86_400_000).toISOString(),
                endDate: new Date(3 * 86_400_000).toISOString(),
                holdDuration: 0,
              },
            },
          ],
        )
        expect(next?.record.recordId).toBe(10)
      } finally {
        await db.destroy()
      }
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
