/**
 * Records the control plane's actions in the journal (docs/journal.md): every request that may change
 * something (any method but GET and HEAD), once answered, with its route's operationId and summary, its status
 * and time, and the user its path names. The journal's own routes are not recorded (emptying it leaves it
 * empty), nor requests no route matched. What a route records is resolved once, when it is added.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { exchangeFields } from '../gateway/journal-http.js'
import { operationIdOf } from '../gateway/operation-ids.js'
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
    })
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.config.controlJournal
      if (route === undefined) return done()
      const user = (request.params as Readonly<Record<string, string | undefined>>)['loginName']
      journal.record({
        kind: 'control',
        ...exchangeFields(request, reply),
        operation: route.operation,
        ...(route.summary !== undefined && { summary: route.summary }),
        ...(user !== undefined && { user }),
      })
      done()
    })
  },
  { name: 'control-journal' },
)
