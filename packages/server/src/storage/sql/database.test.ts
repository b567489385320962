/** How DATABASE_URL chooses the database, and how a SQLite file is opened. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { databaseTargetFromUrl, openDatabase, SQLITE_FILENAME } from './database.js'

describe('databaseTargetFromUrl', () => {
  const dataDir = join('var', 'openness')

  it('chooses the SQLite file in the data directory when DATABASE_URL is unset or empty', () => {
    const target = { kind: 'sqlite', filename: join(dataDir, SQLITE_FILENAME) }

    expect(databaseTargetFromUrl(undefined, dataDir)).toStrictEqual(target)
    expect(databaseTargetFromUrl('', dataDir)).toStrictEqual(target)
    expect(target.filename).toBe(join('var', 'openness', 'openness.sqlite3'))
  })

  it('passes a PostgreSQL URL through whole, under either scheme', () => {
    for (const url of [
      'postgres://app:secret@db.example:5432/openness?sslmode=require',
      'postgresql://localhost/openness',
    ]) {
      expect(databaseTargetFromUrl(url, dataDir)).toStrictEqual({
        kind: 'postgres',
        connectionString: url,
      })
    }
  })

  it('reads sqlite:<path> and sqlite::memory:', () => {
    expect(databaseTargetFromUrl('sqlite:/srv/data/directory.db', dataDir)).toStrictEqual({
      kind: 'sqlite',
      filename: '/srv/data/directory.db',
    })
    expect(databaseTargetFromUrl('sqlite:relative/dir.db', dataDir)).toStrictEqual({
      kind: 'sqlite',
      filename: 'relative/dir.db',
    })
    expect(databaseTargetFromUrl('sqlite::memory:', dataDir)).toStrictEqual({
      kind: 'sqlite',
      filename: ':memory:',
    })
  })

  it('marks a SQLite target to be checkpointed in its commits when the thread is off, and no other', () => {
    const off = { checkpointThread: false }

    expect(databaseTargetFromUrl(undefined, dataDir, off)).toStrictEqual({
      kind: 'sqlite',
      filename: join(dataDir, SQLITE_FILENAME),
      checkpointThread: false,
    })
    expect(databaseTargetFromUrl('sqlite:/srv/x.db', dataDir, off)).toStrictEqual({
      kind: 'sqlite',
      filename: '/srv/x.db',
      checkpointThread: false,
    })
    expect(databaseTargetFromUrl('postgres://db/x', dataDir, off)).toStrictEqual({
      kind: 'postgres',
      connectionString: 'postgres://db/x',
    })
    expect(
      databaseTargetFromUrl('sqlite:/srv/x.db', dataDir, { checkpointThread: true }),
    ).toStrictEqual({ kind: 'sqlite', filename: '/srv/x.db' })
  })

  it('rejects other URLs naming DATABASE_URL, without echoing credentials', () => {
    const url = 'mysql://root:hunter2@localhost/openness'

    expect(() => databaseTargetFromUrl(url, dataDir)).toThrow(
      new Error(
        'DATABASE_URL must be postgres://…, postgresql://…, sqlite:<path> or sqlite::memory:; got mysql:',
      ),
    )
    expect(() => databaseTargetFromUrl('openness.db', dataDir)).toThrow(
      /^DATABASE_URL .* no scheme$/,
    )
    expect(() => databaseTargetFromUrl('sqlite:', dataDir)).toThrow(
      /DATABASE_URL "sqlite:" names no file/,
    )
  })
})

describe('openDatabase', () => {
  it('creates a SQLite file and its directory, in WAL mode with foreign keys on, migrated', async () => {
    const root = await mkdtemp(join(tmpdir(), 'openness-database-'))
    const target = databaseTargetFromUrl(undefined, join(root, 'data'))
    try {
      const db = await openDatabase(target)
      try {
        const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db)
        const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)
        const tables = await db.introspection.getTables()

        expect(journal.rows).toStrictEqual([{ journal_mode: 'wal' }])
        expect(foreignKeys.rows).toStrictEqual([{ foreign_keys: 1 }])
        expect(tables.map((table) => table.name).sort()).toStrictEqual([
          'account',
          'acd_ticket',
          'comlog_index_mark',
          'comlog_record',
          'comlog_user_index',
          'directory_setting',
          'engine_lease',
          'mini_message',
          'platform_snapshot',
          'routing_profile',
          'service_state',
          'telephony_call',
          'telephony_device',
          'telephony_state',
          'voicemail_message',
        ])
      } finally {
        await db.destroy()
      }
      // Migrating again is a no-op, as on every restart.
      await (await openDatabase(target)).destroy()
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })

  it('names the failed migration when the schema cannot be brought up to date', async () => {
    const root = await mkdtemp(join(tmpdir(), 'openness-database-'))
    const filename = join(root, 'clash.sqlite3')
    try {
      const clash = new SQLite(filename)
      clash.exec('create table account (login_name text)')
      clash.close()

      await expect(openDatabase({ kind: 'sqlite', filename })).rejects.toThrow(
        new Error(
          'Migrating the directory database failed at 0001-directory: table "account" already exists',
        ),
      )
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})

describe('a SQLite database, its statements prepared once', () => {
  it('answers each query right when more distinct statements come than it keeps prepared', async () => {
    const db = await openDatabase({ kind: 'sqlite', filename: ':memory:' })
    try {
      for (const round of [1, 2]) {
        for (let n = 0; n < 300; n++) {
          const { rows } = await sql<{
            n: number
            round: number
          }>`select ${sql.lit(n)} as n, ${round} as round`.execute(db)
          expect(rows).toEqual([{ n, round }])
        }
      }
    } finally {
      await db.destroy()
    }
  })

  it('runs the same statement again with other parameters, reading and writing', async () => {
    const db = await openDatabase({ kind: 'sqlite', filename: ':memory:' })
    try {
      await sql`create table t (k integer primary key, v text)`.execute(db)
      for (let k = 0; k < 3; k++)
        await sql`insert into t (k, v) values (${k}, ${`v${k}`})`.execute(db)
      for (let k = 0; k < 3; k++) {
        const { rows } = await sql<{ v: string }>`select v from t where k = ${k}`.execute(db)
        expect(rows).toEqual([{ v: `v${k}` }])
      }
    } finally {
      await db.destroy()
    }
  })
})
