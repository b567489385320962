/**
 * A change to the directory as data. Each change is planned on the directory as it is when its turn
 * comes (directory-provisioning.ts, account-changes.ts); the Directory alone carries it out, one
 * change at a time: the account deleted, each account stored and indexed in order, then each event.
 */
import type { User, UserPreferences } from '@openness/wire'
import type { PlatformEvent } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { DirectorySettings, StoredAccount, UserAccount } from './account.js'

/** What a change is planned on: the directory as it is when the change runs (the Directory). */
export interface DirectoryState {
  readonly settings: DirectorySettings
  /** Every account, users and administrators. */
  accounts(): Iterable<StoredAccount>
  findAccount(loginName: string): StoredAccount | undefined
  findUser(loginName: string): UserAccount | undefined
  userView(account: UserAccount, full: boolean): User
  preferences(account: UserAccount): UserPreferences
}

/** What a change does, in this order, and what the operation answers. */
export interface DirectoryChange<T> {
  /** The login name of the account to delete first. */
  delete?: string
  /** The accounts to store, in order. */
  save: readonly StoredAccount[]
  /** The events to publish once everything is stored. */
  events: readonly PlatformEvent[]
  result: T
}

/** The account (user or administrator) `loginName`, or NOT_FOUND. */
export function existingAccount(directory: DirectoryState, loginName: string): StoredAccount {
  const account = directory.findAccount(loginName)
  if (account === undefined) throw new PlatformError('NOT_FOUND', `No account '${loginName}'`)
  return account
}

/** The user `loginName`, or NOT_FOUND. */
export function existingUser(directory: DirectoryState, loginName: string): UserAccount {
  const user = directory.findUser(loginName)
  if (user === undefined) throw new PlatformError('NOT_FOUND', `No user '${loginName}'`)
  return user
}

/** A change that stores and publishes nothing. */
export function noChange<T>(result: T): DirectoryChange<T> {
  return { save: [], events: [], result }
}
