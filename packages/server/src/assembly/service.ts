/**
 * Assembles the platform behind the gateway: durable store, directory (imported from the directory
 * file), licenses, sessions and authentication. main.ts and the tests both start the service through it.
 */

import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Kysely } from 'kysely'
import type { ChannelOutlets } from '../delivery/channel-outlets.js'
import { EventRouter } from '../delivery/event-router.js'
import { LoggedSubscriptionOutlets } from '../delivery/logged-outlets.js'
import { SubscriptionOutlets } from '../delivery/subscription-outlets.js'
import {
  DEFAULT_WEBHOOK_POLICY,
  fetchTransport,
  type WebhookFailure,
  type WebhookPolicy,
  type WebhookTransport,
} from '../delivery/webhook-sender.js'
import { SessionCookies } from '../gateway/cookies.js'
import type { GatewayPlatform } from '../gateway/platform.js'
import { ServiceCatalog } from '../gateway/service-catalog.js'
import type { PlatformActivity } from '../operations/activity-log.js'
import { engineHealthCheck } from '../operations/engine-health-check.js'
import { NodeHealth } from '../operations/node-health.js'
import { ServiceMetrics } from '../operations/service-metrics.js'
import {
  Authenticator,
  DEFAULT_THROTTLE_POLICIES,
  type ThrottlePolicies,
} from '../platform/auth/authenticator.js'
import { PasswordHasher, type ScryptCost } from '../platform/auth/password-hasher.js'
import {
  DEFAULT_VERIFIED_PASSWORD_TTL_SECONDS,
  VerifiedPasswords,
} from '../platform/auth/verified-passwords.js'
import type { ChangeNotices } from '../platform/change-notices.js'
import type { ClockOffsetStore } from '../platform/clock-offset-store.js'
import { CallLogRecorder } from '../platform/comlog/call-log-recorder.js'
import { ComlogService } from '../platform/comlog/comlog-service.js'
import { EventSummaryService } from '../platform/comlog/event-summary.js'
import { Directory } from '../platform/directory/directory.js'
import { importDirectory, planImport } from '../platform/directory/directory-import.js'
import type { DirectorySnapshot } from '../platform/directory/directory-store.js'
import { DirectoryIndex } from '../platform/directory-search/directory-index.js'
import { DirectorySearchService } from '../platform/directory-search/directory-search-service.js'
import type { Clock } from '../platform/events.js'
import { Journal } from '../platform/journal/journal.js'
import { DEFAULT_JOURNAL_SIZE } from '../platform/journal/journal-entry.js'
import type { JournalStore } from '../platform/journal/journal-store.js'
import { DEFAULT_QUOTAS, type Quotas } from '../platform/quotas.js'
import { Readiness } from '../platform/readiness.js'
import { RoutingService } from '../platform/routing/routing-service.js'
import { PlatformStates } from '../platform/sandbox/platform-states.js'
import {
  defaultGraceSeconds,
  SessionManager,
  type SessionTiming,
} from '../platform/sessions/session-manager.js'
import { followSubscriptionChanges } from '../platform/subscriptions/subscription-change-follower.js'
import { SubscriptionManager } from '../platform/subscriptions/subscription-manager.js'
import type { SubscriptionRecord } from '../platform/subscriptions/subscription-record.js'
import { WebhookTargets } from '../platform/subscriptions/webhook-targets.js'
import { SystemStatusService } from '../platform/system/system-status-service.js'
import { DirectoryTelephony } from '../platform/telephony/directory-telephony.js'
import { EngineDevices } from '../platform/telephony/engine-devices.js'
import type { EngineNode } from '../platform/telephony/engine-node.js'
import type { EngineSettings } from '../platform/telephony/engine-operation.js'
import type { Telephony } from '../platform/telephony/telephony.js'
import { callCount } from '../platform/telephony/telephony-state.js'
import { VoicemailDeposits } from '../platform/voicemail/voicemail-deposits.js'
import { VoicemailService } from '../platform/voicemail/voicemail-service.js'
import { readDirectoryFile } from '../storage/file/directory-file.js'
import { MemoryEventQueue, QueuedEventsBudget } from '../storage/memory/memory-event-queue.js'
import { MemoryJournalStore } from '../storage/memory/memory-journal-store.js'
import type { RedisTarget } from '../storage/redis/redis-client.js'
import { RedisJournalStore } from '../storage/redis/redis-journal-store.js'
import { RedisSubscriptionEventLog } from '../storage/redis/redis-subscription-event-log.js'
import { memorySharedState, redisSharedState, type SharedState } from '../storage/shared-state.js'
import {
  callTables,
  type DatabaseTarget,
  type DirectoryDatabase,
  openDatabase,
  pingDatabase,
  routingTables,
  serviceTables,
  voicemailTables,
} from '../storage/sql/database.js'
import { SqlCallStore } from '../storage/sql/sql-call-store.js'
import { SqlClockOffsetStore } from '../storage/sql/sql-clock-offset-store.js'
import { SqlComlogStore } from '../storage/sql/sql-comlog-store.js'
import { SqlDirectoryStore } from '../storage/sql/sql-directory-store.js'
import { SqlPlatformImages } from '../storage/sql/sql-platform-images.js'
import { SqlRoutingStore } from '../storage/sql/sql-routing-store.js'
import { SqlVoicemailStore } from '../storage/sql/sql-voicemail-store.js'
import { clusterEngineAdapters } from './cluster-engine-adapters.js'
import { embeddedEngineAdapters, startTelephony } from './start-telephony.js'

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

