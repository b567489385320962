/**
 * Hunting groups (docs/groups.md; client census 2, 5a): the user's log-on state in its group, logging on and
 * off, joining and leaving a group that lets users do so, and the groups of the user's node. As every
 * call-control route, `loginName` names the user for an administrator session.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { HuntingGroupStatus, HuntingGroups } from '@openness/wire'
import { clientDialectOf } from '../../../platform/subscriptions/client-dialect.js'
import { errorResponses } from '../../error-responses.js'
import { BASIC_OR_ADVANCED, type TelephonyRule, telephonyActor } from '../../telephony-access.js'
import { LoginQuery, noContent, runCommand, tags } from './route-support.js'

const members: TelephonyRule = { licenses: BASIC_OR_ADVANCED }
const GroupParams = Type.Object({ hgNumber: Type.String({ description: "the group's number" }) })

export const huntingGroupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/huntingGroupLogOn',
    {
      schema: {
        operationId: 'getHuntingGroupStatus',
        summary: 'Whether the user is logged on in its hunting group (false for a user in none)',
        tags,
        querystring: LoginQuery,
        response: { 200: HuntingGroupStatus, ...errorResponses() },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, members)
      const status = actor.queries.huntingGroupLogOn(actor.loginName)
      // The C# SDK reads `Logon` only (wire/telephony/hunting-groups.ts).
      return clientDialectOf(request.headers['user-agent']) === 'dotnet'
        ? { ...status, Logon: status.logon }
        : status
    },
  )

  for (const [method, logOn] of [
    ['post', true],
    ['delete', false],
  ] as const)
    app[method](
      '/huntingGroupLogOn',
      {
        schema: {
          operationId: logOn ? 'huntingGroupLogOn' : 'huntingGroupLogOff',
          summary: logOn
            ? 'Log the user on in its hunting group (already logged on: nothing changes)'
            : 'Log the user off from its hunting group (already logged off: nothing changes)',
          description: 'A user in no hunting group: 403 NOT_EXPECTED.',
          tags,
          querystring: LoginQuery,
          response: { ...noContent, ...errorResponses() },
        },
      },
      async (request, reply) => {
        const actor = telephonyActor(request, request.query.loginName, members)
        return runCommand(reply, { type: 'huntingGroupLogOn', loginName: actor.loginName, logOn })
      },
    )

  for (const [method, join] of [
    ['post', true],
    ['delete', false],
  ] as const)
    app[method](
      '/huntingGroupMember/:hgNumber',
      {
        schema: {
          operationId: join ? 'addMeToHuntingGroup' : 'removeMeFromHuntingGroup',
          summary: join
            ? 'Join the hunting group, logged on, at the end of its hunt order'
            : 'Leave the hunting group',
          description: join
            ? 'Already a member: nothing changes. An unknown group: 404; a group users may not join themselves: 403 NOT_ALLOWED; a member of another group: 403 NOT_EXPECTED.'
            : 'Not a member: nothing changes. An unknown group: 404; a group users may not leave themselves: 403 NOT_ALLOWED.',
          tags,
          params: GroupParams,
          querystring: LoginQuery,
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const actor = telephonyActor(request, request.query.loginName, members)
        return runCommand(reply, {
          type: 'huntingGroupMember',
          loginName: actor.loginName,
          group: request.params.hgNumber,
          join,
        })
      },
    )

  app.get(
    '/huntingGroups',
    {
      schema: {
        operationId: 'queryHuntingGroups',
        summary: "The hunting groups of the user's node, and the one the user is a member of",
        tags,
        querystring: LoginQuery,
        response: { 200: HuntingGroups, ...errorResponses() },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, members)
      return actor.queries.huntingGroups(actor.loginName)
    },
  )
}
