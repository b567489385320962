/**
 * The chunk channel (specification, "Events" delivery model; wire facts 3): opened with POST or GET on
 * the polling URL, without the session cookie: the unguessable subscriptionId in the URL authorises it.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { ChannelEvent, restErrorInfo } from '@openness/wire'
import { PlatformError } from '../../platform/platform-error.js'
import { errorResponses } from '../error-responses.js'
import { RestError } from '../rest-error.js'

const GONE = 'No such subscription: subscribe again and open its polling URL'
/** A sequence number as a query parameter or a header carries it: decimal digits, a safe integer. */
const SEQUENCE = /^\d{1,15}$/

/**
 * Where the client asks its channel to resume (docs/subscriptions.md, "Resuming a channel"): the sequence number
 * of the last event it received, as the query parameter `lastEventId` or the `Last-Event-ID` header (the
 * parameter wins); undefined when it asks nothing.
 */
function resumeFrom(
  query: { lastEventId?: string },
  header: string | string[] | undefined,
): number | undefined {
  const [given, name] =
    query.lastEventId !== undefined ? [query.lastEventId, 'lastEventId'] : [header, 'Last-Event-ID']
  if (given === undefined) return undefined
  if (typeof given !== 'string' || !SEQUENCE.test(given.trim()))
    throw new PlatformError(
      'BAD_PARAMETER',
      `${name}: the sequence number of the last event received, a whole number from 0`,
    )
  return Number(given.trim())
}
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
        operationId: method === 'GET' ? 'openEventChannel' : 'openEventChannelByPost',
        summary:
          'The chunk channel of a subscription: a stream of events, one JSON object per line',
        description:
          'The first line is {"eventName":"OnChannelInformation","text":"Chunk started"}; then queued and new ' +
          'events. No session cookie: the subscriptionId in the URL (the polling URL of the subscription) ' +
          'authorizes it.',
        tags: ['subscriptions'],
        params: Type.Object({ subscriptionId: Type.String() }),
        querystring: Type.Object({
          lastEventId: Type.Optional(
            Type.String({
              description:
                'The sequence number of the last event received: the channel starts with the events after it that the subscription still holds (also as the Last-Event-ID header)',
            }),
          ),
        }),
        response: {
          200: {
            description:
              'The channel, open until the subscription ends or the client leaves: in CHUNK mode one ' +
              'ChannelEvent per line, in CHUNK_MULTIPART mode one part per event',
            content: {
              'application/json': {
                // CHUNK mode: JSON lines, each line one event (not one JSON document).
                schema: ChannelEvent,
              },
              'multipart/mixed': {
                schema: Type.String({
                  description: 'CHUNK_MULTIPART mode: one application/json part per event',
                }),
              },
            },
          },
          ...errorResponses(400, 404),
        },
      },
      handler: async (request, reply) => {
        const from = resumeFrom(request.query, request.headers['last-event-id'])
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
        if (outlets.openChannel(subscription.record, reply.raw, from)) return
        // Removed since it was found, its removal heard meanwhile: answered as if it had not been found.
        reply.raw
          .writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify(restErrorInfo('NOT_FOUND', GONE)))
      },
    })
  }
}
