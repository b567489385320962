/**
 * The root resource (specification, "What the service does", Addressing and "Versioning"): server
 * description and the versions with their authentication URLs. Other methods get 405 from the
 * not-found handler, which knows the methods each path answers.
 */

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { API_VERSIONS, RestApiDescriptor } from '@openness/wire'
import { API_PATH, baseOrigins } from '../base-urls.js'
import { errorResponses } from '../error-responses.js'

export const rootRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    API_PATH,
    {
      config: { session: 'none' },
      schema: {
        operationId: 'getApiDescriptor',
        summary: 'Server description and supported versions',
        tags: ['root'],
        response: { 200: RestApiDescriptor, ...errorResponses() },
      },
    },
    async (request) => {
      const origins = baseOrigins(request)
      const { product } = app.platform
      const [major = '', minor = ''] = product.version.split(/\.(.*)/s)
      return {
        serverInfo: {
          productName: product.name,
          productType: product.type,
          productVersion: { major, minor },
          // The cluster mode goes beyond the specification's primary/secondary pair (docs/cluster.md).
          haMode: app.platform.cluster !== undefined,
        },
        versions: API_VERSIONS.map((id, index) => ({
          id,
          status: index === API_VERSIONS.length - 1 ? 'CURRENT' : 'SUPPORTED',
          publicUrl: `${origins.public}${API_PATH}/authenticate?version=${id}`,
          internalUrl: `${origins.private}${API_PATH}/authenticate?version=${id}`,
        })),
      }
    },
  )
}
