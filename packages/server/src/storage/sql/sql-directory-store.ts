/**
 * The DirectoryStore port on SQLite or PostgreSQL through Kysely, with JSON kept in text columns. Each account
 * row carries a revision, written anew with each change: a change is a compare-and-set on the revisions it was
 * planned on (docs/cluster.md, "No lost update").
 */
import type { UserPreferences } from '@openness/wire'
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely'
import type { Revision } from '../../platform/change-notices.js'
import type {
  AdministratorRecord,
  DirectorySettings,
  StoredAccount,
  UserRecord,
} from '../../platform/directory/account.js'
import type {
  AccountCommit,
  AccountWrites,
  DirectorySnapshot,
  DirectoryStore,
  RevisedAccount,
  StoredDirectory,
} from '../../platform/directory/directory-store.js'
import type { AccountTable, DirectoryDatabase, DirectorySettingTable } from './database.js'
import { isWriteConflict, newRevision, StaleWriteError } from './revision.js'

/** At seven parameters a row, a batch stays under the 999-parameter bound of older SQLite builds. */
const INSERT_BATCH_SIZE = 100

/** Stores the directory in the `account` and `directory_setting` tables of an open database. */
export class SqlDirectoryStore implements DirectoryStore {
  readonly #db: Kysely<DirectoryDatabase>

  /** Takes ownership of `db`, migrated by `openDatabase`; `close()` destroys it. */
  constructor(db: Kysely<DirectoryDatabase>) {
    this.#db = db
  }

  /** Reads settings and accounts from one snapshot of the database, accounts in login name order. */
  async load(): Promise<StoredDirectory | undefined> {
    return this.#db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const settingRows = await trx.selectFrom('directory_setting').selectAll().execute()
        const values = new Map(settingRows.map((row) => [row.name, row.value]))
        const settings = values.get('settings')
        if (settings === undefined) return undefined
        const sourceDigest = values.get('source_digest')
        if (sourceDigest === undefined) throw new Error('The directory has settings but no digest')
        const accountRows = await trx.selectFrom('account').selectAll().execute()
        return {
          sourceDigest: JSON.parse(sourceDigest) as string,
          settings: JSON.parse(settings) as DirectorySettings,
          accounts: accountRows.map(toAccount).sort(byLoginName),
          revisions: new Map(accountRows.map((row) => [row.login_name, row.revision])),
        }
      })
  }

  /** Deletes every account, inserts the snapshot's in batches and upserts the settings, atomically. */
  async replace(snapshot: DirectorySnapshot): Promise<ReadonlyMap<string, Revision>> {
    const { accounts: rows, settings } = directoryRows(snapshot, new Date().toISOString())
    await this.#db.transaction().execute((trx) => replaceRows(trx, rows, settings))
    return new Map(rows.map((row) => [row.login_name, row.revision ?? '']))
  }

  /**
   * Replaces as `replace` does in a serializable transaction that first reads every account's revision and
   * compares them with `basedOn`: an account written meanwhile, or one PostgreSQL sees written at the same
   * moment (a serialization failure, or the unique key refusing an insert), writes nothing.
   */
  async replaceIfUnchanged(
    snapshot: DirectorySnapshot,
    basedOn: ReadonlyMap<string, Revision>,
  ): Promise<ReadonlyMap<string, Revision> | undefined> {
    const { accounts: rows, settings } = directoryRows(snapshot, new Date().toISOString())
    try {
      await this.#db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async (trx) => {
          const stored = await trx
            .selectFrom('account')
            .select(['login_name', 'revision'])
            .execute()
          const unchanged =
            stored.length === basedOn.size &&
            stored.every((row) => basedOn.get(row.login_name) === row.revision)
          if (!unchanged) throw new StaleWriteError(['*'])
          await replaceRows(trx, rows, settings)
        })
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code
      if (error instanceof StaleWriteError || isWriteConflict(error) || code === '23505')
        return undefined
      throw error
    }
    return new Map(rows.map((row) => [row.login_name, row.revision ?? '']))
  }

  /**
   * Deletes and stores, in one transaction, each account only while its row has the revision the change was
   * planned on (an update or delete `WHERE revision = ?`; an insert that finds the login name taken writes
   * nothing), rolling everything back at the first that does not. Rows are written in login name order, so
   * that two changes of the same accounts never wait for each other in a circle; a conflict PostgreSQL
   * reports anyway (deadlock, serialization) names every account of the change.
   */
  async commit(writes: AccountWrites): Promise<AccountCommit> {
    const updatedAt = new Date().toISOString()
    const saves = [...writes.save].sort((a, b) => byLoginName(a.account, b.account))
    try {
      const revisions = await this.#db.transaction().execute(async (trx) => {
        if (writes.delete !== undefined) await deleteAt(trx, writes.delete)
        const written = new Map<string, Revision>()
        for (const { account, revision } of saves) {
          const row = toRow(account, updatedAt)
          await (revision === undefined ? insertNew(trx, row) : updateAt(trx, row, revision))
          written.set(account.loginName, row.revision ?? '')
        }
        return written
      })
      return { revisions }
    } catch (error) {
      if (error instanceof StaleWriteError) return { stale: error.stale }
      if (isWriteConflict(error)) return { stale: accountsOf(writes) }
      throw error
    }
  }

  /** Reads the account with this login name, if any, with its revision. */
  async loadAccount(loginName: string): Promise<RevisedAccount | undefined> {
    const row = await this.#db
      .selectFrom('account')
      .selectAll()
      .where('login_name', '=', loginName)
      .executeTakeFirst()
    return row === undefined ? undefined : { account: toAccount(row), revision: row.revision }
  }

  /** Destroys the Kysely instance, closing the SQLite file or ending the PostgreSQL pool. */
  async close(): Promise<void> {
    await this.#db.destroy()
  }
}

