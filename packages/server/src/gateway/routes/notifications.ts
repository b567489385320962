/**
 * The chunk channel (specification, "Events" delivery model; wire facts 3): opened with POST or GET on
 * the polling URL, without the session cookie: the unguessable subscriptionId in the URL authorises it.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { restErrorInfo } from '@openness/wire'
import { PlatformError } from '../../platform/platform-error.js'
import { errorResponses } from '../error-responses.js'
import { RestError } from '../rest-error.js'

const GONE = 'No such subscription: subscribe again and open its polling URL'
/** When a full node tells a client to come back for its channel. */
const CHANNELS_RETRY_AFTER_SECONDS = 5

export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { subscriptions, outlets, quotas } = app.platform
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/notifications/:subscriptionId',
      config: { session: 'none' },
      schema: {
        summary:
          'The chunk channel of a subscription: a stream of events, one JSON object per line',
        description:
          'The first line is {"eventName":"OnChannelInformation","text":"Chunk started"}; then queued and new events.',
        tags: ['subscriptions'],
        params: Type.Object({ subscriptionId: Type.String() }),
        response: { ...errorResponses(404) },
      },
      handler: async (request, reply) => {
        const subscription = await subscriptions.find(request.params.subscriptionId)
        if (subscription === undefined) throw new PlatformError('NOT_FOUND', GONE)
        if (subscription.webHookUrl !== undefined)
          throw new PlatformError(
            'NOT_SUPPORTED',
            'This subscription delivers its events to its webHookUrl: it has no chunk channel',
          )
        // A full node refuses before it answers anything: the client retries, here later or on another node.
        if (outlets.openChannels >= quotas.openChannels)
          throw new RestError(
            'NOT_READY',
            `This node holds ${outlets.openChannels} open channels, the most it may ` +
              `(MAX_OPEN_CHANNELS=${quotas.openChannels}): retry later`,
            undefined,
            { 'retry-after': String(CHANNELS_RETRY_AFTER_SECONDS) },
          )
        reply.hijack()
        if (outlets.openChannel(subscription.record, reply.raw)) return
        // Removed since it was found, its removal heard meanwhile: answered as if it had not been found.
        reply.raw
          .writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify(restErrorInfo('NOT_FOUND', GONE)))
      },
    })
  }
}
