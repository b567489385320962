/**
 * Placing calls: POST /telephony/basicCall and POST /telephony/calls (specification, "Call control";
 * wire facts 5.5). Both answer 201 with the Location of the created call. Every device of the directory
 * belongs to a user, so the specification's 204 ("a connected set not tied to a platform user") never
 * occurs here.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { BasicMakeCallRequest, MakeCallRequest } from '@openness/wire'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AcdState } from '../../../platform/acd/acd-state.js'
import { ownEntry } from '../../../platform/own-entry.js'
import { PlatformError } from '../../../platform/platform-error.js'
import {
  type AssociatedData,
  bytesOfHex,
  isHex,
  MAX_ASSOCIATED_DATA_BYTES,
  storedAssociatedData,
} from '../../../platform/telephony/associated-data.js'
import type { EngineCommand } from '../../../platform/telephony/telephony-state.js'
import { loginNameRule } from '../../access.js'
import { errorResponses } from '../../error-responses.js'
import {
  ADVANCED,
  BASIC_OR_ADVANCED,
  ownDevice,
  type TelephonyActor,
  telephonyActor,
} from '../../telephony-access.js'
import { skillNeedsOf } from './pilots.js'
import { LoginQuery, tags } from './route-support.js'

const created = {
  201: Type.Null({ description: 'the call is placed; Location names it' }),
}

/** Runs the make call and answers 201 with the call's URL (relative to the request's origin). */
async function placeCall(
  request: FastifyRequest,
  reply: FastifyReply,
  command: Extract<EngineCommand, { type: 'makeCall' }>,
): Promise<FastifyReply> {
  // Under the Idempotency-Key's id when one was sent: a retry gets the call the first attempt made.
  const { callRef } = await request.server.platform.telephony.execute(
    command,
    request.idempotency?.requestId,
  )
  if (callRef === undefined) return reply.code(204).send(null)
  const base = request.url.slice(0, request.url.indexOf('/telephony/') + '/telephony'.length)
  return reply.code(201).header('location', `${base}/calls/${callRef}`).send(null)
}

/** The fields of POST /calls only STANDARD users may send (specification, "Call control records"). */
const STANDARD_ONLY = [
  'associatedData',
  'hexaBinaryAssociatedData',
  'pin',
  'secretCode',
  'businessCode',
] as const

/** The device the call is placed from: the one given, or the user's main device. */
function callingDevice(actor: TelephonyActor, deviceId: string | undefined): string {
  if (deviceId !== undefined) return ownDevice(actor, deviceId)
  const devices = actor.user.record.devices ?? []
  const main = devices.find((device) => device.role === 'MAIN') ?? devices[0]
  if (main?.id === undefined)
    throw new PlatformError('NOT_EXPECTED', `User '${actor.loginName}' has no device`)
  return main.id
}

/**
 * The associated data of a make call or an attachdata (issue 11, item 7; docs/telephony-api.md, "Associated
 * data"): `associatedData` is text; `hexaBinaryAssociatedData` is read as hexadecimal when it is pairs of hex
 * digits, and as text otherwise, because Java sends text there (`CorrelatorData.asString()` on make call, and
 * the plain string of its deprecated overload). Text stands for its UTF-8 bytes. Both fields, or more than
 * MAX_ASSOCIATED_DATA_BYTES bytes: 400 BAD_PARAMETER.
 */
export function associatedDataOf(body: {
  associatedData?: string
  hexaBinaryAssociatedData?: string
}): AssociatedData | undefined {
  const { associatedData, hexaBinaryAssociatedData: hex } = body
  if (hex !== undefined && associatedData !== undefined)
    throw new PlatformError(
      'BAD_PARAMETER',
      'body: give associatedData or hexaBinaryAssociatedData, not both',
    )
  const given = hex ?? associatedData
  if (given === undefined) return undefined
  const bytes = hex !== undefined && isHex(hex) ? bytesOfHex(hex) : new TextEncoder().encode(given)
  if (bytes.length > MAX_ASSOCIATED_DATA_BYTES)
    throw new PlatformError(
      'BAD_PARAMETER',
      `body/${hex === undefined ? 'associatedData' : 'hexaBinaryAssociatedData'}: at most ${MAX_ASSOCIATED_DATA_BYTES} bytes of associated data; ${bytes.length} given`,
    )
  return storedAssociatedData(bytes)
}

