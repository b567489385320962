/**
 * Who may do what on the call-control API (issue 5, item 2; specification, "Call control"): the user a
 * request acts for (the session's own user; for an administrator session the `loginName` parameter), the
 * license the row needs, the user type some rows are restricted to, and ownership: a user acts only on
 * its own devices and its own calls. Every violation is 403 NOT_ALLOWED; what does not exist at all is
 * 404 NOT_FOUND. docs/telephony-api.md, "Authorization".
 */
import type { UserRight, UserType } from '@openness/wire'
import type { FastifyRequest } from 'fastify'
import type { UserAccount } from '../platform/directory/directory.js'
import { PlatformError } from '../platform/platform-error.js'
import type { TelephonyQueries } from '../platform/telephony/telephony-queries.js'
import { loginNameRule, sessionOf } from './access.js'

/** The licenses a row needs (one of them): basic rows take either, the others TELEPHONY_ADVANCED. */
export const BASIC_OR_ADVANCED: readonly UserRight[] = ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED']
export const ADVANCED: readonly UserRight[] = ['TELEPHONY_ADVANCED']

/** The user a telephony request acts for, and the engine's state to read at that moment. */
export interface TelephonyActor {
  user: UserAccount
  loginName: string
  queries: TelephonyQueries
}

/** What a route requires of the session and the user. */
export interface TelephonyRule {
  /** One of these licenses; none: any session (numbering). */
  licenses?: readonly UserRight[]
  /** Only users of this type (the rows marked "standard only" and "multimedia only"). */
  userType?: UserType
}

/**
 * The user the request acts for, once the session's license and the user's type are checked. Every
 * route takes `loginName` by the L rule: the specification marks some rows only, but the SDKs send it on
 * others too (hold, retrieve: wire facts 5.5), and an administrator has no other way to name the user.
 */
export function telephonyActor(
  request: FastifyRequest,
  loginName: string | undefined,
  rule: TelephonyRule,
): TelephonyActor {
  const session = sessionOf(request)
  const user = loginNameRule(request, loginName)
  // A user session holds the licenses it obtained when it opened; an administrator acts with the user's.
  const held = session.admin ? user.record.apiRights : session.rights
  const { licenses } = rule
  if (licenses !== undefined && !licenses.some((license) => held.includes(license)))
    throw new PlatformError(
      'NOT_ALLOWED',
      `This operation needs the license ${licenses.join(' or ')}, which ${session.admin ? `user '${user.loginName}' does not have` : 'the session did not obtain'}`,
    )
  if (rule.userType !== undefined && user.record.type !== rule.userType)
    throw new PlatformError(
      'NOT_ALLOWED',
      `This operation is for ${rule.userType} users only; '${user.loginName}' is ${user.record.type}`,
    )
  return { user, loginName: user.loginName, queries: request.server.platform.telephony.queries }
}

/** The device, when it is one of the actor's; 404 when no user has it, 403 when another user has it. */
export function ownDevice(actor: TelephonyActor, deviceId: string, field = 'deviceId'): string {
  if ((actor.user.record.devices ?? []).some((device) => device.id === deviceId)) return deviceId
  if (actor.queries.device(deviceId) === undefined)
    throw new PlatformError('NOT_FOUND', `${field}: no device '${deviceId}'`)
  throw new PlatformError(
    'NOT_ALLOWED',
    `${field}: device '${deviceId}' is not a device of '${actor.loginName}'`,
  )
}

/** The call, when the actor is in it; 404 when there is no such call, 403 when it is another's. */
export function ownCall(actor: TelephonyActor, callRef: string): string {
  if (actor.queries.isInCall(actor.loginName, callRef)) return callRef
  if (!actor.queries.hasCall(callRef)) throw new PlatformError('NOT_FOUND', `No call '${callRef}'`)
  throw new PlatformError('NOT_ALLOWED', `Call '${callRef}' is not a call of '${actor.loginName}'`)
}
