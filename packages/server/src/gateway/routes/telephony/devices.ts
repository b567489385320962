/**
 * The user's devices: GET /telephony/devices and /devices/{deviceId}, mute, pickup and unpark
 * (specification, "Call control"), and the O2G additions the SDKs call on a device: intrusion and the
 * interphony key (`ithmicro`). `deviceId` is a device number; a user session names its own devices only
 * (another user's: 403 NOT_ALLOWED; no such device: 404).
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

  app.post(
    '/devices/:deviceId/intrusion',
    {
      schema: {
        operationId: 'intrusion',
        summary: 'Join the call of the busy user this device is calling (O2G 2.4)',
        description:
          'The device calls a user of the platform who rings while talking in another call; the device joins that call, which becomes a three-party call. Needs the intrusion right (directory file), and no user of that call protected against intrusion.',
        tags,
        params: DeviceParams,
        querystring: LoginQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      return runCommand(reply, {
        type: 'intrusion',
        loginName: actor.loginName,
        deviceId: ownDevice(actor, request.params.deviceId),
      })
    },
  )

  // The Node SDK sends PUT, the Java SDK POST: both are the key.
  for (const [method, operationId] of [
    ['POST', 'toggleInterphony'],
    ['PUT', 'toggleInterphonyViaPut'],
  ] as const)
    app.route({
      method,
      url: '/devices/:deviceId/ithmicro',
      schema: {
        operationId,
        summary:
          'Press the interphony key: microphone off or on in a call, interphony on or off when idle',
        description:
          'In a call the device is muted or unmuted (told by OnDeviceStateModified, as mute); idle, its automatic answer (interphony) is turned on or off, with no event; while it only rings, nothing changes. POST (Java SDK) and PUT (Node SDK) do the same.',
        tags,
        params: DeviceParams,
        querystring: LoginQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
      handler: async (request, reply) => {
        const actor = telephonyActor(request, request.query.loginName, advanced)
        return runCommand(reply, {
          type: 'toggleInterphony',
          loginName: actor.loginName,
          deviceId: ownDevice(actor, request.params.deviceId),
        })
      },
    })
}
