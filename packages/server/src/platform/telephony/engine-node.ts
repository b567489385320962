/**
 * The call engine on every node (docs/cluster-engine.md, "The engine on every node"): what the gateway, the
 * control plane and the other services use of the engine, the same on the node that owns it and on the
 * others. The node loops on the engine's lease. While it owns a term it runs the engine itself (OwnerTerm):
 * commands run on it directly, stored batches are published on the change feed, and the requests other nodes
 * forward are consumed. Otherwise it is a follower: a replica of the state (TelephonyReplica) answers reads,
 * and commands go to the owner through the command queue, each resolving once the replica shows the batch
 * that stored it, so that a client reading after its command sees its effect on any node. A term lost makes
 * the node a follower again, trying to own the engine anew. In the embedded mode (no replication) the one
 * node owns the engine from its start to its stop, and a command costs what it cost on the engine alone.
 */
import { randomUUID } from 'node:crypto'
import type { Clock } from '../events.js'
import { withResolvers } from '../with-resolvers.js'
import type { CallStore } from './call-store.js'
import type { EngineChangeFeed } from './engine-change-feed.js'
import type { EngineCommandQueue } from './engine-command-queue.js'
import { EngineFencedError } from './engine-fenced-error.js'
import type { EngineLease, EngineOwnership } from './engine-lease.js'
import {
  type BatchPublisher,
  type EngineOptions,
  type ErrorReporter,
  OwnerTerm,
  settle,
} from './engine-owner-term.js'
import type { EngineAnswer, EngineRequest } from './engine-request.js'
import type { CommandResult, Telephony } from './telephony.js'
import type { TelephonyQueries } from './telephony-queries.js'
import { TelephonyReplica, type TelephonyReplicaOptions } from './telephony-replica.js'
import type { EngineCommand, TelephonyState } from './telephony-state.js'

/** Batches read at once when a follower catches up with the feed (catchUp). */
const CATCH_UP_PAGE = 64
/** How long a follower waits for its replica to show a forwarded command's batch, by default. */
export const DEFAULT_CATCH_UP_TIMEOUT_MS = 5_000
/** How long the node waits after a failed start of a term or of its replica before it tries again. */
export const DEFAULT_RETRY_MS = 1_000
/** How long a stop waits for the engine of a lost term to stop (a save hanging on a lost database). */
const RETIRE_WAIT_MS = 5_000

/** What a cluster node needs to follow the owner; the embedded mode has none. */
export interface EngineReplication {
  feed: EngineChangeFeed
  /** The stored state, unfenced: the replica loads it at start and whenever the feed cannot bring it up. */
  store: Pick<CallStore, 'load'>
  /** Applies a batch's records (storage/engine-batch-json.ts `applyEngineBatch`). */
  applyBatch: TelephonyReplicaOptions['applyBatch']
  /** The publisher of a term's stored batches, under its epoch (storage/engine-batch-publisher.ts). */
  publisher(term: EngineOwnership): BatchPublisher
}

/** What a node needs. */
export interface EngineNodeOptions {
  lease: EngineLease
  queue: EngineCommandQueue
  /** The call store of a term (on PostgreSQL fenced by it: `fenceOf(term)`); closed when the term ends. */
  openCallStore(term: EngineOwnership): CallStore
  /** How to follow the owner (cluster mode); without it the node owns the engine or fails to start. */
  replication?: EngineReplication
  /** The engine's settings and hooks (onCommitted, the log's recorder): they run on the owner only. */
  engine: EngineOptions
  /**
   * The clock of the node's own waits: its pauses after a failure, a follower's bound on catching up. The
   * system's in a cluster, never the service's adjustable clock; the engine's clock when absent.
   */
  waitClock?: Clock
  /** How long a follower waits for its replica to show a forwarded command's batch. */
  catchUpTimeoutMs?: number
  retryMs?: number
  /** Told of every failure no caller waits for (a term that could not start, a replica that fell behind). */
  onError?: ErrorReporter
  /**
   * Told of each change of role, after it: the work that goes with the engine's term follows it (the node
   * that owns the engine delivers the webhooks, docs/cluster-events.md).
   */
  onRole?: (role: EngineNodeRole) => void
}

