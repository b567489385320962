/**
 * Simulation (docs/control-plane.md, "Simulation"): calls from outside, simulated devices that answer, hang
 * up or go out of service, and outside parties told to answer, reject or hang up. Every route is one
 * command of the running call engine (operations/simulation.ts); its refusals are RestErrorInfo.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import { PlatformError } from '../../platform/platform-error.js'
import type { CommandResult } from '../../platform/telephony/telephony-service.js'
import type { EngineCommand, TelephonyState } from '../../platform/telephony/telephony-state.js'

/** What the simulation routes need of the running call engine (TelephonyService). */
export interface SimulationTelephony {
  execute(command: EngineCommand): Promise<CommandResult>
  readonly state: TelephonyState
}

const IncomingCall = Type.Object(
  {
    from: Type.String({ description: 'the outside number calling: digits, optionally after +' }),
    to: Type.String({ description: 'a public number of the platform, or an extension' }),
  },
  { additionalProperties: false, title: 'SimulatedIncomingCall' },
)
const IncomingCallResult = Type.Object({ callRef: Type.String() }, { title: 'SimulatedCall' })
const DeviceSettings = Type.Object(
  {
    autoAnswer: Type.Optional(
      Type.Boolean({ description: 'answer by itself after a short delay' }),
    ),
    state: Type.Optional(Type.Union([Type.Literal('IN_SERVICE'), Type.Literal('OUT_OF_SERVICE')])),
  },
  { additionalProperties: false, title: 'SimulatedDeviceSettings' },
)
const SimulatedDevice = Type.Object(
  {
    deviceId: Type.String(),
    loginName: Type.String(),
    state: Type.String(),
    autoAnswer: Type.Boolean(),
  },
  { title: 'SimulatedDevice' },
)
const Reject = Type.Object(
  {
    cause: Type.Optional(
      Type.Union([Type.Literal('BUSY'), Type.Literal('DESTINATION_NOT_OBTAINABLE')], {
        description: 'BUSY, or DESTINATION_NOT_OBTAINABLE (the default)',
      }),
    ),
  },
  { additionalProperties: false, title: 'SimulatedReject' },
)
const DeviceParams = Type.Object({ deviceId: Type.String() })
const NumberParams = Type.Object({ number: Type.String() })
const tags = ['simulation']
const done = { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) }

/** The body as an object with only `allowed` fields; BAD_PARAMETER otherwise. */
function bodyOf(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  const value = body ?? {}
  if (typeof value !== 'object' || Array.isArray(value))
    throw new PlatformError('BAD_PARAMETER', 'The body must be a JSON object')
  const fields = value as Record<string, unknown>
  const unknown = Object.keys(fields).filter((key) => !allowed.includes(key))
  if (unknown.length > 0)
    throw new PlatformError(
      'BAD_PARAMETER',
      `${unknown.join(', ')}: not a known field (known fields: ${allowed.join(', ')})`,
    )
  return fields
}

function stringField(fields: Record<string, unknown>, name: string): string {
  const value = fields[name]
  if (typeof value !== 'string' || value === '')
    throw new PlatformError('BAD_PARAMETER', `${name}: required, a non-empty string`)
  return value
}

