/** The DirectoryStore port on SQLite or PostgreSQL through Kysely, with JSON kept in text columns. */
import type { UserPreferences } from '@openness/wire'
import type { Insertable, Kysely, Selectable } from 'kysely'
import type {
  AdministratorRecord,
  DirectorySettings,
  StoredAccount,
  UserRecord,
} from '../../platform/directory/account.js'
import type { DirectorySnapshot, DirectoryStore } from '../../platform/ports.js'
import type { AccountTable, DirectoryDatabase, DirectorySettingTable } from './database.js'

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
  async load(): Promise<DirectorySnapshot | undefined> {
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
        }
      })
  }

  /** Deletes every account, inserts the snapshot's in batches and upserts the settings, atomically. */
  async replace(snapshot: DirectorySnapshot): Promise<void> {
    const { accounts: rows, settings } = directoryRows(snapshot, new Date().toISOString())
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom('account').execute()
      for (let start = 0; start < rows.length; start += INSERT_BATCH_SIZE) {
        await trx
          .insertInto('account')
          .values(rows.slice(start, start + INSERT_BATCH_SIZE))
          .execute()
      }
      await trx
        .insertInto('directory_setting')
        .values(settings)
        .onConflict((oc) =>
          oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
        )
        .execute()
    })
  }

  /** Inserts the account, or overwrites every column of the one with the same login name. */
  async saveAccount(account: StoredAccount): Promise<void> {
    await this.#db
      .insertInto('account')
      .values(toRow(account, new Date().toISOString()))
      .onConflict((oc) =>
        oc.column('login_name').doUpdateSet((eb) => ({
          kind: eb.ref('excluded.kind'),
          record: eb.ref('excluded.record'),
          password_hash: eb.ref('excluded.password_hash'),
          password_changed_at: eb.ref('excluded.password_changed_at'),
          preferences: eb.ref('excluded.preferences'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute()
  }

  /** Deletes the account with this login name, if any. */
  async deleteAccount(loginName: string): Promise<void> {
    await this.#db.deleteFrom('account').where('login_name', '=', loginName).execute()
  }

  /** Reads the account with this login name, if any. */
  async loadAccount(loginName: string): Promise<StoredAccount | undefined> {
    const row = await this.#db
      .selectFrom('account')
      .selectAll()
      .where('login_name', '=', loginName)
      .executeTakeFirst()
    return row === undefined ? undefined : toAccount(row)
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

function toRow(account: StoredAccount, updatedAt: string): Insertable<AccountTable> {
  return {
    login_name: account.loginName,
    kind: account.kind,
    record: JSON.stringify(account.record),
    password_hash: account.passwordHash ?? null,
    password_changed_at: account.passwordChangedAt ?? null,
    preferences: JSON.stringify(account.preferences),
    updated_at: updatedAt,
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
