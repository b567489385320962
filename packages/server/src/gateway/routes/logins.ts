/**
 * GET /logins (specification, "User information"; wire facts 7): an administrator gets every matching
 * user login, a user only its own.
 */

import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import {
  LoginsResponse,
  USER_RIGHTS,
  USER_TYPES,
  type UserRight,
  type UserType,
} from '@openness/wire'
import { PlatformError } from '../../platform/platform-error.js'
import { sessionOf } from '../access.js'
import { errorResponses } from '../error-responses.js'

/** Splits a list parameter and checks every value against the allowed ones. */
function listOf<T extends string>(
  name: string,
  raw: string | undefined,
  allowed: readonly T[],
  separator: RegExp,
): T[] | undefined {
  if (raw === undefined) return undefined
  const values = raw
    .split(separator)
    .map((value) => value.trim())
    .filter((value) => value !== '')
  const unknown = values.filter((value) => !(allowed as readonly string[]).includes(value))
  if (unknown.length > 0 || values.length === 0)
    throw new PlatformError(
      'BAD_PARAMETER',
      `query parameter ${name}: must be a list of ${allowed.join(', ')}`,
    )
  return values as T[]
}

export const loginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide('Logins')
  app.get(
    '/logins',
    {
      config: { session: 'open' },
      schema: {
        summary: 'Login names of the users; an administrator may filter by type and rights',
        tags: ['users'],
        querystring: Type.Object({
          types: Type.Optional(
            Type.String({ description: 'comma-separated STANDARD, MULTIMEDIA' }),
          ),
          apiRights: Type.Optional(
            Type.String({ description: 'comma-separated rights a user must all hold' }),
          ),
          nodeIds: Type.Optional(
            Type.String({ description: 'semicolon-separated node ids (real clients)' }),
          ),
          onlyACD: Type.Optional(
            Type.String({ description: 'valueless flag: ACD agents only (there are none)' }),
          ),
          onlyWithExtLogin: Type.Optional(
            Type.String({ description: 'valueless flag: external logins only (none)' }),
          ),
        }),
        response: { 200: LoginsResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const session = sessionOf(request)
      const { query } = request
      if (!session.admin) {
        if (query.types !== undefined || query.apiRights !== undefined)
          throw new PlatformError(
            'NOT_ALLOWED',
            'The types and apiRights filters are for administrator sessions',
          )
        return { loginNames: [session.actingAs] }
      }
      if (query.onlyACD !== undefined || query.onlyWithExtLogin !== undefined)
        return { loginNames: [] }
      const types = listOf<UserType>('types', query.types, USER_TYPES, /,/)
      const apiRights = listOf<UserRight>('apiRights', query.apiRights, USER_RIGHTS, /,/)
      const nodeIds = query.nodeIds?.split(';').map((id) => id.trim())
      return {
        loginNames: app.platform.directory.listUserLogins({
          ...(types && { types }),
          ...(apiRights && { apiRights }),
          ...(nodeIds && { nodeIds }),
        }),
      }
    },
  )
}
