/**
 * Starts the call engine of a node (docs/cluster-engine.md, "The engine on every node") over the adapters of
 * its mode: the embedded mode's, where the one node owns the engine at once and runs it as before (the SQLite
 * call store, no fence, no change feed), or a cluster's (cluster-engine-adapters.ts: the PostgreSQL lease and
 * fenced call store, the Redis command queue and change feed). service.ts calls it once, with either.
 */
import type { Clock } from '../platform/events.js'
import type { CallStore } from '../platform/telephony/call-store.js'
import type { EngineChangeFeed } from '../platform/telephony/engine-change-feed.js'
import type { EngineCommandQueue } from '../platform/telephony/engine-command-queue.js'
import type { EngineLease } from '../platform/telephony/engine-lease.js'
import { EngineNode, type EngineNodeOptions } from '../platform/telephony/engine-node.js'
import type { EngineOptions, ErrorReporter } from '../platform/telephony/engine-owner-term.js'
import { applyEngineBatch } from '../storage/engine-batch-json.js'
import { EngineBatchPublisher } from '../storage/engine-batch-publisher.js'
import { MemoryEngineCommandQueue } from '../storage/memory/memory-engine-command-queue.js'
import { SingleNodeEngineLease } from '../storage/memory/single-node-engine-lease.js'

/** The adapters the engine of a node runs on. */
export interface EngineAdapters {
  lease: EngineLease
  queue: EngineCommandQueue
  /** The call store of a term as owner: fenced by it in a cluster (`fenceOf(term)`). */
  openCallStore: EngineNodeOptions['openCallStore']
  /** A cluster's: the change feed, and the store (unfenced) the replica loads; none in the embedded mode. */
  replication?: { feed: EngineChangeFeed; store: Pick<CallStore, 'load'> }
  /** The clock of the node's own waits (the system's in a cluster); the engine's clock when absent. */
  waitClock?: Clock
}

/** The embedded mode's adapters: one node, which owns the engine at once and keeps it until it stops. */
export function embeddedEngineAdapters(callStore: CallStore, clock: Clock): EngineAdapters {
  return {
    lease: new SingleNodeEngineLease(),
    // Nothing is ever forwarded (the node owns the engine from its start to its stop): the queue is idle.
    queue: new MemoryEngineCommandQueue({ clock }),
    openCallStore: () => callStore,
  }
}

/** What starting the engine of a node needs. */
export interface StartTelephonyOptions {
  adapters: EngineAdapters
  /** The engine's settings and hooks (the log's recorder, onCommitted): they run on the owner only. */
  engine: EngineOptions
  /** Told of every failure no caller waits for (the service's background-error reporter). */
  onError: ErrorReporter
  /** Told of each change of the node's role (EngineNodeOptions.onRole). */
  onRole?: EngineNodeOptions['onRole']
}

/**
 * Starts the engine of this node: in the embedded mode it owns the engine once this resolves; in a cluster
 * its replica is loaded and it contends for the engine's lease in the background.
 */
export function startTelephony({
  adapters,
  engine,
  onError,
  onRole,
}: StartTelephonyOptions): Promise<EngineNode> {
  const { replication } = adapters
  return EngineNode.start({
    lease: adapters.lease,
    queue: adapters.queue,
    openCallStore: adapters.openCallStore,
    engine,
    onError,
    ...(onRole && { onRole }),
    ...(adapters.waitClock && { waitClock: adapters.waitClock }),
    ...(replication && {
      replication: {
        ...replication,
        applyBatch: applyEngineBatch,
        publisher: (term) =>
          new EngineBatchPublisher(replication.feed, term.epoch, (error) =>
            onError(error, "publishing a batch on the engine's change feed failed"),
          ),
      },
    }),
  })
}
