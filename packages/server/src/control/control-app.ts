/**
 * buildControlApp: the control plane (docs/control-plane.md), a Fastify application of its own that
 * main.ts serves on its own listener, loopback by default, behind the operator token. Its errors are
 * RestErrorInfo, as the gateway's; its routes have their own OpenAPI document.
 */
import swagger from '@fastify/swagger'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify'
import type { AdjustableTime } from '../clock/adjustable-time.js'
import { addErrorSchema } from '../gateway/error-responses.js'
import {
  type SchemaCompilation,
  schemaCompilationOptions,
} from '../gateway/lazy-schema-compilers.js'
import { generatorFriendly, SAME_ORIGIN_SERVERS } from '../gateway/openapi-shaping.js'
import { errorHandler } from '../gateway/plugins/error-handler.js'
import { jsonBody } from '../gateway/plugins/json-body.js'
import type { ServiceMetrics } from '../operations/service-metrics.js'
import type { AcdTicketStore } from '../platform/acd/acd-ticket-store.js'
import type { ComlogService } from '../platform/comlog/comlog-service.js'
import type { Directory } from '../platform/directory/directory.js'
import type { Journal } from '../platform/journal/journal.js'
import type { MiniMessageService } from '../platform/mini-messages/mini-message-service.js'
import type { Readiness } from '../platform/readiness.js'
import type { RoutingService } from '../platform/routing/routing-service.js'
import type { PlatformStates } from '../platform/sandbox/platform-states.js'
import type { SystemStatusService } from '../platform/system/system-status-service.js'
import type { VoicemailService } from '../platform/voicemail/voicemail-service.js'
import { controlJournal } from './control-journal.js'
import { operatorToken } from './operator-token.js'
import { callRoutes } from './routes/calls.js'
import { clockRoutes } from './routes/clock.js'
import { comlogRoutes } from './routes/comlog.js'
import { contactCenterRoutes } from './routes/contact-center.js'
import { deskSharingRoutes } from './routes/desk-sharing.js'
import { deviceRoutes } from './routes/devices.js'
import { faultRoutes, type LosableNode, type SessionCloser } from './routes/faults.js'
import { healthRoutes } from './routes/health.js'
import { huntingGroupRoutes } from './routes/hunting-groups.js'
import { journalRoutes } from './routes/journal.js'
import { miniMessageRoutes } from './routes/mini-messages.js'
import { outsidePartyRoutes } from './routes/outside-parties.js'
import { pickupGroupRoutes } from './routes/pickup-groups.js'
import type { ControlTelephony } from './routes/route-support.js'
import { routingRoutes } from './routes/routing.js'
import { scenarioRoutes } from './routes/scenarios.js'
import { simulatedDeviceRoutes } from './routes/simulated-devices.js'
import { snapshotRoutes } from './routes/snapshots.js'
import { userRoutes } from './routes/users.js'
import { voicemailRoutes } from './routes/voicemail.js'
import type { ScenarioClock } from './scenarios/scenario-dependencies.js'
import { ScenarioLibrary } from './scenarios/scenario-library.js'
import { ScenarioRunner } from './scenarios/scenario-runner.js'
import { injector, type ScenarioServices } from './scenarios/scenario-services.js'

/** Where the control plane's routes live. */
export const CONTROL_PATH = '/control/v1'
/** Where its OpenAPI document is served. */
export const CONTROL_OPENAPI_PATH = `${CONTROL_PATH}/openapi.json`
/** Where the node's Prometheus metrics are served: the path scrapers ask by default. */
export const METRICS_PATH = '/metrics'

/** A user with many devices stays far below this. */
const CONTROL_BODY_LIMIT = 64 * 1024

/** What the control plane acts on. */
export interface ControlPlatform {
  directory: Directory
  product: { version: string }
  /** The running call engine: with it, the simulation routes (docs/control-plane.md, "Simulation"). */
  telephony?: ControlTelephony
  /** The service's clock, when it can be set forward: with it, the clock routes ("The clock"). */
  adjustableClock?: AdjustableTime
  /** The API's readiness and sessions: with both, the fault routes ("Faults"). */
  readiness?: Readiness
  sessions?: SessionCloser
  /** In a cluster, this node, which a switch-over really ends (docs/cluster.md). */
  node?: LosableNode
  /** Users' routing: with it, the routing routes ("Routing"). */
  routing?: RoutingService
  /** The communication log: with it, the routes of a user's log ("Communication log"). */
  comlog?: ComlogService
  /** The mailboxes the platform hosts: recordings for the next messages. */
  voicemail?: VoicemailService
  /** Users' unread mini messages: with them, their routes ("Mini messages"). */
  miniMessages?: MiniMessageService
  /** The contact center's tickets: with them and the engine, their route (docs/contact-center-control.md). */
  acdTickets?: AcdTicketStore
  /** The platform's health: with it, the health routes ("Platform health"). */
  system?: SystemStatusService
  /** The node's Prometheus metrics: with them, `GET /metrics` (docs/operations.md, "Metrics"). */
  metrics?: ServiceMetrics
  /** Reset, snapshots and restore of the platform: with them, their routes (docs/sandbox.md). */
  states?: PlatformStates
  /**
   * What scenario runs need besides the engine and a clock that tells its next due time: with all three, the
   * scenario routes (docs/scenarios.md). A node alone only: a run holds and moves its own clock.
   */
  scenarios?: ScenarioServices
  /** The folder of the scenario library (the repository's `scenarios/`). */
  scenarioLibrary?: string
  /** The journal: with it, its routes, and the actions here recorded in it (docs/journal.md). */
  journal?: Journal
}

