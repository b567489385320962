/**
 * Resolves the session cookie of every request whose route requires an open session, restarting the
 * session timer (specification, session lifecycle: "any use of the session ... timer restarted").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { PlatformError } from '../../platform/platform-error.js'
import { API_V1_PATH } from '../base-urls.js'
import { readSessionCookie } from '../cookies.js'
import type { SessionRequirement } from '../platform.js'

export const sessionResolver = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('session', undefined)
    app.addHook('onRequest', async (request) => {
      if (requirementOf(request) !== 'open') return
      const session = app.platform.sessions.use(readSessionCookie(request))
      if (session === undefined)
        throw new PlatformError(
          'INVALID_SESSION',
          'No valid session: log in and open a session again',
        )
      request.session = session
    })
  },
  { name: 'session-resolver' },
)

/** The route's declared requirement; routes of version 1.0 need an open session unless they say otherwise. */
function requirementOf(request: FastifyRequest): SessionRequirement {
  const declared = request.routeOptions.config.session
  if (declared !== undefined) return declared
  return request.routeOptions.url?.startsWith(`${API_V1_PATH}/`) ? 'open' : 'none'
}
