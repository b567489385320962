/** Runs the DirectoryStore conformance suite on SQLite, and on PostgreSQL when DATABASE_URL names one. */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe } from 'vitest'
import { type DatabaseTarget, openDatabase } from '../../src/storage/sql/database.js'
import { SqlDirectoryStore } from '../../src/storage/sql/sql-directory-store.js'
import { directoryStoreConformance } from './directory-store.js'

async function openStore(target: DatabaseTarget): Promise<SqlDirectoryStore> {
  return new SqlDirectoryStore(await openDatabase(target))
}

directoryStoreConformance('SqlDirectoryStore on SQLite :memory:', async () => ({
  store: await openStore({ kind: 'sqlite', filename: ':memory:' }),
}))

describe('SQLite file', () => {
  let directory: string
  let files = 0

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'openness-directory-store-'))
  })

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  // A file per case keeps cases apart; reopen opens that same file, as a restart would.
  directoryStoreConformance('SqlDirectoryStore on a SQLite file', async () => {
    files += 1
    const target: DatabaseTarget = { kind: 'sqlite', filename: join(directory, `${files}.sqlite3`) }
    return { store: await openStore(target), reopen: () => openStore(target) }
  })
})

const { DATABASE_URL: databaseUrl } = process.env
const postgresUrl = databaseUrl?.startsWith('postgres') ? databaseUrl : undefined
const postgresSkipReason =
  databaseUrl === undefined ? 'DATABASE_URL is not set' : 'DATABASE_URL is not a PostgreSQL URL'

describe.skipIf(postgresUrl === undefined)(
  postgresUrl === undefined ? `PostgreSQL (skipped: ${postgresSkipReason})` : 'PostgreSQL',
  () => {
    const connectionString = postgresUrl ?? ''
    // One schema per run, so that concurrent runs on the same database never meet.
    const schema = `openness_test_${randomBytes(6).toString('hex')}`
    const target: DatabaseTarget = { kind: 'postgres', connectionString, schema }

    afterAll(async () => {
      const client = new pg.Client({ connectionString })
      await client.connect()
      try {
        await client.query(`drop schema if exists "${schema}" cascade`)
      } finally {
        await client.end()
      }
    })

    directoryStoreConformance('SqlDirectoryStore on PostgreSQL', async () => {
      const db = await openDatabase(target)
      await db.deleteFrom('account').execute()
      await db.deleteFrom('directory_setting').execute()
      return { store: new SqlDirectoryStore(db), reopen: () => openStore(target) }
    })
  },
)
