/**
 * Simulated devices (docs/control-plane.md, "Simulated devices"): a device answers, goes off-hook, hangs up or
 * sends DTMF as its user's phone would, and is set to answer by itself or to go out of service. Each is one
 * command of the running call engine; its refusals are RestErrorInfo.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import { PlatformError } from '../../platform/platform-error.js'
import {
  actionRoute,
  bodyOf,
  type ControlTelephony,
  DeviceParams,
  optionalStringField,
  stringField,
} from './route-support.js'

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
const Dtmf = Type.Object(
  {
    digits: Type.String({ description: 'DTMF digits: 0-9, *, #, A, B, C, D' }),
    callRef: Type.Optional(
      Type.String({
        description: 'the call to send them in; by default the one the device is active in',
      }),
    ),
  },
  { additionalProperties: false, title: 'SimulatedDtmf' },
)
const tags = ['simulated devices']

/** A device as the engine's queries give it. */
type DeviceRecord = NonNullable<ReturnType<ControlTelephony['queries']['device']>>

/** The digits a DTMF string may hold. */
const DTMF = /^[0-9*#ABCD]+$/

/** `/devices/{deviceId}/...` and `/devices/{deviceId}`, over the running call engine. */
export const simulatedDeviceRoutes: FastifyPluginAsyncTypebox<{
  telephony: ControlTelephony
}> = async (app, { telephony }) => {
  const run = (command: Parameters<ControlTelephony['execute']>[0]) => telephony.execute(command)

  /** The device, whoever owns it; NOT_FOUND when the engine does not know it. */
  const deviceOf = (deviceId: string): DeviceRecord => {
    const device = telephony.queries.device(deviceId)
    if (device === undefined) throw new PlatformError('NOT_FOUND', `No device '${deviceId}'`)
    return device
  }

  const params = DeviceParams
  actionRoute(
    app,
    '/devices/:deviceId/answer',
    { summary: 'The device answers the call that rings on it (the first one)', tags, params },
    async ({ deviceId = '' }) => {
      await run({ type: 'deviceAnswers', deviceId })
    },
  )

  actionRoute(
    app,
    '/devices/:deviceId/offhook',
    {
      summary: 'The device goes off-hook: answers the call that rings on it',
      description:
        'The engine has no dialing phase: going off-hook only answers a ringing call; with ' +
        'nothing ringing it is 403 NOT_EXPECTED (place calls with POST /calls).',
      tags,
      params,
    },
    async ({ deviceId = '' }) => {
      await run({ type: 'deviceAnswers', deviceId }).catch((error: unknown) => {
        if (error instanceof PlatformError && error.type === 'NOT_EXPECTED')
          throw new PlatformError(
            'NOT_EXPECTED',
            `Nothing rings on device ${deviceId}: going off-hook only answers a ringing call (the simulated platform has no dialing phase; place calls with POST /calls)`,
          )
        throw error
      })
    },
  )

  actionRoute(
    app,
    '/devices/:deviceId/hangup',
    { summary: 'The device hangs up: it leaves every call it is in', tags, params },
    async ({ deviceId = '' }) => {
      await run({ type: 'deviceHangsUp', deviceId })
    },
  )

  actionRoute(
    app,
    '/devices/:deviceId/dtmf',
    {
      summary: 'The device sends DTMF digits, as its user, in the call it is active in',
      description:
        'Without callRef, the call where the device is ACTIVE; none is 403 NOT_EXPECTED. With callRef, ' +
        'that call, where the device must be ACTIVE.',
      tags,
      params,
      body: Dtmf,
    },
    async ({ deviceId = '' }, body) => {
      const fields = bodyOf(body, ['digits', 'callRef'])
      const digits = stringField(fields, 'digits')
      if (!DTMF.test(digits))
        throw new PlatformError('BAD_PARAMETER', 'digits: DTMF digits are 0-9, *, #, A, B, C, D')
      const given = optionalStringField(fields, 'callRef')
      const { loginName } = deviceOf(deviceId)
      const callRef = given ?? activeCallOf(telephony, deviceId)
      await run({ type: 'sendDtmf', loginName, deviceId, callRef, digits })
    },
  )

  app.put(
    '/devices/:deviceId',
    {
      schema: {
        summary:
          'Sets a simulated device: autoAnswer, and its state (out of service leaves its calls)',
        tags,
        params,
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
      const device = deviceOf(deviceId)
      return {
        deviceId,
        loginName: device.loginName,
        state: device.state,
        autoAnswer: device.autoAnswer === true,
      }
    },
  )
}

/** The call where the device is ACTIVE (the first, if several); NOT_EXPECTED when none. */
function activeCallOf(telephony: ControlTelephony, deviceId: string): string {
  const active = telephony.queries
    .liveCalls()
    .find((call) =>
      call.connections.some(
        (connection) => connection.endpoint.deviceId === deviceId && connection.state === 'ACTIVE',
      ),
    )
  if (active === undefined)
    throw new PlatformError('NOT_EXPECTED', `Device ${deviceId} is active in no call`)
  return active.callRef
}