/** Where a node stands: running the engine, following its owner, or neither yet (starting, or in between). */
export type EngineNodeRole = 'owner' | 'follower' | 'catching-up'

/** The reads of a state: the engine's or the replica's. */
type Reader = Pick<Telephony, 'state' | 'queries'>

/** What the loop's wait for a term's end sees when the node is stopped. */
const STOP = Symbol('stop')

export class EngineNode implements Telephony {
  readonly #options: EngineNodeOptions
  readonly #clock: Clock
  readonly #report: ErrorReporter
  /** Reads come from the engine while the node owns it, from the replica while it follows. */
  #reader: Reader | undefined
  /** The engine of the term this node owns: commands run on it directly. */
  #engine: OwnerTerm['service'] | undefined
  #replica: TelephonyReplica | undefined
  #role: EngineNodeRole = 'catching-up'
  /** Resolved (and replaced) at each change of role: forwarded commands look again where to wait. */
  #roleChange = withResolvers<void>()
  /** The loop on the lease, until the node stops. */
  #loop: Promise<void> = Promise.resolve()
  #isAcquiring = false
  #isStopping = false
  #stopped: Promise<void> | undefined
  readonly #stopRequested = withResolvers<typeof STOP>()
  /** The commands this node forwarded and not yet answered. */
  readonly #forwards = new Set<Promise<unknown>>()
  /** The ends of lost terms under way. */
  readonly #retiring = new Set<Promise<void>>()

  private constructor(options: EngineNodeOptions) {
    this.#options = options
    this.#clock = options.waitClock ?? options.engine.clock
    this.#report = options.onError ?? (() => {})
  }

