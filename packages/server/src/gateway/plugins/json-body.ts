/**
 * JSON bodies: an empty body is accepted on every request even with a JSON content type, since real
 * clients send `Content-Type: application/json` on body-less POSTs (wire facts 1).
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export const jsonBody = fp(
  async (app: FastifyInstance) => {
    const parse = app.getDefaultJsonParser('error', 'error')
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body.toString()
      if (text.trim() === '') return done(null, undefined)
      parse(request, text, done)
    })
    // An empty body where the route expects an object is an empty object: its required fields are then
    // named by validation, and a change with nothing in it changes nothing.
    app.addHook('preValidation', async (request) => {
      if (request.body !== undefined) return
      const schema = request.routeOptions.schema?.body as { type?: unknown } | undefined
      if (schema?.type === 'object') request.body = {}
    })
  },
  { name: 'json-body' },
)
