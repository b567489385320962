/**
 * Basic telephony without call references: POST /telephony/basicCall/answer and /basicCall/dropme
 * (specification, "Call control"). A TELEPHONY_BASIC user cannot list its calls, so these act on "the"
 * call: answer takes the call ringing on the device (any device of the user when none is given); drop me
 * leaves the call the user is busy in, preferring an active call, then one it is calling out on, then a
 * held one, then one ringing in (docs/telephony-api.md, "Basic telephony").
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { type Call, DeviceRequest, type MediaState } from '@openness/wire'
import { PlatformError } from '../../../platform/platform-error.js'
import { errorResponses } from '../../error-responses.js'
import { BASIC_OR_ADVANCED, ownDevice, telephonyActor } from '../../telephony-access.js'
import { LoginQuery, noContent, runCommand, tags } from './route-support.js'

const basic = { licenses: BASIC_OR_ADVANCED }

/** The first call with a leg in the first of `states` any call has (on `deviceId` when given). */
export function callInState(
  calls: readonly Call[],
  states: readonly MediaState[],
  deviceId?: string,
): Call | undefined {
  for (const state of states) {
    const call = calls.find((candidate) =>
      (candidate.legs ?? []).some(
        (leg) => leg.state === state && (deviceId === undefined || leg.deviceId === deviceId),
      ),
    )
    if (call !== undefined) return call
  }
  return undefined
}

const DROP_ORDER: readonly MediaState[] = ['ACTIVE', 'RINGING_OUTGOING', 'HELD', 'RINGING_INCOMING']

export const basicCallRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/basicCall/answer',
    {
      schema: {
        operationId: 'basicAnswerCall',
        summary: 'Answer the call ringing on a device of the user (basic telephony)',
        tags,
        querystring: LoginQuery,
        body: DeviceRequest,
        response: { ...noContent, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, basic)
      const deviceId =
        request.body.deviceId === undefined ? undefined : ownDevice(actor, request.body.deviceId)
      const calls = actor.queries.calls(actor.loginName)
      const ringing = callInState(calls, ['RINGING_INCOMING'], deviceId)
      if (ringing === undefined)
        throw new PlatformError(
          'NOT_EXPECTED',
          `No call rings on ${deviceId === undefined ? `a device of '${actor.loginName}'` : `device ${deviceId}`}`,
        )
      return runCommand(reply, {
        type: 'answer',
        loginName: actor.loginName,
        callRef: ringing.callRef,
        ...(deviceId !== undefined && { deviceId }),
      })
    },
  )

  app.post(
    '/basicCall/dropme',
    {
      schema: {
        operationId: 'basicDropMe',
        summary: 'Leave the current call (a conference goes on without the user)',
        tags,
        querystring: LoginQuery,
        response: { ...noContent, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, basic)
      const call = callInState(actor.queries.calls(actor.loginName), DROP_ORDER)
      if (call === undefined)
        throw new PlatformError('NOT_EXPECTED', `User '${actor.loginName}' is in no call`)
      return runCommand(reply, {
        type: 'dropMe',
        loginName: actor.loginName,
        callRef: call.callRef,
      })
    },
  )
}
