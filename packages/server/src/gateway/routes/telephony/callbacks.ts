/**
 * Call back requests (specification, "Call control"; STANDARD users only): the requests waiting for the
 * user (GET and DELETE /telephony/incomingCallbacks, DELETE one), and asking another user to call back
 * from an idle device (POST /telephony/outgoingCallbacks, whose answer the specification does not show:
 * 204 here).
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { Callbacks, OutgoingCallbackRequest } from '@openness/wire'
import { errorResponses } from '../../error-responses.js'
import { ADVANCED, type TelephonyRule, telephonyActor } from '../../telephony-access.js'
import { LoginQuery, noContent, runCommand, tags } from './route-support.js'

const standardOnly: TelephonyRule = { licenses: ADVANCED, userType: 'STANDARD' }

export const callbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/incomingCallbacks',
    {
      schema: {
        operationId: 'getCallbacks',
        summary: 'The call back requests waiting for the user, oldest first',
        tags,
        querystring: LoginQuery,
        response: { 200: Callbacks, ...errorResponses() },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, standardOnly)
      return { callbacks: actor.queries.callbacks(actor.loginName) }
    },
  )

  app.delete(
    '/incomingCallbacks',
    {
      schema: {
        operationId: 'deleteCallbacks',
        summary: 'Delete every call back request waiting for the user',
        tags,
        querystring: LoginQuery,
        response: { ...noContent, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, standardOnly)
      return runCommand(reply, { type: 'deleteCallbacks', loginName: actor.loginName })
    },
  )

  app.delete(
    '/incomingCallbacks/:callbackId',
    {
      schema: {
        operationId: 'deleteCallback',
        summary: 'Delete one call back request',
        tags,
        params: Type.Object({ callbackId: Type.String() }),
        querystring: LoginQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, standardOnly)
      return runCommand(reply, {
        type: 'deleteCallback',
        loginName: actor.loginName,
        callbackId: request.params.callbackId,
      })
    },
  )

  app.post(
    '/outgoingCallbacks',
    {
      schema: {
        operationId: 'requestCallback',
        summary: 'Ask a user to call back (from an idle device)',
        tags,
        querystring: LoginQuery,
        body: OutgoingCallbackRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, standardOnly)
      return runCommand(reply, {
        type: 'outgoingCallback',
        loginName: actor.loginName,
        callee: request.body.callee,
      })
    },
  )
}
