/**
 * The PlatformImageStore port on SQLite or PostgreSQL through Kysely (docs/sandbox.md): an image is the rows
 * of every durable table, read in one snapshot of the database; a restore deletes and inserts them in one
 * transaction, the engine's tables excepted (the engine stores its own state). Named snapshots are kept in
 * `platform_snapshot`, the image serialized with V8's serializer (structured clone: strings, numbers and the
 * audio's bytes as they are, faster than JSON and without base64).
 */
import { deserialize, serialize } from 'node:v8'
import type { Kysely } from 'kysely'
import type {
  DirectorySnapshot,
  PlatformImage,
  PlatformImageStore,
  SnapshotInfo,
} from '../../platform/ports.js'
import { portableState } from '../../platform/telephony/restored-state.js'
import type { CallDatabase, DirectoryDatabase, SnapshotDatabase } from './database.js'
import { readCallState } from './sql-call-store.js'
import { directoryRows } from './sql-directory-store.js'

/**
 * The tables an image holds, in the order a restore inserts them; the engine's (`telephony_*`) are read
 * into `PlatformImage.engine` instead, and the engine's lease and the snapshots themselves are no state of
 * the platform.
 */
const TABLES = [
  'account',
  'directory_setting',
  'routing_profile',
  'comlog_record',
  'comlog_user_index',
  'comlog_index_mark',
  'voicemail_message',
  'service_state',
] as const

type TableName = (typeof TABLES)[number]
type Row = Record<string, unknown>
/** What `PlatformImage.tables` holds here: every table's rows. */
type Tables = Record<TableName, Row[]>

/** The row of the clock's offset in `service_state` (sql-clock-offset-store.ts). */
const CLOCK_ROW = 'clock_offset_ms'
/** SQLite's oldest bound on a statement's parameters, which every batch stays under. */
const MAX_PARAMETERS = 999
/** The form of the images this version writes; an image of another form is refused rather than misread. */
const FORMAT = 1

// The tables are many and their types are the other stores' business: an image handles rows as rows.
// biome-ignore lint/suspicious/noExplicitAny: a Kysely over every table, whatever its columns
type AnyDatabase = Kysely<any>

export class SqlPlatformImages implements PlatformImageStore {
  readonly #db: AnyDatabase

  /** Uses `db` (the one `openDatabase` returned) without owning it: whoever opened it closes it. */
  constructor(db: Kysely<DirectoryDatabase>) {
    this.#db = db as AnyDatabase
  }

  capture(): Promise<PlatformImage> {
    return this.#db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const tables = {} as Tables
        for (const table of TABLES)
          tables[table] = await trx.selectFrom(table).selectAll().execute()
        return {
          clockOffsetMs: clockOffsetOf(tables.service_state),
          engine: await engineOf(trx as Kysely<CallDatabase>),
          tables,
        }
      })
  }

  baseline(directory: DirectorySnapshot): PlatformImage {
    const { accounts, settings } = directoryRows(directory, new Date().toISOString())
    const tables = Object.fromEntries(TABLES.map((table) => [table, []])) as unknown as Tables
    tables.account = accounts
    tables.directory_setting = settings
    return { clockOffsetMs: 0, engine: undefined, tables }
  }

  async restore(image: PlatformImage): Promise<void> {
    const tables = image.tables as Tables
    await this.#db.transaction().execute(async (trx) => {
      for (const table of TABLES) {
        await trx.deleteFrom(table).execute()
        const rows = tables[table]
        const first = rows[0]
        if (first === undefined) continue
        const batch = Math.max(1, Math.floor(MAX_PARAMETERS / Object.keys(first).length))
        for (let start = 0; start < rows.length; start += batch)
          await trx
            .insertInto(table)
            .values(rows.slice(start, start + batch))
            .execute()
      }
    })
  }

  async save(name: string, image: PlatformImage, takenAt: number): Promise<SnapshotInfo> {
    const bytes = serialize({ format: FORMAT, image })
    await this.#snapshots()
      .insertInto('platform_snapshot')
      .values({ name, taken_at: takenAt, bytes: bytes.length, image: bytes })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({
          taken_at: eb.ref('excluded.taken_at'),
          bytes: eb.ref('excluded.bytes'),
          image: eb.ref('excluded.image'),
        })),
      )
      .execute()
    return { name, takenAt, bytes: bytes.length }
  }

  async load(name: string): Promise<PlatformImage | undefined> {
    const row = await this.#snapshots()
      .selectFrom('platform_snapshot')
      .select('image')
      .where('name', '=', name)
      .executeTakeFirst()
    if (row === undefined) return undefined
    const stored = deserialize(row.image) as { format: unknown; image: PlatformImage }
    if (stored.format !== FORMAT)
      throw new Error(`The snapshot ${name} has the form ${String(stored.format)}, not ${FORMAT}`)
    return stored.image
  }

  async list(): Promise<SnapshotInfo[]> {
    const rows = await this.#snapshots()
      .selectFrom('platform_snapshot')
      .select(['name', 'taken_at', 'bytes'])
      .orderBy('name')
      .execute()
    return rows.map((row) => ({ name: row.name, takenAt: Number(row.taken_at), bytes: row.bytes }))
  }

  async delete(name: string): Promise<boolean> {
    const result = await this.#snapshots()
      .deleteFrom('platform_snapshot')
      .where('name', '=', name)
      .executeTakeFirst()
    return result.numDeletedRows > 0n
  }

  #snapshots(): Kysely<SnapshotDatabase> {
    return this.#db as Kysely<SnapshotDatabase>
  }
}

/** The clock's offset the `service_state` rows hold; 0 when they hold none. */
function clockOffsetOf(rows: readonly Row[]): number {
  const row = rows.find((candidate) => candidate['name'] === CLOCK_ROW)
  return row === undefined ? 0 : Number(JSON.parse(String(row['value'])))
}

/** The engine's state as the `telephony_*` tables hold it, in the caller's transaction. */
async function engineOf(trx: Kysely<CallDatabase>): Promise<PlatformImage['engine']> {
  const read = await readCallState(trx)
  return read && portableState(read.state)
}