  /**
   * Starts the node: without replication it takes the engine's lease and starts the engine (rejecting when
   * that fails, as the engine's start did); with it, it loads its replica (rejecting when that fails) and then
   * contends for the lease in the background. A start that fails closes the lease and the queue.
   */
  static async start(options: EngineNodeOptions): Promise<EngineNode> {
    const node = new EngineNode(options)
    try {
      if (options.replication === undefined)
        node.#loop = node.#run(await node.#takeOver(await options.lease.acquire()))
      else {
        await node.#follow(options.replication)
        node.#loop = node.#run(undefined)
      }
    } catch (error) {
      await settle(options.lease.close(), node.#report, 'closing the engine lease')
      await settle(options.queue.close(), node.#report, 'closing the engine command queue')
      throw error
    }
    return node
  }

  get state(): TelephonyState {
    return this.#current().state
  }

  get queries(): TelephonyQueries {
    return this.#current().queries
  }

  /** Where the node stands now. */
  get role(): EngineNodeRole {
    return this.#role
  }

  /**
   * Whether the node is caught up, for its readiness (operations/node-health.ts): it runs the engine, or its
   * replica loaded the stored state and follows the feed.
   */
  get isCaughtUp(): boolean {
    return this.#role !== 'catching-up'
  }

  execute(command: EngineCommand, requestId?: string): Promise<CommandResult> {
    const engine = this.#engine
    if (engine === undefined)
      return this.#forward({ kind: 'command', command }, requestId).then((answer) => answer.result)
    // One node: the engine's own promise, nothing more (docs/cluster-engine.md: the embedded mode pays nothing).
    if (this.#options.replication === undefined) return engine.execute(command, requestId)
    return engine.execute(command, requestId).catch((error: unknown) => {
      // The term ended under the command's batch, which the fence refused: nothing of it was stored, and the
      // next owner runs it.
      if (!(error instanceof EngineFencedError)) throw error
      return this.#forward({ kind: 'command', command }, requestId).then((answer) => answer.result)
    })
  }

  snapshot(loginName: string): Promise<void> {
    const engine = this.#engine
    if (engine === undefined)
      return this.#forward({ kind: 'snapshot', loginName }).then(() => undefined)
    if (this.#options.replication === undefined) return engine.snapshot(loginName)
    return engine.snapshot(loginName).catch((error: unknown) => {
      if (!(error instanceof EngineFencedError)) throw error
      return this.#forward({ kind: 'snapshot', loginName }).then(() => undefined)
    })
  }

  /**
   * Resolves once the replica applied every batch the feed holds now (Telephony.catchUp): the batches after the
   * replica's, read a page at a time, the last of each page waited for (bounded as a forwarded command's
   * wait is). At once on the owner or alone.
   */
  async catchUp(): Promise<void> {
    const feed = this.#options.replication?.feed
    for (;;) {
      const replica = this.#replica
      if (feed === undefined || replica === undefined || this.#engine !== undefined) return
      const page = await feed.read(replica.batch, CATCH_UP_PAGE)
      const last = page.batches.at(-1)?.batch
      if (last === undefined) return
      await this.#caughtUpTo(last)
      if (page.batches.length < CATCH_UP_PAGE) return
    }
  }

  /** Resolves once the commands asked so far are done: those of the engine it runs, and those it forwarded. */
  async idle(): Promise<void> {
    await this.#engine?.idle()
    while (this.#forwards.size > 0) await Promise.allSettled([...this.#forwards])
  }

  /**
   * Stops the node: the term it owns ends gracefully (the requests it took answered, the commands under way
   * stored, the term given up, so that another node takes over at once); the commands it forwarded are
   * answered (within the queue's bound); then the lease, the replica and the queue are closed.
   */
  stop(): Promise<void> {
    if (this.#stopped === undefined) {
      this.#isStopping = true
      this.#stopped = this.#stop()
    }
    return this.#stopped
  }

  async #stop(): Promise<void> {
    this.#stopRequested.resolve(STOP)
    const { lease, queue } = this.#options
    // A node waiting for the lease stops waiting: acquire rejects once the lease is closed. An owner first
    // ends its term, then the lease is closed.
    if (this.#isAcquiring) await settle(lease.close(), this.#report, 'closing the engine lease')
    await this.#loop
    await settle(lease.close(), this.#report, 'closing the engine lease')
    await this.idle()
    await settle(queue.close(), this.#report, 'closing the engine command queue')
    const replica = this.#replica
    this.#replica = undefined
    if (replica !== undefined) await settle(replica.stop(), this.#report, 'stopping the replica')
    if (!(await this.#bounded(Promise.allSettled([...this.#retiring]), RETIRE_WAIT_MS)))
      this.#report(
        new Error(`The engine of a lost term did not stop within ${RETIRE_WAIT_MS} ms`),
        'stopping the call engine',
      )
  }

  /** The loop on the lease: own a term until it ends, follow, own the next, until the node stops. */
  async #run(first: OwnerTerm | undefined): Promise<void> {
    let owner = first
    for (;;) {
      owner ??= await this.#acquire()
      if (owner === undefined) return
      const ended = await Promise.race([owner.term.lost, this.#stopRequested.promise])
      if (ended === STOP) {
        await owner.resign()
        return
      }
      this.#fallBack(owner)
      owner = undefined
      const { replication } = this.#options
      if (replication !== undefined) await this.#followAgain(replication)
      // A node that lost its term (its database connection died, most often) lets the others take over
      // first: it contends again after a pause.
      await this.#pause()
    }
  }

  /** Waits for a term and starts the engine on it; undefined once the node stops. */
  async #acquire(): Promise<OwnerTerm | undefined> {
    while (!this.#isStopping) {
      let term: EngineOwnership
      this.#isAcquiring = true
      try {
        term = await this.#options.lease.acquire()
      } catch (error) {
        if (this.#isStopping) return undefined
        this.#report(error, 'acquiring the engine lease failed')
        await this.#pause()
        continue
      } finally {
        this.#isAcquiring = false
      }
      if (this.#isStopping) {
        await settle(term.release(), this.#report, 'giving the engine lease up')
        return undefined
      }
      try {
        return await this.#takeOver(term)
      } catch (error) {
        this.#report(error, 'starting the call engine on this node failed')
        await settle(term.release(), this.#report, 'giving the engine lease up')
        await this.#pause()
      }
    }
    return undefined
  }

  /** Starts the engine on the term and makes it the node's: the replica is no longer needed. */
  async #takeOver(term: EngineOwnership): Promise<OwnerTerm> {
    const { replication } = this.#options
    const owner = await OwnerTerm.start({
      term,
      store: this.#options.openCallStore(term),
      engine: this.#options.engine,
      queue: this.#options.queue,
      ...(replication && { publisher: replication.publisher(term) }),
      report: this.#report,
    })
    this.#engine = owner.service
    this.#reader = owner.service
    this.#setRole('owner')
    const replica = this.#replica
    this.#replica = undefined
    if (replica !== undefined) void settle(replica.stop(), this.#report, 'stopping the replica')
    return owner
  }

  /** The term was lost: commands go to the next owner from now on, and the engine stops in the background. */
  #fallBack(owner: OwnerTerm): void {
    this.#engine = undefined
    this.#setRole('catching-up')
    const retiring = owner.abandon()
    this.#retiring.add(retiring)
    void retiring.then(() => this.#retiring.delete(retiring))
  }

  /** Loads a replica and reads from it. */
  async #follow(replication: EngineReplication): Promise<void> {
    const { engine } = this.#options
    const replica = await TelephonyReplica.start({
      store: replication.store,
      feed: replication.feed,
      applyBatch: replication.applyBatch,
      directory: engine.directory,
      clock: this.#clock,
      onError: (error) => this.#report(error, "loading the engine's stored state failed"),
    })
    this.#replica = replica
    this.#reader = replica
    this.#setRole('follower')
  }

  /** Loads a replica again after a term ended, trying until it loads or the node stops. */
  async #followAgain(replication: EngineReplication): Promise<void> {
    while (!this.#isStopping) {
      try {
        await this.#follow(replication)
        return
      } catch (error) {
        this.#report(error, "starting the replica of the engine's state failed")
        await this.#pause()
      }
    }
  }

  /**
   * Hands the request to the owner under `requestId` (a new one when none is given); resolves once this node's
   * replica shows its batch.
   */
  #forward(request: EngineRequest, requestId: string = randomUUID()): Promise<EngineAnswer> {
    if (this.#isStopping) return Promise.reject(new Error('The call engine is stopped'))
    const forwarded = this.#options.queue.submit(requestId, request).then(async (answer) => {
      await this.#caughtUpTo(answer.batch)
      return answer
    })
    this.#forwards.add(forwarded)
    const done = () => void this.#forwards.delete(forwarded)
    forwarded.then(done, done)
    return forwarded
  }

  /**
   * Resolves once this node's state shows the batch `batch`: its replica applied it, or the node owns the
   * engine now (which loaded every batch an owner answered). Bounded: past the bound the command's answer is
   * given all the same (it is stored; only its effect may not show here yet), and the lag reported.
   */
  async #caughtUpTo(batch: number): Promise<void> {
    const bound = withResolvers<'late'>()
    const timer = this.#clock.setTimer(
      this.#options.catchUpTimeoutMs ?? DEFAULT_CATCH_UP_TIMEOUT_MS,
      () => bound.resolve('late'),
    )
    try {
      for (;;) {
        if (this.#engine !== undefined) return
        const replica = this.#replica
        if (replica !== undefined && replica.batch >= batch) return
        const waits: Promise<unknown>[] = [this.#roleChange.promise, bound.promise]
        if (replica !== undefined) waits.push(replica.waitFor(batch))
        if ((await Promise.race(waits)) === 'late') {
          this.#report(
            new Error(`This node's replica did not reach batch ${batch} in time`),
            'following the call engine',
          )
          return
        }
      }
    } finally {
      timer.cancel()
    }
  }

  #setRole(role: EngineNodeRole): void {
    const before = this.#role
    this.#role = role
    const changed = this.#roleChange
    this.#roleChange = withResolvers<void>()
    changed.resolve()
    if (role !== before) this.#options.onRole?.(role)
  }

  #current(): Reader {
    if (this.#reader === undefined) throw new Error('The call engine is not started')
    return this.#reader
  }

  /** A pause before trying again; ends early when the node stops. */
  async #pause(): Promise<void> {
    await this.#bounded(this.#stopRequested.promise, this.#options.retryMs ?? DEFAULT_RETRY_MS)
  }

  /** Waits for `promise`, at most `ms`; true when it settled in time. */
  async #bounded(promise: Promise<unknown>, ms: number): Promise<boolean> {
    const bound = withResolvers<boolean>()
    const timer = this.#clock.setTimer(ms, () => bound.resolve(false))
    const settled = await Promise.race([promise.then(() => true), bound.promise])
    timer.cancel()
    return settled
  }
}
