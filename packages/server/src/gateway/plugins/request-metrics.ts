/**
 * Times every request of the public API for the node's metrics (operations/service-metrics.ts): one `onResponse`
 * hook per route, holding the series the route resolved once, when it was added (`onRoute`), under its pattern
 * (`/api/rest/1.0/telephony/calls/:callRef`), never its URL, so that the series stay as few as the routes; a
 * request no route matched (404, 405) counts under one route label, UNMATCHED_ROUTE, from the one hook every
 * request runs. The hooks hold their series rather than read them from `request.routeOptions`, which makes an
 * object at every read (docs/performance.md, "auth-read"). The time is Fastify's own, from the request's
 * arrival to the answer's last byte; a chunk channel counts when the server ends it.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { UNMATCHED_ROUTE } from '../../operations/service-metrics.js'
import { prependRouteHook } from './route-hooks.js'

export const requestMetrics = fp(
  async (app: FastifyInstance) => {
    const { metrics } = app.platform
    const unmatched = metrics.routeTimings(UNMATCHED_ROUTE)
    app.addHook('onRoute', (route) => {
      const timings = metrics.routeTimings(route.url)
      prependRouteHook(route, 'onResponse', (request, reply, done) => {
        timings.observe(request.method, reply.statusCode, reply.elapsedTime / 1000)
        done()
      })
    })
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404)
        unmatched.observe(request.method, reply.statusCode, reply.elapsedTime / 1000)
      done()
    })
  },
  { name: 'request-metrics' },
)