export const makeCallRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/basicCall',
    {
      schema: {
        operationId: 'basicMakeCall',
        summary: 'Place a call from a device of the user (basic telephony)',
        tags,
        querystring: LoginQuery,
        body: BasicMakeCallRequest,
        response: { ...created, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, {
        licenses: BASIC_OR_ADVANCED,
      })
      const { deviceId, callee, autoAnswer } = request.body
      return placeCall(request, reply, {
        type: 'makeCall',
        loginName: actor.loginName,
        deviceId: ownDevice(actor, deviceId),
        callee,
        autoAnswer: autoAnswer ?? true,
      })
    },
  )

  app.post(
    '/calls',
    {
      schema: {
        operationId: 'makeCall',
        summary: 'Place a call (associated data, private and business calls: standard users only)',
        tags,
        querystring: LoginQuery,
        body: MakeCallRequest,
        response: { ...created, ...errorResponses(401, 404) },
      },
      // A call to the supervisor comes without a callee (wire facts 5.5): the supervisor's number is put in
      // before the body is checked, so that every other request still hears "callee: is required".
      preValidation: async (request) => {
        const body = request.body as Record<string, unknown> | undefined
        const acdCall = body?.['acdCall'] as Record<string, unknown> | undefined
        if (
          body === undefined ||
          body['callee'] !== undefined ||
          acdCall?.['callToSupervisor'] !== true
        )
          return
        const query = request.query as { loginName?: string }
        const { loginName } = loginNameRule(request, query.loginName, () => ({
          reason: 'a call to the supervisor names no other user',
        }))
        body['callee'] = supervisorToCall(
          request.server.platform.telephony.queries.acdState(),
          loginName,
        )
      },
    },
    async (request, reply) => {
      const { body } = request
      const actor = telephonyActor(request, request.query.loginName, { licenses: ADVANCED })
      const acdCall = body.acdCall
      const { callee } = body
      const skills = skillNeedsOf(acdCall?.skills?.skills)
      if (
        acdCall !== undefined &&
        acdCall.callToSupervisor !== true &&
        ownEntry(
          request.server.platform.telephony.queries.acdState()?.definition.pilots,
          callee,
        ) === undefined
      )
        throw new PlatformError('BAD_PARAMETER', `body/acdCall: the callee ${callee} is no pilot`)
      const restricted = STANDARD_ONLY.find((field) => body[field] !== undefined)
      if (restricted !== undefined && actor.user.record.type !== 'STANDARD')
        throw new PlatformError(
          'NOT_ALLOWED',
          `body/${restricted}: for STANDARD users only; '${actor.loginName}' is ${actor.user.record.type}`,
        )
      const associatedData = associatedDataOf(body)
      return placeCall(request, reply, {
        type: 'makeCall',
        loginName: actor.loginName,
        deviceId: callingDevice(actor, body.deviceId),
        callee,
        autoAnswer: body.autoAnswer ?? true,
        ...associatedData,
        ...(acdCall !== undefined &&
          acdCall.callToSupervisor !== true && {
            acd: {
              ...(skills !== undefined && { skills }),
              ...(acdCall.supervisedTransfer === true && { supervisedTransfer: true }),
            },
          }),
      })
    },
  )
}

/**
 * The number a call to the supervisor reaches (`acdCall.callToSupervisor`): a supervisor of the agent's processing
 * group, the one logged on first (at its set), else the first by login name (at its main device); 403
 * NOT_EXPECTED for a user who is no agent, or whose group has no supervisor.
 */
function supervisorToCall(acd: AcdState | undefined, loginName: string): string {
  const agent = acd?.agents.get(loginName)
  const operator = ownEntry(acd?.definition.operators, loginName)
  if (acd === undefined || operator === undefined)
    throw new PlatformError(
      'NOT_EXPECTED',
      `body/acdCall.callToSupervisor: '${loginName}' is no agent`,
    )
  const group = agent?.pg ?? operator.processingGroups[0]
  const supervisors = Object.values(acd.definition.operators)
    .filter(
      (one) =>
        one.type === 'SUPERVISOR' &&
        one.loginName !== loginName &&
        group !== undefined &&
        one.processingGroups.includes(group),
    )
    .map((one) => one.loginName)
    .sort()
  const loggedOn = supervisors.find((one) => acd.agents.get(one)?.proAcdDeviceNumber !== undefined)
  if (loggedOn !== undefined) return acd.agents.get(loggedOn)?.proAcdDeviceNumber as string
  const [first] = supervisors
  if (first === undefined)
    throw new PlatformError(
      'NOT_EXPECTED',
      `body/acdCall.callToSupervisor: no supervisor for '${loginName}' (processing group ${group ?? 'none'})`,
    )
  return first
}
