/**
 * Turns everything thrown anywhere (routes, hooks, body parsing, validation) into a RestErrorInfo, and
 * answers unknown paths with one: the client never sees Fastify's default error bodies or a stack trace.
 */
import { REST_ERROR_TYPES, type RestErrorInfo, restErrorInfo } from '@openness/wire'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { PlatformError } from '../../platform/platform-error.js'
import { EngineRequestTimeoutError } from '../../platform/telephony/engine-request-timeout-error.js'
import { RestError } from '../rest-error.js'
import { RouteMethods } from '../route-methods.js'
import { describeValidationError } from '../validation-message.js'

/** What `Retry-After` says when the call engine did not answer: a new owner takes over within about a second. */
const ENGINE_RETRY_AFTER_SECONDS = 1

function send(reply: FastifyReply, body: RestErrorInfo & { httpStatus: string }, status: number) {
  // For the journal (docs/journal.md), which records the error once the answer is sent.
  reply.request.restError = { type: body.type ?? '', message: body.helpMessage ?? '' }
  return reply.code(status).type('application/json; charset=utf-8').send(body)
}

/** The RestErrorInfo and status for an error Fastify itself raised (parsing, validation, limits). */
function fromFastifyError(
  error: FastifyError,
  request: FastifyRequest,
): [RestErrorInfo & { httpStatus: string }, number] | undefined {
  if (error.validation) {
    const message = describeValidationError(error.validation, error.validationContext)
    return [restErrorInfo('BAD_PARAMETER', message), 400]
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return [
        restErrorInfo(
          'BAD_PARAMETER',
          `Content-Type '${request.headers['content-type'] ?? ''}' is not accepted: send application/json`,
        ),
        400,
      ]
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return [
        restErrorInfo(
          'BAD_PARAMETER',
          `The body is larger than ${request.routeOptions.bodyLimit} bytes`,
        ),
        400,
      ]
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return [restErrorInfo('BAD_PARAMETER', 'Content-Length does not match the body'), 400]
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return [restErrorInfo('BAD_PARAMETER', `body: malformed JSON (${error.message})`), 400]
  }
  if (error instanceof SyntaxError)
    return [restErrorInfo('BAD_PARAMETER', `body: malformed JSON (${error.message})`), 400]
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
    return [restErrorInfo('BAD_PARAMETER', error.message), 400]
  return undefined
}

/** Registers the error handler and the not-found handler on the root instance. */
export const errorHandler = fp(
  async (app: FastifyInstance) => {
    const routes = new RouteMethods()
    app.decorateRequest('restError', undefined)
    app.addHook('onRoute', (route) => routes.add(route.url, route.method))

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof RestError) {
        reply.headers(error.headers)
        return send(reply, error.body, error.status ?? REST_ERROR_TYPES[error.type].status)
      }
      if (error instanceof PlatformError) {
        const options = {
          ...(error.innerMessage !== undefined && { innerMessage: error.innerMessage }),
          ...(error.routing !== undefined && { routing: error.routing }),
        }
        return send(
          reply,
          restErrorInfo(error.type, error.message, options),
          REST_ERROR_TYPES[error.type].status,
        )
      }
      if (error instanceof EngineRequestTimeoutError) {
        // The call engine's owner did not answer a forwarded command (cluster mode: an owner changing, ~1 s).
        // It was not run (the owner does not start a request past its bound): the client retries.
        request.log.warn({ err: error }, 'the call engine did not answer in time')
        reply.header('retry-after', String(ENGINE_RETRY_AFTER_SECONDS))
        return send(
          reply,
          restErrorInfo(
            'NOT_READY',
            `The call engine did not answer in time; retry in ${ENGINE_RETRY_AFTER_SECONDS} s`,
          ),
          503,
        )
      }
      const known = fromFastifyError(error, request)
      if (known) return send(reply, known[0], known[1])
      request.log.error({ err: error }, 'unexpected error')
      return send(
        reply,
        restErrorInfo(
          'SERVER_PROBLEM',
          'Internal server error; the administrator can find it in the log',
          {
            status: 500,
            innerMessage: `request id ${request.id}`,
          },
        ),
        500,
      )
    })

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? ''
      const allowed = routes.methodsFor(path)
      if (allowed.length > 0) {
        reply.header('allow', allowed.join(', '))
        return send(
          reply,
          restErrorInfo(
            'NOT_SUPPORTED',
            `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
            {
              status: 405,
            },
          ),
          405,
        )
      }
      return send(
        reply,
        restErrorInfo('NOT_FOUND', `No resource at ${request.method} ${path}`),
        404,
      )
    })
  },
  { name: 'error-handler' },
)
