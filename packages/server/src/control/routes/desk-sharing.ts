/**
 * Desk sharing (docs/control-plane.md, "Desk sharing"; docs/call-model.md, "Desk sharing"): the directory file's
 * desk-sharing sets with who sits at each, and a desk-sharing user logged on at a set or off, as the user's own
 * request would (the engine's deskSharingLogOn and deskSharingLogOff: same checks, same events).
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import type { Directory } from '../../platform/directory/directory.js'
import { PlatformError } from '../../platform/platform-error.js'
import { bodyOf, type ControlTelephony, DONE } from './route-support.js'

const DeskSharingSet = Type.Object(
  {
    number: Type.String(),
    label: Type.Optional(Type.String()),
    loginName: Type.Optional(Type.String({ description: 'the desk-sharing user logged on there' })),
  },
  { title: 'ControlDeskSharingSet' },
)
const DeskSharingSets = Type.Object(
  { sets: Type.Array(DeskSharingSet) },
  { title: 'ControlDeskSharingSets' },
)
const LoginBody = Type.Object(
  { loginName: Type.String({ minLength: 1 }) },
  { additionalProperties: false, title: 'ControlDeskSharingUser' },
)
const tags = ['desk sharing']

/** `/deskSharing`, `/deskSharing/{number}/logon` and `/deskSharing/logoff`. */
export const deskSharingRoutes: FastifyPluginAsyncTypebox<{
  telephony: ControlTelephony
  directory: Directory
}> = async (app, { telephony, directory }) => {
  app.get(
    '/deskSharing',
    {
      schema: {
        summary:
          "The directory file's desk-sharing sets, in its order, with who is logged on at each",
        tags,
        response: { 200: DeskSharingSets, ...errorResponses(401) },
      },
    },
    async () => {
      const seats = telephony.queries.deskSharingSeats()
      return {
        sets: (directory.settings.deskSharingSets ?? []).map((set) => {
          const loginName = seats[set.number]
          return {
            number: set.number,
            ...(set.label !== undefined && { label: set.label }),
            ...(loginName !== undefined && { loginName }),
          }
        }),
      }
    },
  )

  app.post(
    '/deskSharing/:number/logon',
    {
      schema: {
        summary: 'Log the desk-sharing user on at the set (its number rings there)',
        description:
          "As the user's POST /telephony/deskSharing: the same refusals (docs/telephony-api.md).",
        tags,
        params: Type.Object({ number: Type.String() }),
        body: LoginBody,
        response: DONE,
      },
    },
    async (request, reply) => {
      const { loginName } = readLogin(request.body)
      await telephony.execute({ type: 'deskSharingLogOn', loginName, set: request.params.number })
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/deskSharing/logoff',
    {
      schema: {
        summary: 'Log the desk-sharing user off its set (its number out of service)',
        description: "As the user's DELETE /telephony/deskSharing.",
        tags,
        body: LoginBody,
        response: DONE,
      },
    },
    async (request, reply) => {
      const { loginName } = readLogin(request.body)
      await telephony.execute({ type: 'deskSharingLogOff', loginName })
      return reply.code(204).send(null)
    },
  )
}

/** The body's `loginName` (this plane's validator accepts anything: the route checks). */
function readLogin(body: unknown): { loginName: string } {
  const fields = bodyOf(body, ['loginName'])
  const loginName = fields['loginName']
  if (typeof loginName !== 'string' || loginName === '')
    throw new PlatformError('BAD_PARAMETER', 'loginName: is required, a login name')
  return { loginName }
}
