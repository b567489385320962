/** Entry point: read the configuration, start the platform and the listeners, print where to go. */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type pino from 'pino'
import { buildApp } from './assembly/app.js'
import {
  ConfigError,
  DEMO_DIRECTORY_FILE,
  loadConfig,
  SCENARIO_LIBRARY_DIR,
  type ServiceConfig,
} from './assembly/config.js'
import { type HttpListener, startHttpListener, startListeners } from './assembly/listeners.js'
import { scenarioServices } from './assembly/scenario-services.js'
import { startPlatform } from './assembly/service.js'
import { loadTlsMaterial, type TlsMaterial } from './assembly/tls.js'
import { AdjustableClock } from './clock/adjustable-clock.js'
import { keptClock } from './clock/kept-clock.js'
import { DEFAULT_CONTROL_URL } from './control/control-address.js'
import { buildControlApp, CONTROL_PATH, type ControlPlatform } from './control/control-app.js'
import { generateOperatorToken } from './control/operator-token.js'
import { activityLog } from './operations/activity-log.js'
import { createServiceLogger } from './operations/service-logger.js'
import { DirectoryFileError } from './storage/file/directory-file.js'
import { databaseTargetFromUrl } from './storage/sql/database.js'

/** Where the control plane listens, and its token when the service generated it. */
interface ControlBanner {
  url: string
  generatedToken?: string
}

function banner(
  config: ServiceConfig,
  ports: { http?: number; https?: number },
  tls: TlsMaterial | undefined,
  control: ControlBanner | undefined,
  webhooks: string[],
  cluster?: string,
): string {
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const http = ports.http === undefined ? undefined : `http://${shown}:${ports.http}`
  const https = ports.https === undefined ? undefined : `https://${shown}:${ports.https}`
  const base = http ?? https ?? ''
  const curl = http ? 'curl' : 'curl -k'
  const lines = [
    '',
    'Communication Platform REST Openness Service',
    http ? `  API over HTTP    ${http}/api/rest` : undefined,
    https ? `  API over HTTPS   ${https}/api/rest` : undefined,
    tls
      ? `  TLS certificate  ${tls.certFile} (${tls.source}) SHA-256 ${tls.fingerprint}`
      : undefined,
    `  OpenAPI          ${base}/openapi.json   reference UI ${base}/docs`,
    `  Directory        ${config.directoryFile}`,
    cluster ? `  Cluster node     ${cluster}` : undefined,
    ...controlLines(control),
    ...webhooks,
  ]
  if (config.directoryFile === DEMO_DIRECTORY_FILE) {
    lines.push(
      '  Demo accounts    users alice, bob, carol, dave, ...; administrators admin (supervisor), operator',
      '                   password: demo-<login>, e.g. alice / demo-alice',
      '',
      'Try it:',
      `  ${curl} -s -c jar -u alice:demo-alice '${base}/api/rest/authenticate?version=1.0'`,
      `  ${curl} -s -b jar -H 'Content-Type: application/json' -d '{"applicationName":"curl"}' ${base}/api/rest/1.0/sessions`,
      `  ${curl} -s -b jar ${base}/api/rest/1.0/users/alice`,
      `  ${curl} -s -b jar -H 'Content-Type: application/json' -d '{"guiLanguage":"fr"}' ${base}/api/rest/1.0/users/alice/preferences`,
      `  ${curl} -s -b jar -X DELETE ${base}/api/rest/1.0/sessions`,
    )
  }
  return `${lines.filter((line) => line !== undefined).join('\n')}\n\n`
}

function controlLines(control: ControlBanner | undefined): string[] {
  if (control === undefined) return ['  Control plane    off (CONTROL_PORT=0)']
  const { url, generatedToken } = control
  const origin = url.slice(0, -CONTROL_PATH.length)
  const cli = `${origin === DEFAULT_CONTROL_URL ? '' : `CONTROL_URL=${origin} `}npm run control -- users list`
  return generatedToken === undefined
    ? [`  Control plane    ${url}   token from CONTROL_TOKEN`, `                   ${cli}`]
    : [
        `  Control plane    ${url}`,
        `                   token ${generatedToken} (generated; set CONTROL_TOKEN to choose one)`,
        `                   CONTROL_TOKEN=${generatedToken} ${cli}`,
      ]
}

