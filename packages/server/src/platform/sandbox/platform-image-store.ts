/** The port of the platform's images: snapshots and restores of every durable table (docs/sandbox.md). */
import type { DirectorySnapshot } from '../directory/directory-store.js'
import type { PortableEngineState } from '../telephony/telephony-state.js'

/**
 * The durable state of the platform at one moment (docs/sandbox.md): what a snapshot keeps and a restore puts
 * back. The engine's part is read by the platform, which restores it through the engine; the rest is in the
 * store's own form, which only the store reads.
 */
export interface PlatformImage {
  /** How far ahead of the system's time the service's clock was, in milliseconds. */
  readonly clockOffsetMs: number
  /** The call engine's state; undefined before the engine first stored one. */
  readonly engine: PortableEngineState | undefined
  /** The directory, users' routing, the communication log, voice messages: the store's own rows. */
  readonly tables: unknown
}

/** What a restore changed of what nodes hold in memory: the accounts, the settings, the routing profiles. */
export interface RestoredRows {
  /** The login names of the accounts it added, changed or deleted. */
  accounts: string[]
  /** Whether the directory's settings changed (another directory file's image). */
  settings: boolean
  /** The login names of the routing profiles it added, changed or deleted. */
  routing: string[]
  /** How many rows it wrote in all: added, changed or deleted. */
  rows: number
}

/** A snapshot as listed: its name, when it was taken (the service's time) and its size. */
export interface SnapshotInfo {
  name: string
  takenAt: number
  bytes: number
}

/**
 * Durable storage of the platform's images (docs/sandbox.md): reading and replacing the whole durable state,
 * and named snapshots of it, kept in the same database (they survive restarts; a cluster's nodes share them).
 */
export interface PlatformImageStore {
  /** Reads the whole durable state from one snapshot of the database. */
  capture(): Promise<PlatformImage>
  /**
   * The image of a platform that holds only `directory`: no routing, no log, no message, the clock not set
   * ahead, and no engine state (the platform makes the engine's from the directory's devices).
   */
  baseline(directory: DirectorySnapshot): PlatformImage
  /**
   * Replaces the durable state by the image's, in one transaction, except the engine's: the platform restores
   * that through the engine (the `restoreState` command), which stores it like any other. Only the rows that
   * differ are written; the answer names the accounts and routing profiles among them, which are all a node
   * must reload.
   */
  restore(image: PlatformImage): Promise<RestoredRows>
  /** Keeps `image` under `name`, replacing a snapshot of that name; `rows`: how many rows the image holds. */
  save(
    name: string,
    image: PlatformImage,
    takenAt: number,
  ): Promise<SnapshotInfo & { rows: number }>
  /** The snapshot named `name`; undefined when there is none. */
  load(name: string): Promise<PlatformImage | undefined>
  /** Every snapshot, by name. */
  list(): Promise<SnapshotInfo[]>
  /** Deletes the snapshot; false when there was none. */
  delete(name: string): Promise<boolean>
}
