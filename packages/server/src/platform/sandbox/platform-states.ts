/**
 * Reset, snapshots and restore of the whole platform (docs/sandbox.md): what a test suite runs between its
 * tests to start each from a known state. An image of the durable state (PlatformImageStore) is taken, kept
 * under a name, and put back; `reset` puts back the directory file's state. Putting an image back ends every
 * session (with their subscriptions, channels and searches), forgets the login throttle's attempts and the
 * faults, brings the platform's links up, replaces the durable state but the engine's, reloads what each node
 * holds in memory of it, and gives the engine the image's calls, devices, timers and call backs through its
 * `restoreState` command. One reset, snapshot or restore runs at a time on a node.
 */

import type { LoginAttemptStore } from '../auth/login-attempt-store.js'
import { type ChangeNotices, EVERY_KEY } from '../change-notices.js'
import type { ClockOffsetStore } from '../clock-offset-store.js'
import type { DirectorySnapshot } from '../directory/directory-store.js'
import type { Clock } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { SessionCloseCause } from '../sessions/session-state.js'
import {
  type ContactCenterEngine,
  type FileContactCenter,
  followFileContactCenter,
} from '../telephony/engine-acd.js'
import { type FileHuntingGroups, freshEngineState } from '../telephony/restored-state.js'
import type { DeviceRecord, EngineCommand } from '../telephony/telephony-state.js'
import type {
  PlatformImage,
  PlatformImageStore,
  RestoredRows,
  SnapshotInfo,
} from './platform-image-store.js'

/** A snapshot's name: what a path segment and a file name can both hold. */
const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
/** The notice that tells the other nodes of a cluster to reload what they hold (ChangeTopic `platform`). */
const RESTORED = 'restored'
/** Beyond this many accounts or profiles written, the other nodes are told to reload them all. */
const NOTICES_EACH = 100

/** A clock that a restore can set to an offset from the system's time, back as well as forward. */
export interface OffsetClock extends Clock {
  readonly offsetMs: number
  setOffset(offsetMs: number): void | Promise<void>
}

/** What a reset or restore did. */
export interface RestoreOutcome {
  /** The snapshot put back; absent for a reset. */
  snapshot?: string
  /** Sessions it closed. */
  sessionsClosed: number
  /** Calls in progress before, which it ended (or replaced by the image's). */
  callsEnded: number
  /** Calls in progress after: the image's. */
  calls: number
  /** How long it took, in milliseconds of the system's time. */
  durationMs: number
}

/** What a reset, restore or snapshot did, for the logs (operations/activity-log.ts). */
export type StatesReport =
  | (RestoreOutcome & {
      action: 'reset' | 'restore'
      /** The rows of the durable store it wrote: added, changed or deleted. */
      rows: number
      /** The clock's time before and after, when it set the clock back or forward. */
      clock?: { from: number; to: number }
    })
  | { action: 'snapshot'; snapshot: string; rows: number; bytes: number; durationMs: number }

/** Where each part of the platform is reached. */
export interface PlatformStatesOptions {
  images: PlatformImageStore
  /** The directory file's state, with its passwords hashed: what a reset puts back. */
  fileDirectory: () => Promise<DirectorySnapshot>
  directory: {
    completeImport(): Promise<void>
    restored(written: Pick<RestoredRows, 'accounts' | 'settings'>): Promise<void>
  }
  routing: { restored(loginNames: readonly string[]): Promise<void> }
  eventSummary: { restored(): Promise<void> }
  voicemail: { restored(): void }
  sessions: { closeAll(cause: SessionCloseCause): Promise<number> }
  telephony: {
    execute(command: EngineCommand): Promise<unknown>
    idle(): Promise<void>
    readonly state: { calls: { size: number } } & ContactCenterEngine['state']
  }
  /** The devices of the directory as it is now: the engine's after a reset. */
  devices: () => DeviceRecord[]
  /** The directory file's hunting groups as they are now: the engine's after a reset (none when absent). */
  huntingGroups?: () => FileHuntingGroups
  /** The directory file's contact center as it is now: provisioned anew after a reset (none when absent). */
  contactCenter?: () => FileContactCenter
  /**
   * What keeps the engine's devices the directory's (engine-devices.ts): held while an image is put back, so
   * that the directory restored does not release calls in the engine before `restoreState` replaces them.
   */
  engineDevices?: { hold<T>(task: () => Promise<T>): Promise<T> }
  loginAttempts: readonly LoginAttemptStore[]
  /** The platform's links and license warning, brought back to healthy. */
  system: {
    setPbxLink(up: boolean): Promise<unknown>
    setCtiLink(up: boolean): Promise<unknown>
    clearLicenseWarning(): Promise<unknown>
  }
  readiness: { clear(): boolean }
  clock: Clock
  /** Where the clock's offset is kept: a node told of a restore sets its clock from it. */
  clockOffsets: ClockOffsetStore
  notices: ChangeNotices
  /** Told of a reload asked by another node that failed. */
  onReloadFailure: (error: unknown) => void
  /** Told of each reset, restore and snapshot done here (the logs). */
  onReport?: (report: StatesReport) => void
}

export class PlatformStates {
  readonly #options: PlatformStatesOptions
  /** The tail of the queue: one reset, snapshot or restore at a time. */
  #queue: Promise<unknown> = Promise.resolve()

  constructor(options: PlatformStatesOptions) {
    this.#options = options
    // The accounts and profiles a restore wrote come as their own topics' notices.
    options.notices.follow('platform', () =>
      this.#reloadRest().catch((error: unknown) => options.onReloadFailure(error)),
    )
  }

  /** Every snapshot, by name. */
  list(): Promise<SnapshotInfo[]> {
    return this.#options.images.list()
  }

