/**
 * GET /logins (specification, "User information"; wire facts 7): an administrator gets every matching
 * user login, a user only its own. An administrator session's Users service is /logins (specification,
 * "Service"), and the SDKs build their user look-up on that base (`<Users base>?companyPhone=1003`), so a
 * look-up parameter makes this GET /users at /logins: 307 to /logins/{loginName} (docs/decisions.md).
 */

import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import {
  LoginsResponse,
  USER_RIGHTS,
  USER_TYPES,
  User,
  type UserRight,
  type UserType,
} from '@openness/wire'
import { PlatformError } from '../../platform/platform-error.js'
import { sessionOf } from '../access.js'
import { API_V1_PATH } from '../base-urls.js'
import { errorResponses } from '../error-responses.js'
import { LOOKUP_QUERY, lookUpUser, lookupKeysIn } from './users.js'

/** The parameters of the login list, which a look-up cannot take. */
const LIST_PARAMETERS = ['types', 'apiRights', 'nodeIds', 'onlyACD', 'onlyWithExtLogin'] as const

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
        operationId: 'getLogins',
        summary:
          'Login names of the users; an administrator may filter by type and rights. With one of ' +
          'loginName, companyEmail, instantMessagingId, companyPhone: the look-up of GET /users',
        description:
          "An administrator session's Users service is /logins, so the look-up of GET /users is " +
          'served here too, redirecting to /logins/{loginName}; it cannot be mixed with the list parameters.',
        tags: ['users'],
        querystring: Type.Object({
          ...LOOKUP_QUERY,
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
        response: {
          200: Type.Union([LoginsResponse, User]),
          307: Type.Null(),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const { query } = request
      const lookup = lookupKeysIn(query)
      if (lookup.length > 0) {
        const list = LIST_PARAMETERS.filter((name) => query[name] !== undefined)
        if (list.length > 0)
          throw new PlatformError(
            'BAD_PARAMETER',
            `${lookup.join(', ')} looks up one user and ${list.join(', ')} filters the login list: ` +
              'give one or the other',
          )
        return lookUpUser(request, reply, query, `${API_V1_PATH}/logins`)
      }
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
