/** Opens the directory database on SQLite or PostgreSQL and brings its schema to the latest migration. */
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import SQLite from 'better-sqlite3'
import {
  CompiledQuery,
  type Dialect,
  type Driver,
  Kysely,
  Migrator,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  sql,
} from 'kysely'
import type { StoredAccount } from '../../platform/directory/account.js'
import { migrationProvider } from './migrations/index.js'
import { namingClient } from './postgres-named-statements.js'
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.js'

/** One row per account; `record` and `preferences` hold JSON. */
export interface AccountTable {
  login_name: string
  kind: StoredAccount['kind']
  record: string
  password_hash: string | null
  /** ISO 8601. */
  password_changed_at: string | null
  preferences: string
  /** ISO 8601 time of the last write of the row. */
  updated_at: string
  /** The row's revision, new at each write (migration 0011; docs/cluster.md, "No lost update"). */
  revision: string
}

/** Directory-wide values by name; `value` holds JSON. */
export interface DirectorySettingTable {
  name: DirectorySettingName
  value: string
}

/** The names of the rows of `directory_setting`. */
export type DirectorySettingName = 'settings' | 'source_digest'

/** The tables of the directory database, as Kysely sees them. */
export interface DirectoryDatabase {
  account: AccountTable
  directory_setting: DirectorySettingTable
}

/** One row per call in progress: `record` holds the call's JSON; `position` orders calls by creation. */
export interface TelephonyCallTable {
  call_ref: string
  position: number
  record: string
}

/** One row per device of the call engine: `record` holds its JSON; `position` keeps the saved order. */
export interface TelephonyDeviceTable {
  device_id: string
  position: number
  record: string
}

/**
 * The rest of the call engine's state (every field but the calls, the devices and the derived call index)
 * as JSON, in the row named `state`.
 */
export interface TelephonyStateTable {
  /** `state`, the rest row; `outbox:{batch}`, a batch's events kept until published (call-state-json.ts). */
  name: 'state' | `outbox:${number}`
  value: string
}

/**
 * One row per record of the communication log (migration 0006; docs/comlog.md): the columns queries select
 * on, booleans as 0 or 1, `remote_ids` the other parties' ids between bars (`|bob|1002|`), and `record` the
 * wire ComRecord's JSON without `recordId` and `acknowledged`. `begin_at` is milliseconds since the epoch.
 */
export interface ComlogRecordTable {
  record_id: number | string
  login_name: string
  begin_at: number | string
  com_ref: string
  role: string
  answered: number
  acknowledged: number
  missed: number
  reason: string
  remote_ids: string
  record: string
}

/**
 * The communication log's index by user and date (migration 0007): one row per indexed record, written in
 * batches (docs/comlog.md, "Storage").
 */
export interface ComlogUserIndexTable {
  login_name: string
  begin_at: number | string
  record_id: number | string
}

/** The highest record id in `comlog_user_index`, in the row named `records` (migration 0007). */
export interface ComlogIndexMarkTable {
  name: 'records'
  indexed_through: number | string
}

/**
 * One row per lease of an engine owner (migration 0009; docs/cluster-engine.md, "Engine lease and fencing"): the
 * epoch of the current owner's term, incremented by each new owner, the node that took it and when
 * (milliseconds since the epoch).
 */
export interface EngineLeaseTable {
  name: string
  epoch: number | string
  owner_node: string
  acquired_at: number | string
}

/**
 * The tables of the call engine's state, as Kysely sees them (`callTables(db)`), with the log it appends to
 * and the lease its saves are fenced by.
 */
export type CallDatabase = {
  telephony_call: TelephonyCallTable
  telephony_device: TelephonyDeviceTable
  telephony_state: TelephonyStateTable
  comlog_record: ComlogRecordTable
  comlog_user_index: ComlogUserIndexTable
  comlog_index_mark: ComlogIndexMarkTable
  engine_lease: EngineLeaseTable
}

/** Values of the service by name (migration 0004); `value` holds JSON. */
export interface ServiceStateTable {
  name: 'clock_offset_ms'
  value: string
}

/** The service's own table, as Kysely sees it (`serviceTables(db)`). */
export type ServiceDatabase = {
  service_state: ServiceStateTable
}

/** One row per user whose routing was changed (migration 0005); `profile` holds a RoutingProfile's JSON. */
export interface RoutingProfileTable {
  login_name: string
  profile: string
  /** The row's revision, new at each write (migration 0011; docs/cluster.md, "No lost update"). */
  revision: string
}

/** The routing table, as Kysely sees it (`routingTables(db)`). */
export type RoutingDatabase = {
  routing_profile: RoutingProfileTable
}

/** One row per voice message (migration 0008); `from_party` holds a PartyInfo's JSON, flags are 0 or 1. */
export interface VoicemailMessageTable {
  voicemail_id: string
  login_name: string
  from_party: string
  deposited_at: number | string
  duration: number
  unread: number
  high_priority: number
  audio_bytes: number
  audio: Uint8Array
}

/** The voice-mail table, as Kysely sees it (`voicemailTables(db)`). */
export type VoicemailDatabase = {
  voicemail_message: VoicemailMessageTable
}

