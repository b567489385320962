/**
 * JSON bodies: an empty body is accepted on every request even with a JSON content type, since real
 * clients send `Content-Type: application/json` on body-less POSTs (wire facts 1).
 */
import type { FastifyInstance, preValidationHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { prependRouteHook } from './route-hooks.js'

/**
 * An empty body where the route expects an object is an empty object: its required fields are then
 * named by validation, and a change with nothing in it changes nothing.
 */
const emptyBodyAsObject: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined) request.body = {}
  done()
}

export const jsonBody = fp(
  async (app: FastifyInstance) => {
    const parse = app.getDefaultJsonParser('error', 'error')
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body.toString()
      if (text.trim() === '') return done(null, undefined)
      parse(request, text, done)
    })
    // Only the routes whose body schema is an object get the hook: the others (every GET) run none.
    app.addHook('onRoute', (route) => {
      const schema = route.schema?.body as { type?: unknown } | undefined
      if (schema?.type !== 'object') return
      prependRouteHook(route, 'preValidation', emptyBodyAsObject)
    })
  },
  { name: 'json-body' },
)
