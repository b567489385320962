/**
 * What every answer carries and every request must be, whatever the route (issue 15, findings 10 and 11):
 * `X-Content-Type-Options: nosniff` on every answer, so that no browser reads a JSON error or an event channel
 * as something else; and one `Host` header at most (RFC 9112, 3.2: a request with several is answered 400),
 * since the public URLs the service builds for the client come from it. Node keeps the first `Host` and drops
 * the others from `headers`, so they are counted in `rawHeaders`. One hook, before the session is looked at.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { markRefusing } from '../early-errors.js'
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

/** Whether a `Transfer-Encoding` is one Node's parser refuses once the headers are read: chunked not last. */
function hasUnframedBody(transferEncoding: string | undefined): boolean {
  if (transferEncoding === undefined) return false
  const codings = transferEncoding.split(',')
  return codings[codings.length - 1]?.trim().toLowerCase() !== 'chunked'
}

/** A RestError that also closes the connection: what follows on it cannot be framed. */
const CLOSE = { connection: 'close' } as const

export const requestHygiene = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-content-type-options', 'nosniff')
      if (hasSeveralHosts(request.raw.rawHeaders))
        return done(new RestError('BAD_PARAMETER', 'Host: sent more than once'))
      // RFC 9112, 3.2: an HTTP/1.1 request without Host is answered 400 (Node's own answer is off: listeners.ts).
      if (request.headers.host === undefined && request.raw.httpVersion === '1.1')
        return done(new RestError('BAD_PARAMETER', 'Host: missing', undefined, CLOSE))
      // RFC 9112, 6.3: chunked not the final coding: the body cannot be framed; 400, then close. Node's parser
      // hands such a request over and only then raises clientError (gateway/early-errors.ts answers nothing more).
      const transferEncoding = request.headers['transfer-encoding']
      if (hasUnframedBody(transferEncoding)) {
        markRefusing(request.raw.socket)
        return done(
          new RestError(
            'BAD_PARAMETER',
            `Transfer-Encoding '${transferEncoding}' is not accepted: chunked must be the last coding`,
            undefined,
            CLOSE,
          ),
        )
      }
      done()
    })
  },
  { name: 'request-hygiene' },
)
