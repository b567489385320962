/**
 * The calls of the simulated platform (docs/control-plane.md, "Calls"): place one from an outside number or
 * from an extension's device, and list every call in progress with its parties.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import {
  bodyOf,
  type ControlTelephony,
  isoTime,
  renameField,
  stringField,
} from './route-support.js'

const NewCall = Type.Object(
  {
    from: Type.String({
      description:
        'an extension (a device of the platform: it calls, answering by itself) or an outside number (digits, optionally after +)',
    }),
    to: Type.String({
      description:
        'what is dialed: from an extension, any number a user may dial; from outside, a public number of the platform or an extension',
    }),
  },
  { additionalProperties: false, title: 'ControlNewCall' },
)
const CreatedCall = Type.Object({ callRef: Type.String() }, { title: 'ControlCreatedCall' })
const LiveParty = Type.Object(
  {
    number: Type.String({ description: 'the device number, or the outside number' }),
    state: Type.String({ description: 'the MediaState of its side of the call' }),
    deviceId: Type.Optional(Type.String({ description: 'a device of the platform' })),
    loginName: Type.Optional(Type.String({ description: "the device's user" })),
    service: Type.Optional(
      Type.Union(
        [
          Type.Literal('VOICEMAIL'),
          Type.Literal('PARK'),
          Type.Literal('HUNTING_GROUP'),
          Type.Literal('ACD_PILOT'),
        ],
        { description: 'a service of the platform' },
      ),
    ),
    offeredBy: Type.Optional(
      Type.String({
        description:
          'the hunting group or pilot offering the call to this member or agent, until it answers',
      }),
    ),
  },
  { title: 'ControlLiveParty' },
)
const LiveCall = Type.Object(
  {
    callRef: Type.String(),
    createdAt: Type.String({ format: 'date-time', description: "on the service's clock" }),
    parties: Type.Array(LiveParty, { description: 'in the order they joined the call' }),
  },
  { title: 'ControlLiveCall' },
)
const LiveCalls = Type.Object({ calls: Type.Array(LiveCall) }, { title: 'ControlLiveCalls' })
const tags = ['calls']

/** A call in progress as the engine's queries give it. */
type LiveCallRecord = ReturnType<ControlTelephony['queries']['liveCalls']>[number]

/** A call as the control plane lists it. */
function liveCall(call: LiveCallRecord) {
  return {
    callRef: call.callRef,
    createdAt: isoTime(call.createdAt),
    parties: call.connections.map(({ endpoint, state }) => ({
      number: endpoint.number,
      state,
      ...(endpoint.deviceId !== undefined && { deviceId: endpoint.deviceId }),
      ...(endpoint.loginName !== undefined && { loginName: endpoint.loginName }),
      ...(endpoint.service !== undefined && { service: endpoint.service }),
      ...(endpoint.offeredBy !== undefined && { offeredBy: endpoint.offeredBy }),
    })),
  }
}

/** `/calls`, over the running call engine. */
export const callRoutes: FastifyPluginAsyncTypebox<{ telephony: ControlTelephony }> = async (
  app,
  { telephony },
) => {
  app.post(
    '/calls',
    {
      schema: {
        summary:
          'Place a call: from an extension, its device calls; from outside, the callee rings',
        description:
          'From an extension (a device id of the platform), the device makes the call as its user ' +
          'would with autoAnswer: it is connected at once, and the callee rings. From an outside number, ' +
          'the device that `to` reaches rings, with `from` as an EXTERNAL participant.',
        tags,
        body: NewCall,
        response: { 201: CreatedCall, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const fields = bodyOf(request.body, ['from', 'to'])
      const from = stringField(fields, 'from')
      const to = stringField(fields, 'to')
      const device = telephony.queries.device(from)
      const result = await telephony
        .execute(
          device === undefined
            ? { type: 'incomingCall', from, to }
            : {
                type: 'makeCall',
                loginName: device.loginName,
                deviceId: from,
                callee: to,
                autoAnswer: true,
              },
        )
        .catch((error: unknown) => {
          throw renameField(error, 'callee', 'to')
        })
      return reply.code(201).send({ callRef: result.callRef ?? '' })
    },
  )

  app.get(
    '/calls',
    {
      schema: {
        summary: 'Every call in progress, oldest first, with its parties and their states',
        tags,
        response: { 200: LiveCalls, ...errorResponses(401) },
      },
    },
    async () => ({ calls: telephony.queries.liveCalls().map(liveCall) }),
  )
}
