/**
 * The stores of the state every node of a cluster shares (design.md section 3; docs/cluster.md): in the embedded
 * mode they live in the process's memory, in the cluster mode in Redis. assembly/service.ts builds the platform
 * on one or the other the same way: the two modes differ here, and only here, for this state.
 */

import type { Redis } from 'ioredis'
import type { HealthCheck } from '../operations/node-health.js'
import type { LoginAttemptStores, ThrottlePolicies } from '../platform/auth/authenticator.js'
import type { ChangeNotices } from '../platform/change-notices.js'
import type { SearchContextStore } from '../platform/directory-search/search-context-store.js'
import type { Clock } from '../platform/events.js'
import type { IdempotencyStore } from '../platform/idempotency-store.js'
import { CachedSessionStore } from '../platform/sessions/cached-session-store.js'
import type { LicenseStore } from '../platform/sessions/license-store.js'
import type { SessionStoreTiming } from '../platform/sessions/session-record.js'
import type { SessionStore } from '../platform/sessions/session-store.js'
import type { SubscriptionEventLog } from '../platform/subscriptions/subscription-event-log.js'
import type { SubscriptionStore } from '../platform/subscriptions/subscription-store.js'
import type { SupervisionStore } from '../platform/subscriptions/supervision-store.js'
import type { PlatformHealthStore } from '../platform/system/platform-health-store.js'
import { MemoryChangeNotices } from './memory/memory-change-notices.js'
import {
  type IdempotencyTiming,
  MemoryIdempotencyStore,
} from './memory/memory-idempotency-store.js'
import { MemoryLicenseStore } from './memory/memory-license-store.js'
import { MemoryLoginAttemptStore } from './memory/memory-login-attempt-store.js'
import { MemoryPlatformHealthStore } from './memory/memory-platform-health.js'
import { MemorySearchContextStore } from './memory/memory-search-context-store.js'
import { MemorySessionStore } from './memory/memory-session-store.js'
import { MemorySubscriptionStore } from './memory/memory-subscription-store.js'
import { MemorySupervisionStore } from './memory/memory-supervision-store.js'
import { changeAcknowledgementChannel, RedisChangeNotices } from './redis/redis-change-notices.js'
import { connectRedis, type RedisTarget } from './redis/redis-client.js'
import { RedisIdempotencyStore } from './redis/redis-idempotency-store.js'
import { RedisLicenseStore } from './redis/redis-license-store.js'
import { RedisLoginAttemptStore } from './redis/redis-login-attempt-store.js'
import { RedisPlatformHealthStore } from './redis/redis-platform-health-store.js'
import { RedisSearchContextStore } from './redis/redis-search-context-store.js'
import { RedisSessionStore } from './redis/redis-session-store.js'
import { RedisSubscriptionEventLog } from './redis/redis-subscription-event-log.js'
import { RedisSubscriptionStore } from './redis/redis-subscription-store.js'
import { RedisSupervisionStore } from './redis/redis-supervision-store.js'

/** What the shared stores need to be built. */
export interface SharedStateSettings {
  clock: Clock
  sessionTiming: SessionStoreTiming
  throttle: ThrottlePolicies
  /** Events each subscription's queue holds (DEFAULT_QUEUE_CAPACITY when not given). */
  queueCapacity?: number
  /** Told of failures no request waits for (a change notice that could not be sent). */
  onError: (error: unknown, what: string) => void
  /** How long requests sent with an Idempotency-Key are held and kept (docs/idempotency.md). */
  idempotency: IdempotencyTiming
}

/** The shared state's stores, and how to check and close what they stand on. */
export interface SharedState {
  sessions: SessionStore
  licenses: LicenseStore
  loginAttempts: LoginAttemptStores
  supervision: SupervisionStore
  searchContexts: SearchContextStore
  platformHealth: PlatformHealthStore
  subscriptions: SubscriptionStore
  /** The requests sent with an Idempotency-Key, and how they ended (docs/idempotency.md). */
  idempotency: IdempotencyStore
  /** The subscriptions' event logs every node reads (Redis Streams); absent alone, where queues are in-process. */
  eventLog?: SubscriptionEventLog
  /** How nodes tell each other what durable state they changed (a node alone tells nobody). */
  notices: ChangeNotices
  /** The Redis client the cluster's other adapters share; absent in the embedded mode. */
  redis?: Redis
  /** What readiness checks for this state (Redis answering); none in memory. */
  checks: HealthCheck[]
  close(): Promise<void>
}

/** The embedded mode's: everything in this process's memory. */
export function memorySharedState(settings: SharedStateSettings): SharedState {
  const notices = new MemoryChangeNotices()
  return {
    sessions: new MemorySessionStore(settings.sessionTiming),
    licenses: new MemoryLicenseStore(),
    loginAttempts: {
      login: new MemoryLoginAttemptStore(settings.throttle.login, 'login'),
      address: new MemoryLoginAttemptStore(settings.throttle.address, 'address'),
    },
    supervision: new MemorySupervisionStore(),
    searchContexts: new MemorySearchContextStore(),
    platformHealth: new MemoryPlatformHealthStore(),
    subscriptions: new MemorySubscriptionStore(),
    idempotency: new MemoryIdempotencyStore(settings.idempotency),
    notices,
    checks: [],
    close: () => notices.close(),
  }
}

/** The cluster mode's: in the Redis `target` names, connected before it resolves. */
export async function redisSharedState(
  target: RedisTarget,
  nodeId: string,
  settings: SharedStateSettings,
): Promise<SharedState> {
  const redis = await connectRedis(target, `openness-${nodeId}`)
  const notices = await RedisChangeNotices.open(redis, {
    nodeId,
    onError: (error) => settings.onError(error, 'a change notice was not sent or heard'),
  })
  return {
    // Each request uses its session: from the node's cache, renewed in Redis once a second at most.
    sessions: new CachedSessionStore(new RedisSessionStore(redis, settings.sessionTiming), {
      timing: settings.sessionTiming,
      notices,
    }),
    licenses: new RedisLicenseStore(redis),
    loginAttempts: {
      login: new RedisLoginAttemptStore(redis, settings.throttle.login, 'login'),
      address: new RedisLoginAttemptStore(redis, settings.throttle.address, 'address'),
    },
    supervision: new RedisSupervisionStore(redis),
    searchContexts: new RedisSearchContextStore(redis, settings.clock),
    platformHealth: new RedisPlatformHealthStore(redis),
    subscriptions: new RedisSubscriptionStore(redis),
    // A node's presence is its subscription to its change acknowledgements (redis-change-notices.ts).
    idempotency: new RedisIdempotencyStore(redis, settings.idempotency, {
      nodeId,
      channelPrefix: changeAcknowledgementChannel(redis, ''),
    }),
    notices,
    // On `redis` itself: the engine's change feed sends its entries on this log's connection
    // (cluster-engine-adapters.ts), so that a batch's appends follow its entry on one connection.
    eventLog: new RedisSubscriptionEventLog(redis, {
      ...(settings.queueCapacity !== undefined && { capacity: settings.queueCapacity }),
    }),
    redis,
    checks: [{ name: 'redis', probe: () => redis.ping() }],
    close: async () => {
      await notices.close()
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