/** `/simulation/...`, over the running call engine. */
export const simulationRoutes: FastifyPluginAsyncTypebox<{
  telephony: SimulationTelephony
}> = async (app, { telephony }) => {
  const run = async (command: EngineCommand) => telephony.execute(command)

  app.post(
    '/simulation/calls',
    {
      schema: {
        summary: 'An outside number calls a public number or an extension: the mapped device rings',
        tags,
        body: IncomingCall,
        response: { 201: IncomingCallResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const fields = bodyOf(request.body, ['from', 'to'])
      const result = await run({
        type: 'incomingCall',
        from: stringField(fields, 'from'),
        to: stringField(fields, 'to'),
      })
      return reply.code(201).send({ callRef: result.callRef ?? '' })
    },
  )

  app.post(
    '/simulation/devices/:deviceId/answer',
    {
      schema: {
        summary: 'The device answers the call that rings on it (the first one)',
        tags,
        params: DeviceParams,
        response: done,
      },
    },
    async (request, reply) => {
      await run({ type: 'deviceAnswers', deviceId: request.params.deviceId })
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/simulation/devices/:deviceId/offhook',
    {
      schema: {
        summary: 'The device goes off-hook: answers the call that rings on it',
        description:
          'The engine has no dialing phase: going off-hook only answers a ringing call; with ' +
          'nothing ringing it is 403 NOT_EXPECTED (place calls with makeCall).',
        tags,
        params: DeviceParams,
        response: done,
      },
    },
    async (request, reply) => {
      const { deviceId } = request.params
      try {
        await run({ type: 'deviceAnswers', deviceId })
      } catch (error) {
        if (error instanceof PlatformError && error.type === 'NOT_EXPECTED')
          throw new PlatformError(
            'NOT_EXPECTED',
            `Nothing rings on device ${deviceId}: going off-hook only answers a ringing call (the simulated platform has no dialing phase; place calls with makeCall)`,
          )
        throw error
      }
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/simulation/devices/:deviceId/hangup',
    {
      schema: {
        summary: 'The device hangs up: it leaves every call it is in',
        tags,
        params: DeviceParams,
        response: done,
      },
    },
    async (request, reply) => {
      await run({ type: 'deviceHangsUp', deviceId: request.params.deviceId })
      return reply.code(204).send(null)
    },
  )

  app.put(
    '/simulation/devices/:deviceId',
    {
      schema: {
        summary:
          'Sets a simulated device: autoAnswer, and its state (out of service leaves its calls)',
        tags,
        params: DeviceParams,
        body: DeviceSettings,
        response: { 200: SimulatedDevice, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { deviceId } = request.params
      const fields = bodyOf(request.body, ['autoAnswer', 'state'])
      const { autoAnswer, state } = fields
      if (autoAnswer !== undefined && typeof autoAnswer !== 'boolean')
        throw new PlatformError('BAD_PARAMETER', 'autoAnswer: must be true or false')
      if (state !== undefined && state !== 'IN_SERVICE' && state !== 'OUT_OF_SERVICE')
        throw new PlatformError('BAD_PARAMETER', 'state: must be IN_SERVICE or OUT_OF_SERVICE')
      await run({
        type: 'setDevice',
        deviceId,
        ...(autoAnswer !== undefined && { autoAnswer }),
        ...(state !== undefined && { state }),
      })
      const device = telephony.state.devices[deviceId]
      if (device === undefined) throw new PlatformError('NOT_FOUND', `No device '${deviceId}'`)
      return {
        deviceId,
        loginName: device.loginName,
        state: device.state,
        autoAnswer: device.autoAnswer === true,
      }
    },
  )

  for (const action of ['answer', 'hangup', 'reject'] as const)
    app.post(
      `/simulation/outside/:number/${action}`,
      {
        schema: {
          summary: {
            answer: 'The outside party answers the call that rings there (the first one)',
            hangup: 'The outside party hangs up: it leaves every call it is in',
            reject: 'The outside party rejects the call that rings there (the first one)',
          }[action],
          tags,
          params: NumberParams,
          ...(action === 'reject' && { body: Reject }),
          response: done,
        },
      },
      async (request, reply) => {
        const { number } = request.params as { number: string }
        if (action === 'answer') await run({ type: 'outsidePartyAnswers', number })
        else if (action === 'hangup') await run({ type: 'outsidePartyHangsUp', number })
        else {
          const { cause } = bodyOf(request.body, ['cause'])
          if (cause !== undefined && cause !== 'BUSY' && cause !== 'DESTINATION_NOT_OBTAINABLE')
            throw new PlatformError(
              'BAD_PARAMETER',
              'cause: must be BUSY or DESTINATION_NOT_OBTAINABLE',
            )
          await run({
            type: 'outsidePartyRejects',
            number,
            ...(cause !== undefined && { cause }),
          })
        }
        return reply.code(204).send(null)
      },
    )
}
