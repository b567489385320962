/**
 * The communication log (service `Comlog`, `/comlog/records`; wire facts 8.2, docs/comlog.md): the records
 * of the calls the user took part in, read, acknowledged and deleted with the SDKs' exact requests. Every
 * operation acts on the acting user's records only (`loginName` for an administrator session).
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { ComRecord, ComRecordIds, ComRecords } from '@openness/wire'
import type { ComRecordFilter } from '../../platform/comlog/com-record.js'
import { PlatformError } from '../../platform/platform-error.js'
import { loginNameRule } from '../access.js'
import { errorResponses } from '../error-responses.js'
import { LoginNameQuery, loginNameParameter } from '../login-name-query.js'

const tags = ['comlog']

/** The first page when the client names none; the SDKs send `limit` only when above 0. */
export const DEFAULT_COMLOG_LIMIT = 100
export const MAX_COMLOG_LIMIT = 1000

/** The selection the query and the delete by filter share (wire facts 8.2). */
const FilterQuery = {
  loginName: loginNameParameter,
  afterDate: Type.Optional(
    Type.String({
      description: 'records that began at or after this date (ISO 8601, or any date text)',
    }),
  ),
  beforeDate: Type.Optional(
    Type.String({ description: 'records that began at or before this date' }),
  ),
  unacknowledged: Type.Optional(Type.Boolean()),
  unanswered: Type.Optional(Type.Boolean()),
  role: Type.Optional(Type.Union([Type.Literal('CALLER'), Type.Literal('CALLEE')])),
  comRef: Type.Optional(Type.String()),
  remotePartyId: Type.Optional(Type.String()),
}

const RecordsQuery = Type.Object({
  ...FilterQuery,
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 0 })),
  optimized: Type.Optional(
    Type.Boolean({ description: 'accepted; records are always in their compact form' }),
  ),
})

const DeleteQuery = Type.Object({
  ...FilterQuery,
  recordIdList: Type.Optional(
    Type.String({
      description: 'comma-separated record ids: deletes those instead of a selection',
    }),
  ),
})

const AcknowledgeQuery = Type.Object({ acknowledge: Type.Boolean(), loginName: loginNameParameter })
const RecordParams = Type.Object({ recordId: Type.String({ pattern: '^[0-9]+$' }) })

const noContent = { 204: Type.Null() }

export const comlogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide('Comlog')

  app.get(
    '/records',
    {
      schema: {
        operationId: 'getComRecords',
        summary: "The user's records, newest first, one page at a time",
        tags,
        querystring: RecordsQuery,
        response: { 200: ComRecords, ...errorResponses() },
      },
    },
    async (request) => {
      const { loginName: user } = loginNameRule(request, request.query.loginName)
      const offset = request.query.offset ?? 0
      const asked = request.query.limit ?? 0
      const limit = asked > 0 ? Math.min(asked, MAX_COMLOG_LIMIT) : DEFAULT_COMLOG_LIMIT
      const page = await request.server.platform.comlog.findRecords(user, filterOf(request.query), {
        offset,
        limit,
      })
      const records = page.records.map((stored) => stored.record)
      // Both spellings: Node and browser SDKs read comHistoryRecords/totalCount, Java records/count.
      return {
        offset,
        limit,
        totalCount: page.totalCount,
        comHistoryRecords: records,
        count: page.totalCount,
        records,
      }
    },
  )

  app.get(
    '/records/:recordId',
    {
      schema: {
        operationId: 'getComRecord',
        summary: 'One of the user’s records',
        tags,
        params: RecordParams,
        querystring: LoginNameQuery,
        response: { 200: ComRecord, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { loginName: user } = loginNameRule(request, request.query.loginName)
      return request.server.platform.comlog.findRecord(user, Number(request.params.recordId))
    },
  )

  app.delete(
    '/records/:recordId',
    {
      schema: {
        operationId: 'deleteComRecord',
        summary: 'Delete one of the user’s records',
        tags,
        params: RecordParams,
        querystring: LoginNameQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { loginName: user } = loginNameRule(request, request.query.loginName)
      await request.server.platform.comlog.deleteRecord(user, Number(request.params.recordId))
      return reply.code(204).send(null)
    },
  )

  app.delete(
    '/records',
    {
      schema: {
        operationId: 'deleteComRecords',
        summary: 'Delete the user’s records: those of recordIdList, else those the filter selects',
        tags,
        querystring: DeleteQuery,
        response: { ...noContent, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const { loginName: user } = loginNameRule(request, request.query.loginName)
      const { comlog } = request.server.platform
      const list = request.query.recordIdList
      if (list !== undefined) await comlog.deleteRecords(user, idList(list))
      else await comlog.deleteMatching(user, filterOf(request.query))
      return reply.code(204).send(null)
    },
  )

  app.put(
    '/records',
    {
      schema: {
        operationId: 'acknowledgeComRecords',
        summary: 'Acknowledge (acknowledge=true) or unacknowledge the user’s records',
        tags,
        querystring: AcknowledgeQuery,
        body: ComRecordIds,
        response: { ...noContent, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const { loginName: user } = loginNameRule(request, request.query.loginName)
      const ids = request.body.recordIds.map((id) => Number(id))
      await request.server.platform.comlog.acknowledge(user, ids, request.query.acknowledge)
      return reply.code(204).send(null)
    },
  )
}

type FilterFields = {
  afterDate?: string | undefined
  beforeDate?: string | undefined
  unacknowledged?: boolean | undefined
  unanswered?: boolean | undefined
  role?: 'CALLER' | 'CALLEE' | undefined
  comRef?: string | undefined
  remotePartyId?: string | undefined
}

/** The filter of a query; 400 BAD_PARAMETER naming a date no Date can read. */
function filterOf(query: FilterFields): ComRecordFilter {
  const after = dateOf('afterDate', query.afterDate)
  const before = dateOf('beforeDate', query.beforeDate)
  return {
    ...(after !== undefined && { after }),
    ...(before !== undefined && { before }),
    ...(query.unacknowledged && { unacknowledgedOnly: true }),
    ...(query.unanswered && { unansweredOnly: true }),
    ...(query.role !== undefined && { role: query.role }),
    ...(query.comRef !== undefined && { comRef: query.comRef }),
    ...(query.remotePartyId !== undefined && { remotePartyId: query.remotePartyId }),
  }
}

/**
 * A date parameter: ISO 8601 from the Node and Java SDKs, the locale text of a .NET DateTime from the C#
 * SDK; whatever `Date` reads is accepted (docs/comlog.md).
 */
function dateOf(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined
  const ms = new Date(text).getTime()
  if (Number.isNaN(ms))
    throw new PlatformError('BAD_PARAMETER', `query parameter ${name}: not a date: ${text}`)
  return ms
}

/** `1,2,3`: 400 BAD_PARAMETER on anything but record ids. */
function idList(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim())
  if (parts.some((part) => !/^[0-9]+$/.test(part)))
    throw new PlatformError(
      'BAD_PARAMETER',
      `query parameter recordIdList: not a list of ids: ${text}`,
    )
  return parts.map(Number)
}