/** One row per unread mini message (migration 0012): `position` orders its recipient's queue. */
export interface MiniMessageTable {
  message_id: string
  login_name: string
  position: number
  sender: string
  sent_at: number | string
  text: string
}

/** The mini messages' table, as Kysely sees it (`miniMessageTables(db)`). */
export type MiniMessageDatabase = {
  mini_message: MiniMessageTable
}

/** One row per named snapshot of the platform (migration 0010); `image` is its serialized PlatformImage. */
export interface PlatformSnapshotTable {
  name: string
  taken_at: number | string
  bytes: number
  image: Uint8Array
}

/** The snapshots' table, as Kysely sees it (`snapshotTables(db)`). */
export type SnapshotDatabase = {
  platform_snapshot: PlatformSnapshotTable
}

/** The database `openDatabase` returned, seen through its snapshots' table (the same instance). */
export function snapshotTables(db: Kysely<DirectoryDatabase>): Kysely<SnapshotDatabase> {
  return db as unknown as Kysely<SnapshotDatabase>
}

/** The database `openDatabase` returned, seen through its voice-mail table (the same instance). */
export function voicemailTables(db: Kysely<DirectoryDatabase>): Kysely<VoicemailDatabase> {
  return db as unknown as Kysely<VoicemailDatabase>
}

/** The database `openDatabase` returned, seen through its mini messages' table (the same instance). */
export function miniMessageTables(db: Kysely<DirectoryDatabase>): Kysely<MiniMessageDatabase> {
  return db as unknown as Kysely<MiniMessageDatabase>
}

/** The database `openDatabase` returned, seen through its routing table (the same instance). */
export function routingTables(db: Kysely<DirectoryDatabase>): Kysely<RoutingDatabase> {
  return db as unknown as Kysely<RoutingDatabase>
}

/** The database `openDatabase` returned, seen through the service's table (the same instance). */
export function serviceTables(db: Kysely<DirectoryDatabase>): Kysely<ServiceDatabase> {
  return db as unknown as Kysely<ServiceDatabase>
}

/**
 * The database `openDatabase` returned, seen through its call tables (the migrations create both sets).
 * The same instance: destroying either closes the connection.
 */
export function callTables(db: Kysely<DirectoryDatabase>): Kysely<CallDatabase> {
  return db as unknown as Kysely<CallDatabase>
}

/** Where the directory database lives. */
export type DatabaseTarget =
  | {
      kind: 'sqlite'
      filename: string
      /**
       * Whether a file database is checkpointed from a thread of its own (the default) rather than inside
       * the commits (wal-checkpointer.ts).
       */
      checkpointThread?: boolean
    }
  | {
      kind: 'postgres'
      connectionString: string
      /** Created if missing and made the search_path of every pooled connection. */
      schema?: string
    }

/** The file name of the SQLite database inside the data directory. */
export const SQLITE_FILENAME = 'openness.sqlite3'

const SQLITE_MEMORY = ':memory:'
const SQLITE_BUSY_TIMEOUT_MS = 5_000
/** How often a file database's checkpoint thread copies the WAL back (wal-checkpointer.ts). */
const SQLITE_CHECKPOINT_INTERVAL_MS = 50
const POSTGRES_SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/
const SUPPORTED_URLS = 'postgres://…, postgresql://…, sqlite:<path> or sqlite::memory:'

/**
 * Reads DATABASE_URL: unset (or empty) means the SQLite file in `dataDir`; otherwise a PostgreSQL
 * URL, `sqlite:<path>` or `sqlite::memory:`. A SQLite target is checkpointed from its own thread unless
 * `checkpointThread` is false (SQLITE_CHECKPOINT_THREAD=off).
 */
export function databaseTargetFromUrl(
  url: string | undefined,
  dataDir: string,
  { checkpointThread = true }: { checkpointThread?: boolean } = {},
): DatabaseTarget {
  const sqlite = (filename: string): DatabaseTarget =>
    checkpointThread ? { kind: 'sqlite', filename } : { kind: 'sqlite', filename, checkpointThread }
  if (url === undefined || url.trim() === '') return sqlite(join(dataDir, SQLITE_FILENAME))
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { kind: 'postgres', connectionString: url }
  }
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length)
    if (filename === '') {
      throw new Error(`DATABASE_URL "sqlite:" names no file; use ${SUPPORTED_URLS}`)
    }
    return sqlite(filename)
  }
  // Only the scheme is echoed: the rest of a URL may carry a password.
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(url)?.[0] ?? 'no scheme'
  throw new Error(`DATABASE_URL must be ${SUPPORTED_URLS}; got ${scheme}`)
}

/** Connects to the target and migrates it to the latest schema; the caller destroys the result. */
export async function openDatabase(target: DatabaseTarget): Promise<Kysely<DirectoryDatabase>> {
  const db = new Kysely<DirectoryDatabase>({ dialect: createDialect(target) })
  try {
    const migrationTableSchema =
      target.kind === 'postgres' ? await preparePostgresSchema(db, target.schema) : undefined
    await migrateToLatest(db, migrationTableSchema)
    return db
  } catch (error) {
    await db.destroy()
    throw error
  }
}

