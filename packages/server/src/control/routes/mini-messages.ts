/**
 * Mini messages for the operator (docs/control-plane.md, "Mini messages"; docs/telephony-api.md, "Mini messages"):
 * send one to a user's set from another user, as if typed on that user's set, and read a user's unread queue
 * without taking anything away. The rules are the API's: the same text checks, the same bound.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { MINI_MESSAGE_MAX_LENGTH, MiniMessage } from '@openness/wire'
import { errorResponses } from '../../gateway/error-responses.js'
import type { Directory } from '../../platform/directory/directory.js'
import type { MiniMessageService } from '../../platform/mini-messages/mini-message-service.js'
import { PlatformError } from '../../platform/platform-error.js'
import { existingUser } from './users.js'

const LoginParams = Type.Object({ loginName: Type.String() })
const ControlMiniMessage = Type.Object(
  {
    from: Type.String({ description: "the sender: a user's phone number or login name" }),
    message: Type.String({ description: `1 to ${MINI_MESSAGE_MAX_LENGTH} characters` }),
  },
  { title: 'ControlMiniMessage' },
)
const QueuedMiniMessage = Type.Object(
  { unread: Type.Integer({ description: "the messages the user's queue now holds" }) },
  { title: 'QueuedMiniMessage' },
)
const UnreadMiniMessages = Type.Object(
  { miniMessages: Type.Array(MiniMessage, { description: 'most recent first' }) },
  { title: 'UnreadMiniMessages' },
)
const tags = ['mini messages']

/** The body's fields, checked here: this plane's validator accepts anything (control-app.ts). */
function fieldsOf(body: unknown): { from: unknown; message: unknown } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new PlatformError('BAD_PARAMETER', 'body: send {from, message} as JSON')
  const { from, message, ...others } = body as Record<string, unknown>
  const [unknown] = Object.keys(others)
  if (unknown !== undefined)
    throw new PlatformError('BAD_PARAMETER', `${unknown}: is not a known field`)
  return { from, message }
}

/** `/users/{loginName}/miniMessages`. */
export const miniMessageRoutes: FastifyPluginAsyncTypebox<{
  directory: Directory
  miniMessages: MiniMessageService
}> = async (app, { directory, miniMessages }) => {
  app.get(
    '/users/:loginName/miniMessages',
    {
      schema: {
        summary: "The user's unread mini messages, most recent first, left unread",
        tags,
        params: LoginParams,
        response: { 200: UnreadMiniMessages, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const user = existingUser(directory, request.params.loginName)
      return { miniMessages: await miniMessages.unread(user.loginName) }
    },
  )

  app.post(
    '/users/:loginName/miniMessages',
    {
      schema: {
        summary: "Send the user a mini message from another user's set",
        tags,
        params: LoginParams,
        body: ControlMiniMessage,
        response: { 201: QueuedMiniMessage, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const user = existingUser(directory, request.params.loginName)
      const { from, message } = fieldsOf(request.body)
      const sender = miniMessages.user(from, 'from')
      const { unread } = await miniMessages.sendTo(sender, user, message)
      return reply.code(201).send({ unread })
    },
  )
}