/** Where webhooks may go, and the signing secret when the service generated it (docs/subscriptions.md). */
function webhookLines(config: ServiceConfig, secret: string): string[] {
  const hosts = `  Webhooks         to ${config.webhookAllowedHosts} (WEBHOOK_ALLOWED_HOSTS)`
  if (config.webhookSecret !== undefined)
    return [hosts, '                   signed with WEBHOOK_SECRET']
  return [
    hosts,
    `                   signed with ${secret} (generated; set WEBHOOK_SECRET to choose one)`,
  ]
}

/** A URL without its credentials, to print. */
function redactedUrl(url: string): string {
  const parsed = new URL(url)
  parsed.username = ''
  parsed.password = ''
  return parsed.toString()
}

/** The control plane once started. */
interface RunningControlPlane {
  app: FastifyInstance
  listener: HttpListener
  banner: ControlBanner
}

/** Starts the control plane on its own listener unless CONTROL_PORT is 0 (docs/control-plane.md). */
async function startControlPlane(
  config: ServiceConfig,
  platform: ControlPlatform,
  logger: pino.Logger,
): Promise<RunningControlPlane | undefined> {
  if (config.controlPort === 0) return undefined
  const token = config.controlToken ?? generateOperatorToken()
  const app = await buildControlApp(platform, {
    token,
    ...(config.metricsToken && { metricsToken: config.metricsToken }),
    logger: logger.child({ plane: 'control' }),
  })
  const listener = await startHttpListener(
    app,
    config.controlHost,
    config.controlPort,
    config.connectionLimits,
  )
  logger.info({ host: config.controlHost, port: listener.port }, 'control plane listening')
  const host = ['0.0.0.0', '::'].includes(config.controlHost)
    ? 'localhost'
    : config.controlHost.includes(':')
      ? `[${config.controlHost}]`
      : config.controlHost
  const url = `http://${host}:${listener.port}${CONTROL_PATH}`
  return {
    app,
    listener,
    banner: { url, ...(config.controlToken === undefined && { generatedToken: token }) },
  }
}

/** A node id when CLUSTER_NODE_ID names none: the host's name and a random suffix (two processes on one host). */
function generatedNodeId(): string {
  const host = hostname()
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 50)
  return `${host || 'node'}-${randomBytes(4).toString('hex')}`
}

