/**
 * Records the control plane's actions in the journal (docs/journal.md): every request that may change
 * something (any method but GET and HEAD), in its place when it arrived (before the events it causes), with its
 * route's operationId and summary and the user its path names, completed once answered with its status and
 * time. The operator token is checked before (an instance hook): a request without it is not recorded. The journal's own routes are not recorded (emptying it leaves it
 * empty), nor requests no route matched. What a route records is resolved once, when it is added.
 */
import type { FastifyInstance, onRequestHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { type AnswerFields, arrivalFields, setAnswer } from '../gateway/journal-http.js'
import { operationIdOf } from '../gateway/operation-ids.js'
import { prependRouteHook } from '../gateway/plugins/route-hooks.js'
import type { Journal } from '../platform/journal/journal.js'
import { JOURNAL_ROUTES } from './routes/journal.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the journal records of a control route (set by control-journal.ts). */
    controlJournal?: { operation: string; summary?: string }
  }
}

/** Methods that only read. */
const READS = new Set(['GET', 'HEAD'])

export const controlJournal = fp<{ journal: Journal; basePath: string }>(
  async (app: FastifyInstance, { journal, basePath }) => {
    app.decorateRequest('journalRecord', undefined)
    const begin: onRequestHookHandler = (request, _reply, done) => {
      const route = request.routeOptions.config.controlJournal
      const user = (request.params as Readonly<Record<string, string | undefined>>)['loginName']
      request.journalRecord = journal.begin({
        kind: 'control',
        ...arrivalFields(request),
        operation: route?.operation ?? '',
        ...(route?.summary !== undefined && { summary: route.summary }),
        ...(user !== undefined && { user }),
      })
      done()
    }
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method]
      const method = String(methods[0])
      if (READS.has(method) || route.url.startsWith(`${basePath}${JOURNAL_ROUTES}`)) return
      const summary = route.schema?.summary
      route.config = {
        ...route.config,
        controlJournal: {
          operation: operationIdOf(method, route.url, basePath, route.schema?.operationId),
          ...(summary !== undefined && { summary }),
        },
      }
      prependRouteHook(route, 'onRequest', begin)
    })
    app.addHook('onResponse', (request, reply, done) => {
      const record = request.journalRecord
      if (record === undefined) return done()
      setAnswer(record as Partial<AnswerFields>, request, reply)
      journal.complete(record)
      done()
    })
  },
  { name: 'control-journal' },
)