function createDialect(target: DatabaseTarget): Dialect {
  return target.kind === 'sqlite'
    ? sqliteDialect(target.filename, target.checkpointThread ?? true)
    : postgresDialect(target.connectionString, target.schema)
}

function sqliteDialect(filename: string, checkpointThread: boolean): SqliteDialect {
  const isFile = filename !== SQLITE_MEMORY
  if (isFile) mkdirSync(dirname(filename), { recursive: true })
  const database = new SQLite(filename, { timeout: SQLITE_BUSY_TIMEOUT_MS })
  let checkpointer: WalCheckpointer | undefined
  try {
    if (isFile) {
      database.pragma('journal_mode = WAL')
      if (checkpointThread)
        checkpointer = startWalCheckpointer(database, filename, {
          intervalMs: SQLITE_CHECKPOINT_INTERVAL_MS,
          busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS,
        })
    }
    database.pragma('foreign_keys = ON')
  } catch (error) {
    void checkpointer?.stop()
    database.close()
    throw error
  }
  const config = { database: preparingOnce(database) }
  if (checkpointer === undefined) return new SqliteDialect(config)
  const stopThread = () => checkpointer.stop()
  // Destroying the Kysely instance stops the thread and waits for it to close its connection, then closes the
  // service's, the last: SQLite then checkpoints what is left and deletes the WAL before destroy resolves, so
  // that nothing touches the files afterwards (a test removing its directory, a restore replacing them).
  return new (class extends SqliteDialect {
    override createDriver(): Driver {
      return new (class extends SqliteDriver {
        override async destroy(): Promise<void> {
          await stopThread()
          await super.destroy()
        }
      })(config)
    }
  })(config)
}

/** How many distinct statements a SQLite database keeps prepared (batches of other sizes come and go). */
const PREPARED_STATEMENTS = 200

/**
 * The database as Kysely's SQLite driver uses it, with each distinct statement prepared once instead of
 * at every query: preparing costs about twice what running an upsert does, and the call store runs the
 * same few statements for every command. Kysely never iterates a statement here (no streamed queries),
 * so one prepared statement can serve every query of its text.
 */
function preparingOnce(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>()
  return {
    prepare(sql) {
      let statement = statements.get(sql)
      if (statement === undefined) {
        statement = database.prepare(sql)
        if (statements.size >= PREPARED_STATEMENTS) {
          const oldest = statements.keys().next().value
          if (oldest !== undefined) statements.delete(oldest)
        }
        statements.set(sql, statement)
      }
      return statement
    },
    close: () => database.close(),
  }
}

function postgresDialect(connectionString: string, schema: string | undefined): PostgresDialect {
  if (schema !== undefined && !POSTGRES_SCHEMA_PATTERN.test(schema)) {
    throw new Error(`PostgreSQL schema "${schema}" must match ${POSTGRES_SCHEMA_PATTERN}`)
  }
  // pg is loaded only for a PostgreSQL target: the embedded default (SQLite) starts without it.
  const pool = async () => {
    const { default: pg } = await import('pg')
    // Texts that name a statement run as named prepared statements (postgres-named-statements.ts).
    return new pg.Pool({ connectionString, Client: namingClient(pg.Client) })
  }
  if (schema === undefined) return new PostgresDialect({ pool })
  // The pattern above makes the name safe to splice; search_path may name a schema not yet created.
  const setSearchPath = CompiledQuery.raw(`set search_path to "${schema}"`)
  return new PostgresDialect({
    pool,
    onCreateConnection: async (connection) => {
      await connection.executeQuery(setSearchPath)
    },
  })
}

/**
 * Creates the schema if one was asked for, and returns the schema the tables live in. The Migrator
 * is told that schema because, without one, it looks for its bookkeeping tables in every schema.
 */
async function preparePostgresSchema(
  db: Kysely<DirectoryDatabase>,
  schema: string | undefined,
): Promise<string> {
  if (schema !== undefined) {
    await db.schema.createSchema(schema).ifNotExists().execute()
    return schema
  }
  const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(db)
  const current = rows[0]?.name
  if (!current) {
    throw new Error('PostgreSQL has no current schema: the search_path names no existing schema')
  }
  return current
}

async function migrateToLatest(
  db: Kysely<DirectoryDatabase>,
  migrationTableSchema: string | undefined,
): Promise<void> {
  // Unordered: 0005 (routing) and 0006 (communication log) were written side by side, so a database may
  // have 0006 applied before 0005 exists; each migration creates tables of its own.
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    migrationTableSchema,
    allowUnorderedMigrations: true,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error === undefined) return
  const failed = results?.find((result) => result.status === 'Error')?.migrationName
  const reason = error instanceof Error ? error.message : String(error)
  throw new Error(
    `Migrating the directory database failed${failed ? ` at ${failed}` : ''}: ${reason}`,
    { cause: error },
  )
}

/** Resolves once the database answers a trivial query (the node's readiness: operations/node-health.ts). */
export async function pingDatabase(db: Kysely<DirectoryDatabase>): Promise<void> {
  await sql`select 1`.execute(db)
}