/** The directory's rows: its accounts', and its settings' (`directory_setting`). */
export function directoryRows(
  snapshot: DirectorySnapshot,
  updatedAt: string,
): { accounts: Insertable<AccountTable>[]; settings: Insertable<DirectorySettingTable>[] } {
  return {
    accounts: snapshot.accounts.map((account) => toRow(account, updatedAt)),
    settings: [
      { name: 'settings', value: JSON.stringify(snapshot.settings) },
      { name: 'source_digest', value: JSON.stringify(snapshot.sourceDigest) },
    ],
  }
}

/** Deletes every account, inserts `rows` in batches and upserts the settings, in the caller's transaction. */
async function replaceRows(
  trx: Transaction<DirectoryDatabase>,
  rows: readonly Insertable<AccountTable>[],
  settings: readonly Insertable<DirectorySettingTable>[],
): Promise<void> {
  await trx.deleteFrom('account').execute()
  for (let start = 0; start < rows.length; start += INSERT_BATCH_SIZE)
    await trx
      .insertInto('account')
      .values(rows.slice(start, start + INSERT_BATCH_SIZE))
      .execute()
  await trx
    .insertInto('directory_setting')
    .values(settings)
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
    )
    .execute()
}

/** Deletes the account while it has the revision the change was planned on. */
async function deleteAt(
  trx: Transaction<DirectoryDatabase>,
  { loginName, revision }: { loginName: string; revision: Revision },
): Promise<void> {
  const deleted = await trx
    .deleteFrom('account')
    .where('login_name', '=', loginName)
    .where('revision', '=', revision)
    .executeTakeFirst()
  if (deleted.numDeletedRows !== 1n) throw new StaleWriteError([loginName])
}

/** Inserts a new account unless its login name is taken (by a writer that created it meanwhile). */
async function insertNew(
  trx: Transaction<DirectoryDatabase>,
  row: Insertable<AccountTable>,
): Promise<void> {
  const inserted = await trx
    .insertInto('account')
    .values(row)
    .onConflict((oc) => oc.column('login_name').doNothing())
    .executeTakeFirst()
  if (inserted.numInsertedOrUpdatedRows !== 1n) throw new StaleWriteError([row.login_name])
}

/** Overwrites the account while it has the revision the change was planned on. */
async function updateAt(
  trx: Transaction<DirectoryDatabase>,
  { login_name: loginName, ...columns }: Insertable<AccountTable>,
  revision: Revision,
): Promise<void> {
  const updated = await trx
    .updateTable('account')
    .set(columns)
    .where('login_name', '=', loginName)
    .where('revision', '=', revision)
    .executeTakeFirst()
  if (updated.numUpdatedRows !== 1n) throw new StaleWriteError([loginName])
}

/** Every account a change touches. */
function accountsOf(writes: AccountWrites): string[] {
  const names = writes.save.map(({ account }) => account.loginName)
  if (writes.delete !== undefined) names.unshift(writes.delete.loginName)
  return names
}

/** The account's row, under a new revision. */
function toRow(account: StoredAccount, updatedAt: string): Insertable<AccountTable> {
  return {
    login_name: account.loginName,
    kind: account.kind,
    record: JSON.stringify(account.record),
    password_hash: account.passwordHash ?? null,
    password_changed_at: account.passwordChangedAt ?? null,
    preferences: JSON.stringify(account.preferences),
    updated_at: updatedAt,
    revision: newRevision(),
  }
}

function toAccount(row: Selectable<AccountTable>): StoredAccount {
  const common = {
    loginName: row.login_name,
    preferences: JSON.parse(row.preferences) as UserPreferences,
    ...(row.password_hash === null ? {} : { passwordHash: row.password_hash }),
    ...(row.password_changed_at === null ? {} : { passwordChangedAt: row.password_changed_at }),
  }
  switch (row.kind) {
    case 'USER':
      return { kind: 'USER', ...common, record: JSON.parse(row.record) as UserRecord }
    case 'ADMINISTRATOR':
      return {
        kind: 'ADMINISTRATOR',
        ...common,
        record: JSON.parse(row.record) as AdministratorRecord,
      }
    default:
      throw new Error(`Account ${row.login_name} has an unknown kind ${String(row.kind)}`)
  }
}

/** Code point order, the same on every dialect; ORDER BY would follow the database's collation. */
function byLoginName(a: StoredAccount, b: StoredAccount): number {
  return Buffer.compare(Buffer.from(a.loginName), Buffer.from(b.loginName))
}
