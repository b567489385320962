/**
 * Assembles the platform behind the gateway, in the order its parts need each other: the durable store, the
 * shared state (memory, or Redis in a cluster), the directory (imported from the directory file), sessions,
 * the delivery (start-delivery.ts), routing, the records (start-records.ts), the call engine
 * (start-telephony.ts), system status and the sandbox's states; and stops them in the reverse order. main.ts
 * and the tests both start the service through it, with the options of platform-options.ts.
 */

import { hostname } from 'node:os'
import type { Kysely } from 'kysely'
import { EventRouter } from '../delivery/event-router.js'
import { SessionCookies } from '../gateway/cookies.js'
import type { GatewayPlatform } from '../gateway/platform.js'
import { ServiceCatalog } from '../gateway/service-catalog.js'
import { engineHealthCheck } from '../operations/engine-health-check.js'
import { NodeHealth } from '../operations/node-health.js'
import { ServiceMetrics } from '../operations/service-metrics.js'
import { Authenticator, DEFAULT_THROTTLE_POLICIES } from '../platform/auth/authenticator.js'
import { PasswordHasher } from '../platform/auth/password-hasher.js'
import {
  DEFAULT_VERIFIED_PASSWORD_TTL_SECONDS,
  VerifiedPasswords,
} from '../platform/auth/verified-passwords.js'
import type { ChangeNotices } from '../platform/change-notices.js'
import type { ClockOffsetStore } from '../platform/clock-offset-store.js'
import { CallLogRecorder } from '../platform/comlog/call-log-recorder.js'
import { Directory } from '../platform/directory/directory.js'
import { importDirectory, planImport } from '../platform/directory/directory-import.js'
import type { DirectorySnapshot } from '../platform/directory/directory-store.js'
import { DirectoryIndex } from '../platform/directory-search/directory-index.js'
import { DirectorySearchService } from '../platform/directory-search/directory-search-service.js'
import { ownEntry } from '../platform/own-entry.js'
import { DEFAULT_QUOTAS, type Quotas } from '../platform/quotas.js'
import { Readiness } from '../platform/readiness.js'
import { RoutingService } from '../platform/routing/routing-service.js'
import { PlatformStates } from '../platform/sandbox/platform-states.js'
import {
  defaultGraceSeconds,
  SessionManager,
  type SessionTiming,
} from '../platform/sessions/session-manager.js'
import { SystemStatusService } from '../platform/system/system-status-service.js'
import { AcdTicketRecorder } from '../platform/telephony/acd-ticket-recorder.js'
import { DirectoryTelephony } from '../platform/telephony/directory-telephony.js'
import { fileContactCenter, followFileContactCenter } from '../platform/telephony/engine-acd.js'
import { EngineDevices } from '../platform/telephony/engine-devices.js'
import { fileHuntingGroups, followFileGroups } from '../platform/telephony/engine-groups.js'
import type { EngineNode } from '../platform/telephony/engine-node.js'
import type { Telephony } from '../platform/telephony/telephony.js'
import { callCount } from '../platform/telephony/telephony-state.js'
import type { VoicemailDeposits } from '../platform/voicemail/voicemail-deposits.js'
import { readDirectoryFile } from '../storage/file/directory-file.js'
import { RedisSubscriptionEventLog } from '../storage/redis/redis-subscription-event-log.js'
import { memorySharedState, redisSharedState, type SharedState } from '../storage/shared-state.js'
import {
  callTables,
  type DirectoryDatabase,
  openDatabase,
  pingDatabase,
  routingTables,
  serviceTables,
} from '../storage/sql/database.js'
import { SqlCallStore } from '../storage/sql/sql-call-store.js'
import { SqlClockOffsetStore } from '../storage/sql/sql-clock-offset-store.js'
import { SqlDirectoryStore } from '../storage/sql/sql-directory-store.js'
import { SqlPlatformImages } from '../storage/sql/sql-platform-images.js'
import { SqlRoutingStore } from '../storage/sql/sql-routing-store.js'
import { clusterEngineAdapters } from './cluster-engine-adapters.js'
import {
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  IDEMPOTENCY_LEASE_MS,
  type PlatformOptions,
  PRODUCT,
} from './platform-options.js'
import { startDelivery } from './start-delivery.js'
import { startJournal } from './start-journal.js'
import { startRecords } from './start-records.js'
import { embeddedEngineAdapters, startTelephony } from './start-telephony.js'