/** Options of the control plane. */
export interface ControlAppOptions {
  /** The operator token every request must carry. */
  token: string
  /** A token that opens `GET /metrics` only (METRICS_TOKEN); the operator token opens it too. */
  metricsToken?: string
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger
  /** When response schemas compile (default lazy: on first use; gateway/lazy-schema-compilers.ts). */
  schemaCompilation?: SchemaCompilation
  /** How often the journal's stream writes a heartbeat (default 15 s; tests use less). */
  journalHeartbeatMs?: number
}

/** Builds the control plane over a platform; call `ready()` (or `listen`/`inject`) to use it. */
export async function buildControlApp(
  platform: ControlPlatform,
  options: ControlAppOptions,
): Promise<FastifyInstance> {
  const logger = options.logger ?? false
  const app = Fastify({
    ...(typeof logger === 'object' && 'child' in logger ? { loggerInstance: logger } : { logger }),
    bodyLimit: CONTROL_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    ...schemaCompilationOptions(options.schemaCompilation ?? 'lazy'),
  }).withTypeProvider<TypeBoxTypeProvider>()
  // Bodies are users and devices in the directory file's format: the directory checks them with the
  // file's rules and words (every problem at once, "write it in quotes", "did you mean"), so the route
  // schemas only describe them, for the OpenAPI document. Path parameters are plain strings.
  app.setValidatorCompiler(() => () => true)

  addErrorSchema(app)
  await app.register(errorHandler)
  await app.register(jsonBody)
  await app.register(operatorToken, {
    token: options.token,
    ...(options.metricsToken && {
      routeToken: { url: METRICS_PATH, token: options.metricsToken },
    }),
  })
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Communication Platform REST Openness Service: control plane',
        version: platform.product.version,
        description:
          'Provisioning of the directory: users and their devices, in the directory file format; ' +
          "simulation: calls, simulated devices and outside parties; users' routing; the clock; " +
          'fault injection; reset, snapshots and restore of the whole platform; scenarios (a world, a script on the clock, expectations) and their library; ' +
          'the journal of what the API, the delivery and the control plane did. ' +
          'Every request needs the operator token; every error body is a RestErrorInfo.',
      },
      servers: SAME_ORIGIN_SERVERS,
      components: { securitySchemes: { operatorToken: { type: 'http', scheme: 'bearer' } } },
      // Every route needs the token (plugins/operator-token.ts), so it is declared once for all.
      security: [{ operatorToken: [] }],
    },
    hideUntagged: true,
    // operationIds derived from method and path; titled schemas named; no HEAD twins.
    ...generatorFriendly(CONTROL_PATH, () => undefined),
  })
  app.get(CONTROL_OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger())
  const { journal } = platform
  // Before the routes, whose actions it records (onRoute).
  if (journal?.enabled) await app.register(controlJournal, { journal, basePath: CONTROL_PATH })

  const {
    directory,
    telephony,
    adjustableClock,
    readiness,
    sessions,
    routing,
    comlog,
    voicemail,
    miniMessages,
    system,
  } = platform
  const prefix = CONTROL_PATH
  await app.register(userRoutes, { prefix, directory, ...(sessions && { sessions }) })
  await app.register(deviceRoutes, { prefix, directory })
  await app.register(pickupGroupRoutes, { prefix, directory })
  if (routing) await app.register(routingRoutes, { prefix, directory, routing })
  if (telephony) {
    await app.register(callRoutes, { prefix, telephony })
    await app.register(simulatedDeviceRoutes, { prefix, telephony })
    await app.register(outsidePartyRoutes, { prefix, telephony })
    await app.register(huntingGroupRoutes, { prefix, telephony })
    await app.register(deskSharingRoutes, { prefix, telephony, directory })
    await app.register(contactCenterRoutes, {
      prefix,
      telephony,
      directory,
      ...(platform.acdTickets && { acdTickets: platform.acdTickets }),
    })
  }
  if (adjustableClock)
    await app.register(clockRoutes, {
      prefix,
      clock: adjustableClock,
      ...(telephony && { telephony }),
    })
  if (readiness && sessions)
    await app.register(faultRoutes, {
      prefix,
      readiness,
      sessions,
      ...(platform.node && { node: platform.node }),
    })
  if (comlog) await app.register(comlogRoutes, { prefix, directory, comlog })
  if (voicemail) await app.register(voicemailRoutes, { prefix, directory, voicemail })
  if (miniMessages) await app.register(miniMessageRoutes, { prefix, directory, miniMessages })
  if (system) await app.register(healthRoutes, { prefix, system })
  if (platform.states) await app.register(snapshotRoutes, { prefix, states: platform.states })
  if (journal)
    await app.register(journalRoutes, {
      prefix,
      journal,
      ...(options.journalHeartbeatMs !== undefined && { heartbeatMs: options.journalHeartbeatMs }),
    })
  const { scenarios, scenarioLibrary } = platform
  if (scenarios && telephony && isSteppable(adjustableClock)) {
    // The runner sends the script's control-plane steps to these very routes, as the operator would.
    const control = injector(app, { authorization: `Bearer ${options.token}` })
    const runner = new ScenarioRunner({
      ...scenarios,
      control: (request) => control({ ...request, url: `${CONTROL_PATH}${request.url}` }),
      telephony,
      clock: adjustableClock,
    })
    const library = new ScenarioLibrary(scenarioLibrary ?? '')
    await app.register(scenarioRoutes, { prefix, runner, library })
  }
  const { metrics } = platform
  if (metrics)
    app.get(METRICS_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply.type(metrics.contentType).send(await metrics.scrape()),
    )
  return app
}

/** A clock a scenario run can step from one due time to the next. */
function isSteppable(clock: AdjustableTime | undefined): clock is ScenarioClock {
  return clock?.nextDueAt !== undefined
}
