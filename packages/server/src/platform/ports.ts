/** What the platform core needs from the outside world, in domain words. Adapters live in storage/. */
import type { DirectorySettings, StoredAccount } from './directory/account.js'

/** A scheduled callback that can be cancelled. */
export interface Timer {
  cancel(): void
}

/** Time, injected so that tests drive it and never sleep. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Calls `callback` once after `delayMs` milliseconds. */
  setTimer(delayMs: number, callback: () => void): Timer
  /** Resolves after `delayMs` milliseconds. */
  sleep(delayMs: number): Promise<void>
}

/** The whole directory as it was last stored. */
export interface DirectorySnapshot {
  /** Digest of the directory file this snapshot was imported from. */
  sourceDigest: string
  settings: DirectorySettings
  accounts: StoredAccount[]
}

/** Durable storage of the directory: accounts, passwords, preferences and directory-wide settings. */
export interface DirectoryStore {
  /** Reads the directory as last stored, or undefined when nothing was ever stored. */
  load(): Promise<DirectorySnapshot | undefined>
  /** Replaces the whole directory in one transaction. */
  replace(snapshot: DirectorySnapshot): Promise<void>
  /** Inserts or updates one account (its password hash and preferences included). */
  saveAccount(account: StoredAccount): Promise<void>
  /** Releases connections. */
  close(): Promise<void>
}
