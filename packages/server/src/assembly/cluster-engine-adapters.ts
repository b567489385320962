/**
 * The adapters of the call engine on a cluster node (docs/cluster-engine.md, "The engine on every node"): the
 * engine's lease on PostgreSQL (a connection of its own), the call store fenced by each term, the command queue
 * and the change feed on Redis. The `REDIS_URL` switch passes them to startTelephony in place of the embedded
 * mode's.
 */

import type { Kysely } from 'kysely'
import { SystemClock } from '../clock/system-clock.js'
import type { ErrorReporter } from '../platform/telephony/engine-owner-term.js'
import { RedisEngineChangeFeed } from '../storage/redis/redis-engine-change-feed.js'
import { RedisEngineCommandQueue } from '../storage/redis/redis-engine-command-queue.js'
import type { RedisSubscriptionEventLog } from '../storage/redis/redis-subscription-event-log.js'
import type { CallDatabase, DatabaseTarget } from '../storage/sql/database.js'
import { fenceOf } from '../storage/sql/engine-fence.js'
import { SqlCallStore } from '../storage/sql/sql-call-store.js'
import { SqlEngineLease, type SqlEngineLeaseOptions } from '../storage/sql/sql-engine-lease.js'
import type { EngineAdapters } from './start-telephony.js'

/** What a cluster node's engine runs on. */
export interface ClusterEngineParts {
  /** The service's PostgreSQL database: the lease's connection is opened on it. */
  target: Extract<DatabaseTarget, { kind: 'postgres' }>
  /** The service's tables on it (shared: the stores never close it). */
  db: Kysely<CallDatabase>
  /**
   * The node's subscriptions' event logs: the change feed sends its entries on their connection, the node's
   * ordinary Redis client, so that a batch's appends can follow its entry without waiting for its answer (Redis
   * runs one connection's commands in order: docs/cluster-engine.md, "Nothing is told before the feed has it").
   * The command queue uses that client too, and duplicates connections of its own from it.
   */
  eventLog: RedisSubscriptionEventLog
  nodeId: string
  /** Intervals of the lease (tests shorten them); its defaults otherwise. */
  lease?: Pick<SqlEngineLeaseOptions, 'retryIntervalMs' | 'checkIntervalMs' | 'checkTimeoutMs'>
  /** How long a forwarded request waits for the owner's answer (5 s by default). */
  requestTimeoutMs?: number
  onError: ErrorReporter
}

/** Opens the node's side of the command queue (its reply channel) and builds the other adapters. */
export async function clusterEngineAdapters(parts: ClusterEngineParts): Promise<EngineAdapters> {
  const { db, nodeId, onError } = parts
  const redis = parts.eventLog.connection
  // The bounds and pauses run on the system's clock: the control plane moves the service's clock ahead.
  const clock = new SystemClock()
  const queue = await RedisEngineCommandQueue.open(redis, {
    nodeId,
    clock,
    ...(parts.requestTimeoutMs !== undefined && { timeoutMs: parts.requestTimeoutMs }),
    onError: (error) => onError(error, 'the engine command queue failed'),
  })
  return {
    lease: new SqlEngineLease({
      target: parts.target,
      nodeId,
      clock,
      ...parts.lease,
      onRetryError: (error) => onError(error, 'trying the engine lease failed'),
    }),
    queue,
    openCallStore: (term) => new SqlCallStore(db, { ownsDatabase: false, fence: fenceOf(term) }),
    replication: {
      // On the event logs' connection: a batch's appends are sent right behind its entry.
      feed: new RedisEngineChangeFeed(redis, {
        connectionName: `openness-engine-feed-${nodeId}`,
        onError: (error) => onError(error, "following the engine's change feed failed"),
      }),
      store: new SqlCallStore(db, { ownsDatabase: false }),
    },
    waitClock: clock,
  }
}
