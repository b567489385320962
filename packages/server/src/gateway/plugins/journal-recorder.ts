/**
 * Records every request of the API in the journal (docs/journal.md). A request a route matched takes its place
 * when it arrives (a route's first `onRequest` hook, once its session is resolved), before the events its
 * handling publishes, and is completed once its answer is sent (`onResponse`) with its status, time, error,
 * session and the call or subscription its path names. A request no route matched (404, or 405 on a known
 * path) is recorded once answered as a near-miss, with the routes it may have meant. What a route records is
 * resolved once, when it is added (`onRoute`). The health probes are not recorded (a load balancer polls them
 * every few seconds). Not registered at all when the journal is off.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import type { Journal } from '../../platform/journal/journal.js'
import type { RequestDraft } from '../../platform/journal/journal-entry.js'
import { API_PATH } from '../base-urls.js'
import { answerFields, arrivalFields, basicLogin, setAnswer } from '../journal-http.js'
import { KnownRoutes } from '../near-misses.js'
import { operationIdOf } from '../operation-ids.js'
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH, HEALTHZ_PATH } from '../routes/health.js'
import { prependRouteHook } from './route-hooks.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's operationId, for the journal (set by journal-recorder.ts). */
    journalOperation?: string
  }
}

const UNRECORDED = new Set([HEALTH_LIVE_PATH, HEALTH_READY_PATH, HEALTHZ_PATH])

export const journalRecorder = fp(
  async (app: FastifyInstance) => {
    const { journal } = app.platform
    if (journal === undefined || !journal.enabled) return
    app.decorateRequest('journalRecord', undefined)
    const known = new KnownRoutes()
    const begin: onRequestHookHandler = (request, _reply, done) => {
      const record = arrivalFields(request) as RequestDraft
      record.kind = 'request'
      record.operation = request.routeOptions.config.journalOperation ?? ''
      request.journalRecord = journal.begin(record)
      done()
    }
    app.addHook('onRoute', (route) => {
      if (UNRECORDED.has(route.url)) return
      const methods = Array.isArray(route.method) ? route.method : [route.method]
      const operation = operationIdOf(
        String(methods[0]),
        route.url,
        API_PATH,
        route.schema?.operationId,
      )
      route.config = { ...route.config, journalOperation: operation }
      prependRouteHook(route, 'onRequest', begin)
      for (const method of methods)
        if (method !== 'HEAD' || route.config.swagger?.exposeHeadRoute)
          known.add(method, route.url, operation)
    })
    app.addHook('onResponse', (request, reply, done) => {
      const operation = request.routeOptions.config.journalOperation
      if (operation === undefined && UNRECORDED.has(request.routeOptions.url ?? '')) return done()
      answered(journal, known, request, reply, operation)
      done()
    })
  },
  { name: 'journal-recorder' },
)

/** Completes the request's entry (or records it whole: refused before its route's hooks, or unmatched). */
function answered(
  journal: Journal,
  known: KnownRoutes,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: string | undefined,
): void {
  const answer = answerFields(request, reply)
  if (operation === undefined && (answer.status === 404 || answer.status === 405)) {
    const arrival = arrivalFields(request)
    journal.record({
      kind: 'near-miss',
      ...arrival,
      ...answer,
      suggestions: known.suggest(arrival.method, arrival.path),
    })
    return
  }
  const record = (request.journalRecord ?? {
    kind: 'request',
    ...arrivalFields(request),
    ...(operation !== undefined && { operation }),
  }) as RequestDraft
  setAnswer(record, request, reply)
  const { session } = request
  if (session !== undefined) {
    record.user = session.owner
    record.session = session.sessionId
  } else {
    const login = basicLogin(request.headers.authorization)
    if (login !== undefined) record.user = login
  }
  const params = request.params as Readonly<Record<string, string | undefined>> | undefined
  const call = params?.['callRef']
  if (call !== undefined) record.call = call
  const subscription = params?.['subscriptionId']
  if (subscription !== undefined) record.subscription = subscription
  if (request.journalRecord !== undefined) journal.complete(request.journalRecord)
  else journal.record(record)
}
