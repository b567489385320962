/**
 * The devices of a user, in the directory file's format (docs/control-plane.md, "Users and devices in the
 * directory file's format"). A device is named by its id, its phone number. Each change publishes
 * OnUserInfoChanged for its user.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import type { Directory } from '../../platform/directory/directory.js'
import {
  DirectoryDevice,
  DirectoryDevicePatch,
} from '../../platform/directory/directory-file-schema.js'
import { PlatformError } from '../../platform/platform-error.js'
import { existingUser } from './users.js'

const LoginParams = Type.Object({ loginName: Type.String() })
const DeviceParams = Type.Object({ loginName: Type.String(), deviceId: Type.String() })
const DirectoryDeviceList = Type.Object(
  { devices: Type.Array(DirectoryDevice) },
  { title: 'DirectoryDeviceList' },
)
const tags = ['devices']

/** `/users/{loginName}/devices` and `/users/{loginName}/devices/{deviceId}`. */
export const deviceRoutes: FastifyPluginAsyncTypebox<{ directory: Directory }> = async (
  app,
  { directory },
) => {
  const devicesOf = (loginName: string) =>
    directory.userEntry(existingUser(directory, loginName)).devices

  app.get(
    '/users/:loginName/devices',
    {
      schema: {
        summary: "The user's devices, in the directory file format",
        tags,
        params: LoginParams,
        response: { 200: DirectoryDeviceList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ devices: devicesOf(request.params.loginName) }),
  )

  app.get(
    '/users/:loginName/devices/:deviceId',
    {
      schema: {
        summary: 'One device of the user',
        tags,
        params: DeviceParams,
        response: { 200: DirectoryDevice, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { loginName, deviceId } = request.params
      const device = devicesOf(loginName).find((one) => one.id === deviceId)
      if (device === undefined)
        throw new PlatformError('NOT_FOUND', `User '${loginName}' has no device '${deviceId}'`)
      return device
    },
  )

  app.post(
    '/users/:loginName/devices',
    {
      schema: {
        summary: 'Add a device to the user; publishes OnUserInfoChanged',
        description:
          'The body is a device of the directory file. An id another device has is 403 NOT_EXPECTED.',
        tags,
        params: LoginParams,
        body: DirectoryDevice,
        response: { 201: DirectoryDevice, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const { loginName } = request.params
      const device = await directory.addDevice(loginName, request.body)
      return reply
        .code(201)
        .header('location', `${app.prefix}/users/${loginName}/devices/${device.id}`)
        .send(device)
    },
  )

  app.patch(
    '/users/:loginName/devices/:deviceId',
    {
      schema: {
        summary: 'Change a device; publishes OnUserInfoChanged',
        description:
          'A field present replaces, null removes an optional field, an absent field stays. The id ' +
          'cannot change: remove the device and add it again.',
        tags,
        params: DeviceParams,
        body: DirectoryDevicePatch,
        response: { 200: DirectoryDevice, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { loginName, deviceId } = request.params
      return directory.updateDevice(loginName, deviceId, request.body)
    },
  )

  app.delete(
    '/users/:loginName/devices/:deviceId',
    {
      schema: {
        summary: 'Remove a device from the user; publishes OnUserInfoChanged',
        tags,
        params: DeviceParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const { loginName, deviceId } = request.params
      await directory.removeDevice(loginName, deviceId)
      return reply.code(204).send(null)
    },
  )
}
