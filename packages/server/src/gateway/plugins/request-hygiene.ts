/**
 * What every answer carries and every request must be, whatever the route (issue 15, findings 10 and 11):
 * `X-Content-Type-Options: nosniff` on every answer, so that no browser reads a JSON error or an event channel
 * as something else; and one `Host` header at most (RFC 9112, 3.2: a request with several is answered 400),
 * since the public URLs the service builds for the client come from it. Node keeps the first `Host` and drops
 * the others from `headers`, so they are counted in `rawHeaders`. One hook, before the session is looked at.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { RestError } from '../rest-error.js'

/** Whether the raw header list (name, value, name, value...) names `Host` more than once. */
function hasSeveralHosts(rawHeaders: readonly string[]): boolean {
  let hosts = 0
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) return true
  }
  return false
}

export const requestHygiene = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-content-type-options', 'nosniff')
      if (hasSeveralHosts(request.raw.rawHeaders))
        return done(new RestError('BAD_PARAMETER', 'Host: sent more than once'))
      done()
    })
  },
  { name: 'request-hygiene' },
)
