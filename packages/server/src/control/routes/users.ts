/**
 * Users of the directory, in the directory file's format (docs/control-plane.md, "Users and devices in the
 * directory file's format"): list, show, create, change and delete. Each change publishes its events through
 * the directory.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import type { Directory, UserAccount } from '../../platform/directory/directory.js'
import {
  DirectoryUser,
  DirectoryUserPatch,
  DirectoryUserView,
} from '../../platform/directory/directory-file-schema.js'
import { PlatformError } from '../../platform/platform-error.js'
import type { SessionCloser } from './faults.js'

const LoginParams = Type.Object({ loginName: Type.String() })
const DirectoryUserList = Type.Object(
  { users: Type.Array(DirectoryUserView) },
  { title: 'DirectoryUserList' },
)
const tags = ['users']

/** The user `loginName`, or 404 NOT_FOUND. */
export function existingUser(directory: Directory, loginName: string): UserAccount {
  const user = directory.findUser(loginName)
  if (user === undefined) throw new PlatformError('NOT_FOUND', `No user '${loginName}'`)
  return user
}

/** `/users` and `/users/{loginName}`. */
export const userRoutes: FastifyPluginAsyncTypebox<{
  directory: Directory
  /** The API's sessions: a password set here ends the account's sessions (docs/security.md). */
  sessions?: Pick<SessionCloser, 'passwordChanged'>
}> = async (app, { directory, sessions }) => {
  app.get(
    '/users',
    {
      schema: {
        summary: 'Every user, in the directory file format, by login name',
        tags,
        response: { 200: DirectoryUserList, ...errorResponses(401) },
      },
    },
    async () => ({
      users: directory
        .listUserLogins()
        .map((loginName) => directory.userEntry(existingUser(directory, loginName))),
    }),
  )

  app.get(
    '/users/:loginName',
    {
      schema: {
        summary: 'The user in the directory file format, without its password',
        tags,
        params: LoginParams,
        response: { 200: DirectoryUserView, ...errorResponses(401, 404) },
      },
    },
    async (request) => directory.userEntry(existingUser(directory, request.params.loginName)),
  )

  app.post(
    '/users',
    {
      schema: {
        summary: 'Create a user; publishes OnUserCreated',
        description:
          'The body is a user of the directory file, checked by the same rules; a password is hashed. ' +
          'A login name, number or address already taken is 403 NOT_EXPECTED.',
        tags,
        body: DirectoryUser,
        response: { 201: DirectoryUserView, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const user = await directory.createUser(request.body)
      return reply
        .code(201)
        .header('location', `${app.prefix}/users/${user.loginName}`)
        .send(directory.userEntry(user))
    },
  )

  app.patch(
    '/users/:loginName',
    {
      schema: {
        summary: 'Change a user; publishes OnUserInfoChanged',
        description:
          'A field present replaces, null removes an optional field, an absent field stays. The ' +
          'login name cannot change; a password can be set.',
        tags,
        params: LoginParams,
        body: DirectoryUserPatch,
        response: { 200: DirectoryUserView, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const user = await directory.updateUser(request.params.loginName, request.body)
      const { password, passwordHash } = request.body
      if (password !== undefined || passwordHash !== undefined)
        await sessions?.passwordChanged(user.loginName)
      return directory.userEntry(user)
    },
  )

  app.delete(
    '/users/:loginName',
    {
      schema: {
        summary: 'Delete a user; publishes OnUserDeleted',
        tags,
        params: LoginParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await directory.deleteUser(request.params.loginName)
      return reply.code(204).send(null)
    },
  )
}
