/**
 * Users' routing (docs/control-plane.md, "Routing"; docs/routing.md): read and replace any user's routing in
 * the API's RoutingState shape. A replacement is checked as the API's own requests are and announced with
 * OnRoutingStateChanged; a refused one answers 400 with RestErrorInfo.routing.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { RoutingState } from '@openness/wire'
import { Value } from 'typebox/value'
import { errorResponses } from '../../gateway/error-responses.js'
import type { Directory } from '../../platform/directory/directory.js'
import { PlatformError } from '../../platform/platform-error.js'
import type { RoutingService } from '../../platform/routing/routing-service.js'
import { routingUserOf } from '../../platform/routing/routing-user.js'
import { existingUser } from './users.js'

/** The parts of a RoutingState, each replaced (or cleared when absent) by PUT. */
const ROUTING_PARTS: ReadonlySet<string> = new Set(Object.keys(RoutingState.properties))

const LoginParams = Type.Object({ loginName: Type.String() })
const tags = ['routing']

/** `/users/{loginName}/routing`. */
export const routingRoutes: FastifyPluginAsyncTypebox<{
  directory: Directory
  routing: RoutingService
}> = async (app, { directory, routing }) => {
  app.get(
    '/users/:loginName/routing',
    {
      schema: {
        summary: "The user's routing: presentation, forward and overflow routes, DND",
        tags,
        params: LoginParams,
        response: { 200: RoutingState, ...errorResponses(401, 404) },
      },
    },
    async (request) =>
      routing.state(routingUserOf(existingUser(directory, request.params.loginName))),
  )

  app.put(
    '/users/:loginName/routing',
    {
      schema: {
        summary: "Replace the user's routing; publishes OnRoutingStateChanged",
        description:
          'The body is a RoutingState as GET /routing/state shows it: each part present is set as its ' +
          'API request would set it, each part absent is cleared (`{}` clears everything).',
        tags,
        params: LoginParams,
        body: RoutingState,
        response: { 200: RoutingState, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const user = routingUserOf(existingUser(directory, request.params.loginName))
      // The control plane validates bodies itself (control-app.ts): this one against the wire schema.
      const [problem] = Value.Errors(RoutingState, request.body)
      if (problem !== undefined)
        throw new PlatformError(
          'BAD_PARAMETER',
          `body${problem.instancePath.replaceAll('/', '.')}: ${problem.message}`,
        )
      // A replacement clears the parts it does not name: a misspelt part would clear the one meant.
      const unknown = Object.keys(request.body).filter((key) => !ROUTING_PARTS.has(key))
      if (unknown.length > 0)
        throw new PlatformError(
          'BAD_PARAMETER',
          `body.${unknown[0]}: not a part of a RoutingState (${[...ROUTING_PARTS].join(', ')})`,
        )
      await routing.replace(user, request.body)
      return routing.state(user)
    },
  )
}
