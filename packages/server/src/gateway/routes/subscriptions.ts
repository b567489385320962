/**
 * Subscription management (specification, "Subscription management" and the subscription table; wire
 * facts 4). A refused subscription answers 400 with a Subscription body whose status is REFUSED and whose
 * message names the reason; malformed requests get a RestErrorInfo like everywhere else.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { Filter, Subscription, SubscriptionRequest } from '@openness/wire'
import type { FastifyReply } from 'fastify'
import { PlatformError } from '../../platform/platform-error.js'
import { clientDialectOf } from '../../platform/subscriptions/client-dialect.js'
import { NOTIFICATION_RIGHTS } from '../../platform/subscriptions/subscription-manager.js'
import { sessionOf } from '../access.js'
import { errorResponses, restErrorInfoRef } from '../error-responses.js'
import { pollingUrls } from '../polling-urls.js'

const tags = ['subscriptions']
const refusedOrBad = Type.Union([Subscription, restErrorInfoRef])

function refuse(reply: FastifyReply, message: string) {
  return reply.code(400).send({ status: 'REFUSED', message })
}

export const subscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { subscriptions } = app.platform
  app.platform.services.provide('Subscriptions')

  // Specification, "Subscription management": the session needs a license that allows notification.
  app.addHook('preHandler', async (request) => {
    const session = sessionOf(request)
    if (!session.admin && !session.rights.some((right) => NOTIFICATION_RIGHTS.includes(right)))
      throw new PlatformError(
        'NOT_ALLOWED',
        `Subscriptions need one of the licenses ${NOTIFICATION_RIGHTS.join(', ')}`,
      )
  })

  app.post(
    '/subscriptions',
    {
      schema: {
        operationId: 'subscribe',
        summary: 'Subscribe to events; open the channel on the polling URL of the answer',
        description:
          'With webHookUrl (not in the specification; sent by the vendor Node SDK) events are POSTed to that URL, one JSON event per request, and the answer carries no polling URL. The host must be allowed by the operator (WEBHOOK_ALLOWED_HOSTS), otherwise the subscription is REFUSED.',
        tags,
        body: SubscriptionRequest,
        response: { 200: Subscription, ...errorResponses(), 400: refusedOrBad },
      },
    },
    async (request, reply) => {
      // The SDK that subscribes, known by its User-Agent, may get variants of some events
      // (docs/subscriptions.md, "Client variants").
      const dialect = clientDialectOf(request.headers['user-agent'])
      const outcome = await subscriptions.create(sessionOf(request), request.body, dialect)
      if (!outcome.accepted) return refuse(reply, outcome.message)
      const { subscription } = outcome
      // Webhook delivery: no chunk channel, so no polling URL and no mode (docs/subscriptions.md).
      if (subscription.webHookUrl !== undefined)
        return {
          subscriptionId: subscription.subscriptionId,
          status: 'ACCEPTED' as const,
          format: 'JSON' as const,
        }
      const urls = pollingUrls(request, subscription.subscriptionId)
      return {
        subscriptionId: subscription.subscriptionId,
        publicPollingUrl: urls.public,
        privatePollingUrl: urls.private,
        status: 'ACCEPTED' as const,
        mode: subscription.mode,
        format: 'JSON' as const,
      }
    },
  )

  app.put(
    '/subscriptions',
    {
      schema: {
        operationId: 'updateSubscription',
        summary: "Replace the filter of the session's subscription; other parameters stay",
        description: 'subscriptionId is required when the session holds several subscriptions.',
        tags,
        querystring: Type.Object({ subscriptionId: Type.Optional(Type.String()) }),
        body: Filter,
        response: { 204: Type.Null(), ...errorResponses(404), 400: refusedOrBad },
      },
    },
    async (request, reply) => {
      const outcome = await subscriptions.replaceFilter(
        sessionOf(request),
        request.query.subscriptionId,
        request.body,
      )
      if (!outcome.accepted) return refuse(reply, outcome.message)
      return reply.code(204).send(null)
    },
  )

  app.delete(
    '/subscriptions/:subscriptionId',
    {
      schema: {
        operationId: 'unsubscribe',
        summary: 'Remove a subscription: its open channel closes, its queued events are dropped',
        tags,
        params: Type.Object({ subscriptionId: Type.String() }),
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await subscriptions.delete(sessionOf(request), request.params.subscriptionId)
      return reply.code(204).send(null)
    },
  )
}
