/**
 * What the fuzzer asserts of each answer: no 5xx but the ones docs/errors.md documents, and every error a
 * RestErrorInfo of the catalog (packages/wire/src/errors.ts) whose httpStatus, code and canRetry agree with its
 * type and status; a refused subscription is the one error answered with a Subscription body
 * (docs/subscriptions.md). Whether a refused request changed the state is state-snapshot.ts's.
 */
import {
  HTTP_STATUS_NAMES,
  REST_ERROR_TYPES,
  RestErrorInfo,
  type RestErrorType,
  Subscription,
} from '@openness/wire'
import type { LightMyRequestResponse } from 'fastify'
import { Value } from 'typebox/value'
import type { FuzzOperation } from './fuzz-operations.js'
import type { FuzzInput } from './hostile-inputs.js'

/** What is wrong with the answer to `input`; empty when nothing is. */
export function answerProblems(
  operation: FuzzOperation,
  input: FuzzInput,
  response: LightMyRequestResponse,
): string[] {
  const status = response.statusCode
  if (status < 400) return []
  const problems: string[] = []
  if (status >= 500 && !isDocumentedServerError(operation, input, response))
    problems.push(`${status} is not an answer the service documents here`)
  // A HEAD answer has no body: its status is all there is to check.
  if (operation.method !== 'HEAD') problems.push(...errorBodyProblems(operation, response))
  return problems
}

/**
 * The 5xx docs/errors.md lists: 503 NOT_READY while a fault is in force (with Retry-After), and 500
 * SERVER_PROBLEM to a DELETE /sessions with a credential that opened no session (specification, "Errors" rule 4).
 */
function isDocumentedServerError(
  operation: FuzzOperation,
  input: FuzzInput,
  response: LightMyRequestResponse,
): boolean {
  const type = typeOf(response)
  if (response.statusCode === 503 && type === 'NOT_READY')
    return response.headers['retry-after'] !== undefined
  return (
    response.statusCode === 500 &&
    type === 'SERVER_PROBLEM' &&
    operation.label === 'DELETE /api/rest/1.0/sessions' &&
    input.cookie === 'credentialWithoutSession'
  )
}

function errorBodyProblems(operation: FuzzOperation, response: LightMyRequestResponse): string[] {
  const status = response.statusCode
  if (!String(response.headers['content-type']).startsWith('application/json'))
    return [`content-type ${String(response.headers['content-type'])}, not JSON`]
  let body: unknown
  try {
    body = JSON.parse(response.body)
  } catch {
    return ['a body that is not JSON']
  }
  if (isRefusedSubscription(operation, status, body)) return []
  if (!Value.Check(RestErrorInfo, body)) return ['a body that is not a RestErrorInfo']
  const info = body as RestErrorInfo
  const entry = REST_ERROR_TYPES[info.type as RestErrorType]
  if (entry === undefined) return [`type ${String(info.type)} is not in the catalog`]
  const problems: string[] = []
  if (info.code !== entry.code) problems.push(`code ${info.code} for ${info.type}`)
  if (info.canRetry !== entry.canRetry) problems.push(`canRetry ${info.canRetry} for ${info.type}`)
  const statusName = HTTP_STATUS_NAMES[status as keyof typeof HTTP_STATUS_NAMES]
  if (info.httpStatus !== statusName)
    problems.push(`httpStatus ${info.httpStatus} with status ${status}`)
  if (!info.helpMessage) problems.push('no helpMessage')
  if (/\bat .*\.(ts|js):\d+/.test(response.body)) problems.push('a stack trace in the body')
  return problems
}

/** docs/subscriptions.md: a request that breaks a rule is refused with 400 and a Subscription body, REFUSED. */
function isRefusedSubscription(operation: FuzzOperation, status: number, body: unknown): boolean {
  return (
    operation.path === '/api/rest/1.0/subscriptions' &&
    status === 400 &&
    Value.Check(Subscription, body) &&
    (body as Subscription).status === 'REFUSED'
  )
}

function typeOf(response: LightMyRequestResponse): string | undefined {
  try {
    return (JSON.parse(response.body) as RestErrorInfo).type
  } catch {
    return undefined
  }
}
