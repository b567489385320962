/**
 * The contact center's parts of the telephony service (docs/contact-center.md; client census 2, 5a): what a
 * transfer to a pilot would find (`transferInfo`), and a call's transaction code (`sendaccountinfo`, no SDK sends
 * `loginName`: an administrator's request acts for the owner of the body's device).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  type AcrSkill,
  PilotInfo,
  PilotTransferQuery,
  SendAccountInfoRequest,
} from '@openness/wire'
import { Type } from 'typebox'
import type { SkillNeed } from '../../../platform/acd/contact-center.js'
import { PlatformError } from '../../../platform/platform-error.js'
import {
  pilotInfo,
  requireContactCenter,
  type TransferQuery,
} from '../../../platform/telephony/acd-views.js'
import { errorResponses } from '../../error-responses.js'
import { ADVANCED, ownDevice, telephonyActor } from '../../telephony-access.js'
import { CallRefParams, LoginQuery, noContent, runCommand, tags } from './route-support.js'

/**
 * The skills a call profile needs: its mandatory skills (`acrStatus` not false), each at its level (1 when it
 * names none); the number spelled `skillNumber` (Node, Java) or `number` (C#).
 */
export function skillNeedsOf(skills: readonly AcrSkill[] | undefined): SkillNeed[] | undefined {
  if (skills === undefined) return undefined
  const needs: SkillNeed[] = []
  skills.forEach((skill, index) => {
    const number = skill.skillNumber ?? skill.number
    if (number === undefined)
      throw new PlatformError('BAD_PARAMETER', `skills.skills[${index}]: skillNumber is missing`)
    if (skill.acrStatus !== false) needs.push({ number, level: skill.expertEvalLevel ?? 1 })
  })
  return needs
}

/** A transfer query's criteria as the views take them. */
export function transferQueryOf(body: PilotTransferQuery | undefined): TransferQuery {
  const skills = skillNeedsOf(body?.skills?.skills)
  return {
    ...(body?.agentNumber !== undefined && { agentNumber: body.agentNumber }),
    ...(skills !== undefined && { skills }),
    ...(body?.supervisedTransfer !== undefined && { supervisedTransfer: body.supervisedTransfer }),
  }
}

const PilotParams = Type.Object({
  nodeId: Type.String({ description: "the PBX node's id" }),
  pilotNumber: Type.String(),
})

export const pilotTelephonyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/pilots/:nodeId/:pilotNumber/transferInfo',
    {
      schema: {
        operationId: 'getPilotTransferInfo',
        summary:
          "A pilot's waiting time and saturation, and whether a call with this profile can be transferred to it now",
        tags,
        params: PilotParams,
        querystring: LoginQuery,
        body: Type.Optional(PilotTransferQuery),
        response: { 200: PilotInfo, ...errorResponses(404) },
      },
    },
    async (request) => {
      telephonyActor(request, request.query.loginName, { licenses: ADVANCED })
      const own = request.server.platform.directory.settings.nodeId
      if (request.params.nodeId !== own)
        throw new PlatformError(
          'NOT_FOUND',
          `No node '${request.params.nodeId}' (this platform is node ${own})`,
        )
      const acd = requireContactCenter(request.server.platform.telephony.queries.acdState())
      return pilotInfo(acd, request.params.pilotNumber, transferQueryOf(request.body))
    },
  )

  app.post(
    '/calls/:callRef/sendaccountinfo',
    {
      schema: {
        operationId: 'sendAccountInfo',
        summary:
          "The transaction code of a call: shown in its CallData, kept with an ACD call's ticket; after an ACD call, it ends the agent's transaction code input",
        description:
          'callRef is a call the user is in, or the ACD call the agent has just ended. Unknown: 404 NOT_FOUND.',
        tags,
        params: CallRefParams,
        querystring: LoginQuery,
        body: SendAccountInfoRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, { licenses: ADVANCED })
      ownDevice(actor, request.body.deviceId)
      return runCommand(reply, {
        type: 'acdAccountInfo',
        loginName: actor.loginName,
        callRef: request.params.callRef,
        code: request.body.accountInfo,
      })
    },
  )
}
