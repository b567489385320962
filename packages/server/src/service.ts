/**
 * Assembles the platform behind the gateway: durable store, directory (imported from the directory
 * file), licenses, sessions and authentication. main.ts and the tests both start the service through it.
 */

import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { EventRouter } from './delivery/event-router.js'
import { SubscriptionOutlets } from './delivery/subscription-outlets.js'
import {
  DEFAULT_WEBHOOK_POLICY,
  fetchTransport,
  type WebhookFailure,
  type WebhookPolicy,
  type WebhookTransport,
} from './delivery/webhook-sender.js'
import { SessionCookies } from './gateway/cookies.js'
import type { GatewayPlatform } from './gateway/platform.js'
import { ServiceCatalog } from './gateway/service-catalog.js'
import { NodeHealth } from './operations/node-health.js'
import {
  Authenticator,
  DEFAULT_THROTTLE_POLICIES,
  type ThrottlePolicies,
} from './platform/auth/authenticator.js'
import { PasswordHasher, type ScryptCost } from './platform/auth/password-hasher.js'
import {
  DEFAULT_VERIFIED_PASSWORD_TTL_SECONDS,
  VerifiedPasswords,
} from './platform/auth/verified-passwords.js'
import { CallLogRecorder } from './platform/comlog/call-log-recorder.js'
import { ComlogService } from './platform/comlog/comlog-service.js'
import { EventSummaryService } from './platform/comlog/event-summary.js'
import { Directory } from './platform/directory/directory.js'
import { planImport } from './platform/directory/directory-import.js'
import { DirectoryIndex } from './platform/directory-search/directory-index.js'
import { DirectorySearchService } from './platform/directory-search/directory-search-service.js'
import type { Clock, ClockOffsetStore } from './platform/ports.js'
import { Readiness } from './platform/readiness.js'
import { RoutingService } from './platform/routing/routing-service.js'
import {
  defaultGraceSeconds,
  SessionManager,
  type SessionTiming,
} from './platform/sessions/session-manager.js'
import { SubscriptionManager } from './platform/subscriptions/subscription-manager.js'
import { WebhookTargets } from './platform/subscriptions/webhook-targets.js'
import { SystemStatusService } from './platform/system/system-status-service.js'
import type { EngineSettings } from './platform/telephony/call-engine.js'
import { DirectoryTelephony } from './platform/telephony/directory-telephony.js'
import { TelephonyService } from './platform/telephony/telephony-service.js'
import { VoicemailDeposits } from './platform/voicemail/voicemail-deposits.js'
import { VoicemailService } from './platform/voicemail/voicemail-service.js'
import { readDirectoryFile } from './storage/file/directory-file.js'
import { MemoryEventQueue } from './storage/memory/memory-event-queue.js'
import { MemoryLicenseStore } from './storage/memory/memory-license-store.js'
import { MemoryLoginAttemptStore } from './storage/memory/memory-login-attempt-store.js'
import { MemoryPlatformHealthStore } from './storage/memory/memory-platform-health.js'
import { MemorySearchContextStore } from './storage/memory/memory-search-context-store.js'
import { MemorySessionStore } from './storage/memory/memory-session-store.js'
import { MemorySupervisionStore } from './storage/memory/memory-supervision-store.js'
import {
  callTables,
  type DatabaseTarget,
  openDatabase,
  pingDatabase,
  routingTables,
  serviceTables,
  voicemailTables,
} from './storage/sql/database.js'
import { SqlCallStore } from './storage/sql/sql-call-store.js'
import { SqlClockOffsetStore } from './storage/sql/sql-clock-offset-store.js'
import { SqlComlogStore } from './storage/sql/sql-comlog-store.js'
import { SqlDirectoryStore } from './storage/sql/sql-directory-store.js'
import { SqlRoutingStore } from './storage/sql/sql-routing-store.js'
import { SqlVoicemailStore } from './storage/sql/sql-voicemail-store.js'

/** The product this server describes itself as at the root. */
export const PRODUCT = {
  name: 'Communication Platform REST Openness Service',
  type: 'OPENNESS',
  version: '0.1.0',
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
  /** Lower scrypt cost for tests; production uses the default. */
  scryptCost?: ScryptCost
  /**
   * How long a verified password spares the next login of the account a full verification, seconds
   * (default 600; 0: every login verifies). platform/auth/verified-passwords.ts.
   */
  passwordCacheTtlSeconds?: number
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
}

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
  /** The event router every platform event goes through (benchmarks publish on it directly). */
  events: EventRouter
  /** The call engine at work: commands, timers, the state of calls. */
  telephony: TelephonyService
  /** The messages callers leave in voice mail (tests await `idle()`). */
  voicemailDeposits: VoicemailDeposits
  /** The key webhook requests are signed with: WEBHOOK_SECRET, or generated for this run. */
  webhookSecret: string
  close(): Promise<void>
}

