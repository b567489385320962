/**
 * The operator token that guards the control plane (docs/control-plane.md, "The token"): every request
 * carries `Authorization: Bearer <token>`; a missing or wrong token gets 401 NOT_ALLOWED with
 * `WWW-Authenticate: Bearer`, unknown paths included, so that nothing is learnt without it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { RestError } from '../gateway/rest-error.js'

/** A new operator token: 32 random bytes in base64url (256 bits, as the session credentials). */
export function generateOperatorToken(): string {
  return randomBytes(32).toString('base64url')
}

const CHALLENGE = { 'www-authenticate': 'Bearer' }
const BEARER = /^Bearer +(\S+) *$/i

/** Tokens are compared as SHA-256 digests: equal lengths, so the comparison takes constant time. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest()
}

/** Options of the check. */
export interface OperatorTokenOptions {
  token: string
  /**
   * A token that opens one route only, besides the operator token: the metrics' (METRICS_TOKEN), so that a
   * Prometheus server scrapes without holding a token that provisions and simulates (docs/operations.md).
   */
  routeToken?: { url: string; token: string }
}

/** Registers the token check on every request of the application. */
export const operatorToken = fp(
  async (app: FastifyInstance, options: OperatorTokenOptions) => {
    if (options.token === '') throw new Error('The control plane needs a non-empty operator token')
    const expected = digest(options.token)
    const route = options.routeToken && {
      url: options.routeToken.url,
      expected: digest(options.routeToken.token),
    }
    app.addHook('onRequest', async (request) => {
      const given = BEARER.exec(request.headers.authorization ?? '')?.[1]
      if (given === undefined)
        throw new RestError(
          'NOT_ALLOWED',
          'The control plane needs the operator token: send Authorization: Bearer <token>',
          401,
          CHALLENGE,
        )
      const presented = digest(given)
      if (timingSafeEqual(presented, expected)) return
      const opened = route !== undefined && route.url === request.routeOptions.url
      if (opened && timingSafeEqual(presented, route.expected)) return
      throw new RestError('NOT_ALLOWED', 'The operator token is not valid', 401, CHALLENGE)
    })
  },
  { name: 'operator-token' },
)
