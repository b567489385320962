/** The checkpoint thread: it copies the WAL back into the database file without the writer, and lets go. */
import { existsSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from './database.js'
import { startWalCheckpointer, WRITER_AUTOCHECKPOINT } from './wal-checkpointer.js'

const OPTIONS = { intervalMs: 10, busyTimeoutMs: 1_000 }

describe('startWalCheckpointer', () => {
  let dir: string
  let filename: string
  let writer: SQLite.Database

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openness-wal-'))
    filename = join(dir, 'test.sqlite3')
    writer = new SQLite(filename)
    writer.pragma('journal_mode = WAL')
    writer.exec('create table row (id integer primary key, value text not null)')
  })

  afterEach(async () => {
    if (writer.open) writer.close()
    await rm(dir, { recursive: true, force: true })
  })

  /** Writes about 2 MB in 500 transactions: far below the writer's own checkpoint bound. */
  function write(): void {
    const insert = writer.prepare('insert into row (value) values (?)')
    for (let i = 0; i < 500; i++) insert.run('x'.repeat(4_000))
  }

  async function until(condition: () => boolean): Promise<void> {
    const deadline = Date.now() + 5_000
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('timed out')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  it('copies the pages the writer committed into the database file, the writer not checkpointing', async () => {
    const checkpointer = startWalCheckpointer(writer, filename, OPTIONS)
    const before = statSync(filename).size

    write()
    await until(() => statSync(filename).size > before + 1_000_000)

    expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(WRITER_AUTOCHECKPOINT)
    expect(await checkpointer.checkpoints()).toBeGreaterThan(0)
    expect(writer.prepare('select count(*) as n from row').get()).toStrictEqual({ n: 500 })
    await checkpointer.stop()
  })

  it('lets go of the database when stopped: the writer, last to close, removes the WAL', async () => {
    const checkpointer = startWalCheckpointer(writer, filename, OPTIONS)
    write()
    await until(() => statSync(filename).size > 1_000_000)

    // The thread closes its connection before it exits; the writer's close then checkpoints the rest.
    await Promise.all([checkpointer.stop(), checkpointer.stop()])
    writer.close()

    expect(existsSync(`${filename}-wal`)).toBe(false)
    const reader = new SQLite(filename, { readonly: true })
    expect(reader.prepare('select count(*) as n from row').get()).toStrictEqual({ n: 500 })
    reader.close()
  })

  it('puts the writer’s automatic checkpoint back when the thread fails, and says so', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(warning.message)
    process.on('warning', onWarning)
    try {
      startWalCheckpointer(writer, join(dir, 'no-such-dir', 'x.sqlite3'), OPTIONS)

      await until(() => writer.pragma('wal_autocheckpoint', { simple: true }) === 1_000)
      write()

      expect(writer.prepare('select count(*) as n from row').get()).toStrictEqual({ n: 500 })
      await until(() => warnings.length > 0)
      expect(warnings).toEqual([
        expect.stringMatching(
          /^SQLite checkpoint thread failed \(.+\); .*x\.sqlite3 is checkpointed in its commits$/,
        ),
      ])
    } finally {
      process.off('warning', onWarning)
    }
  })
})

describe('openDatabase on a SQLite file', () => {
  /** Opens a file database, writes about 1.2 MB in 300 commits; the file's size before and after. */
  async function fill(checkpointThread: boolean | undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'openness-wal-'))
    const filename = join(dir, 'db.sqlite3')
    const db = await openDatabase({
      kind: 'sqlite',
      filename,
      ...(checkpointThread !== undefined && { checkpointThread }),
    })
    await db.schema
      .createTable('blob')
      .addColumn('value', 'text', (col) => col.notNull())
      .execute()
    // The migrations' pages copied back first: the fill alone then counts towards the automatic checkpoint,
    // however many migrations there are.
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db)
    const size = statSync(filename).size
    for (let i = 0; i < 300; i++)
      await db
        .insertInto('blob' as never)
        .values({ value: 'y'.repeat(4_000) } as never)
        .execute()
    return { dir, filename, db, size }
  }

  it('checkpoints in its commits, every 1,000 pages, when the thread is off', async () => {
    const { dir, filename, db, size } = await fill(false)
    try {
      // 300 pages written: below SQLite's automatic checkpoint, which alone copies them back.
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(statSync(filename).size).toBe(size)
      await db.destroy()
      expect(existsSync(`${filename}-wal`)).toBe(false)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('checkpoints from its thread by default, and closes whole on destroy', async () => {
    const { dir, filename, db, size } = await fill(undefined)
    try {
      const deadline = Date.now() + 5_000
      while (statSync(filename).size < size + 1_000_000 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10))

      expect(statSync(filename).size).toBeGreaterThan(size + 1_000_000)
      // Destroy waits for the thread to let go: the service's connection, closed last, removed the WAL.
      await db.destroy()
      expect(existsSync(`${filename}-wal`)).toBe(false)
      expect(existsSync(`${filename}-shm`)).toBe(false)
      const reader = new SQLite(filename, { readonly: true })
      expect(reader.prepare('select count(*) as n from blob').get()).toStrictEqual({ n: 300 })
      reader.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
