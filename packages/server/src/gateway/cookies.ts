/** The session cookie (specification, "Authentication" item 3: the token travels in `SvcUserId`). */
import type { FastifyReply, FastifyRequest } from 'fastify'

export const SESSION_COOKIE = 'SvcUserId'

/**
 * The value of the session cookie of a request, if any: the first `name=value` pair, between semicolons,
 * whose trimmed name is the cookie's. Scanned in place rather than split, since every authenticated
 * request reads it.
 */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie
  if (header === undefined) return undefined
  for (let start = 0; start <= header.length; ) {
    const semicolon = header.indexOf(';', start)
    const end = semicolon === -1 ? header.length : semicolon
    const separator = header.indexOf('=', start)
    if (separator !== -1 && separator < end) {
      if (header.slice(start, separator).trim() === SESSION_COOKIE)
        return header.slice(separator + 1, end).trim()
    }
    start = end + 1
  }
  return undefined
}

/**
 * Sets the session cookie: host-only, whole site, HttpOnly, and Secure when the request came over TLS
 * unless a configured base URL is plain http (a client using that URL verbatim would not send a Secure
 * cookie there; wire facts 1).
 */
export function writeSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): void {
  const { publicBaseUrl, privateBaseUrl } = request.server.platform.urls
  const plainBase = [publicBaseUrl, privateBaseUrl].some((url) => url?.startsWith('http:'))
  const secure = request.protocol === 'https' && !plainBase ? '; Secure' : ''
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${secure}`)
}
