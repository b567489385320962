/** buildApp: the Fastify application of the service, assembled from its plugins; it never listens itself. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify'
import { API_V1_PATH } from '../gateway/base-urls.js'
import { answerFrameworkError, MAX_PARAM_LENGTH } from '../gateway/early-errors.js'
import { addErrorSchema } from '../gateway/error-responses.js'
import {
  type SchemaCompilation,
  schemaCompilationOptions,
} from '../gateway/lazy-schema-compilers.js'
import type { GatewayPlatform } from '../gateway/platform.js'
import { errorHandler } from '../gateway/plugins/error-handler.js'
import { idempotency } from '../gateway/plugins/idempotency.js'
import { journalRecorder } from '../gateway/plugins/journal-recorder.js'
import { jsonBody } from '../gateway/plugins/json-body.js'
import { openApi } from '../gateway/plugins/openapi.js'
import { readinessCheck } from '../gateway/plugins/readiness.js'
import { requestHygiene } from '../gateway/plugins/request-hygiene.js'
import { requestMetrics } from '../gateway/plugins/request-metrics.js'
import { sessionResolver } from '../gateway/plugins/session-resolver.js'
import { acdAgentRoutes } from '../gateway/routes/acd-agent.js'
import { acdManagementRoutes, acdPilotMonitoringRoutes } from '../gateway/routes/acd-pilots.js'
import { authenticateRoutes } from '../gateway/routes/authenticate.js'
import { comlogRoutes } from '../gateway/routes/comlog.js'
import { directoryRoutes } from '../gateway/routes/directory.js'
import { eventSummaryRoutes } from '../gateway/routes/event-summary.js'
import { groupRoutes } from '../gateway/routes/groups.js'
import { healthRoutes } from '../gateway/routes/health.js'
import { locatorRoutes, vcardRoutes } from '../gateway/routes/locator.js'
import { loginRoutes } from '../gateway/routes/logins.js'
import { notInstalledRoutes } from '../gateway/routes/not-installed.js'
import { notificationRoutes } from '../gateway/routes/notifications.js'
import { rootRoutes } from '../gateway/routes/root.js'
import { routingRoutes } from '../gateway/routes/routing.js'
import { sessionRoutes } from '../gateway/routes/sessions.js'
import { subscriptionRoutes } from '../gateway/routes/subscriptions.js'
import { systemRoutes } from '../gateway/routes/system.js'
import { telephonyRoutes } from '../gateway/routes/telephony/index.js'
import { userAccountRoutes, userLookupRoutes } from '../gateway/routes/users.js'
import { voicemailRoutes } from '../gateway/routes/voicemail.js'

/** Options of the HTTP layer. */
export interface AppOptions {
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger
  /** Largest accepted request body, in bytes. */
  bodyLimit?: number
  /** Serve the OpenAPI description and its UI. */
  openApi?: boolean
  /** When route schemas compile (default lazy: on first use; gateway/lazy-schema-compilers.ts). */
  schemaCompilation?: SchemaCompilation
}

/** The default body limit: far above any record of the API, far below anything that hurts. */
export const DEFAULT_BODY_LIMIT = 64 * 1024

/** Builds the application over a platform; call `ready()` (or `listen`/`inject`) to use it. */
export async function buildApp(
  platform: GatewayPlatform,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const logger = options.logger ?? false
  const app = Fastify({
    ...(typeof logger === 'object' && 'child' in logger ? { loggerInstance: logger } : { logger }),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors found before any route or hook runs are RestErrorInfo too (gateway/early-errors.ts).
    frameworkErrors: answerFrameworkError,
    // Every error named, not the first only (docs/errors.md); the 64 KB body limit bounds what that costs.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: true } },
    ...schemaCompilationOptions(options.schemaCompilation ?? 'lazy'),
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.decorate('platform', platform)
  addErrorSchema(app)
  await app.register(errorHandler)
  // Before any route is added, so that every one resolves its series (onRoute).
  await app.register(requestMetrics)
  // Likewise (each route's operationId); nothing when the journal is off (docs/journal.md).
  await app.register(journalRecorder)
  await app.register(requestHygiene)
  await app.register(jsonBody)
  // Before the session: a request refused NOT_READY does not restart its session's timer.
  await app.register(readinessCheck)
  await app.register(sessionResolver)
  // After the session (a key is the session's), before every route of the API (onRoute).
  await app.register(idempotency, app.platform.idempotency)
  if (options.openApi ?? true) await app.register(openApi, { version: platform.product.version })

  await app.register(healthRoutes)
  await app.register(rootRoutes)
  await app.register(authenticateRoutes)
  await app.register(locatorRoutes)
  await app.register(
    async (v1) => {
      await v1.register(sessionRoutes)
      await v1.register(loginRoutes)
      await v1.register(userLookupRoutes)
      await v1.register(userAccountRoutes, { prefix: '/users' })
      // An administrator session's Users service is /logins (specification, "Service"); real clients
      // then address accounts as /logins/{loginName} (wire facts 10.5), so the same routes answer there.
      await v1.register(userAccountRoutes, { prefix: '/logins', operationIdSuffix: 'ViaLogins' })
      await v1.register(subscriptionRoutes)
      await v1.register(notificationRoutes)
      await v1.register(telephonyRoutes, { prefix: '/telephony' })
      await v1.register(routingRoutes, { prefix: '/routing' })
      await v1.register(comlogRoutes, { prefix: '/comlog' })
      await v1.register(eventSummaryRoutes)
      await v1.register(groupRoutes)
      await v1.register(directoryRoutes, { prefix: '/directory' })
      await v1.register(voicemailRoutes, { prefix: '/messaging/mailboxes' })
      await v1.register(systemRoutes)
      await v1.register(acdAgentRoutes, { prefix: '/acd/agent' })
      await v1.register(acdPilotMonitoringRoutes, { prefix: '/acd/pilotmonitoring' })
      await v1.register(acdManagementRoutes, { prefix: '/acd/management' })
      await v1.register(vcardRoutes)
      await v1.register(notInstalledRoutes)
    },
    { prefix: API_V1_PATH },
  )
  return app
}
