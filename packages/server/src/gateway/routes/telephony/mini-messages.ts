/**
 * Mini messages (docs/telephony-api.md, "Mini messages"; client census 2, 5a): read the user's most recent unread
 * message, which the read takes away (GET, as every SDK sends it), and send one to another user (POST). Neither is
 * in the specification; both follow the telephony rows' rules (the L rule, TELEPHONY_ADVANCED).
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { MiniMessage, SendMiniMessageRequest } from '@openness/wire'
import { errorResponses } from '../../error-responses.js'
import { ADVANCED, type TelephonyRule, telephonyActor } from '../../telephony-access.js'
import { LoginQuery, noContent, tags } from './route-support.js'

const rule: TelephonyRule = { licenses: ADVANCED }

/**
 * The answer of a read: a message, or JSON `null` when none is left. Every SDK reads `null` as "no message";
 * an empty body (a 204 among them) makes the Node and browser SDKs' JSON.parse throw.
 */
const MiniMessageOrNone = Type.Union([MiniMessage, Type.Null()], {
  description: 'the most recent unread mini message, now read; null when the user has none',
})

export const miniMessageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/miniMessages',
    {
      // A HEAD would take a message away and show nothing of it.
      exposeHeadRoute: false,
      schema: {
        operationId: 'getMiniMessage',
        summary: "Read (and so take away) the user's most recent unread mini message",
        tags,
        querystring: LoginQuery,
        response: { 200: MiniMessageOrNone, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, rule)
      const message = await app.platform.miniMessages.read(actor.loginName)
      // A GET that changes what the next one answers: no cache may keep it.
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .send(message ?? null)
    },
  )

  app.post(
    '/miniMessages',
    {
      schema: {
        operationId: 'sendMiniMessage',
        summary: "Send a mini message to a user's set (by its phone number or login name)",
        tags,
        querystring: LoginQuery,
        body: SendMiniMessageRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, rule)
      const { recipient, message } = request.body
      await app.platform.miniMessages.send(
        actor.user,
        recipient,
        message,
        request.idempotency?.requestId,
      )
      return reply.code(204).send(null)
    },
  )
}
