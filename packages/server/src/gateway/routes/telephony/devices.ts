/**
 * The user's devices: GET /telephony/devices and /devices/{deviceId}, mute, pickup and unpark
 * (specification, "Call control"). `deviceId` is a device number; a user session names its own devices
 * only (another user's: 403 NOT_ALLOWED; no such device: 404).
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { DeviceState, DeviceStates, PickupRequest, UnParkRequest } from '@openness/wire'
import { errorResponses } from '../../error-responses.js'
import { ADVANCED, ownDevice, telephonyActor } from '../../telephony-access.js'
import { DeviceParams, LoginQuery, noContent, runCommand, tags } from './route-support.js'

const advanced = { licenses: ADVANCED }

export const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/devices',
    {
      schema: {
        operationId: 'getDevicesState',
        summary: "The states of the user's devices",
        tags,
        querystring: LoginQuery,
        response: { 200: DeviceStates, ...errorResponses(404) },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      return { deviceStates: actor.queries.deviceStates(actor.loginName) }
    },
  )

  app.get(
    '/devices/:deviceId',
    {
      schema: {
        operationId: 'getDeviceState',
        summary: 'The state of one device of the user',
        tags,
        params: DeviceParams,
        querystring: LoginQuery,
        response: { 200: DeviceState, ...errorResponses(404) },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      return actor.queries.deviceState(actor.loginName, ownDevice(actor, request.params.deviceId))
    },
  )

  app.post(
    '/devices/:deviceId/mute/:mute',
    {
      schema: {
        operationId: 'muteDevice',
        summary: 'Mute (true) or unmute (false) the device',
        description:
          'Answers 204 once the request is taken; the outcome comes as OnDeviceMuteSuccess or OnDeviceMuteFailed.',
        tags,
        params: Type.Intersect([
          DeviceParams,
          Type.Object({ mute: Type.Union([Type.Literal('true'), Type.Literal('false')]) }),
        ]),
        querystring: LoginQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      return runCommand(reply, {
        type: 'mute',
        loginName: actor.loginName,
        deviceId: ownDevice(actor, request.params.deviceId),
        mute: request.params.mute === 'true',
      })
    },
  )

  app.post(
    '/devices/:deviceId/pickup',
    {
      schema: {
        operationId: 'pickUp',
        summary: "Pick up on this device a call ringing on another user's device",
        tags,
        params: DeviceParams,
        querystring: LoginQuery,
        body: PickupRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      const { otherCallRef, otherPhoneNumber, autoAnswer } = request.body
      return runCommand(reply, {
        type: 'pickup',
        loginName: actor.loginName,
        deviceId: ownDevice(actor, request.params.deviceId),
        otherCallRef,
        otherPhoneNumber,
        autoAnswer: autoAnswer ?? true,
      })
    },
  )

  app.post(
    '/devices/:deviceId/unpark',
    {
      schema: {
        operationId: 'unPark',
        summary: 'Take a parked call back on this device (STANDARD users only)',
        tags,
        params: DeviceParams,
        querystring: LoginQuery,
        body: UnParkRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, {
        ...advanced,
        userType: 'STANDARD',
      })
      return runCommand(reply, {
        type: 'unpark',
        loginName: actor.loginName,
        deviceId: ownDevice(actor, request.params.deviceId),
        heldCallRef: request.body.heldCallRef,
      })
    },
  )
}