  /** Takes the platform's state now and keeps it under `name`, replacing a snapshot of that name. */
  snapshot(name: string): Promise<SnapshotInfo> {
    checkName(name)
    return this.#enqueue(async () => {
      const started = performance.now()
      const { images, directory, telephony, clock, onReport } = this.#options
      await directory.completeImport()
      // The engine's state as stored holds every command answered so far.
      await telephony.idle()
      const { rows, ...info } = await images.save(name, await images.capture(), clock.now())
      onReport?.({
        action: 'snapshot',
        snapshot: name,
        rows,
        bytes: info.bytes,
        durationMs: since(started),
      })
      return info
    })
  }

  /** Puts back the snapshot `name`; NOT_FOUND when there is none. */
  restore(name: string): Promise<RestoreOutcome> {
    checkName(name)
    return this.#enqueue(async () => {
      const image = await this.#options.images.load(name)
      if (image === undefined) throw notFound(name)
      return this.#held(() => this.#putBack(image, name))
    })
  }

  /** Puts back the directory file's state: no routing, log, message, call nor session; the clock not ahead. */
  reset(): Promise<RestoreOutcome> {
    return this.#enqueue(async () => {
      const { images, fileDirectory } = this.#options
      const baseline = images.baseline(await fileDirectory())
      return this.#held(() => this.#putBack(baseline, undefined))
    })
  }

  /** Deletes the snapshot `name`; NOT_FOUND when there is none. */
  delete(name: string): Promise<void> {
    checkName(name)
    return this.#enqueue(async () => {
      if (!(await this.#options.images.delete(name))) throw notFound(name)
    })
  }

  /** Runs `task` with the engine's devices no longer following the directory (engine-devices.ts). */
  #held<T>(task: () => Promise<T>): Promise<T> {
    const { engineDevices } = this.#options
    return engineDevices === undefined ? task() : engineDevices.hold(task)
  }

  /** Puts `image` back: the snapshot `name`'s, or the directory file's (a reset) when no name is given. */
  async #putBack(image: PlatformImage, name: string | undefined): Promise<RestoreOutcome> {
    const started = performance.now()
    const options = this.#options
    const { telephony, clock } = options
    const offsetBefore = isOffsetClock(clock) ? clock.offsetMs : 0
    await options.directory.completeImport()
    const sessionsClosed = await options.sessions.closeAll('RELEASED')
    await Promise.all(options.loginAttempts.map((store) => store.clear()))
    await options.system.setPbxLink(true)
    await options.system.setCtiLink(true)
    await options.system.clearLicenseWarning()
    await telephony.idle()
    const callsEnded = telephony.state.calls.size
    const written = await options.images.restore(image)
    await options.directory.restored(written)
    await options.routing.restored(written.routing)
    await this.#reloadRest()
    // The engine's devices after a reset are those of the directory now restored.
    await telephony.execute({
      type: 'restoreState',
      target: image.engine ?? freshEngineState(options.devices(), options.huntingGroups?.()),
    })
    // A fresh engine has no contact center: a reset provisions the file's anew, its agents logged off and its
    // queues empty; a snapshot's engine carries its own.
    if (image.engine === undefined && options.contactCenter !== undefined)
      await followFileContactCenter(telephony, options.contactCenter())
    await this.#announce(written)
    const outcome: RestoreOutcome = {
      ...(name !== undefined && { snapshot: name }),
      sessionsClosed,
      callsEnded,
      calls: telephony.state.calls.size,
      durationMs: since(started),
    }
    if (options.onReport) {
      const moved = (isOffsetClock(clock) ? clock.offsetMs : 0) - offsetBefore
      const now = clock.now()
      options.onReport({
        action: name === undefined ? 'reset' : 'restore',
        ...outcome,
        rows: written.rows,
        ...(moved !== 0 && { clock: { from: now - moved, to: now } }),
      })
    }
    return outcome
  }

  /**
   * Reloads what this node holds of the state a restore replaced (here or on another node), but the accounts
   * and the routing profiles: the summaries published, the recordings waiting, the faults, the clock.
   */
  async #reloadRest(): Promise<void> {
    const options = this.#options
    await options.eventSummary.restored()
    options.voicemail.restored()
    options.readiness.clear()
    const { clock } = options
    if (isOffsetClock(clock)) await clock.setOffset(await options.clockOffsets.load())
  }

  /** Tells the other nodes of a cluster what to reload (a node alone tells nobody). */
  async #announce(written: RestoredRows): Promise<void> {
    const { notices } = this.#options
    const each = async (topic: 'directory' | 'routing', keys: readonly string[]) => {
      if (keys.length > NOTICES_EACH) await notices.announce(topic, EVERY_KEY)
      else await Promise.all(keys.map((key) => notices.announce(topic, key)))
    }
    await each('directory', written.settings ? [EVERY_KEY] : written.accounts)
    await each('routing', written.routing)
    await notices.announce('platform', RESTORED)
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const done = this.#queue.then(task)
    this.#queue = done.catch(() => undefined)
    return done
  }
}

/** Milliseconds of the system's time since `started`, to a tenth. */
function since(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10
}

function isOffsetClock(clock: Clock): clock is OffsetClock {
  return typeof (clock as Partial<OffsetClock>).setOffset === 'function'
}

function checkName(name: string): void {
  if (!SNAPSHOT_NAME.test(name))
    throw new PlatformError(
      'BAD_PARAMETER',
      `name: "${name}" is no snapshot name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    )
}

function notFound(name: string): PlatformError {
  return new PlatformError('NOT_FOUND', `There is no snapshot named "${name}"`)
}
