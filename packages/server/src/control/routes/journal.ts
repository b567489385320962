/**
 * The journal (docs/journal.md): `GET /journal` reads its entries by filters, `GET /journal/stream` follows them
 * live as NDJSON, `POST /journal/verify` checks that entries matching an ordered list of patterns happened in
 * that order, `DELETE /journal` empties it. With the journal off (JOURNAL_SIZE=0) every route answers 404
 * NOT_FOUND saying so.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import { JOURNAL_OFF, type Journal } from '../../platform/journal/journal.js'
import { filterOf, QUERY_FIELDS, queryOf } from '../../platform/journal/journal-filter.js'
import type { JournalFollower } from '../../platform/journal/journal-store.js'
import { verificationOf, verify } from '../../platform/journal/journal-verify.js'
import { PlatformError } from '../../platform/platform-error.js'
import {
  JournalEntry,
  JournalPage,
  JournalQuery,
  JournalStreamQuery,
  JournalVerdict,
  JournalVerification,
} from './journal-schemas.js'

/** The path of the journal's routes below the control plane's (the control plane does not journal them). */
export const JOURNAL_ROUTES = '/journal'
/** How often the stream writes a heartbeat line when nothing else happened (proxies keep it open). */
export const DEFAULT_HEARTBEAT_MS = 15_000

const STREAM_FIELDS = QUERY_FIELDS.filter((name) => name !== 'limit' && name !== 'order')
const tags = ['journal']

/** `/journal`. */
export const journalRoutes: FastifyPluginAsyncTypebox<{
  journal: Journal
  heartbeatMs?: number
}> = async (app, { journal, heartbeatMs = DEFAULT_HEARTBEAT_MS }) => {
  /** The streams open: the control plane ends them when it closes (they would hold its close). */
  const streams = new Set<() => void>()
  app.addHook('preClose', (done) => {
    for (const end of streams) end()
    done()
  })
  const kept = () => {
    if (!journal.enabled) throw new PlatformError('NOT_FOUND', JOURNAL_OFF)
    return journal
  }

  app.get(
    JOURNAL_ROUTES,
    {
      schema: {
        summary: 'The entries of the journal that pass the filters, newest first unless asked',
        description:
          'Every API request (kind request, with its operationId, status and time), every event a ' +
          "subscription's queue took (event), every control-plane action that changes something (control) " +
          'and every API request no route matched (near-miss, with the routes it may have meant). Filters ' +
          'combine; `next` is there when more entries passed them.',
        tags,
        querystring: JournalQuery,
        response: { 200: JournalPage, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      kept()
      return journal.query(queryOf(request.query as Record<string, unknown>))
    },
  )

  app.delete(
    JOURNAL_ROUTES,
    {
      schema: {
        summary: 'Empties the journal',
        description: "The ids of the entries recorded after go on from the last one's.",
        tags,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (_request, reply) => {
      await kept().clear()
      return reply.code(204).send(null)
    },
  )

  app.get(
    `${JOURNAL_ROUTES}/stream`,
    {
      schema: {
        summary: 'Follows the journal live: one entry per line (NDJSON) as each is recorded',
        description:
          'The entries that pass the filters, from now on (with `after`, the ones held after that id ' +
          `first), one JSON object a line. A heartbeat line {"kind":"heartbeat","at":...} comes every ` +
          `${heartbeatMs / 1000} s without entries, so that proxies keep the response open. It ends when ` +
          'the client goes away, or the service stops.',
        tags,
        querystring: JournalStreamQuery,
        response: {
          200: {
            description: 'The stream, open until the client leaves',
            content: { 'application/x-ndjson': { schema: JournalEntry } },
          },
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const filter = filterOf(request.query as Record<string, unknown>, STREAM_FIELDS)
      kept()
      reply.hijack()
      const raw = reply.raw
      raw.writeHead(200, {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'cache-control': 'no-cache, no-store',
        'x-accel-buffering': 'no',
        // Its connection ends with it: a stream ended by the service closing does not hold the close.
        connection: 'close',
      })
      let written = Date.now()
      const line = (value: unknown) => {
        written = Date.now()
        raw.write(`${JSON.stringify(value)}\n`)
      }
      let follower: JournalFollower | undefined
      let gone = false
      const heartbeat = setInterval(() => {
        if (Date.now() - written >= heartbeatMs * 0.9)
          line({ kind: 'heartbeat', at: new Date().toISOString() })
      }, heartbeatMs)
      const end = () => raw.end()
      streams.add(end)
      raw.on('close', () => {
        gone = true
        streams.delete(end)
        clearInterval(heartbeat)
        void follower?.close()
      })
      try {
        follower = await journal.follow(filter, line)
      } catch (error) {
        request.log.error({ err: error }, 'the journal could not be followed')
        raw.end()
        return
      }
      if (gone) await follower.close()
    },
  )

  app.post(
    `${JOURNAL_ROUTES}/verify`,
    {
      schema: {
        summary: 'Checks that entries matching the patterns were recorded, in that order',
        description:
          'Each pattern is a partial entry (kind, user, operation, event, status, call...): it must match ' +
          'an entry recorded after the one the previous pattern matched, among the entries `within` ' +
          'keeps. Answers 200 either way: `matched` says, and when not, which pattern failed first and ' +
          'the entries closest to it.',
        tags,
        body: JournalVerification,
        response: { 200: JournalVerdict, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => verify(kept(), verificationOf(request.body)),
  )
}
