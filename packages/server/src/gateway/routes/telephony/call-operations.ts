/**
 * The operations on one call: POST /telephony/calls/{callRef}/<operation> (specification, "Call control";
 * bodies as the SDKs send them, wire facts 5.5). Each checks the session and the user (telephony-access.ts),
 * that the call is the user's, then runs one engine command and answers 204; the engine refuses what the
 * call's state does not allow (403 NOT_EXPECTED) and changes nothing then.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AttachDataRequest,
  BlindTransferRequest,
  DeviceRequest,
  HeldCallRequest,
  ParkRequest,
  ReconnectRequest,
  RedirectRequest,
  SendDtmfRequest,
} from '@openness/wire'
import type { FastifyInstance } from 'fastify'
import { type Static, type TSchema, Type } from 'typebox'
import { PlatformError } from '../../../platform/platform-error.js'
import type { EngineCommand } from '../../../platform/telephony/telephony-state.js'
import { errorResponses } from '../../error-responses.js'
import {
  ADVANCED,
  ownCall,
  ownCallCaughtUp,
  ownDevice,
  type TelephonyActor,
  type TelephonyRule,
  telephonyActor,
} from '../../telephony-access.js'
import { associatedDataOf } from './make-call.js'
import { CallRefParams, LoginQuery, noContent, runCommand, tags } from './route-support.js'

const advanced: TelephonyRule = { licenses: ADVANCED }
const standardOnly: TelephonyRule = { licenses: ADVANCED, userType: 'STANDARD' }

interface OperationSpec<Body extends TSchema, Query extends TSchema> {
  operation: string
  /** Its name in the OpenAPI document, after the SDKs' method where they have one. */
  operationId: string
  summary: string
  description?: string
  rule: TelephonyRule
  body?: Body
  /** Query parameters besides loginName. */
  query?: Query
  /** The engine command, for the actor and its own call. */
  command: (
    actor: TelephonyActor,
    callRef: string,
    body: Static<Body>,
    query: Static<Query>,
  ) => EngineCommand
}

const Empty = Type.Object({})