/** The default reporter of background failures: a process warning on stderr. */
function warnOfBackgroundError(error: unknown, what: string): void {
  process.emitWarning(`${what}: ${error instanceof Error ? error.message : String(error)}`)
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
    const journal = startJournal(options.journalSize, shared, clock, reportError)
    const delivery = await startDelivery({
      options,
      shared,
      directory,
      events,
      clock,
      metrics,
      quotas,
      journal,
      reportError,
      // The engine's state on this node, once it runs (below).
      contactCenter: {
        isPilot: (number) =>
          ownEntry(engineNode?.queries.acdState()?.definition.pilots, number) !== undefined,
        pilots: () => Object.keys(engineNode?.queries.acdState()?.definition.pilots ?? {}).sort(),
        operators: () =>
          Object.keys(engineNode?.queries.acdState()?.definition.operators ?? {}).sort(),
        supervises: (supervisor, agent) => {
          const operators = engineNode?.queries.acdState()?.definition.operators
          const boss = ownEntry(operators, supervisor)
          const groups = ownEntry(operators, agent)?.processingGroups ?? []
          return (
            boss?.type === 'SUPERVISOR' && groups.some((pg) => boss.processingGroups.includes(pg))
          )
        },
      },
    })
    const { outlets, subscriptions } = delivery
    if (delivery.inLogs) eventsDelivered = delivery.inLogs
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
    const records = startRecords({
      db,
      directory,
      telephonyDirectory,
      clock,
      events,
      telephony: () => telephony,
      ...(options.maxVoiceMessageSeconds !== undefined && {
        maxVoiceMessageSeconds: options.maxVoiceMessageSeconds,
      }),
      reportError,
    })
    const { comlog, eventSummary, voicemail, voicemailDeposits, miniMessages, acdTickets } = records
    // The engine's devices follow the directory's (docs/call-model.md, "Devices follow the directory"), its
    // hunting groups the directory file's (docs/groups.md, "Where groups live"), and so does its contact center
    // (docs/directory-file.md, `contactCenter`).
    let engineNode: EngineNode | undefined
    const ticketRecorder = new AcdTicketRecorder({
      store: acdTickets,
      engine: () => engineNode,
      onError: reportError,
    })
    const followGroups = (engine: EngineNode) =>
      followFileGroups(engine, fileHuntingGroups(directory.settings.huntingGroups)).catch(
        (error: unknown) => reportError(error, "the engine did not take the file's hunting groups"),
      )
    const followContactCenter = (engine: EngineNode) =>
      followFileContactCenter(engine, fileContactCenter(directory.settings.contactCenter)).catch(
        (error: unknown) => reportError(error, "the engine did not take the file's contact center"),
      )
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
        if (role === 'owner') {
          engineDevices.reconcile()
          if (engineNode !== undefined) {
            followGroups(engineNode)
            followContactCenter(engineNode)
          }
          void ticketRecorder.drain()
        }
        delivery.engineRoleChanged(role)
      },
      engine: {
        ...(options.comlogRecording !== false && {
          recorder: () => new CallLogRecorder(telephonyDirectory),
        }),
        onCommitted: (committed) => {
          comlog.engineCommitted(committed)
          voicemailDeposits.engineCommitted(committed)
          ticketRecorder.engineCommitted(committed)
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
        ...(delivery.inLogs && { published: delivery.inLogs }),
        // Read at each term's start (OwnerTerm spreads these options): the directory's devices then.
        get devices() {
          return telephonyDirectory.devices()
        },
        get huntingGroups() {
          return fileHuntingGroups(directory.settings.huntingGroups)
        },
        ...(options.engineSettings && { settings: options.engineSettings }),
        metrics,
      },
      onError: reportError,
    })
    engineNode = telephony
    // A term begun during the start compared nothing yet (the engine was not there to compare with).
    if (telephony.role === 'owner') {
      engineDevices.reconcile()
      await followFileGroups(telephony, fileHuntingGroups(directory.settings.huntingGroups))
      await followFileContactCenter(telephony, fileContactCenter(directory.settings.contactCenter))
    }
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
      miniMessages,
      acdTickets,
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
      huntingGroups: () => fileHuntingGroups(directory.settings.huntingGroups),
      contactCenter: () => fileContactCenter(directory.settings.contactCenter),
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
      webhookSecret: delivery.webhookSecret,
      metrics,
      database: db,
      sharedState: shared,
      close: async () => {
        await delivery.close()
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
