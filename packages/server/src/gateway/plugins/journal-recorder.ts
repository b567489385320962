/**
 * Records every request of the API in the journal (docs/journal.md). A request a route matched takes its place
 * when it arrives (a route's first `onRequest` hook, once its session is resolved), before the events its
 * handling publishes, and is completed once its answer is sent (the route's `onResponse`) with its status, time,
 * error, session and the call or subscription its path names. A request no route matched (404, or 405 on a known
 * path) is recorded once answered as a near-miss, with the routes it may have meant. What a route records is
 * resolved once, when it is added (`onRoute`), and its hooks hold it: reading `request.routeOptions` makes an
 * object at every read (docs/performance.md, "auth-read"). The health probes are not recorded (a load balancer
 * polls them every few seconds). Not registered at all when the journal is off.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Journal } from '../../platform/journal/journal.js'
import type { RequestDraft } from '../../platform/journal/journal-entry.js'
import { API_PATH } from '../base-urls.js'
import { answerFields, arrivalFields, basicLogin, setAnswer } from '../journal-http.js'
import { KnownRoutes } from '../near-misses.js'
import { operationIdOf } from '../operation-ids.js'
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH, HEALTHZ_PATH } from '../routes/health.js'
import { prependRouteHook } from './route-hooks.js'

const UNRECORDED = new Set([HEALTH_LIVE_PATH, HEALTH_READY_PATH, HEALTHZ_PATH])

export const journalRecorder = fp(
  async (app: FastifyInstance) => {
    const { journal } = app.platform
    if (journal === undefined || !journal.enabled) return
    app.decorateRequest('journalRecord', undefined)
    const known = new KnownRoutes()
    app.addHook('onRoute', (route) => {
      if (UNRECORDED.has(route.url)) return
      const methods = Array.isArray(route.method) ? route.method : [route.method]
      const operation = operationIdOf(
        String(methods[0]),
        route.url,
        API_PATH,
        route.schema?.operationId,
      )
      prependRouteHook(route, 'onRequest', (request, _reply, done) => {
        request.journalRecord = journal.begin(requestDraft(request, operation))
        done()
      })
      prependRouteHook(route, 'onResponse', (request, reply, done) => {
        answered(journal, request, reply, operation)
        done()
      })
      for (const method of methods)
        if (method !== 'HEAD' || route.config?.swagger?.exposeHeadRoute)
          known.add(method, route.url, operation)
    })
    // Every route but the health probes' records its own requests: what is left here is a request no route
    // matched (the not-found handler's).
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) unmatched(journal, known, request, reply)
      done()
    })
  },
  { name: 'journal-recorder' },
)

/** A request's entry as it arrives: what it asks, and the operation of its route if one matched. */
function requestDraft(request: FastifyRequest, operation: string | undefined): RequestDraft {
  const record = arrivalFields(request) as RequestDraft
  record.kind = 'request'
  if (operation !== undefined) record.operation = operation
  return record
}

/** Records a request no route matched: a near-miss when it was refused for that (404, 405). */
function unmatched(
  journal: Journal,
  known: KnownRoutes,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const answer = answerFields(request, reply)
  if (answer.status !== 404 && answer.status !== 405) {
    answered(journal, request, reply, undefined)
    return
  }
  const arrival = arrivalFields(request)
  journal.record({
    kind: 'near-miss',
    ...arrival,
    ...answer,
    suggestions: known.suggest(arrival.method, arrival.path),
  })
}

/** Completes the request's entry (or records it whole: refused before its route's hooks, or unmatched). */
function answered(
  journal: Journal,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: string | undefined,
): void {
  const begun = request.journalRecord
  const record = (begun ?? requestDraft(request, operation)) as RequestDraft
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
  if (begun !== undefined) journal.complete(begun)
  else journal.record(record)
}
