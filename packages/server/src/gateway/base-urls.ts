/** The public and private base URLs answers carry (root versions, authentication result, SessionInfo). */
import type { FastifyRequest } from 'fastify'

/** The path of the API under a base URL. */
export const API_PATH = '/api/rest'
/** The path of version 1.0 of the resources. */
export const API_V1_PATH = '/api/rest/1.0'

/** The origins to build URLs from: the configured ones, else the scheme and host the request used. */
export function baseOrigins(request: FastifyRequest): { public: string; private: string } {
  const { urls } = request.server.platform
  const own = `${request.protocol}://${request.host}`
  return { public: urls.publicBaseUrl ?? own, private: urls.privateBaseUrl ?? own }
}
