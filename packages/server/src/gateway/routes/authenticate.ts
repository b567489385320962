/**
 * Authentication (specification, "Authentication"; wire facts 2.2): HTTP Basic credentials checked
 * against the internal accounts, answered with the session cookie and the sessions URLs. Both exchanges
 * work: the specification's (401 challenge, then the basic login resource) and the pre-emptive
 * `Authorization: Basic` that real clients send, answered directly with 200. The cookie is set under the
 * name the client used: the one of the login parameter (`AlcApplicationUrl` → `AlcUserId`), else an
 * accepted one its Cookie header already carries, else the first configured (docs/decisions.md).
 */

import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { API_VERSIONS, AuthenticateResult } from '@openness/wire'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { API_PATH, baseOrigins } from '../base-urls.js'
import { writeSessionCookie } from '../cookies.js'
import { errorResponses } from '../error-responses.js'
import { theOneParameter } from '../one-parameter.js'
import { HTTP_BASIC_SECURITY } from '../plugins/openapi.js'
import { RestError } from '../rest-error.js'

const REALM = 'Basic realm="Openness", charset="UTF-8"'
const CHALLENGE = { 'www-authenticate': REALM }
const LOGIN_PATH = `${API_PATH}/authenticationbasic/login`

const VersionQuery = Type.Object({ version: Type.String({ description: 'API version, e.g. 1.0' }) })
const response = { 200: AuthenticateResult, ...errorResponses(401) }

function checkVersion(version: string): void {
  if (!(API_VERSIONS as readonly string[]).includes(version))
    throw new RestError(
      'BAD_PARAMETER',
      `version '${version}' is not supported (supported: ${API_VERSIONS.join(', ')})`,
    )
}

/** Login name and password of a Basic Authorization header; throws the right 401 otherwise. */
function basicCredentials(request: FastifyRequest): { loginName: string; password: string } {
  const header = request.headers.authorization
  if (header === undefined)
    throw new RestError(
      'NOT_ALLOWED',
      `Authentication required: send HTTP Basic credentials on this URL or on ${LOGIN_PATH}`,
      401,
      CHALLENGE,
    )
  const [scheme = '', value = ''] = header.trim().split(/\s+/, 2)
  if (scheme.toLowerCase() !== 'basic') {
    const name = scheme.toLowerCase() === 'negotiate' ? 'Kerberos (Negotiate)' : scheme
    throw new RestError(
      'NOT_SUPPORTED',
      `${name} authentication is not supported: use HTTP Basic`,
      401,
      CHALLENGE,
    )
  }
  const decoded = Buffer.from(value, 'base64').toString('utf8')
  const separator = decoded.indexOf(':')
  if (separator <= 0)
    throw new RestError(
      'NOT_ALLOWED',
      'Malformed Basic credentials: expected base64(login:password)',
      401,
      CHALLENGE,
    )
  return { loginName: decoded.slice(0, separator), password: decoded.slice(separator + 1) }
}

/**
 * The authenticate URL a SvcApplicationUrl (or AlcApplicationUrl) names: a path, or an absolute URL on one of this server's
 * origins (the request's own, the configured public and private ones); undefined for anything else,
 * including another host given as `https://other/...` or `//other/...`.
 */
function applicationTarget(request: FastifyRequest, value: string): URL | undefined {
  try {
    const own = new URL(`${request.protocol}://${request.host}`).origin
    const origins = baseOrigins(request)
    const ours = [own, origins.public, origins.private].map((origin) => new URL(origin).origin)
    const target = new URL(value, own)
    if (!ours.includes(target.origin)) return undefined
    return /^\/api\/rest\/authenticate(nosso)?\/?$/.test(target.pathname) ? target : undefined
  } catch {
    return undefined
  }
}

