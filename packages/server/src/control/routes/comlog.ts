/**
 * A user's communication log for the operator (docs/control-plane.md, "Communication log"): read it a page
 * at a time, newest first, and clear it. Clearing publishes OnComRecordsDeleted to the user and, when
 * missed calls went with it, a new event summary, as the API's deletes do.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { ComRecord } from '@openness/wire'
import { errorResponses } from '../../gateway/error-responses.js'
import type { ComlogService } from '../../platform/comlog/comlog-service.js'
import type { Directory } from '../../platform/directory/directory.js'
import { PlatformError } from '../../platform/platform-error.js'
import { existingUser } from './users.js'

const LoginParams = Type.Object({ loginName: Type.String() })
const PageQuery = Type.Object({
  offset: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
})
const UserComlog = Type.Object(
  { totalCount: Type.Integer(), records: Type.Array(ComRecord) },
  { title: 'UserComlog' },
)
const tags = ['comlog']
const MAX_LIMIT = 1000

/** A page parameter: a whole number, BAD_PARAMETER otherwise (this plane's validator accepts anything). */
function whole(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback
  if (!/^[0-9]+$/.test(text))
    throw new PlatformError('BAD_PARAMETER', `query parameter ${name}: not a whole number`)
  return Number(text)
}

/** `/users/{loginName}/comlog`. */
export const comlogRoutes: FastifyPluginAsyncTypebox<{
  directory: Directory
  comlog: ComlogService
}> = async (app, { directory, comlog }) => {
  app.get(
    '/users/:loginName/comlog',
    {
      schema: {
        summary:
          "The user's communication log, newest first, a page at a time (limit 100 by default)",
        tags,
        params: LoginParams,
        querystring: PageQuery,
        response: { 200: UserComlog, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const user = existingUser(directory, request.params.loginName)
      const offset = whole('offset', request.query.offset, 0)
      const limit = Math.min(whole('limit', request.query.limit, 100), MAX_LIMIT)
      const page = await comlog.findRecords(user.loginName, {}, { offset, limit })
      return {
        totalCount: page.totalCount,
        records: page.records.map((stored) => stored.record),
      }
    },
  )

  app.delete(
    '/users/:loginName/comlog',
    {
      schema: {
        summary: "Clear the user's communication log; publishes OnComRecordsDeleted",
        tags,
        params: LoginParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const user = existingUser(directory, request.params.loginName)
      await comlog.deleteMatching(user.loginName, {})
      return reply.code(204).send(null)
    },
  )
}
