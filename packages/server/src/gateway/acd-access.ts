/**
 * Who may use the contact center's services (docs/contact-center.md, "Access"): the agent's desktop (`AcdAgent`)
 * is for the contact center's operators, in their own sessions or through an administrator's with `loginName`;
 * the pilots' monitoring and management are for administrators and supervisors. The contact center's licenses are
 * its operators: the directory file makes a user an agent or a supervisor (CONTACTCENTER_AGENT), a supervisor
 * holds CONTACTCENTER_SERVICE too.
 */
import type { FastifyRequest } from 'fastify'
import type { AcdState } from '../platform/acd/acd-state.js'
import type { OperatorType } from '../platform/acd/contact-center.js'
import { PlatformError } from '../platform/platform-error.js'
import type { Session } from '../platform/sessions/session.js'
import { operatorType, requireContactCenter } from '../platform/telephony/acd-views.js'
import { loginNameRule, sessionOf } from './access.js'

/** The operator a request of the agent's desktop acts for. */
export interface AcdOperator {
  loginName: string
  type: OperatorType
  acd: AcdState
}

/** The contact center as this node last stored or followed the engine's state. */
export function contactCenterOf(request: FastifyRequest): AcdState {
  return requireContactCenter(request.server.platform.telephony.queries.acdState())
}

/**
 * The operator the request acts for (the session's user, or `loginName` for an administrator): 403 NOT_ALLOWED
 * when that user is no agent or supervisor; with `supervisor`, no supervisor.
 */
export function acdOperator(
  request: FastifyRequest,
  loginName: string | undefined,
  need: OperatorType = 'AGENT',
): AcdOperator {
  const acd = contactCenterOf(request)
  const user = loginNameRule(request, loginName)
  const type = operatorType(acd, user.loginName)
  if (type === undefined)
    throw new PlatformError(
      'NOT_ALLOWED',
      `This service is for the contact center's agents and supervisors; '${user.loginName}' is neither`,
    )
  if (need === 'SUPERVISOR' && type !== 'SUPERVISOR')
    throw new PlatformError(
      'NOT_ALLOWED',
      `This operation is for supervisors; '${user.loginName}' is an agent`,
    )
  return { loginName: user.loginName, type, acd }
}

/** An administrator session, or a supervisor's: 403 NOT_ALLOWED for anyone else. Answers the acting login. */
export function acdServiceUser(request: FastifyRequest): string {
  const session = sessionOf(request)
  if (session.admin) return session.actingAs
  const acd = contactCenterOf(request)
  if (operatorType(acd, session.actingAs) === 'SUPERVISOR') return session.actingAs
  throw new PlatformError(
    'NOT_ALLOWED',
    `The pilots are for administrators and the contact center's supervisors; '${session.actingAs}' is neither`,
  )
}

/** Whether a session's SessionInfo lists a contact-center service (`supervisors`: the pilots' services). */
export function listsContactCenter(
  acd: () => AcdState | undefined,
  supervisors: boolean,
): (session: Session) => boolean {
  return (session) => {
    const state = acd()
    if (state === undefined) return false
    if (session.admin) return true
    const type = operatorType(state, session.actingAs)
    return supervisors ? type === 'SUPERVISOR' : type !== undefined
  }
}
