/**
 * The Routing service (wire facts 8.3; docs/routing.md): capabilities, the remote extension, do not disturb,
 * forward and overflow routes, the routing state and its snapshot. Every operation takes `loginName` as
 * the operations marked L do (access.ts). Changes answer 204; a refused one 400 with RestErrorInfo.routing.
 */
import { type FastifyPluginAsyncTypebox, type TSchema, Type } from '@fastify/type-provider-typebox'
import {
  DndState,
  ForwardRoute,
  OverflowRoute,
  RoutingCapabilities,
  RoutingState,
  SetForwardRouteRequest,
  SetOverflowRouteRequest,
  SetPresentationRoutesRequest,
} from '@openness/wire'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RoutingUser } from '../../platform/routing/routing-service.js'
import { routingUserOf } from '../../platform/routing/routing-user.js'
import { loginNameRule } from '../access.js'
import { errorResponses } from '../error-responses.js'
import { LoginNameQuery } from '../login-name-query.js'

const tags = ['routing']

/** The body of the POSTs that carry none (the Node SDK sends Content-Type JSON with an empty body). */
const NoBody = Type.Optional(Type.Object({}, { additionalProperties: false }))

const noContent = { 204: Type.Null() }

/** 200 with the route, or an empty body when none is set (the Node and Java SDKs read that as "none"). */
const routeOrEmpty = (route: typeof ForwardRoute | typeof OverflowRoute, what: string) =>
  Type.Union([route, Type.String({ maxLength: 0 })], {
    description: `the ${what}, or an empty body when none is set`,
  })

/** The user the request acts on (the L rule), as routing sees them. */
function userOf(
  request: FastifyRequest & { query: { loginName?: string | undefined } },
): RoutingUser {
  return routingUserOf(loginNameRule(request, request.query.loginName))
}

const changeResponses = { ...noContent, ...errorResponses(400) }

/** The schema of a change with a body. */
function change<B extends TSchema>(operationId: string, summary: string, body: B) {
  return {
    schema: {
      operationId,
      summary,
      tags,
      querystring: LoginNameQuery,
      body,
      response: changeResponses,
    },
  }
}

/** The schema of a change without a body (the DELETEs). */
function removal(operationId: string, summary: string) {
  return {
    schema: { operationId, summary, tags, querystring: LoginNameQuery, response: changeResponses },
  }
}

/** Answers 200 with `route`, or 200 with an empty body when there is none. */
function sendRoute(reply: FastifyReply, route: object | undefined): FastifyReply {
  return route === undefined ? reply.code(200).send('') : reply.code(200).send(route)
}

export const routingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide('Routing')
  const routing = () => app.platform.routing
  const changed = (reply: FastifyReply) => reply.code(204).send(null)
  const read = { querystring: LoginNameQuery, tags }
  app.get(
    '/',
    {
      schema: {
        ...read,
        operationId: 'getRoutingCapabilities',
        summary: 'The routes the user may set',
        response: { 200: RoutingCapabilities, ...errorResponses() },
      },
    },
    async (request) => routing().capabilities(userOf(request)),
  )

  app.post(
    '/',
    change(
      'setRemoteExtensionActivation',
      'Turn the remote extension (MOBILE presentation route) on or off',
      SetPresentationRoutesRequest,
    ),
    async (request, reply) => {
      const destinations = request.body.presentationRoutes[0]?.destinations ?? []
      await routing().setRemoteExtension(userOf(request), destinations)
      return changed(reply)
    },
  )

  app.get(
    '/dnd',
    {
      schema: {
        ...read,
        operationId: 'getDndState',
        summary: 'Whether do not disturb is on',
        response: { 200: DndState, ...errorResponses() },
      },
    },
    async (request) => ({ activate: routing().profileOf(userOf(request).loginName).dnd }),
  )
  app.post(
    '/dnd',
    change('activateDnd', 'Turn do not disturb on', NoBody),
    async (request, reply) => {
      await routing().setDnd(userOf(request), true)
      return changed(reply)
    },
  )
  app.delete('/dnd', removal('cancelDnd', 'Turn do not disturb off'), async (request, reply) => {
    await routing().setDnd(userOf(request), false)
    return changed(reply)
  })

  app.get(
    '/forwardroute',
    {
      schema: {
        ...read,
        operationId: 'getForward',
        summary: 'The forward route (no forwardType: immediate)',
        response: { 200: routeOrEmpty(ForwardRoute, 'forward route'), ...errorResponses() },
      },
    },
    async (request, reply) => sendRoute(reply, routing().forwardRoute(userOf(request).loginName)),
  )
  app.post(
    '/forwardroute',
    change(
      'setForward',
      'Set the forward route (immediate when forwardType is absent)',
      SetForwardRouteRequest,
    ),
    async (request, reply) => {
      await routing().setForward(userOf(request), request.body.forwardRoute)
      return changed(reply)
    },
  )
  app.delete(
    '/forwardroute',
    removal('cancelForward', 'Cancel the forward route'),
    async (request, reply) => {
      await routing().cancelForward(userOf(request))
      return changed(reply)
    },
  )

  app.get(
    '/overflowroute',
    {
      schema: {
        ...read,
        operationId: 'getOverflow',
        summary: 'The overflow route',
        response: { 200: routeOrEmpty(OverflowRoute, 'overflow route'), ...errorResponses() },
      },
    },
    async (request, reply) => sendRoute(reply, routing().overflowRoute(userOf(request).loginName)),
  )
  app.post(
    '/overflowroute',
    change(
      'setOverflow',
      'Set the overflow route (to VOICEMAIL or ASSOCIATE)',
      SetOverflowRouteRequest,
    ),
    async (request, reply) => {
      await routing().setOverflow(userOf(request), request.body.overflowRoutes)
      return changed(reply)
    },
  )
  app.delete(
    '/overflowroute',
    removal('cancelOverflow', 'Cancel the overflow route'),
    async (request, reply) => {
      await routing().cancelOverflow(userOf(request))
      return changed(reply)
    },
  )

  app.get(
    '/state',
    {
      schema: {
        ...read,
        operationId: 'getRoutingState',
        summary: 'The routing state: presentation, forward and overflow routes, DND',
        response: { 200: RoutingState, ...errorResponses() },
      },
    },
    async (request) => routing().state(userOf(request)),
  )
  app.post(
    '/state/snapshot',
    change(
      'requestRoutingStateSnapshot',
      'Send the routing state as an OnRoutingStateChanged event on the event channel',
      NoBody,
    ),
    async (request, reply) => {
      await routing().snapshot(userOf(request))
      return changed(reply)
    },
  )
}
