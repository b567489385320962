/**
 * The event summary (service `EventSummary`, `/eventSummary`; wire facts 8.1, docs/event-summary.md): the
 * counters of what waits for the acting user.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EventSummary } from '@openness/wire'
import { loginNameRule } from '../access.js'
import { errorResponses } from '../error-responses.js'
import { LoginNameQuery } from '../login-name-query.js'

export const eventSummaryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide('EventSummary')

  app.get(
    '/eventSummary',
    {
      schema: {
        operationId: 'getEventSummary',
        summary: 'The counters of missed calls, voice messages and call back requests of the user',
        tags: ['eventSummary'],
        querystring: LoginNameQuery,
        response: { 200: EventSummary, ...errorResponses() },
      },
    },
    async (request) => {
      const { loginName } = loginNameRule(request, request.query.loginName)
      return request.server.platform.eventSummary.summary(loginName)
    },
  )
}
