/**
 * The PlatformImageStore port on SQLite or PostgreSQL through Kysely (docs/sandbox.md): an image is the rows
 * of every durable table, read in one snapshot of the database; a restore deletes and inserts them in one
 * transaction, the engine's tables excepted (the engine stores its own state). Named snapshots are kept in
 * `platform_snapshot`, the image serialized with V8's serializer (structured clone: strings, numbers and the
 * audio's bytes as they are, faster than JSON and without base64).
 */
import { deserialize, serialize } from 'node:v8'
import type { Kysely } from 'kysely'
import type { DirectorySnapshot } from '../../platform/directory/directory-store.js'
import type {
  PlatformImage,
  PlatformImageStore,
  RestoredRows,
  SnapshotInfo,
} from '../../platform/sandbox/platform-image-store.js'
import { portableState } from '../../platform/telephony/restored-state.js'
import type { CallDatabase, DirectoryDatabase, SnapshotDatabase } from './database.js'
import { isUniqueViolation, isWriteConflict } from './revision.js'
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
  'mini_message',
  'acd_ticket',
  'service_state',
] as const

type TableName = (typeof TABLES)[number]

/** The columns that name a row of each table: its primary key (the index by user, every column). */
const KEYS: Readonly<Record<TableName, readonly string[]>> = {
  account: ['login_name'],
  directory_setting: ['name'],
  routing_profile: ['login_name'],
  comlog_record: ['record_id'],
  comlog_user_index: ['login_name', 'begin_at', 'record_id'],
  comlog_index_mark: ['name'],
  voicemail_message: ['voicemail_id'],
  mini_message: ['message_id'],
  acd_ticket: ['ticket_id'],
  service_state: ['name'],
}
type Row = Record<string, unknown>
/** What `PlatformImage.tables` holds here: every table's rows. */
type Tables = Record<TableName, Row[]>

/** The row of the clock's offset in `service_state` (sql-clock-offset-store.ts). */
const CLOCK_ROW = 'clock_offset_ms'
/** SQLite's oldest bound on a statement's parameters, which every batch stays under. */
const MAX_PARAMETERS = 999
/** The form of the images this version writes; an image of another form is refused rather than misread. */
const FORMAT = 1
/** How many times a restore that met a concurrent change runs again before it fails with it. */
const RESTORE_ATTEMPTS = 5

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

  /**
   * Makes every table hold the image's rows, in one serializable transaction planned on what it read: a row
   * another writer inserted after the read (another node creating a user meanwhile: the unique key refuses the
   * restore's insert) or a concurrent change PostgreSQL cannot order refuses the transaction, which runs again
   * on what is stored then, at most RESTORE_ATTEMPTS times (docs/cluster.md, "No lost update"). A change
   * another writer makes after the restore read a row it keeps is ordered after the restore, as if it came
   * after it.
   */
  async restore(image: PlatformImage): Promise<RestoredRows> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#restoreOnce(image)
      } catch (error) {
        const retried = isWriteConflict(error) || isUniqueViolation(error)
        if (!retried || attempt === RESTORE_ATTEMPTS) throw error
      }
    }
  }

  async #restoreOnce(image: PlatformImage): Promise<RestoredRows> {
    // An image taken before a table existed (mini_message: migration 0012; acd_ticket: 0013) holds none of its rows.
    const tables = image.tables as Partial<Tables>
    const changed = {} as Record<TableName, string[]>
    await this.#db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (trx) => {
        for (const table of TABLES)
          changed[table] = await restoreTable(trx, table, tables[table] ?? [])
      })
    return {
      accounts: changed.account,
      settings: changed.directory_setting.length > 0,
      routing: changed.routing_profile,
      rows: TABLES.reduce((rows, table) => rows + changed[table].length, 0),
    }
  }

  async save(
    name: string,
    image: PlatformImage,
    takenAt: number,
  ): Promise<SnapshotInfo & { rows: number }> {
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
    const tables = image.tables as Partial<Tables>
    const rows = TABLES.reduce((count, table) => count + (tables[table]?.length ?? 0), 0)
    return { name, takenAt, bytes: bytes.length, rows }
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

/**
 * Makes `table` hold exactly `rows`, writing only the rows that differ (a restore between two tests changes
 * a few rows of thousands): deletes the rows whose key the image lacks or whose columns differ, then
 * inserts the image's rows that are not there as they are. Answers the keys of the rows it wrote.
 */
async function restoreTable(
  trx: AnyDatabase,
  table: TableName,
  rows: readonly Row[],
): Promise<string[]> {
  const keyColumns = KEYS[table]
  const keyOf = (row: Row): string => keyColumns.map((column) => String(row[column])).join('\u0000')
  const wanted = new Map(rows.map((row) => [keyOf(row), row]))
  const stale: Row[] = []
  const kept = new Set<string>()
  for (const row of (await trx.selectFrom(table).selectAll().execute()) as Row[]) {
    const key = keyOf(row)
    const target = wanted.get(key)
    if (target !== undefined && sameRow(row, target)) kept.add(key)
    else stale.push(row)
  }
  for (const row of stale)
    await keyColumns
      .reduce((query, column) => query.where(column, '=', row[column]), trx.deleteFrom(table))
      .execute()
  const missing = rows.filter((row) => !kept.has(keyOf(row)))
  const first = missing[0]
  if (first !== undefined) {
    const batch = Math.max(1, Math.floor(MAX_PARAMETERS / Object.keys(first).length))
    for (let start = 0; start < missing.length; start += batch)
      await trx
        .insertInto(table)
        .values(missing.slice(start, start + batch))
        .execute()
  }
  const written = new Set([...stale.map(keyOf), ...missing.map(keyOf)])
  return [...written]
}

/** Whether two rows hold the same values (numbers as PostgreSQL's bigint strings too, bytes by content). */
function sameRow(stored: Row, image: Row): boolean {
  for (const [column, value] of Object.entries(image)) {
    const other = stored[column]
    if (value instanceof Uint8Array || other instanceof Uint8Array) {
      if (!(value instanceof Uint8Array && other instanceof Uint8Array)) return false
      if (Buffer.compare(value, other) !== 0) return false
    } else if (value !== other && String(value) !== String(other)) return false
  }
  return true
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