/** Opens the store, imports the directory file and starts sessions. */
export async function startPlatform(options: PlatformOptions): Promise<RunningPlatform> {
  const { clock } = options
  const { document, sourceDigest } = await readDirectoryFile(options.directoryFile)
  const db = await openDatabase(options.database)
  const store = new SqlDirectoryStore(db)
  // The same database holds the calls; the directory store owns it and closes it.
  const callStore = new SqlCallStore(callTables(db), { ownsDatabase: false })
  try {
    const hasher = new PasswordHasher(options.scryptCost)
    const previous = await store.load()
    // A file to import is served at once; its passwords are hashed and it is stored by completeImport.
    const source = planImport(document, sourceDigest, previous)
    const events = new EventRouter()
    const cacheTtl = options.passwordCacheTtlSeconds ?? DEFAULT_VERIFIED_PASSWORD_TTL_SECONDS
    const verified = cacheTtl > 0 ? new VerifiedPasswords(clock, cacheTtl) : undefined
    const directory = new Directory(store, source, hasher, clock, events, verified)
    const licenses = new MemoryLicenseStore()
    const searchIndex = new DirectoryIndex(directory.accounts())
    directory.watch(searchIndex)
    const directorySearch = new DirectorySearchService(
      searchIndex,
      new MemorySearchContextStore(),
      clock,
    )
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
    const sessions = new SessionManager(
      directory,
      licenses,
      clock,
      sessionTiming,
      new MemorySessionStore(sessionTiming),
      { onSweepFailure: (error) => reportError(error, 'the session sweep failed') },
    )
    const webhookSecret = options.webhooks?.secret ?? randomBytes(32).toString('hex')
    const outlets = new SubscriptionOutlets({
      router: events,
      clock,
      newQueue: () => new MemoryEventQueue(options.queueCapacity),
      onActivity: (subscription) => subscriptions.touch(subscription),
      webhook: {
        transport: options.webhooks?.transport ?? fetchTransport,
        policy: { ...DEFAULT_WEBHOOK_POLICY, ...options.webhooks?.policy, secret: webhookSecret },
        ...(options.webhooks?.onFailure && { onFailure: options.webhooks.onFailure }),
      },
    })
    const subscriptions = new SubscriptionManager(
      directory,
      clock,
      outlets,
      new MemorySupervisionStore(),
      new WebhookTargets(options.webhooks?.allowedHosts),
      (error) =>
        reportError(error, "a removed subscription's supervised users were not given back"),
    )
    sessions.onSessionClosed((session) => subscriptions.sessionClosed(session.sessionId))
    sessions.onSessionClosed((session) => void directorySearch.sessionClosed(session.sessionId))
    sessions.start()
    const throttle = options.throttlePolicies ?? DEFAULT_THROTTLE_POLICIES
    const authenticator = new Authenticator(directory, clock, {
      login: new MemoryLoginAttemptStore(throttle.login, 'login'),
      address: new MemoryLoginAttemptStore(throttle.address, 'address'),
    })
    const telephonyDirectory = new DirectoryTelephony(directory)
    const routing = await RoutingService.start({
      store: new SqlRoutingStore(routingTables(db)),
      events,
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
    const telephony: TelephonyService = await TelephonyService.start({
      ...(options.comlogRecording !== false && {
        recorder: new CallLogRecorder(telephonyDirectory),
      }),
      onCommitted: (committed) => {
        comlog.engineCommitted(committed)
        voicemailDeposits.engineCommitted(committed)
      },
      onTimerError: (error, timer) =>
        reportError(error, `the engine's ${timer.command.type} timer failed`),
      routing: routing.lookup,
      store: callStore,
      directory: telephonyDirectory,
      clock,
      events,
      devices: telephonyDirectory.devices(),
      ...(options.engineSettings && { settings: options.engineSettings }),
    })
    const urls = {
      ...(options.publicBaseUrl && { publicBaseUrl: options.publicBaseUrl }),
      ...(options.privateBaseUrl && { privateBaseUrl: options.privateBaseUrl }),
      ...(options.pollingBaseUrl && { pollingBaseUrl: options.pollingBaseUrl }),
    }
    const readiness = new Readiness(clock)
    const system = new SystemStatusService({
      clock,
      health: new MemoryPlatformHealthStore(),
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
      health: new NodeHealth([{ name: 'database', probe: () => pingDatabase(db) }]),
      urls,
      cookies: new SessionCookies(options.sessionCookieNames),
      services: new ServiceCatalog(),
      product: PRODUCT,
    }
    // No subscription can exist yet: the event reaches nobody, as in the product without a webhook
    // configured on the server (docs/system-status.md).
    system.serverStarted()
    return {
      platform,
      imported: source !== previous,
      completeImport: () => directory.completeImport(),
      clockOffsets: new SqlClockOffsetStore(serviceTables(db)),
      events,
      telephony,
      voicemailDeposits,
      webhookSecret,
      close: async () => {
        outlets.stopWebhooks()
        // An import not stored yet stays so (its hashing would hold the stop for seconds): the next start
        // imports the file again.
        await directory.abandonImport()
        await sessions.stop()
        await telephony.stop()
        await callStore.close()
        await store.close()
      },
    }
  } catch (error) {
    await store.close()
    throw error
  }
}
