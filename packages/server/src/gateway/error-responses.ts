/** Response schemas for the error statuses a route lists (style guide 2: each route lists every status). */
import { type ErrorHttpStatus, RestErrorInfo } from '@openness/wire'

/** `{ [status]: RestErrorInfo }` for each status, plus the 400/403/500/503 every operation may return. */
export function errorResponses(
  ...statuses: ErrorHttpStatus[]
): Record<number, typeof RestErrorInfo> {
  const all = new Set<number>([400, 403, 500, 503, ...statuses])
  return Object.fromEntries([...all].map((status) => [status, RestErrorInfo]))
}
