/**
 * The groups resource (service `Groups`, `/groups`; docs/groups.md, "The groups resource"): the groups the user
 * belongs to, with their type, members and roles; an administrator reads any user's with `loginName`. The events
 * of package `groups` tell the user when they change.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { Group, Groups } from '@openness/wire'
import type { FastifyInstance } from 'fastify'
import { type GroupSources, groupOf, groupsOf } from '../../platform/groups/user-groups.js'
import { loginNameRule } from '../access.js'
import { errorResponses } from '../error-responses.js'
import { LoginNameQuery } from '../login-name-query.js'

const tags = ['groups']

/** Where the groups are read: the engine's state as this node last stored or followed it, and the directory. */
function sources(app: FastifyInstance): GroupSources {
  const { telephony, directory } = app.platform
  return {
    huntingGroups: telephony.queries.huntingGroupsState(),
    pickupGroupOf: (loginName) => {
      const user = directory.findUser(loginName)
      const name = user?.record.pickupGroup
      return name === undefined ? undefined : directory.pickupGroup(name)
    },
    supervisionGroups: directory.settings.supervisionGroups ?? [],
  }
}

export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide('Groups')

  app.get(
    '/groups',
    {
      schema: {
        operationId: 'getGroups',
        summary: 'The groups the user belongs to: its hunting group, its pickup group',
        tags,
        querystring: LoginNameQuery,
        response: { 200: Groups, ...errorResponses() },
      },
    },
    async (request) => {
      const { loginName } = loginNameRule(request, request.query.loginName)
      return { groups: groupsOf(sources(app), loginName) }
    },
  )

  app.get(
    '/groups/:groupId',
    {
      schema: {
        operationId: 'getGroup',
        summary: 'One group the user belongs to',
        tags,
        params: Type.Object({ groupId: Type.String() }),
        querystring: LoginNameQuery,
        response: { 200: Group, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { loginName } = loginNameRule(request, request.query.loginName)
      return groupOf(sources(app), loginName, request.params.groupId)
    },
  )
}
