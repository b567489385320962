/**
 * The user's telephonic state (GET /telephony/state: calls, device capabilities, user state, device
 * states nested as wire facts 5.4 shows) and POST /telephony/state/snapshot, which real clients call to
 * receive the same state as an OnTelephonyState event on their channel (wire facts 5.4 and 6).
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { TelephonicState } from '@openness/wire'
import { errorResponses } from '../../error-responses.js'
import { BASIC_OR_ADVANCED, telephonyActor } from '../../telephony-access.js'
import { LoginQuery, noContent, tags } from './route-support.js'

const basic = { licenses: BASIC_OR_ADVANCED }

export const stateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/state',
    {
      schema: {
        operationId: 'getTelephonicState',
        summary: "The user's calls, device capabilities, user state and device states",
        tags,
        querystring: LoginQuery,
        response: { 200: TelephonicState, ...errorResponses() },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, basic)
      return actor.queries.telephonicState(actor.loginName)
    },
  )

  app.post(
    '/state/snapshot',
    {
      schema: {
        operationId: 'requestTelephonicStateSnapshot',
        summary: 'Send the telephonic state as an OnTelephonyState event on the event channel',
        tags,
        querystring: LoginQuery,
        body: Type.Optional(Type.Object({}, { additionalProperties: false })),
        response: { ...noContent, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, basic)
      await app.platform.telephony.snapshot(actor.loginName)
      return reply.code(204).send(null)
    },
  )
}
