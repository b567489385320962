/**
 * What the journal keeps of an HTTP exchange (docs/journal.md, "What is never recorded"), shared by the
 * gateway's recorder and the control plane's: the path, the query with secrets masked, the time taken, the
 * error answered. Never a header's value (cookies, Authorization) nor a body.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { JournalError, JournalRecord } from '../platform/journal/journal-entry.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The RestErrorInfo the error handler answered, if any (plugins/error-handler.ts). */
    restError: JournalError | undefined
    /** The request's journal entry, kept when it arrived and completed once answered. */
    journalRecord: JournalRecord | undefined
  }
}

/** Query parameters whose value is never recorded. */
const SECRET_NAME = /pass|secret|token|key|auth|cookie|credential|signature/i

/** What an HTTP entry says of the request, known when it arrives. */
export interface ArrivalFields {
  method: string
  path: string
  query?: string
}

/** What an HTTP entry says of the answer. */
export interface AnswerFields {
  status: number
  durationMs: number
  error?: JournalError
}

/** The method, path and query (secrets masked) of a request. */
export function arrivalFields(request: FastifyRequest): ArrivalFields {
  const { url } = request
  const mark = url.indexOf('?')
  if (mark < 0) return { method: request.method, path: url }
  const fields: ArrivalFields = { method: request.method, path: url.slice(0, mark) }
  if (mark < url.length - 1) fields.query = maskedQuery(url.slice(mark + 1))
  return fields
}

/** The status, time and error of the answer, set on `fields` (an entry's record). */
export function setAnswer(
  fields: Partial<AnswerFields>,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  fields.status = reply.statusCode
  fields.durationMs = Math.round(reply.elapsedTime * 100) / 100
  const error = request.restError
  if (error !== undefined) fields.error = error
}

/** The status, time and error of the answer. */
export function answerFields(request: FastifyRequest, reply: FastifyReply): AnswerFields {
  const fields: Partial<AnswerFields> = {}
  setAnswer(fields, request, reply)
  return fields as AnswerFields
}

/** The query with the value of every parameter named like a secret replaced by `***`. */
export function maskedQuery(query: string): string {
  if (!SECRET_NAME.test(query)) return query
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      const name = equals < 0 ? pair : pair.slice(0, equals)
      let decoded = name
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '))
      } catch {
        // A malformed name is matched as it is.
      }
      return equals >= 0 && SECRET_NAME.test(decoded) ? `${name}=***` : pair
    })
    .join('&')
}

/** The login name of a request's Basic credentials (never the password); undefined without them. */
export function basicLogin(authorization: string | undefined): string | undefined {
  if (authorization === undefined || !/^basic /i.test(authorization)) return undefined
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  const login = colon < 0 ? '' : decoded.slice(0, colon)
  return login === '' ? undefined : login
}
