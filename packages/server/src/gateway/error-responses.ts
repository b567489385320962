/** Response schemas for the error statuses a route lists (style guide 2: each route lists every status). */
import { type ErrorHttpStatus, RestErrorInfo } from '@openness/wire'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'

/** RestErrorInfo is registered once and referenced by every route, so OpenAPI lists it once. */
const REST_ERROR_INFO_ID = 'RestErrorInfo'
export const restErrorInfoRef = Type.Unsafe<RestErrorInfo>({ $ref: `${REST_ERROR_INFO_ID}#` })

/** Registers the shared error schema; call before any route. */
export function addErrorSchema(app: FastifyInstance): void {
  app.addSchema({ ...RestErrorInfo, $id: REST_ERROR_INFO_ID })
}

/** `{ [status]: RestErrorInfo }` for each status, plus the 400/403/500/503 every operation may return. */
export function errorResponses(
  ...statuses: ErrorHttpStatus[]
): Record<number, typeof restErrorInfoRef> {
  const all = new Set<number>([400, 403, 500, 503, ...statuses])
  return Object.fromEntries([...all].map((status) => [status, restErrorInfoRef]))
}
