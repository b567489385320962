/** The directory's port: its durable store, written by compare-and-set (docs/cluster.md, "No lost update"). */
import type { Revision } from '../change-notices.js'
import type { DirectorySettings, StoredAccount } from './account.js'

/** The whole directory as it was last stored. */
export interface DirectorySnapshot {
  /** Digest of the directory file this snapshot was imported from. */
  sourceDigest: string
  settings: DirectorySettings
  accounts: StoredAccount[]
}

/** The directory as last stored, with the revision of each account by login name. */
export interface StoredDirectory extends DirectorySnapshot {
  revisions: ReadonlyMap<string, Revision>
}

/** One account as last stored, with its revision. */
export interface RevisedAccount {
  account: StoredAccount
  revision: Revision
}

/**
 * What one change of the directory writes, each account at the revision the change was planned on: all of it,
 * or nothing when any account moved on since.
 */
export interface AccountWrites {
  /** The account to delete, planned on this revision of it. */
  delete?: { loginName: string; revision: Revision }
  /**
   * The accounts to store, in order, each planned on a revision of it, or on its absence (`undefined`: a new
   * account, which no other may have taken the login name of meanwhile).
   */
  save: readonly { account: StoredAccount; revision: Revision | undefined }[]
}

/**
 * How a commit ended: written, with the new revision of each account saved; or nothing written, naming the
 * accounts that moved on since the change was planned (changed, deleted or created by another writer).
 */
export type AccountCommit =
  | { stale?: undefined; revisions: ReadonlyMap<string, Revision> }
  | { stale: readonly string[] }

/**
 * Durable storage of the directory: accounts, passwords, preferences and directory-wide settings. Several
 * nodes write it: every change is a compare-and-set on the revisions it was planned on.
 */
export interface DirectoryStore {
  /** Reads the directory as last stored, or undefined when nothing was ever stored. */
  load(): Promise<StoredDirectory | undefined>
  /** Replaces the whole directory in one transaction; answers the revision of each account. */
  replace(snapshot: DirectorySnapshot): Promise<ReadonlyMap<string, Revision>>
  /**
   * Replaces the whole directory as `replace` does while the accounts stored are exactly those of `basedOn`,
   * each at its revision there (an import planned on them); undefined, writing nothing, when any was changed,
   * created or deleted since.
   */
  replaceIfUnchanged(
    snapshot: DirectorySnapshot,
    basedOn: ReadonlyMap<string, Revision>,
  ): Promise<ReadonlyMap<string, Revision> | undefined>
  /**
   * Writes one change in one transaction when every account it touches still has the revision it was planned
   * on (or is still absent); writes nothing otherwise, naming the accounts that moved on.
   */
  commit(writes: AccountWrites): Promise<AccountCommit>
  /**
   * Reads one account as last stored, with its revision, or undefined when there is none (another node changed
   * or deleted it: docs/cluster.md, "What each node keeps in memory").
   */
  loadAccount(loginName: string): Promise<RevisedAccount | undefined>
  /** Releases connections. */
  close(): Promise<void>
}
