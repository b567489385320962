/**
 * The service configuration, read from environment variables and validated at start: a bad value stops
 * the service with a message naming the variable (README, "Configuration").
 */

import { join } from 'node:path'
import { DEFAULT_CONTROL_HOST, DEFAULT_CONTROL_PORT } from '../control/control-address.js'
import { DEFAULT_SESSION_COOKIE_NAMES, SESSION_COOKIE_NAME_PATTERN } from '../gateway/cookies.js'
import { LOG_FORMATS, type LogFormat } from '../operations/service-logger.js'
import { DEFAULT_VERIFIED_PASSWORD_TTL_SECONDS } from '../platform/auth/verified-passwords.js'
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from '../platform/journal/journal-entry.js'
import { DEFAULT_QUOTAS, type Quotas } from '../platform/quotas.js'
import {
  DEFAULT_WEBHOOK_ALLOWED_HOSTS,
  WebhookAllowListError,
  WebhookTargets,
} from '../platform/subscriptions/webhook-targets.js'
import { DEFAULT_MAX_MESSAGE_SECONDS } from '../platform/voicemail/voice-message.js'
import { DEFAULT_REDIS_KEY_PREFIX } from '../storage/redis/redis-client.js'
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from './connection-limits.js'
import { SERVER_PACKAGE_FOLDER } from './package-folder.js'

/** Log levels pino knows. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** Everything the service is configured with. */
export interface ServiceConfig {
  host: string
  /** Plain HTTP listener; 0 turns it off. */
  httpPort: number
  /** HTTPS listener; 0 turns it off. */
  httpsPort: number
  publicBaseUrl?: string
  privateBaseUrl?: string
  tlsCertFile?: string
  tlsKeyFile?: string
  /**
   * The accepted names of the session cookie, each `<prefix>UserId` (its basic login parameter is
   * `<prefix>ApplicationUrl`); the first is set when a request names none.
   */
  sessionCookieNames: readonly string[]
  /** SessionInfo.timeToLive, seconds. */
  sessionTtl: number
  /** How long a verified password spares the next login a full verification, seconds; 0: never. */
  passwordCacheTtl: number
  /** How long the outcome of a request sent with an Idempotency-Key is answered again, seconds. */
  idempotencyRetention: number
  dataDir: string
  directoryFile: string
  databaseUrl?: string
  logLevel: LogLevel
  /** LOG_FORMAT; unset, pretty lines when stdout is a terminal and JSON lines otherwise. */
  logFormat?: LogFormat
  /** Control plane listener (loopback by default); 0 turns it off. */
  controlHost: string
  controlPort: number
  /** Operator token of the control plane; generated and printed at start when unset. */
  controlToken?: string
  /** A token that opens the control plane's `GET /metrics` only (docs/operations.md, "Metrics"). */
  metricsToken?: string
  /** Origin of the polling URLs of event channels; defaults to the plain-HTTP listener. */
  pollingBaseUrl?: string
  /** Hosts a subscription's webHookUrl may name (comma list of hosts, addresses, CIDR blocks or *). */
  webhookAllowedHosts: string
  /** Key of the webhook signatures; generated at start when unset. */
  webhookSecret?: string
  /** Whether the call engine writes the communication log's records (COMLOG_RECORDING, on by default). */
  comlogRecording: boolean
  /**
   * Whether a SQLite file database is checkpointed from a thread of its own (SQLITE_CHECKPOINT_THREAD, on by
   * default) rather than inside the commits (storage/sql/wal-checkpointer.ts).
   */
  sqliteCheckpointThread: boolean
  /** The longest voice message, seconds (VOICEMAIL_MAX_MESSAGE_SECONDS, 120 by default): then the voice mail hangs up. */
  voicemailMaxMessageSeconds: number
  /**
   * How long a stopping node answers not ready before it ends its channels and closes (SHUTDOWN_DRAIN_SECONDS,
   * 0 by default): the time a load balancer needs to stop sending it requests (docs/operations.md).
   */
  shutdownDrainSeconds: number
  /** Entries the journal keeps (JOURNAL_SIZE, 10000 by default; 0 turns it off): docs/journal.md. */
  journalSize: number
  /** Every listener's connection limits (docs/security.md, finding 8). */
  connectionLimits: ConnectionLimits
  /** What an account, a session and this node may hold (docs/security.md, finding 7). */
  quotas: Quotas
  /**
   * The cluster's Redis (REDIS_URL): set, with a PostgreSQL DATABASE_URL, it turns the cluster mode on
   * (docs/cluster.md); unset, the service runs embedded, its ephemeral state in memory.
   */
  redisUrl?: string
  /** The prefix of every Redis key (REDIS_KEY_PREFIX, `openness:` by default): clusters sharing one Redis. */
  redisKeyPrefix: string
  /** This node's name in the cluster (CLUSTER_NODE_ID); generated at start when unset. */
  clusterNodeId?: string
}

