/**
 * The SQL databases every store conformance suite runs on (style guide 6): SQLite in memory, a SQLite file
 * per case (that a case may reopen, as a restart would), and PostgreSQL when DATABASE_URL names one (a
 * schema per run, so that concurrent runs never meet, dropped afterwards).
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe } from 'vitest'
import type { DatabaseTarget } from '../../src/storage/sql/database.js'

/** Declares a suite for one target: its label, a fresh target per case, and whether it survives a reopen. */
export type SqlSuite = (
  label: string,
  nextTarget: () => DatabaseTarget,
  reopenable: boolean,
) => void

/** Runs `suite` on every SQL target, labelled with `store` (e.g. "SqlCallStore"). */
export function onEverySqlTarget(store: string, suite: SqlSuite): void {
  suite(`${store} on SQLite :memory:`, () => ({ kind: 'sqlite', filename: ':memory:' }), false)

  describe('SQLite file', () => {
    let directory = ''
    let files = 0
    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), 'openness-store-'))
    })
    afterAll(async () => {
      await rm(directory, { recursive: true, force: true })
    })
    // A file per case keeps cases apart.
    suite(
      `${store} on a SQLite file`,
      () => {
        files += 1
        return { kind: 'sqlite', filename: join(directory, `${files}.sqlite3`) }
      },
      true,
    )
  })

  const { DATABASE_URL: databaseUrl } = process.env
  const postgresUrl = databaseUrl?.startsWith('postgres') ? databaseUrl : undefined
  const skipReason =
    databaseUrl === undefined ? 'DATABASE_URL is not set' : 'DATABASE_URL is not a PostgreSQL URL'
  describe.skipIf(postgresUrl === undefined)(
    postgresUrl === undefined ? `PostgreSQL (skipped: ${skipReason})` : 'PostgreSQL',
    () => {
      const connectionString = postgresUrl ?? ''
      const schema = `openness_test_${randomBytes(6).toString('hex')}`
      afterAll(async () => {
        const client = new pg.Client({ connectionString })
        await client.connect()
        try {
          await client.query(`drop schema if exists "${schema}" cascade`)
        } finally {
          await client.end()
        }
      })
      // One schema for the run: the store's tables are emptied by each case's factory.
      suite(`${store} on PostgreSQL`, () => ({ kind: 'postgres', connectionString, schema }), true)
    },
  )
}
