/**
 * Keeps the call engine's devices those of the directory while the service runs (docs/call-model.md, "Devices
 * follow the directory"): told of every account the directory indexes or forgets (a DirectoryWatcher: a change
 * through the control plane on this node, or one another node made, reloaded here), it compares the user's
 * devices in the directory with the engine's and, where they differ, runs the engine's `userDevices` command,
 * stored and replicated like any other. Only the node that owns the engine does so, on its own directory (the
 * one its engine resolves numbers in); a node becoming the owner compares every user once (`reconcile`), so
 * that a change made while no node owned the engine is not lost. A reset or restore `hold`s it: the engine
 * gets the image's devices through its `restoreState` command, and a device removed in between must not
 * release calls (and write records) into the state being restored.
 */
import type { StoredAccount } from '../directory/account.js'
import type { EngineNodeRole } from './engine-node.js'
import type { CommandResult } from './telephony.js'
import type { EngineCommand, TelephonyState } from './telephony-state.js'

/** What the follower reads of the directory. */
export interface DeviceDirectory {
  /** The ids of the devices the directory gives the user, in its order; none for no such user. */
  deviceIdsOf(loginName: string): string[]
  /** Every user's login name. */
  userLogins(): string[]
}

/** The engine of this node, as the follower uses it. */
export interface DeviceEngine {
  readonly role?: EngineNodeRole
  readonly state: Pick<TelephonyState, 'devices'>
  execute(command: EngineCommand): Promise<CommandResult>
}

export interface EngineDevicesOptions {
  directory: DeviceDirectory
  /** The engine, once started (undefined before). */
  engine: () => DeviceEngine | undefined
  /** Told of a command that failed: the devices stay as they were until the user changes again. */
  onError: (error: unknown, loginName: string) => void
}

export class EngineDevices {
  readonly #options: EngineDevicesOptions
  /** The users whose devices may have changed since the last comparison. */
  readonly #dirty = new Set<string>()
  /** The devices each command sent and not yet done gives a user: what the engine will have. */
  readonly #sent = new Map<string, readonly string[]>()
  /** The commands sent and not yet done (settled or failed). */
  readonly #inFlight = new Set<Promise<void>>()
  /**
   * Each user's devices in the directory at the last comparison: with the directory's devices now, the only
   * devices of the user the engine may have (but after a start, which `reconcile` covers), so that comparing a
   * user reads its few devices, not the engine's 10,000.
   */
  readonly #known = new Map<string, readonly string[]>()
  /** Set by `reconcile` until the next comparison: that one reads every engine device once. */
  #everyDevice = false
  #scheduled = false
  #holds = 0

  constructor(options: EngineDevicesOptions) {
    this.#options = options
  }

  /** DirectoryWatcher: the account is new or changed. */
  put(account: StoredAccount): void {
    this.#mark(account.loginName)
  }

  /** DirectoryWatcher: the account is gone (or about to be indexed anew). */
  drop(loginName: string): void {
    this.#mark(loginName)
  }

  /**
   * DirectoryWatcher: compares the users marked so far now, and resolves once the commands sent are done, so
   * that a change through the control plane resolves once the engine has the user's devices. Never rejects.
   */
  async settled(): Promise<void> {
    if (this.#scheduled) this.#flush()
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight])
  }

  /** Compares every user of the directory and every user the engine has a device of (a new owner's term). */
  reconcile(): void {
    this.#everyDevice = true
    for (const loginName of this.#options.directory.userLogins()) this.#dirty.add(loginName)
    const engine = this.#options.engine()
    if (engine !== undefined)
      for (const device of Object.values(engine.state.devices)) this.#dirty.add(device.loginName)
    this.#schedule()
  }

  /** Runs `task` (a reset or restore) with no command sent meanwhile; the users changed are compared after. */
  async hold<T>(task: () => Promise<T>): Promise<T> {
    this.#holds += 1
    try {
      return await task()
    } finally {
      this.#holds -= 1
      this.#schedule()
    }
  }

  #mark(loginName: string): void {
    this.#dirty.add(loginName)
    this.#schedule()
  }

  /**
   * Compares once the change that marked the users is indexed whole (an update drops then puts the account):
   * in a microtask, so that the command runs before the change's caller goes on.
   */
  #schedule(): void {
    if (this.#scheduled || this.#holds > 0 || this.#dirty.size === 0) return
    this.#scheduled = true
    queueMicrotask(() => {
      if (this.#scheduled) this.#flush()
    })
  }

  #flush(): void {
    this.#scheduled = false
    if (this.#holds > 0) return
    const engine = this.#options.engine()
    if (engine === undefined || (engine.role !== undefined && engine.role !== 'owner')) {
      // The owner follows its own directory; this node compares every user when it becomes the owner.
      this.#dirty.clear()
      return
    }
    const users = [...this.#dirty]
    this.#dirty.clear()
    const { devices } = engine.state
    const everyDevice = this.#everyDevice ? devicesByUser(devices) : undefined
    this.#everyDevice = false
    for (const loginName of users) {
      const wanted = this.#options.directory.deviceIdsOf(loginName)
      const has =
        this.#sent.get(loginName) ??
        everyDevice?.get(loginName) ??
        (everyDevice === undefined ? this.#engineDevicesOf(devices, loginName, wanted) : [])
      if (wanted.length > 0) this.#known.set(loginName, wanted)
      else this.#known.delete(loginName)
      if (sameSet(wanted, has)) continue
      this.#send(engine, loginName, wanted)
    }
  }

  /** The user's devices in the engine among those the directory gives it now or gave it before. */
  #engineDevicesOf(
    devices: TelephonyState['devices'],
    loginName: string,
    wanted: readonly string[],
  ): string[] {
    const candidates = new Set([...wanted, ...(this.#known.get(loginName) ?? [])])
    return [...candidates].filter(
      (deviceId) => Object.hasOwn(devices, deviceId) && devices[deviceId]?.loginName === loginName,
    )
  }

  #send(engine: DeviceEngine, loginName: string, deviceIds: string[]): void {
    this.#sent.set(loginName, deviceIds)
    const done = () => {
      if (this.#sent.get(loginName) === deviceIds) this.#sent.delete(loginName)
    }
    const command = engine
      .execute({ type: 'userDevices', loginName, deviceIds })
      .then(done, (error: unknown) => {
        done()
        this.#options.onError(error, loginName)
      })
    this.#inFlight.add(command)
    void command.then(() => this.#inFlight.delete(command))
  }
}

/** The ids of the engine's devices by user. */
function devicesByUser(devices: TelephonyState['devices']): Map<string, string[]> {
  const byUser = new Map<string, string[]>()
  for (const device of Object.values(devices)) {
    const ids = byUser.get(device.loginName)
    if (ids === undefined) byUser.set(device.loginName, [device.deviceId])
    else ids.push(device.deviceId)
  }
  return byUser
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  const set = new Set(a)
  return b.every((id) => set.has(id))
}
