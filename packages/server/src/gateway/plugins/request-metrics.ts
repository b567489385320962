/**
 * Times every request of the public API for the node's metrics (operations/service-metrics.ts): one `onResponse`
 * hook, whose series each route resolves once, when it is added (`onRoute`), under its pattern
 * (`/api/rest/1.0/telephony/calls/:callRef`), never its URL, so that the series stay as few as the routes; a
 * request no route matched (404, 405) counts under one route label, UNMATCHED_ROUTE. The time is Fastify's own,
 * from the request's arrival to the answer's last byte; a chunk channel counts when the server ends it.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { type RouteTimings, UNMATCHED_ROUTE } from '../../operations/service-metrics.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's request series (set by request-metrics.ts on every route). */
    timings?: RouteTimings
  }
}

export const requestMetrics = fp(
  async (app: FastifyInstance) => {
    const { metrics } = app.platform
    const unmatched = metrics.routeTimings(UNMATCHED_ROUTE)
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, timings: metrics.routeTimings(route.url) }
    })
    app.addHook('onResponse', (request, reply, done) => {
      const timings = request.routeOptions.config.timings ?? unmatched
      timings.observe(request.method, reply.statusCode, reply.elapsedTime / 1000)
      done()
    })
  },
  { name: 'request-metrics' },
)
