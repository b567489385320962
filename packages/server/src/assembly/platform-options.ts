/**
 * What starting the platform is given (startPlatform in service.ts): the options main.ts reads from the
 * configuration and the tests set, and the constants the assembly describes the service with.
 */

import type { WebhookFailure, WebhookPolicy, WebhookTransport } from '../delivery/webhook-sender.js'
import type { PlatformActivity } from '../operations/activity-log.js'
import type { ThrottlePolicies } from '../platform/auth/authenticator.js'
import type { ScryptCost } from '../platform/auth/password-hasher.js'
import type { ChangeNotices } from '../platform/change-notices.js'
import type { Clock } from '../platform/events.js'
import type { Quotas } from '../platform/quotas.js'
import type { SessionTiming } from '../platform/sessions/session-manager.js'
import type { EngineSettings } from '../platform/telephony/engine-operation.js'
import type { RedisTarget } from '../storage/redis/redis-client.js'
import type { DatabaseTarget } from '../storage/sql/database.js'

/** The product this server describes itself as at the root. */
export const PRODUCT = {
  name: 'Communication Platform REST Openness Service',
  type: 'OPENNESS',
  version: '0.1.0',
}

/**
 * How long a request sent with an Idempotency-Key holds its key without renewing it (it renews every third of
 * it while it runs): a retry after its node died takes the key over once it lapsed (docs/idempotency.md).
 */
export const IDEMPOTENCY_LEASE_MS = 6_000
/** How long the outcome of a request sent with an Idempotency-Key is answered again by default: a day. */
export const DEFAULT_IDEMPOTENCY_RETENTION_SECONDS = 86_400

/** What starting the platform needs. */
export interface PlatformOptions {
  database: DatabaseTarget
  directoryFile: string
  clock: Clock
  sessionTtlSeconds: number
  publicBaseUrl?: string
  privateBaseUrl?: string
  pollingBaseUrl?: string
  /** The accepted names of the session cookie, the first set by default (gateway/cookies.ts). */
  sessionCookieNames?: readonly string[]
  /** Capacity of each subscription's event queue (default 1000 events). */
  queueCapacity?: number
  /** What an account, a session and a node may hold; DEFAULT_QUOTAS for what is not given. */
  quotas?: Partial<Quotas>
  /** Lower scrypt cost for tests; production uses the default. */
  scryptCost?: ScryptCost
  /**
   * How long a verified password spares the next login of the account a full verification, seconds
   * (default 600; 0: every login verifies). platform/auth/verified-passwords.ts.
   */
  passwordCacheTtlSeconds?: number
  /**
   * How long the outcome of a request sent with an Idempotency-Key is answered again to its retries, seconds
   * (default a day: docs/idempotency.md).
   */
  idempotencyRetentionSeconds?: number
  /** Authentication throttling; tests use small numbers. */
  throttlePolicies?: ThrottlePolicies
  /** Overrides of the session timing derived from the time-to-live. */
  timing?: Partial<SessionTiming>
  /** Settings of the call engine (ringing timeout); the defaults otherwise. */
  engineSettings?: EngineSettings
  /** Webhook delivery settings. */
  webhooks?: WebhookOptions
  /**
   * Whether the call engine writes the communication log's records (default true). Off, the log keeps what
   * it holds, readable and deletable, and gains nothing (docs/comlog.md, "Turning recording off").
   */
  comlogRecording?: boolean
  /** The longest voice message, seconds: then the voice mail hangs up (docs/voicemail.md; default 120). */
  maxVoiceMessageSeconds?: number
  /**
   * Told of every failure of work no request waits for (an event summary's refresh, a voice message's
   * storing, an engine timer), so that none is lost silently; main.ts logs them. A process warning otherwise.
   */
  onBackgroundError?: (error: unknown, what: string) => void
  /**
   * How the nodes of a cluster tell each other what durable state they changed (docs/cluster.md, "What each
   * node keeps in memory"); whoever opened it closes it. A node alone (the embedded mode) by default.
   */
  changeNotices?: ChangeNotices
  /** The cluster mode (docs/cluster.md): this node's id and the cluster's Redis; absent, the embedded mode. */
  cluster?: ClusterOptions
  /** Adds the process's metrics (CPU, memory, event loop) to the node's (main.ts); off by default. */
  processMetrics?: boolean
  /**
   * Told of the calls the engine creates, answers and ends, and of each reset, restore and snapshot (main.ts
   * logs them: docs/operations.md, "Logs"); nobody by default.
   */
  activity?: PlatformActivity
  /**
   * Entries the journal keeps (JOURNAL_SIZE; docs/journal.md): DEFAULT_JOURNAL_SIZE when not given, 0 for no
   * journal. In memory alone, in the cluster's Redis in a cluster.
   */
  journalSize?: number
}

/** A node of a cluster: its id, and the Redis the nodes share. */
export interface ClusterOptions {
  nodeId: string
  redis: RedisTarget
}

/** Webhook delivery (docs/subscriptions.md, "Webhook delivery"). */
export interface WebhookOptions {
  /** WEBHOOK_ALLOWED_HOSTS: hosts, addresses, CIDR blocks or `*`; loopback only by default. */
  allowedHosts?: string
  /** WEBHOOK_SECRET, the key of the signatures; a random one for this run when absent. */
  secret?: string
  /** How requests are sent (tests); Node's fetch by default. */
  transport?: WebhookTransport
  /** Timeout, attempts and delays; DEFAULT_WEBHOOK_POLICY otherwise. */
  policy?: Partial<Omit<WebhookPolicy, 'secret'>>
  /** Told of every failed request (main.ts logs them). */
  onFailure?: (failure: WebhookFailure) => void
}