/** The default reporter of background failures: a process warning on stderr. */
function warnOfBackgroundError(error: unknown, what: string): void {
  process.emitWarning(`${what}: ${error instanceof Error ? error.message : String(error)}`)
}

/** The journal's store (docs/journal.md): none with a size of 0, the cluster's Redis in a cluster. */
function journalStore(
  options: PlatformOptions,
  shared: SharedState,
  reportError: (error: unknown, what: string) => void,
): JournalStore | undefined {
  const size = options.journalSize ?? DEFAULT_JOURNAL_SIZE
  if (size === 0) return undefined
  if (shared.redis === undefined) return new MemoryJournalStore(size)
  return new RedisJournalStore(shared.redis, {
    size,
    onError: (error) => reportError(error, 'the journal'),
  })
}

/** A started platform and how to stop it. */
export interface RunningPlatform {
  platform: GatewayPlatform
  /** Whether the directory file changed since the last start (and was imported again). */
  imported: boolean
  /**
   * Hashes the passwords of the import, if any, and stores it (Directory.completeImport); logins and
   * changes do what they need of it; main.ts calls it once the service listens. close() abandons it.
   */
  completeImport(): Promise<void>
  /** Where the offset of the control plane's clock is kept (kept-clock.ts), in the same database. */
  clockOffsets: ClockOffsetStore
  /** The notices the clock's offset follows too (keptClock). */
  changeNotices: ChangeNotices
  /** The event router every platform event goes through (benchmarks publish on it directly). */
  events: EventRouter
  /** The call engine at work: commands, timers, the state of calls. */
  telephony: Telephony
  /** The messages callers leave in voice mail (tests await `idle()`). */
  voicemailDeposits: VoicemailDeposits
  /** The key webhook requests are signed with: WEBHOOK_SECRET, or generated for this run. */
  webhookSecret: string
  /** This node's Prometheus metrics, which the control plane serves (docs/operations.md, "Metrics"). */
  metrics: ServiceMetrics
  /** Reset, snapshots and restore of the whole platform (docs/sandbox.md), which the control plane serves. */
  states: PlatformStates
  /** The durable store's database, which the fuzzer reads whole to see what a request changed. */
  database: Kysely<DirectoryDatabase>
  /** The stores of the shared state (sessions, subscriptions, licenses...), read by the fuzzer likewise. */
  sharedState: SharedState
  close(): Promise<void>
}

