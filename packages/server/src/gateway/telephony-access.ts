/**
 * Who may do what on the call-control API (issue 5, item 2; specification, "Call control"): the user a
 * request acts for (the session's own user; for an administrator session the `loginName` parameter, else
 * the user the request's device or call identifies), the
 * license the row needs, the user type some rows are restricted to, and ownership: a user acts only on
 * its own devices and its own calls. Every violation is 403 NOT_ALLOWED; what does not exist at all is
 * 404 NOT_FOUND. docs/telephony-api.md, "Authorization".
 */
import type { UserRight, UserType } from '@openness/wire'
import type { FastifyRequest } from 'fastify'
import type { UserAccount } from '../platform/directory/directory.js'
import { PlatformError } from '../platform/platform-error.js'
import type { Telephony } from '../platform/telephony/telephony.js'
import type { TelephonyQueries } from '../platform/telephony/telephony-queries.js'
import { type ImpliedUser, loginNameRule, sessionOf } from './access.js'

/** The licenses a row needs (one of them): basic rows take either, the others TELEPHONY_ADVANCED. */
export const BASIC_OR_ADVANCED: readonly UserRight[] = ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED']
export const ADVANCED: readonly UserRight[] = ['TELEPHONY_ADVANCED']

/** The user a telephony request acts for, and the engine's state to read at that moment. */
export interface TelephonyActor {
  user: UserAccount
  loginName: string
  queries: TelephonyQueries
  /** The engine as this node knows it: to catch up when a call is not found (ownCallCaughtUp). */
  telephony: Pick<Telephony, 'queries' | 'catchUp'>
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
 * others too (hold, retrieve: wire facts 5.5). An administrator who sends none acts for the user the
 * request identifies otherwise (`impliedUser`): the SDKs never send it on answer, alternate, sendDtmf,
 * attachdata, pickup and unpark (Java not on retrieve either; client census 3.4).
 */
export function telephonyActor(
  request: FastifyRequest,
  loginName: string | undefined,
  rule: TelephonyRule,
): TelephonyActor {
  const session = sessionOf(request)
  const user = loginNameRule(request, loginName, () => impliedUser(request))
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
  const { telephony } = request.server.platform
  return { user, loginName: user.loginName, queries: telephony.queries, telephony }
}

/**
 * The user an administrator's request names without `loginName` (issue 11, item 2): the owner of the device
 * it names (the path's `deviceId`, else the body's), else the only directory user in the call it names (the
 * path's `callRef`). The device wins over the call: when they name different users, the request acts for
 * the device's owner and the ownership check of the call then answers 403 NOT_ALLOWED, as it would with
 * `loginName` set to that owner. An unknown device or call is 404 NOT_FOUND, as `ownDevice` and `ownCall`
 * answer it.
 */
function impliedUser(request: FastifyRequest): ImpliedUser {
  const params = fieldsOf(request.params)
  const deviceId = params['deviceId'] ?? fieldsOf(request.body)['deviceId']
  const { directory, telephony } = request.server.platform
  if (deviceId !== undefined) {
    const owner = directory.findUserByDevice(deviceId)
    if (owner === undefined)
      throw new PlatformError('NOT_FOUND', `deviceId: no device '${deviceId}'`)
    return { loginName: owner.loginName }
  }
  const callRef = params['callRef']
  if (callRef === undefined)
    return { reason: 'the request names no device or call that would identify the user' }
  const users = telephony.queries.usersInCall(callRef)
  if (users === undefined) throw new PlatformError('NOT_FOUND', `No call '${callRef}'`)
  const [only] = users
  if (users.length === 1 && only !== undefined) return { loginName: only }
  return {
    reason: `call '${callRef}' has ${users.length} users of the platform and the request names no device`,
  }
}

/** The string fields of a request's params or body (anything else: none). */
function fieldsOf(value: unknown): Record<string, string | undefined> {
  if (typeof value !== 'object' || value === null) return {}
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  )
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
/**
 * `ownCall`, after this node caught up with the engine when the call is not the user's here: in a cluster a
 * client may act on a call it learned of from an event before this node's replica applied the batch that made
 * it (docs/cluster-engine.md, "The engine on every node"). The miss costs one read of the change feed; a hit costs
 * nothing more than `ownCall`.
 */
export async function ownCallCaughtUp(actor: TelephonyActor, callRef: string): Promise<string> {
  if (actor.queries.isInCall(actor.loginName, callRef) || actor.telephony.catchUp === undefined)
    return ownCall(actor, callRef)
  await actor.telephony.catchUp()
  actor.queries = actor.telephony.queries
  return ownCall(actor, callRef)
}

export function ownCall(actor: TelephonyActor, callRef: string): string {
  if (actor.queries.isInCall(actor.loginName, callRef)) return callRef
  if (!actor.queries.hasCall(callRef)) throw new PlatformError('NOT_FOUND', `No call '${callRef}'`)
  throw new PlatformError('NOT_ALLOWED', `Call '${callRef}' is not a call of '${actor.loginName}'`)
}