/** What a cluster node id may be: it names the node in Redis keys, consumer groups and PostgreSQL's activity. */
export const CLUSTER_NODE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/** The demo directory that ships with the service. */
export const DEMO_DIRECTORY_FILE = join(SERVER_PACKAGE_FOLDER, 'directory', 'demo-directory.yaml')

/** The scenario library of the repository (docs/scenarios.md): the common CTI cases, runnable by name. */
export const SCENARIO_LIBRARY_DIR = join(SERVER_PACKAGE_FOLDER, '..', '..', 'scenarios')

/** A configuration that cannot be used; the message lists every problem. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

type Env = Readonly<Record<string, string | undefined>>

/** Reads and validates the configuration from `env`. */
export function loadConfig(env: Env = process.env): ServiceConfig {
  const problems: string[] = []
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim()
    return value === '' ? undefined : value
  }
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name)
    if (raw === undefined) return fallback
    const value = Number(raw)
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name}=${raw}: must be an integer from ${min} to ${max}`)
      return fallback
    }
    return value
  }
  const baseUrl = (name: string): string | undefined => {
    const raw = text(name)
    if (raw === undefined) return undefined
    try {
      const url = new URL(raw)
      if (
        !['http:', 'https:'].includes(url.protocol) ||
        (url.pathname !== '/' && url.pathname !== '') ||
        url.search
      )
        throw new Error('not an origin')
      return url.origin
    } catch {
      problems.push(
        `${name}=${raw}: must be an http(s) origin such as https://pbx.example.com:8443 (no path)`,
      )
      return undefined
    }
  }

  const onOff = (name: string, fallback: boolean): boolean => {
    const raw = text(name)
    if (raw === undefined) return fallback
    if (raw === 'on' || raw === 'off') return raw === 'on'
    problems.push(`${name}=${raw}: must be on or off`)
    return fallback
  }

  const cookieNames = (name: string): readonly string[] => {
    const raw = text(name)
    if (raw === undefined) return DEFAULT_SESSION_COOKIE_NAMES
    const names = raw.split(',').map((value) => value.trim())
    const wrong = names.filter((value) => !SESSION_COOKIE_NAME_PATTERN.test(value))
    if (wrong.length > 0 || new Set(names).size !== names.length) {
      problems.push(
        `${name}=${raw}: must be distinct cookie names of the form <prefix>UserId, letters and digits, ` +
          'comma-separated, such as SvcUserId,AlcUserId (the basic login parameter is <prefix>ApplicationUrl)',
      )
      return DEFAULT_SESSION_COOKIE_NAMES
    }
    return names
  }

  const config: ServiceConfig = {
    host: text('HOST') ?? '127.0.0.1',
    httpPort: integer('HTTP_PORT', 8080, 0, 65535),
    httpsPort: integer('HTTPS_PORT', 8443, 0, 65535),
    sessionTtl: integer('SESSION_TTL', 300, 10, 86_400),
    sessionCookieNames: cookieNames('SESSION_COOKIE_NAMES'),
    passwordCacheTtl: integer(
      'PASSWORD_CACHE_TTL',
      DEFAULT_VERIFIED_PASSWORD_TTL_SECONDS,
      0,
      86_400,
    ),
    idempotencyRetention: integer('IDEMPOTENCY_RETENTION', 86_400, 60, 604_800),
    dataDir: text('DATA_DIR') ?? './data',
    directoryFile: text('DIRECTORY_FILE') ?? DEMO_DIRECTORY_FILE,
    logLevel: (text('LOG_LEVEL') ?? 'info') as LogLevel,
    controlHost: text('CONTROL_HOST') ?? DEFAULT_CONTROL_HOST,
    controlPort: integer('CONTROL_PORT', DEFAULT_CONTROL_PORT, 0, 65535),
    webhookAllowedHosts: text('WEBHOOK_ALLOWED_HOSTS') ?? DEFAULT_WEBHOOK_ALLOWED_HOSTS,
    comlogRecording: onOff('COMLOG_RECORDING', true),
    sqliteCheckpointThread: onOff('SQLITE_CHECKPOINT_THREAD', true),
    voicemailMaxMessageSeconds: integer(
      'VOICEMAIL_MAX_MESSAGE_SECONDS',
      DEFAULT_MAX_MESSAGE_SECONDS,
      1,
      240,
    ),
    shutdownDrainSeconds: integer('SHUTDOWN_DRAIN_SECONDS', 0, 0, 600),
    journalSize: integer('JOURNAL_SIZE', DEFAULT_JOURNAL_SIZE, 0, MAX_JOURNAL_SIZE),
    connectionLimits: {
      ...DEFAULT_CONNECTION_LIMITS,
      headersTimeoutMs:
        integer('HTTP_HEADERS_TIMEOUT', DEFAULT_CONNECTION_LIMITS.headersTimeoutMs / 1000, 1, 600) *
        1000,
      requestTimeoutMs:
        integer(
          'HTTP_REQUEST_TIMEOUT',
          DEFAULT_CONNECTION_LIMITS.requestTimeoutMs / 1000,
          1,
          3600,
        ) * 1000,
      keepAliveTimeoutMs:
        integer(
          'HTTP_KEEPALIVE_TIMEOUT',
          DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs / 1000,
          1,
          600,
        ) * 1000,
      maxConnections: integer(
        'HTTP_MAX_CONNECTIONS',
        DEFAULT_CONNECTION_LIMITS.maxConnections,
        1,
        1_000_000,
      ),
    },
    quotas: {
      sessionsPerAccount: integer(
        'MAX_SESSIONS_PER_ACCOUNT',
        DEFAULT_QUOTAS.sessionsPerAccount,
        1,
        100_000,
      ),
      subscriptionsPerSession: integer(
        'MAX_SUBSCRIPTIONS_PER_SESSION',
        DEFAULT_QUOTAS.subscriptionsPerSession,
        1,
        100_000,
      ),
      openChannels: integer('MAX_OPEN_CHANNELS', DEFAULT_QUOTAS.openChannels, 1, 1_000_000),
      queuedEvents: integer('MAX_QUEUED_EVENTS', DEFAULT_QUOTAS.queuedEvents, 1, 100_000_000),
    },
    redisKeyPrefix: text('REDIS_KEY_PREFIX') ?? DEFAULT_REDIS_KEY_PREFIX,
  }
  try {
    new WebhookTargets(config.webhookAllowedHosts)
  } catch (error) {
    if (!(error instanceof WebhookAllowListError)) throw error
    problems.push(`WEBHOOK_ALLOWED_HOSTS: ${error.message}`)
  }
  if (config.connectionLimits.headersTimeoutMs > config.connectionLimits.requestTimeoutMs)
    problems.push('HTTP_HEADERS_TIMEOUT: must not be longer than HTTP_REQUEST_TIMEOUT')
  const webhookSecret = text('WEBHOOK_SECRET')
  if (webhookSecret !== undefined) {
    if (webhookSecret.length < 16) problems.push('WEBHOOK_SECRET: must have at least 16 characters')
    else config.webhookSecret = webhookSecret
  }
  const controlToken = text('CONTROL_TOKEN')
  if (controlToken !== undefined) {
    if (controlToken.length < 16) problems.push('CONTROL_TOKEN: must have at least 16 characters')
    else config.controlToken = controlToken
  }
  const metricsToken = text('METRICS_TOKEN')
  if (metricsToken !== undefined) {
    if (metricsToken.length < 16) problems.push('METRICS_TOKEN: must have at least 16 characters')
    else config.metricsToken = metricsToken
  }
  const publicBaseUrl = baseUrl('PUBLIC_BASE_URL')
  const privateBaseUrl = baseUrl('PRIVATE_BASE_URL')
  const pollingBaseUrl = baseUrl('POLLING_BASE_URL')
  if (pollingBaseUrl) config.pollingBaseUrl = pollingBaseUrl
  if (!LOG_LEVELS.includes(config.logLevel))
    problems.push(`LOG_LEVEL=${config.logLevel}: must be one of ${LOG_LEVELS.join(', ')}`)
  const logFormat = text('LOG_FORMAT')
  if (logFormat !== undefined) {
    if ((LOG_FORMATS as readonly string[]).includes(logFormat))
      config.logFormat = logFormat as LogFormat
    else problems.push(`LOG_FORMAT=${logFormat}: must be json or pretty`)
  }
  const tlsCertFile = text('TLS_CERT_FILE')
  const tlsKeyFile = text('TLS_KEY_FILE')
  if ((tlsCertFile === undefined) !== (tlsKeyFile === undefined))
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE: set both or neither')
  const databaseUrl = text('DATABASE_URL')
  if (databaseUrl !== undefined && !/^(postgres|postgresql):\/\/|^sqlite:./.test(databaseUrl))
    problems.push(
      `DATABASE_URL: must start with postgres://, postgresql:// or sqlite: (got ${databaseUrl.split(':')[0]}:)`,
    )
  const redisUrl = text('REDIS_URL')
  if (redisUrl !== undefined) {
    if (!/^rediss?:\/\//.test(redisUrl))
      problems.push(
        `REDIS_URL: must start with redis:// or rediss:// (got ${redisUrl.split(':')[0]}:)`,
      )
    else if (databaseUrl === undefined || !/^(postgres|postgresql):\/\//.test(databaseUrl))
      problems.push(
        'REDIS_URL: the cluster mode keeps its durable state in PostgreSQL: set DATABASE_URL to a postgres:// URL too',
      )
    else config.redisUrl = redisUrl
  }
  if (!/^[A-Za-z0-9:._-]{0,64}$/.test(config.redisKeyPrefix))
    problems.push(
      `REDIS_KEY_PREFIX=${config.redisKeyPrefix}: must be at most 64 letters, digits, ':', '.', '_' or '-'`,
    )
  const clusterNodeId = text('CLUSTER_NODE_ID')
  if (clusterNodeId !== undefined) {
    if (!CLUSTER_NODE_ID_PATTERN.test(clusterNodeId))
      problems.push(
        `CLUSTER_NODE_ID=${clusterNodeId}: must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
      )
    else config.clusterNodeId = clusterNodeId
  }
  if (publicBaseUrl) config.publicBaseUrl = publicBaseUrl
  if (privateBaseUrl) config.privateBaseUrl = privateBaseUrl
  if (tlsCertFile && tlsKeyFile) Object.assign(config, { tlsCertFile, tlsKeyFile })
  if (databaseUrl) config.databaseUrl = databaseUrl
  if (config.httpPort === 0 && config.httpsPort === 0)
    problems.push('HTTP_PORT and HTTPS_PORT: at least one listener is needed')
  const ports = [config.httpPort, config.httpsPort, config.controlPort].filter((port) => port !== 0)
  if (new Set(ports).size !== ports.length)
    problems.push('HTTP_PORT, HTTPS_PORT and CONTROL_PORT: each listener needs its own port')
  if (problems.length > 0)
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`)
  return config
}