/** Opens the store, imports the directory file and starts sessions. */
export async function startPlatform(options: PlatformOptions): Promise<RunningPlatform> {
  const { clock } = options
  if (options.cluster && options.database.kind !== 'postgres')
    throw new Error(
      'The cluster mode keeps its durable state in PostgreSQL: DATABASE_URL must name it',
    )
  const { document, sourceDigest } = await readDirectoryFile(options.directoryFile)
  const db = await openDatabase(options.database)
  const store = new SqlDirectoryStore(db)
  // The same database holds the calls; the directory store owns it and closes it.
  const callStore = new SqlCallStore(callTables(db), { ownsDatabase: false })
  let shared: SharedState | undefined
  try {
    const hasher = new PasswordHasher(options.scryptCost)
    const previous = await store.load()
    // A file to import is served at once; its passwords are hashed and it is stored by completeImport.
    const source = planImport(document, sourceDigest, previous)
    const events = new EventRouter()
    // One registry per service: the nodes of a cluster, and the services of a test process, each count their own.
    const metrics = new ServiceMetrics({ processMetrics: options.processMetrics ?? false })
    const cacheTtl = options.passwordCacheTtlSeconds ?? DEFAULT_VERIFIED_PASSWORD_TTL_SECONDS
    const verified = cacheTtl > 0 ? new VerifiedPasswords(clock, cacheTtl) : undefined
    const ttl = options.sessionTtlSeconds
    const sessionTiming: SessionTiming = {
      timeToLiveSeconds: ttl,
      graceSeconds: defaultGraceSeconds(ttl),
      tokenTimeToLiveSeconds: 120,
      closedRetentionSeconds: 3600,
      sweepIntervalSeconds: 5,
      ...options.timing,
    }
    const reportError = options.onBackgroundError ?? warnOfBackgroundError
    const throttle = options.throttlePolicies ?? DEFAULT_THROTTLE_POLICIES
    const sharedSettings = {
      clock,
      sessionTiming,
      throttle,
      onError: reportError,
      idempotency: {
        leaseMs: IDEMPOTENCY_LEASE_MS,
        retentionMs:
          (options.idempotencyRetentionSeconds ?? DEFAULT_IDEMPOTENCY_RETENTION_SECONDS) * 1000,
      },
      ...(options.queueCapacity !== undefined && { queueCapacity: options.queueCapacity }),
    }
    shared = options.cluster
      ? await redisSharedState(options.cluster.redis, options.cluster.nodeId, sharedSettings)
      : memorySharedState(sharedSettings)
    const { licenses } = shared
    const notices = options.changeNotices ?? shared.notices
    // The events of a change are in the subscriptions' logs before the other nodes hear of it (set once the
    // delivery is built below; at once in the embedded mode).
    let eventsDelivered: () => Promise<void> = () => Promise.resolve()
    const published = () => eventsDelivered()
    const directory = new Directory(store, source, hasher, clock, events, {
      verified,
      notices,
      onReloadFailure: (error, loginName) =>
        reportError(error, `the account ${loginName} was not reloaded`),
      published,
    })
    const searchIndex = new DirectoryIndex(directory.accounts())
    directory.watch(searchIndex)
    const directorySearch = new DirectorySearchService(searchIndex, shared.searchContexts, clock)
    const quotas: Quotas = { ...DEFAULT_QUOTAS, ...options.quotas }
    const sessions = new SessionManager(
      directory,
      licenses,
      clock,
      sessionTiming,
      shared.sessions,
      {
        onSweepFailure: (error) => reportError(error, 'the session sweep failed'),
        maxSessionsPerAccount: quotas.sessionsPerAccount,
      },
    )
    const webhookSecret = options.webhooks?.secret ?? randomBytes(32).toString('hex')
    const subscriptionStore = shared.subscriptions
    const webhook = {
      transport: options.webhooks?.transport ?? fetchTransport,
      policy: { ...DEFAULT_WEBHOOK_POLICY, ...options.webhooks?.policy, secret: webhookSecret },
      ...(options.webhooks?.onFailure && { onFailure: options.webhooks.onFailure }),
    }
    const journal = new Journal(journalStore(options, shared, reportError), clock, (error) =>
      reportError(error, 'a live reader of the journal failed'),
    )
    const recorded = journal.enabled ? { journal } : {}
    const touch = (subscription: SubscriptionRecord): void => subscriptions.touch(subscription)
    const queuedEvents = new QueuedEventsBudget(quotas.queuedEvents)
    // Events reach a subscription through this process's queues when it is alone; in a cluster, through the
    // subscription's log in Redis, which a channel on any node reads (docs/cluster-events.md, "Delivery on the
    // event log"). The embedded mode keeps its direct path from the router to the socket.
    const outlets: ChannelOutlets & { close?(): Promise<void> } =
      shared.eventLog === undefined
        ? new SubscriptionOutlets({
            router: events,
            clock,
            newQueue: () =>
              new MemoryEventQueue({
                capacity: options.queueCapacity,
                clock,
                budget: queuedEvents,
              }),
            onActivity: touch,
            webhook,
            counts: metrics.delivery,
            ...recorded,
          })
        : new LoggedSubscriptionOutlets({
            log: shared.eventLog,
            router: events,
            clock,
            nodeId: options.cluster?.nodeId ?? '',
            onActivity: touch,
            onError: (error) => reportError(error, 'the delivery of events failed'),
            webhook,
            counts: metrics.delivery,
            ...recorded,
          })
    if (outlets instanceof LoggedSubscriptionOutlets) eventsDelivered = () => outlets.settled()
    const subscriptions = new SubscriptionManager(
      directory,
      clock,
      subscriptionStore,
      outlets,
      shared.supervision,
      {
        webhooks: new WebhookTargets(options.webhooks?.allowedHosts),
        maxPerSession: quotas.subscriptionsPerSession,
        onBackgroundError: reportError,
      },
    )
    const subscriptionChanges = await followSubscriptionChanges(
      subscriptionStore,
      outlets,
      (error) => reportError(error, "a subscription's change did not reach this node's delivery"),
    )
    sessions.onSessionClosed((session) => {
      subscriptions
        .sessionClosed(session.sessionId)
        .catch((error) =>
          reportError(error, `the subscriptions of session ${session.sessionId} were not removed`),
        )
    })
    sessions.onSessionClosed((session) => void directorySearch.sessionClosed(session.sessionId))
    sessions.start()
    subscriptions.start()
    const authenticator = new Authenticator(directory, clock, shared.loginAttempts, metrics)
    const telephonyDirectory = new DirectoryTelephony(directory)
    const routing = await RoutingService.start({
      store: new SqlRoutingStore(routingTables(db)),
      events,
      notices,
      clock,
      published,
      onReloadFailure: (error, loginName) =>
        reportError(error, `the routing of ${loginName} was not reloaded`),
      resolve: (dialed) => telephonyDirectory.resolve(dialed),
    })
    const comlogStore = new SqlComlogStore(callTables(db))
    const eventSummary = new EventSummaryService(
      {
        missedCalls: (loginName) => comlogStore.countUnacknowledgedMissed(loginName),
        callbackRequests: (loginName) => telephony.state.callbacks?.[loginName]?.length ?? 0,
        voiceMessages: (loginName): Promise<number> => voicemail.unreadCount(loginName),
      },
      events,
      (error, loginName) =>
        reportError(error, `the event summary of ${loginName} was not refreshed`),
    )
    const comlog = new ComlogService(comlogStore, events, eventSummary)
    const voicemail: VoicemailService = new VoicemailService({
      store: new SqlVoicemailStore(voicemailTables(db)),
      directory,
      clock,
      events,
      summary: eventSummary,
    })
    const voicemailDeposits = new VoicemailDeposits({
      voicemail,
      directory: telephonyDirectory,
      clock,
      execute: (command) => telephony.execute(command),
      onError: reportError,
      ...(options.maxVoiceMessageSeconds !== undefined && {
        maxMessageSeconds: options.maxVoiceMessageSeconds,
      }),
    })
    // The engine's devices follow the directory's (docs/call-model.md, "Devices follow the directory").
    let engineNode: EngineNode | undefined
    const engineDevices = new EngineDevices({
      directory: telephonyDirectory,
      engine: () => engineNode,
      onError: (error, loginName) =>
        reportError(error, `the engine did not take the devices of ${loginName}`),
    })
    directory.watch(engineDevices)
    const telephony = await startTelephony({
      adapters:
        options.cluster &&
        shared.eventLog instanceof RedisSubscriptionEventLog &&
        options.database.kind === 'postgres'
          ? await clusterEngineAdapters({
              target: options.database,
              db: callTables(db),
              eventLog: shared.eventLog,
              nodeId: options.cluster.nodeId,
              onError: reportError,
            })
          : embeddedEngineAdapters(callStore, clock),
      // The node that owns the engine delivers the webhooks too (docs/cluster-events.md, "Delivery on the event
      // log"), and keeps the engine's devices the directory's.
      onRole: (role) => {
        if (role === 'owner') engineDevices.reconcile()
        if (!(outlets instanceof LoggedSubscriptionOutlets)) return
        if (role === 'owner') outlets.takeWebhooks()
        else outlets.leaveWebhooks()
      },
      engine: {
        ...(options.comlogRecording !== false && {
          recorder: () => new CallLogRecorder(telephonyDirectory),
        }),
        onCommitted: (committed) => {
          comlog.engineCommitted(committed)
          voicemailDeposits.engineCommitted(committed)
          options.activity?.committed(committed)
        },
        onTimerError: (error, timer) =>
          reportError(error, `the engine's ${timer.command.type} timer failed`),
        routing: routing.lookup,
        directory: telephonyDirectory,
        clock,
        events,
        // In a cluster a batch keeps its events until they are in the logs (docs/cluster-engine.md, "Events of a
        // batch whose owner died").
        ...(outlets instanceof LoggedSubscriptionOutlets && { published: () => outlets.settled() }),
        // Read at each term's start (OwnerTerm spreads these options): the directory's devices then.
        get devices() {
          return telephonyDirectory.devices()
        },
        ...(options.engineSettings && { settings: options.engineSettings }),
        metrics,
      },
      onError: reportError,
    })
    engineNode = telephony
    // A term begun during the start compared nothing yet (the engine was not there to compare with).
    if (telephony.role === 'owner') engineDevices.reconcile()
    const urls = {
      ...(options.publicBaseUrl && { publicBaseUrl: options.publicBaseUrl }),
      ...(options.privateBaseUrl && { privateBaseUrl: options.privateBaseUrl }),
      ...(options.pollingBaseUrl && { pollingBaseUrl: options.pollingBaseUrl }),
    }
    const readiness = new Readiness(clock)
    const system = new SystemStatusService({
      clock,
      health: shared.platformHealth,
      events,
      licenses,
      installedLicenses: () => directory.settings.licenses,
      readiness,
      node: () => ({
        nodeId: directory.settings.nodeId,
        companyName: directory.settings.companyName,
      }),
      monitoredUsers: () => directory.listUserLogins().length,
      serverId: hostname(),
      version: PRODUCT.version,
    })
    const platform: GatewayPlatform = {
      quotas,
      directory,
      sessions,
      authenticator,
      subscriptions,
      outlets,
      telephony,
      routing,
      comlog,
      eventSummary,
      directorySearch,
      voicemail,
      system,
      clock,
      readiness,
      health: new NodeHealth([
        { name: 'database', probe: () => pingDatabase(db) },
        ...shared.checks,
        // The embedded node owns the engine before it serves; a cluster node must have caught up first.
        ...(options.cluster ? [engineHealthCheck(telephony)] : []),
      ]),
      metrics,
      urls,
      cookies: new SessionCookies(options.sessionCookieNames),
      idempotency: { store: shared.idempotency, renewEveryMs: IDEMPOTENCY_LEASE_MS / 3 },
      services: new ServiceCatalog(),
      product: PRODUCT,
      journal,
      ...(options.cluster && { cluster: { nodeId: options.cluster.nodeId } }),
    }
    const clockOffsets = new SqlClockOffsetStore(serviceTables(db))
    // The directory file's state, hashed at the first reset only (a few scrypt hashes: docs/sandbox.md).
    let fileDirectory: Promise<DirectorySnapshot> | undefined
    const states = new PlatformStates({
      images: new SqlPlatformImages(db),
      fileDirectory: () => {
        fileDirectory ??= importDirectory(document, sourceDigest, undefined, hasher).catch(
          (error: unknown) => {
            fileDirectory = undefined
            throw error
          },
        )
        return fileDirectory
      },
      directory,
      routing,
      eventSummary,
      voicemail,
      sessions,
      telephony,
      devices: () => telephonyDirectory.devices(),
      engineDevices,
      loginAttempts: [shared.loginAttempts.login, shared.loginAttempts.address],
      system,
      readiness,
      clock,
      clockOffsets,
      notices,
      onReloadFailure: (error) =>
        reportError(error, 'the platform was not reloaded after a restore on another node'),
      ...(options.activity && { onReport: options.activity.states }),
    })
    metrics.readFrom({
      openSessions: () => sessions.openCount(),
      subscriptions: () => outlets.subscriptionCount,
      openChannels: () => outlets.openChannels,
      queuedEvents: () => outlets.queuedEvents,
      callsInProgress: () => callCount(telephony.state),
    })
    // No subscription can exist yet: the event reaches nobody, as in the product without a webhook
    // configured on the server (docs/system-status.md).
    system.serverStarted()
    return {
      platform,
      imported: source !== previous,
      completeImport: () => directory.completeImport(),
      clockOffsets,
      states,
      changeNotices: notices,
      events,
      telephony,
      voicemailDeposits,
      webhookSecret,
      metrics,
      database: db,
      sharedState: shared,
      close: async () => {
        outlets.stopWebhooks()
        await outlets.close?.()
        subscriptions.stop()
        await subscriptionChanges.close()
        // An import not stored yet stays so (its hashing would hold the stop for seconds): the next start
        // imports the file again.
        await directory.abandonImport()
        await sessions.stop()
        await telephony.stop()
        // The entries gathered for Redis are written before its connection closes.
        await journal.settled()
        await callStore.close()
        await store.close()
        await shared?.close()
      },
    }
  } catch (error) {
    await store.close()
    await shared?.close()
    throw error
  }
}
