/**
 * Resolves the session cookie of every request whose route requires an open session, restarting the
 * session timer (specification, session lifecycle: "any use of the session ... timer restarted").
 */
import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { PlatformError } from '../../platform/platform-error.js'
import { API_V1_PATH } from '../base-urls.js'
import type { SessionRequirement } from '../platform.js'
import { prependRouteHook } from './route-hooks.js'

/**
 * The requirement is read once per route, when it is added, and the resolver is attached to the routes
 * that need it only: the other routes run no hook for it, and the ones that do run a callback hook that
 * settles the store's one promise, with no async function around it (the authenticated read is the hottest
 * path of the API: docs/performance.md).
 * Route-level hooks run after the instance's, so the readiness check still comes first.
 */
export const sessionResolver = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('session', undefined)
    const { sessions, cookies } = app.platform
    const resolveSession: onRequestHookHandler = (request, _reply, done) => {
      sessions.use(cookies.read(request.headers.cookie)).then((session) => {
        if (session === undefined) return done(noSession())
        request.session = session
        done()
      }, done)
    }
    app.addHook('onRoute', (route) => {
      if (sessionRequirementOf(route) !== 'open') return
      prependRouteHook(route, 'onRequest', resolveSession)
    })
  },
  { name: 'session-resolver' },
)

const noSession = () =>
  new PlatformError('INVALID_SESSION', 'No valid session: log in and open a session again')

/**
 * The route's declared requirement; routes of version 1.0 need an open session unless they say otherwise. The
 * OpenAPI document declares each operation's security from it (plugins/openapi.ts).
 */
export function sessionRequirementOf(
  route: Pick<RouteOptions, 'url' | 'config'>,
): SessionRequirement {
  const declared = route.config?.session
  if (declared !== undefined) return declared
  return route.url.startsWith(`${API_V1_PATH}/`) ? 'open' : 'none'
}
