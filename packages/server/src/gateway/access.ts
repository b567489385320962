/**
 * Who a session may act on (specification, "Endpoints" common rules and "Users"): a user session sees
 * other users' public fields only and acts on its own account; an administrator session acts on any user.
 */
import type { FastifyRequest } from 'fastify'
import type { UserAccount } from '../platform/directory/directory.js'
import { PlatformError } from '../platform/platform-error.js'
import type { Session } from '../platform/sessions/session.js'

/** The open session of a request whose route requires one. */
export function sessionOf(request: FastifyRequest): Session {
  const { session } = request
  if (session === undefined) throw new PlatformError('INVALID_SESSION', 'No valid session')
  return session
}

/** The user `loginName`, and whether the session may see its private data and act on it. */
export function userFor(
  request: FastifyRequest,
  loginName: string,
): { user: UserAccount; privileged: boolean } {
  const session = sessionOf(request)
  const user = request.server.platform.directory.findUser(loginName)
  if (user === undefined) throw new PlatformError('NOT_FOUND', `No user '${loginName}'`)
  return { user, privileged: session.admin || session.actingAs === loginName }
}

/** The user `loginName` when the session may act on its private data; 403 NOT_ALLOWED otherwise. */
export function ownUserFor(request: FastifyRequest, loginName: string): UserAccount {
  const { user, privileged } = userFor(request, loginName)
  if (!privileged)
    throw new PlatformError(
      'NOT_ALLOWED',
      `A user session cannot read or change the private data of '${loginName}'`,
    )
  return user
}

/**
 * The login an operation marked L acts on: the session's own for a user session (the parameter is
 * ignored), the `loginName` parameter for an administrator session. Without it, `implied` may name the
 * user from the rest of the request (telephony-access.ts: a device, a call); `undefined` from it, or no
 * `implied`, is 400 BAD_PARAMETER, with `implied`'s reason when it gave one.
 */
export function loginNameRule(
  request: FastifyRequest,
  loginName: string | undefined,
  implied?: () => ImpliedUser,
): UserAccount {
  const session = sessionOf(request)
  if (!session.admin) return userFor(request, session.actingAs).user
  if (loginName !== undefined && loginName !== '') return userFor(request, loginName).user
  const found = implied?.()
  if (found?.loginName !== undefined) return userFor(request, found.loginName).user
  throw new PlatformError(
    'BAD_PARAMETER',
    `query parameter loginName: is required for an administrator session${found?.reason === undefined ? '' : `: ${found.reason}`}`,
  )
}

/** The user a request names by other means than `loginName`, or why it names none. */
export type ImpliedUser =
  | { loginName: string; reason?: never }
  | { loginName?: never; reason: string }
