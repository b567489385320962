/**
 * Runs the CallStore conformance suite in memory, on SQLite (in memory, and a file reopened as after a
 * restart), and on PostgreSQL when DATABASE_URL names one.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryCallStore } from '../../src/storage/memory/memory-call-store.js'
import { callTables, type DatabaseTarget, openDatabase } from '../../src/storage/sql/database.js'
import { SqlCallStore } from '../../src/storage/sql/sql-call-store.js'
import { callStoreConformance } from './call-store.js'

async function openStore(target: DatabaseTarget): Promise<SqlCallStore> {
  return new SqlCallStore(callTables(await openDatabase(target)))
}

callStoreConformance('MemoryCallStore', async () => ({ store: new MemoryCallStore() }))

callStoreConformance('SqlCallStore on SQLite :memory:', async () => ({
  store: await openStore({ kind: 'sqlite', filename: ':memory:' }),
}))

describe('SQLite file', () => {
  let directory: string
  let files = 0

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'openness-call-store-'))
  })

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  // A file per case keeps cases apart; reopen opens that same file, as a restart would.
  callStoreConformance('SqlCallStore on a SQLite file', async () => {
    files += 1
    const target: DatabaseTarget = { kind: 'sqlite', filename: join(directory, `${files}.sqlite3`) }
    return { store: await openStore(target), reopen: () => openStore(target) }
  })
})

describe('SqlCallStore over a state saved before migration 0003', () => {
  it('loads devices and index kept inline, then writes them as rows at the next save', async () => {
    const db = callTables(await openDatabase({ kind: 'sqlite', filename: ':memory:' }))
    const device = { deviceId: '1001', loginName: 'émile', state: 'IN_SERVICE', mutable: true }
    const legacy = {
      sequence: 3,
      calls: null,
      devices: { '1001': { ...device, muted: false } },
      timers: [],
      callsByUser: {},
      callsByDevice: {},
    }
    await db
      .insertInto('telephony_state')
      .values({ name: 'state', value: JSON.stringify(legacy) })
      .execute()
    const store = new SqlCallStore(db, { ownsDatabase: false })
    const loaded = await store.load()
    expect(loaded).toStrictEqual({ ...legacy, calls: {} })
    if (loaded === undefined) throw new Error('nothing loaded')

    await store.save(loaded, { changedCallRefs: [], removedCallRefs: [] })

    const rows = await db.selectFrom('telephony_device').select('device_id').execute()
    expect(rows).toStrictEqual([{ device_id: '1001' }])
    const rest = await db.selectFrom('telephony_state').select('value').executeTakeFirstOrThrow()
    expect(JSON.parse(rest.value)).toStrictEqual({
      ...legacy,
      devices: null,
      callsByUser: null,
      callsByDevice: null,
    })
    expect(await new SqlCallStore(db).load()).toStrictEqual({ ...legacy, calls: {} })
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

    callStoreConformance('SqlCallStore on PostgreSQL', async () => {
      const db = callTables(await openDatabase(target))
      await db.deleteFrom('telephony_call').execute()
      await db.deleteFrom('telephony_device').execute()
      await db.deleteFrom('telephony_state').execute()
      return { store: new SqlCallStore(db), reopen: () => openStore(target) }
    })
  },
)