async function login(
  request: FastifyRequest,
  reply: FastifyReply,
  version: string,
  cookieName: string,
) {
  if ((request.query as Record<string, unknown>)['ticket'] !== undefined)
    throw new RestError(
      'NOT_SUPPORTED',
      'CAS authentication is not supported: use HTTP Basic',
      401,
      CHALLENGE,
    )
  const { loginName, password } = basicCredentials(request)
  const { authenticator, sessions } = request.server.platform
  const result = await authenticator.authenticate(loginName, password, request.ip)
  if (!result.ok && result.reason === 'LOCKED') {
    request.log.warn({ loginName, address: request.ip }, 'authentication refused: locked')
    const retryAfter = String(Math.ceil(result.retryAfterMs / 1000))
    throw new RestError(
      'NOT_ALLOWED',
      `Too many failed attempts: authentication is locked for ${retryAfter} s`,
      401,
      { ...CHALLENGE, 'retry-after': retryAfter },
    )
  }
  if (!result.ok) {
    request.log.warn({ loginName, address: request.ip }, 'authentication failed')
    for (const key of result.lockedKeys)
      request.log.warn({ key }, 'authentication locked after repeated failures')
    throw new RestError('NOT_ALLOWED', 'Bad login name or password', 401, CHALLENGE)
  }
  const token = await sessions.issueToken(result.loginName)
  writeSessionCookie(request, reply, cookieName, token)
  const origins = baseOrigins(request)
  const sessionsPath = `${API_PATH}/${version}/sessions`
  return {
    credential: token,
    publicUrl: `${origins.public}${sessionsPath}`,
    internalUrl: `${origins.private}${sessionsPath}`,
  }
}

export const authenticateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // An answer that carries a credential (or refuses one) is stored by no cache (issue 15, finding 11).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('cache-control', 'no-store')
    done()
  })
  const config = { session: 'none' as const }
  const { cookies } = app.platform
  const [defaultName = 'SvcUserId'] = cookies.names
  const parameters = cookies.applicationUrlParameters
  for (const path of ['authenticate', 'authenticatenosso']) {
    app.get(
      `${API_PATH}/${path}`,
      {
        config,
        schema: {
          operationId: path === 'authenticate' ? 'authenticate' : 'authenticateNoSso',
          summary:
            path === 'authenticate'
              ? 'Authenticate with HTTP Basic credentials; sets the session cookie'
              : 'Basic authentication against the internal accounts when the server uses Kerberos or CAS',
          tags: ['authentication'],
          security: HTTP_BASIC_SECURITY,
          querystring: VersionQuery,
          response,
        },
      },
      async (request, reply) => {
        checkVersion(request.query.version)
        const cookieName = cookies.nameIn(request.headers.cookie) ?? defaultName
        return login(request, reply, request.query.version, cookieName)
      },
    )
  }

  app.get(
    LOGIN_PATH,
    {
      config,
      schema: {
        operationId: 'basicLogin',
        summary: "The basic login resource of the specification's two-step exchange",
        tags: ['authentication'],
        security: HTTP_BASIC_SECURITY,
        description: `One of ${parameters.join(', ')}; the session cookie is set under the matching name.`,
        querystring: Type.Object(
          Object.fromEntries(
            parameters.map((name) => [
              name,
              Type.Optional(
                Type.String({ description: 'the authenticate path the client came from' }),
              ),
            ]),
          ),
        ),
        response,
      },
    },
    async (request, reply) => {
      const query = request.query as Record<string, string | undefined>
      const parameter = theOneParameter(query, parameters)
      const target = applicationTarget(request, query[parameter] as string)
      if (target === undefined)
        throw new RestError(
          'BAD_PARAMETER',
          `${parameter}: must be the path (or URL on this server) of the authenticate resource`,
        )
      const version =
        target.searchParams.get('version') ?? API_VERSIONS[API_VERSIONS.length - 1] ?? '1.0'
      checkVersion(version)
      return login(request, reply, version, cookies.nameOfParameter(parameter) ?? defaultName)
    },
  )
}
