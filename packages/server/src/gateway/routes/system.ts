/**
 * The maintenance service (wire facts 8.6; docs/system-status.md): `GET /system/status`, the platform's
 * SystemStatus, for administrator sessions. SessionInfo lists it to administrators as `Maintenance` at
 * `/system`, so the Node, C# and browser SDKs' `<maintenance>/status` and the Java SDK's fixed
 * `<base>/system/status` are the same path. The C# SDK's IsLicenseExist adds `?lic=<name>`: 404 when the
 * platform has no license by that name.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { SystemStatus, SystemStatusQuery } from '@openness/wire'
import { PlatformError } from '../../platform/platform-error.js'
import { sessionOf } from '../access.js'
import { baseOrigins } from '../base-urls.js'
import { errorResponses } from '../error-responses.js'

/** The address the server answered on, without the IPv4-mapped prefix. */
function localIp(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') ? address.slice(7) : address
}

export const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide('Maintenance')

  // The service's own URL answers too (as every URL SessionInfo lists does): the same status.
  for (const url of ['/system/status', '/system'])
    app.get(
      url,
      {
        schema: {
          operationId: url === '/system' ? 'getSystemStatusAtServiceUrl' : 'getSystemStatus',
          summary:
            url === '/system'
              ? 'The status of the platform, at the Maintenance service URL itself'
              : 'The status of the platform: links to the PBX node, licenses, start date',
          description:
            'Administrator sessions only (403 NOT_ALLOWED to a user session). With `lic`, 404 when the ' +
            'platform has no license by that name.',
          tags: ['maintenance'],
          querystring: SystemStatusQuery,
          response: { 200: SystemStatus, ...errorResponses() },
        },
      },
      async (request) => {
        if (!sessionOf(request).admin)
          throw new PlatformError(
            'NOT_ALLOWED',
            'The system status is for administrator sessions only',
          )
        const { system } = request.server.platform
        const { lic } = request.query
        if (lic !== undefined && !system.hasLicense(lic))
          throw new PlatformError('NOT_FOUND', `query parameter lic: no license '${lic}'`)
        const ip = localIp(request.socket.localAddress)
        const fqdn = new URL(baseOrigins(request).public).hostname
        return system.status({ fqdn, ...(ip !== undefined && { ip }) })
      },
    )
}
