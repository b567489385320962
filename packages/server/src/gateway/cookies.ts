/**
 * The session cookie (specification, "Authentication" item 3: the token travels in `SvcUserId`) under
 * every name it may carry: the real product calls it `AlcUserId` and its own samples send that name
 * (wire facts 2.2 and 10.1), so the accepted names are configured (`SESSION_COOKIE_NAMES`,
 * docs/decisions.md "Session cookie names").
 */
import type { FastifyReply, FastifyRequest } from 'fastify'

/** The names accepted when none are configured: the specification's first, the real product's next. */
export const DEFAULT_SESSION_COOKIE_NAMES: readonly string[] = ['SvcUserId', 'AlcUserId']

/** What a session cookie name looks like: `<prefix>UserId`, its basic login parameter `<prefix>ApplicationUrl`. */
export const SESSION_COOKIE_NAME_PATTERN = /^([A-Za-z0-9]+)UserId$/

/** The basic login parameter that goes with a cookie name (`SvcUserId` → `SvcApplicationUrl`). */
export function applicationUrlParameterOf(cookieName: string): string {
  const prefix = SESSION_COOKIE_NAME_PATTERN.exec(cookieName)?.[1]
  if (prefix === undefined)
    throw new Error(`${cookieName}: a session cookie name has the form <prefix>UserId`)
  return `${prefix}ApplicationUrl`
}

/** The accepted names of the session cookie, and the login parameter of each. */
export class SessionCookies {
  /** The accepted names, the first being the one set when the request names none. */
  readonly names: readonly string[]
  /** The basic login parameters, in the order of `names`. */
  readonly applicationUrlParameters: readonly string[]
  readonly #accepted: ReadonlySet<string>

  constructor(names: readonly string[] = DEFAULT_SESSION_COOKIE_NAMES) {
    if (names.length === 0) throw new Error('at least one session cookie name is needed')
    this.names = [...names]
    this.applicationUrlParameters = names.map(applicationUrlParameterOf)
    this.#accepted = new Set(names)
  }

  /**
   * The token of a Cookie header: the value of the first `name=value` pair, between semicolons, whose
   * trimmed name is an accepted one. Scanned in place rather than split, since every authenticated
   * request reads it.
   */
  read(header: string | undefined): string | undefined {
    if (header === undefined) return undefined
    for (let start = 0; start <= header.length; ) {
      const semicolon = header.indexOf(';', start)
      const end = semicolon === -1 ? header.length : semicolon
      const separator = header.indexOf('=', start)
      if (separator !== -1 && separator < end) {
        if (this.#accepted.has(header.slice(start, separator).trim()))
          return header.slice(separator + 1, end).trim()
      }
      start = end + 1
    }
    return undefined
  }

  /** The first accepted name a Cookie header carries, if any. */
  nameIn(header: string | undefined): string | undefined {
    if (header === undefined) return undefined
    for (const part of header.split(';')) {
      const separator = part.indexOf('=')
      const name = separator === -1 ? undefined : part.slice(0, separator).trim()
      if (name !== undefined && this.#accepted.has(name)) return name
    }
    return undefined
  }

  /** The cookie name that goes with a basic login parameter. */
  nameOfParameter(parameter: string): string | undefined {
    return this.names[this.applicationUrlParameters.indexOf(parameter)]
  }
}

/** The session token of a request, under any accepted cookie name. */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  return request.server.platform.cookies.read(request.headers.cookie)
}

/**
 * Sets the session cookie under `name`: host-only, whole site, HttpOnly, and Secure when the request
 * came over TLS unless a configured base URL is plain http (a client using that URL verbatim would not
 * send a Secure cookie there; wire facts 1).
 */
export function writeSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  token: string,
): void {
  const { publicBaseUrl, privateBaseUrl } = request.server.platform.urls
  const plainBase = [publicBaseUrl, privateBaseUrl].some((url) => url?.startsWith('http:'))
  const secure = request.protocol === 'https' && !plainBase ? '; Secure' : ''
  reply.header('set-cookie', `${name}=${token}; Path=/; HttpOnly; SameSite=Lax${secure}`)
}