async function main(): Promise<void> {
  const config = loadConfig()
  const logger = createServiceLogger({
    level: config.logLevel,
    ...(config.logFormat && { format: config.logFormat }),
  })
  // The system's time, which the control plane may set forward (docs/control-plane.md, "The clock").
  const clock = new AdjustableClock()
  const cluster = config.redisUrl
    ? {
        nodeId: config.clusterNodeId ?? generatedNodeId(),
        redis: { url: config.redisUrl, keyPrefix: config.redisKeyPrefix },
      }
    : undefined
  const running = await startPlatform({
    database: databaseTargetFromUrl(config.databaseUrl, config.dataDir, {
      checkpointThread: config.sqliteCheckpointThread,
    }),
    directoryFile: config.directoryFile,
    clock,
    sessionTtlSeconds: config.sessionTtl,
    sessionCookieNames: config.sessionCookieNames,
    passwordCacheTtlSeconds: config.passwordCacheTtl,
    idempotencyRetentionSeconds: config.idempotencyRetention,
    comlogRecording: config.comlogRecording,
    onBackgroundError: (error, what) => logger.error({ err: error }, what),
    maxVoiceMessageSeconds: config.voicemailMaxMessageSeconds,
    quotas: config.quotas,
    journalSize: config.journalSize,
    processMetrics: true,
    activity: activityLog(logger),
    ...(cluster && { cluster }),
    ...(config.publicBaseUrl && { publicBaseUrl: config.publicBaseUrl }),
    ...(config.privateBaseUrl && { privateBaseUrl: config.privateBaseUrl }),
    ...(config.pollingBaseUrl && { pollingBaseUrl: config.pollingBaseUrl }),
    webhooks: {
      allowedHosts: config.webhookAllowedHosts,
      ...(config.webhookSecret && { secret: config.webhookSecret }),
      // A receiver that is down is the application's business: each retry at debug, a given-up event at warn.
      onFailure: (failure) =>
        logger[failure.willRetry ? 'debug' : 'warn'](failure, 'webhook request failed'),
    },
  })
  logger.info(
    { imported: running.imported, directoryFile: config.directoryFile },
    'directory loaded',
  )
  // The clock goes on from where the control plane set it before a restart (docs/control-plane.md).
  const adjustableClock = await keptClock(clock, running.clockOffsets, {
    notices: running.changeNotices,
    onReloadFailure: (error) => logger.error({ err: error }, "the clock's offset was not reloaded"),
  })
  const app = await buildApp(running.platform, { logger })
  const tls =
    config.httpsPort === 0
      ? undefined
      : await loadTlsMaterial({
          dataDir: config.dataDir,
          ...(config.tlsCertFile && { certFile: config.tlsCertFile }),
          ...(config.tlsKeyFile && { keyFile: config.tlsKeyFile }),
        })
  const listeners = await startListeners(app, {
    host: config.host,
    limits: config.connectionLimits,
    ...(config.httpPort !== 0 && { httpPort: config.httpPort }),
    ...(config.httpsPort !== 0 && { httpsPort: config.httpsPort }),
    ...(tls && { tls: { ...tls, strictTransport: tls.source === 'configured' } }),
  })
  // Polling URLs default to the plain-HTTP listener (design section 6), HTTPS clients' to the HTTPS one once
  // its certificate is the operator's (docs/security.md, finding 5).
  if (listeners.httpPort !== undefined) running.platform.urls.httpPort = listeners.httpPort
  if (tls?.source === 'configured') running.platform.urls.httpsPolling = true
  const ports = {
    ...(listeners.httpPort !== undefined && { http: listeners.httpPort }),
    ...(listeners.httpsPort !== undefined && { https: listeners.httpsPort }),
  }
  logger.info({ host: config.host, ...ports, dataDir: join(config.dataDir) }, 'listening')
  const control = await startControlPlane(
    config,
    {
      ...running.platform,
      telephony: running.telephony,
      adjustableClock,
      states: running.states,
      // A scenario run holds and moves its node's clock, and follows the events of its node: a node alone only.
      ...(cluster === undefined && {
        scenarios: scenarioServices(running, app, async () => {
          await running.states.reset()
        }),
        scenarioLibrary: SCENARIO_LIBRARY_DIR,
      }),
      // In a cluster the control plane's switch-over is this node's real loss (docs/control-plane.md).
      ...(cluster && {
        node: {
          nodeId: cluster.nodeId,
          lose: () => {
            logger.warn({ nodeId: cluster.nodeId }, 'switch-over: this node ends now')
            process.kill(process.pid, 'SIGKILL')
          },
        },
      }),
    },
    logger,
  )
  process.stdout.write(
    banner(
      config,
      ports,
      tls,
      control?.banner,
      webhookLines(config, running.webhookSecret),
      cluster &&
        `${cluster.nodeId} (Redis ${redactedUrl(cluster.redis.url)}, keys ${cluster.redis.keyPrefix}*)`,
    ),
  )

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    // Drain (docs/operations.md): not ready at once, still serving while load balancers notice, then every
    // channel ended with its closing frame so that clients open it again elsewhere; then close.
    running.platform.health.drain()
    logger.info({ signal, drainSeconds: config.shutdownDrainSeconds }, 'stopping')
    if (config.shutdownDrainSeconds > 0)
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainSeconds * 1000))
    running.platform.outlets.endChannels()
    await listeners.close()
    await control?.listener.close()
    await app.close()
    await control?.app.close()
    await running.close()
    process.exit(0)
  }
  // Hashing the imported directory's passwords waits until the service answers (a login does not wait
  // for more than its own account's hash); a directory that cannot be stored is fatal.
  if (running.imported) {
    running.completeImport().then(
      () => logger.info('directory stored'),
      (error: unknown) => {
        if (stopping) return
        logger.fatal({ err: error }, 'the imported directory could not be stored')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DirectoryFileError) {
    process.stderr.write(`${error.message}\n`)
  } else if (error instanceof Error && 'code' in error) {
    // A system error (a port in use, a directory not writable): its message says it all.
    process.stderr.write(`The service could not start: ${error.message}\n`)
  } else {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
    process.stderr.write(`The service could not start: ${detail}\n`)
  }
  process.exit(1)
})
