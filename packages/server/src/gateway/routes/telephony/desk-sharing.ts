/**
 * Desk sharing (docs/telephony-api.md, "Desk sharing"; client census 2, 5a): a desk-sharing user logs on at a
 * desk-sharing set, its number then ringing there, and logs off. As every call-control route, `loginName`
 * names the user for an administrator session.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DeskSharingLogOnRequest } from '@openness/wire'
import { errorResponses } from '../../error-responses.js'
import { BASIC_OR_ADVANCED, type TelephonyRule, telephonyActor } from '../../telephony-access.js'
import { LoginQuery, noContent, runCommand, tags } from './route-support.js'

const deskSharing: TelephonyRule = { licenses: BASIC_OR_ADVANCED }

export const deskSharingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/deskSharing',
    {
      schema: {
        operationId: 'deskSharingLogOn',
        summary: "Log the user on at a desk-sharing set: the user's number rings there",
        description:
          'Already logged on at that set: nothing changes; at another set: the user moves there (not while in a call). Not a desk-sharing user: 403 NOT_ALLOWED; no such set: 404; the set in use by another user, or a move in a call: 403 NOT_EXPECTED.',
        tags,
        querystring: LoginQuery,
        body: DeskSharingLogOnRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, deskSharing)
      return runCommand(reply, {
        type: 'deskSharingLogOn',
        loginName: actor.loginName,
        set: request.body.dssDeviceNumber,
      })
    },
  )

  app.delete(
    '/deskSharing',
    {
      schema: {
        operationId: 'deskSharingLogOff',
        summary: "Log the user off its desk-sharing set: the user's number goes out of service",
        description:
          'Logged on nowhere: nothing changes. Not a desk-sharing user: 403 NOT_ALLOWED; the number in a call (or with a call parked from it): 403 NOT_EXPECTED.',
        tags,
        querystring: LoginQuery,
        response: { ...noContent, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, deskSharing)
      return runCommand(reply, { type: 'deskSharingLogOff', loginName: actor.loginName })
    },
  )
}
