/**
 * Records every request of the API in the journal (docs/journal.md), once its answer is sent (`onResponse`):
 * its route's operationId, status, time, session and the call or subscription its path names; a request no
 * route matched (404, or 405 on a known path) as a near-miss, with the routes it may have meant. What a route
 * records is resolved once, when it is added (`onRoute`). The health probes are not recorded (a load balancer
 * polls them every few seconds). Not registered at all when the journal is off.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { API_PATH } from '../base-urls.js'
import { basicLogin, exchangeFields } from '../journal-http.js'
import { KnownRoutes } from '../near-misses.js'
import { operationIdOf } from '../operation-ids.js'
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH, HEALTHZ_PATH } from '../routes/health.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the journal records of the route: its operationId; null, nothing (set by journal-recorder.ts). */
    journal?: { operation: string } | null
  }
}

const UNRECORDED = new Set([HEALTH_LIVE_PATH, HEALTH_READY_PATH, HEALTHZ_PATH])

export const journalRecorder = fp(
  async (app: FastifyInstance) => {
    const { journal } = app.platform
    if (journal === undefined || !journal.enabled) return
    const known = new KnownRoutes()
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method]
      if (UNRECORDED.has(route.url)) {
        route.config = { ...route.config, journal: null }
        return
      }
      const operation = operationIdOf(
        String(methods[0]),
        route.url,
        API_PATH,
        route.schema?.operationId,
      )
      route.config = { ...route.config, journal: { operation } }
      for (const method of methods)
        if (method !== 'HEAD' || route.config.swagger?.exposeHeadRoute)
          known.add(method, route.url, operation)
    })
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.config.journal
      if (route === null) return done()
      const fields = exchangeFields(request, reply)
      if (route === undefined && (fields.status === 404 || fields.status === 405)) {
        journal.record({
          kind: 'near-miss',
          ...fields,
          suggestions: known.suggest(fields.method, fields.path),
        })
        return done()
      }
      const { session } = request
      const user = session?.owner ?? basicLogin(request.headers.authorization)
      const params = request.params as Readonly<Record<string, string | undefined>> | undefined
      const call = params?.['callRef']
      const subscription = params?.['subscriptionId']
      journal.record({
        kind: 'request',
        ...fields,
        ...(route !== undefined && { operation: route.operation }),
        ...(user !== undefined && { user }),
        ...(session !== undefined && { session: session.sessionId }),
        ...(call !== undefined && { call }),
        ...(subscription !== undefined && { subscription }),
      })
      done()
    })
  },
  { name: 'journal-recorder' },
)