/** Declares POST /calls/{callRef}/{operation}. */
function operation<Body extends TSchema = typeof Empty, Query extends TSchema = typeof Empty>(
  app: FastifyInstance,
  spec: OperationSpec<Body, Query>,
): void {
  const querystring =
    spec.query === undefined ? LoginQuery : Type.Intersect([LoginQuery, spec.query])
  app.post<{
    Params: Static<typeof CallRefParams>
    Querystring: Static<typeof LoginQuery> & Static<Query>
    Body: Static<Body>
  }>(
    `/calls/:callRef/${spec.operation}`,
    {
      schema: {
        operationId: spec.operationId,
        summary: spec.summary,
        ...(spec.description !== undefined && { description: spec.description }),
        tags,
        params: CallRefParams,
        querystring,
        ...(spec.body !== undefined && { body: spec.body }),
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      // The schemas above checked them; TypeBox's inference does not reach through the generics.
      const query = request.query as Static<typeof LoginQuery> & Static<Query>
      const body = (request.body ?? {}) as Static<Body>
      const actor = telephonyActor(request, query.loginName, spec.rule)
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      const command = spec.command(actor, callRef, body, query)
      return runCommand(reply, command)
    },
  )
}

/** The device given in a body, when it is the actor's. */
function device(actor: TelephonyActor, deviceId: string | undefined): { deviceId?: string } {
  return deviceId === undefined ? {} : { deviceId: ownDevice(actor, deviceId) }
}

const RECORDING_ACTIONS = ['start', 'stop', 'pause', 'resume'] as const
type RecordingAction = (typeof RECORDING_ACTIONS)[number]

export const callOperationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const on = app as unknown as FastifyInstance
  operation(on, {
    operation: 'answer',
    operationId: 'answerCall',
    summary: 'Answer the call ringing on a device of the user',
    rule: advanced,
    body: DeviceRequest,
    command: (actor, callRef, body) => ({
      type: 'answer',
      loginName: actor.loginName,
      callRef,
      ...device(actor, body.deviceId),
    }),
  })
  operation(on, {
    operation: 'hold',
    operationId: 'holdCall',
    summary: 'Put the active call on hold',
    rule: advanced,
    body: DeviceRequest,
    command: (actor, callRef, body) => ({
      type: 'hold',
      loginName: actor.loginName,
      callRef,
      ...device(actor, body.deviceId),
    }),
  })
  operation(on, {
    operation: 'retrieve',
    operationId: 'retrieveCall',
    summary: 'Take the held call back',
    rule: advanced,
    body: DeviceRequest,
    command: (actor, callRef, body) => ({
      type: 'retrieve',
      loginName: actor.loginName,
      callRef,
      ...device(actor, body.deviceId),
    }),
  })
  operation(on, {
    operation: 'alternate',
    operationId: 'alternateCalls',
    summary: 'Hold the active call and retrieve the held one; callRef may name either',
    description:
      'The specification has callRef name the held call; the Node SDK documents the active one. Both are accepted: given the active call, the one held call on its device is retrieved (none or several: 403 NOT_EXPECTED).',
    rule: advanced,
    body: DeviceRequest,
    command: (actor, callRef, body) => ({
      type: 'alternate',
      loginName: actor.loginName,
      callRef,
      ...device(actor, body.deviceId),
    }),
  })
  operation(on, {
    operation: 'reconnect',
    operationId: 'reconnectCall',
    summary: 'Leave the enquiry call and take this held call back (cancel a consultation)',
    description:
      'An O2G operation the SDKs call. callRef is the held call; the enquiry call, answered or still ringing, is left as by drop me (a conference goes on without the user), then the held call is retrieved.',
    rule: advanced,
    body: ReconnectRequest,
    command: (actor, callRef, body) => ({
      type: 'reconnect',
      loginName: actor.loginName,
      callRef,
      deviceId: ownDevice(actor, body.deviceId),
      // The enquiry call must be the actor's too.
      enquiryCallRef: ownCall(actor, body.enquiryCallRef),
    }),
  })
  operation(on, {
    operation: 'dropme',
    operationId: 'dropMe',
    summary: 'Leave the call (a conference goes on without the user)',
    rule: advanced,
    command: (actor, callRef) => ({ type: 'dropMe', loginName: actor.loginName, callRef }),
  })
  operation(on, {
    operation: 'transfer',
    operationId: 'transferCall',
    summary: 'Transfer this active call to the held call, and leave both',
    rule: advanced,
    body: HeldCallRequest,
    command: (actor, callRef, body) => ({
      type: 'transfer',
      loginName: actor.loginName,
      callRef,
      // The held call must be the actor's too.
      heldCallRef: ownCall(actor, body.heldCallRef),
    }),
  })
  operation(on, {
    operation: 'merge',
    operationId: 'mergeCalls',
    summary: 'Merge this active call with the held call into a conference',
    rule: advanced,
    body: HeldCallRequest,
    command: (actor, callRef, body) => ({
      type: 'merge',
      loginName: actor.loginName,
      callRef,
      // The held call must be the actor's too.
      heldCallRef: ownCall(actor, body.heldCallRef),
    }),
  })
  operation(on, {
    operation: 'blindtransfer',
    operationId: 'blindTransfer',
    summary: 'Transfer the call to a number without consulting it first',
    rule: advanced,
    body: BlindTransferRequest,
    command: (actor, callRef, body) => ({
      type: 'blindTransfer',
      loginName: actor.loginName,
      callRef,
      transferTo: body.transferTo,
      ...(body.anonymous !== undefined && { anonymous: body.anonymous }),
    }),
  })
  operation(on, {
    operation: 'redirect',
    operationId: 'redirectCall',
    summary: 'Redirect the ringing call to a number, VOICEMAIL or DVA',
    rule: advanced,
    body: RedirectRequest,
    command: (actor, callRef, body) => ({
      type: 'redirect',
      loginName: actor.loginName,
      callRef,
      redirectTo: body.redirectTo,
      ...(body.anonymous !== undefined && { anonymous: body.anonymous }),
    }),
  })
  operation(on, {
    operation: 'overflowToVoiceMail',
    operationId: 'overflowToVoiceMail',
    summary: "Send the outgoing ringing call to the callee's voice mail",
    rule: advanced,
    command: (actor, callRef) => ({
      type: 'overflowToVoiceMail',
      loginName: actor.loginName,
      callRef,
    }),
  })
  operation(on, {
    operation: 'park',
    operationId: 'parkCall',
    summary: 'Park the call on a device (the current one when none is given)',
    rule: standardOnly,
    body: ParkRequest,
    command: (actor, callRef, body) => ({
      type: 'park',
      loginName: actor.loginName,
      callRef,
      ...(body.parkTo !== undefined && { parkTo: body.parkTo }),
    }),
  })
  operation(on, {
    operation: 'callback',
    operationId: 'callBack',
    summary: 'Ask the busy or unanswering callee to call back',
    rule: standardOnly,
    command: (actor, callRef) => ({ type: 'callbackRequest', loginName: actor.loginName, callRef }),
  })
  operation(on, {
    operation: 'recording',
    operationId: 'controlRecording',
    summary: 'Start, stop, pause or resume recording the call',
    description:
      'action is matched case-insensitively (the Node SDK sends Start, Stop, Pause, Resume); pause and resume are for STANDARD users only.',
    rule: advanced,
    query: Type.Object({ action: Type.String({ description: 'start, stop, pause or resume' }) }),
    command: (actor, callRef, _body, query) => {
      const action = query.action.toLowerCase() as RecordingAction
      if (!RECORDING_ACTIONS.includes(action))
        throw new PlatformError(
          'BAD_PARAMETER',
          `query parameter action: must be one of ${RECORDING_ACTIONS.join(', ')}`,
        )
      if ((action === 'pause' || action === 'resume') && actor.user.record.type !== 'STANDARD')
        throw new PlatformError(
          'NOT_ALLOWED',
          `query parameter action: ${action} is for STANDARD users only; '${actor.loginName}' is ${actor.user.record.type}`,
        )
      return { type: 'recording', loginName: actor.loginName, callRef, action }
    },
  })
  operation(on, {
    operation: 'sendDtmf',
    operationId: 'sendDtmf',
    summary: 'Send DTMF digits in the call',
    rule: standardOnly,
    body: SendDtmfRequest,
    command: (actor, callRef, body) => ({
      type: 'sendDtmf',
      loginName: actor.loginName,
      callRef,
      digits: body.number,
      ...device(actor, body.deviceId),
    }),
  })
  operation(on, {
    operation: 'attachdata',
    operationId: 'attachData',
    summary: 'Attach associated data to a call the user placed',
    rule: standardOnly,
    body: AttachDataRequest,
    command: (actor, callRef, body) => {
      const associatedData = associatedDataOf(body)
      if (associatedData === undefined)
        throw new PlatformError(
          'BAD_PARAMETER',
          'body: associatedData or hexaBinaryAssociatedData is required',
        )
      return {
        type: 'attachData',
        loginName: actor.loginName,
        callRef,
        ...associatedData,
        ...device(actor, body.deviceId),
      }
    },
  })
}
