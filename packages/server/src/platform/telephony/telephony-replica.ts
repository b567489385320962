/**
 * A follower node's replica of the call engine's state (docs/cluster-engine.md, "The replica"): loaded from the
 * stored state, whose batch number says where it stands, then kept up to date by applying the owner's batches
 * from the engine's change feed, in order. A batch missing from the feed (trimmed, or never published), out of
 * order, or of an older owner than the last applied makes it load the stored state anew. It reads as
 * TelephonyService does (`state`, `queries`), and `waitFor` lets a node that forwarded a command answer only
 * once its replica shows the command's effect.
 */
import type { Clock } from '../events.js'
import { withCalls } from './call-index.js'
import type { CallStore } from './call-store.js'
import type {
  EngineBatch,
  EngineBatchPage,
  EngineChangeFeed,
  EngineFeedFollower,
} from './engine-change-feed.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import { TelephonyQueries } from './telephony-queries.js'
import type { TelephonyState } from './telephony-state.js'

/** After a load that left the replica where it was, how long it waits before it loads again. */
const RELOAD_RETRY_MS = 1_000

/** What the replica needs. */
export interface TelephonyReplicaOptions {
  /** The stored state, loaded at start and whenever the feed cannot bring the replica up to date. */
  store: Pick<CallStore, 'load'>
  feed: EngineChangeFeed
  /**
   * Applies a batch's records to a state (storage/engine-batch-json.ts `applyEngineBatch`): the records are
   * encoded as the store keeps them, which the storage layer reads, not the platform.
   */
  applyBatch: (state: TelephonyState, batch: EngineBatch) => TelephonyState
  directory: TelephonyDirectory
  /** Paces the loads that did not move the replica on (a feed ahead of the database). */
  clock: Clock
  /** Told when a load of the stored state fails; the replica loads again after a pause. */
  onError?: (error: unknown) => void
}

/** A reader waiting for a batch. */
interface Waiter {
  batch: number
  resolve(): void
}

export class TelephonyReplica {
  readonly #options: TelephonyReplicaOptions
  #state: TelephonyState
  /** The number of the last batch applied (0 before the first). */
  #batch: number
  /** The epoch of the owner whose batch was applied last (0 after a load: unknown). */
  #epoch = 0
  #waiters: Waiter[] = []
  #follower: EngineFeedFollower | undefined

  private constructor(options: TelephonyReplicaOptions, state: TelephonyState) {
    this.#options = options
    this.#state = state
    this.#batch = state.batch ?? 0
  }

  /** Loads the stored state (empty when none is) and follows the feed from its batch. */
  static async start(options: TelephonyReplicaOptions): Promise<TelephonyReplica> {
    const replica = new TelephonyReplica(options, await loadState(options.store))
    replica.#follower = await options.feed.follow(replica.#batch, (page) => replica.#apply(page))
    return replica
  }

  /** The state as of the last batch applied, for queries; never change it. */
  get state(): TelephonyState {
    return this.#state
  }

  /** Reads of the state as of the last batch applied, as users see it (telephony-queries.ts). */
  get queries(): TelephonyQueries {
    return new TelephonyQueries(this.#state, this.#options.directory)
  }

  /** The number of the last batch applied. */
  get batch(): number {
    return this.#batch
  }

  /** Resolves once the replica shows the batch `batch` (or a later one): at once when it does already. */
  waitFor(batch: number): Promise<void> {
    if (batch <= this.#batch) return Promise.resolve()
    return new Promise((resolve) => this.#waiters.push({ batch, resolve }))
  }

  /** Stops following the feed. */
  async stop(): Promise<void> {
    await this.#follower?.close()
    this.#follower = undefined
  }

  /** Applies a page of batches in order, or loads the state anew; answers where to follow from. */
  async #apply(page: EngineBatchPage): Promise<number> {
    if (page.missing) return this.#reload()
    for (const batch of page.batches) {
      if (batch.batch <= this.#batch) continue
      if (batch.batch !== this.#batch + 1 || batch.epoch < this.#epoch) return this.#reload()
      this.#state = this.#options.applyBatch(this.#state, batch)
      this.#batch = batch.batch
      this.#epoch = batch.epoch
    }
    this.#settle()
    return this.#batch
  }

  /** Loads the stored state; when that fails or moves nothing on, waits a while first. */
  async #reload(): Promise<number> {
    const from = this.#batch
    try {
      const state = await loadState(this.#options.store)
      this.#state = state
      this.#batch = state.batch ?? 0
      this.#epoch = 0
    } catch (error) {
      this.#options.onError?.(error)
    }
    if (this.#batch <= from) await this.#options.clock.sleep(RELOAD_RETRY_MS)
    this.#settle()
    return this.#batch
  }

  /** Resolves the readers waiting for a batch applied by now. */
  #settle(): void {
    if (this.#waiters.length === 0) return
    const waiting: Waiter[] = []
    for (const waiter of this.#waiters)
      if (waiter.batch <= this.#batch) waiter.resolve()
      else waiting.push(waiter)
    this.#waiters = waiting
  }
}

/**
 * The stored state, or the empty one before the owner stored any: without a callRef key, which only the
 * owner makes (a replica makes no call).
 */
async function loadState(store: Pick<CallStore, 'load'>): Promise<TelephonyState> {
  return (
    (await store.load()) ?? withCalls({ sequence: 0, devices: {}, timers: [], callbacks: {} }, [])
  )
}
