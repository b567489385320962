/**
 * The errors raised before a route runs, answered as RestErrorInfo like every other (specification, "Errors";
 * issue 15, finding 2): Fastify's framework errors (a path that is not a valid URL, a path parameter over the
 * router's length limit), which it answers with a body of its own unless given `frameworkErrors`, and the errors
 * Node's HTTP parser raises on a connection (headers over its limit, a request that is not HTTP, a request too
 * slow), which Node answers with an empty body unless the server handles `clientError`.
 */
import type { ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { type RestErrorInfo, restErrorInfo } from '@openness/wire'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'

/** The longest path parameter the router takes (find-my-way's default, kept). */
export const MAX_PARAM_LENGTH = 100

/** Fastify's `frameworkErrors`: the path's errors, found before any route or hook runs. */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const [body, status] = frameworkErrorBody(error)
  void reply.code(status).type('application/json; charset=utf-8').send(body)
}

function frameworkErrorBody(error: FastifyError): [RestErrorInfo, number] {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return [restErrorInfo('BAD_PARAMETER', 'path: not a valid URL (a bad percent-encoding)'), 400]
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return [
        restErrorInfo(
          'BAD_PARAMETER',
          `path: a parameter is longer than ${MAX_PARAM_LENGTH} characters`,
          { status: 414 },
        ),
        414,
      ]
    default:
      return [
        restErrorInfo('SERVER_PROBLEM', 'The request could not be routed', {
          innerMessage: error.code,
        }),
        500,
      ]
  }
}

/** Marks a connection whose request the gateway refuses, its answer under way: clientError adds none. */
const REFUSING = Symbol('openness.refusing')

/** Says that the gateway refuses the request on `socket` and answers it (request-hygiene.ts). */
export function markRefusing(socket: Duplex): void {
  ;(socket as Duplex & { [REFUSING]?: true })[REFUSING] = true
}

function isRefusing(socket: Duplex): boolean {
  return (socket as Duplex & { [REFUSING]?: true })[REFUSING] === true
}

/**
 * A server's `clientError`: answers what Node's parser refused with a RestErrorInfo and closes the connection
 * (its next bytes cannot be trusted); a connection already reset or not writable is only destroyed.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  // The response Node is writing on this connection, if any (what its own clientError default looks at): once
  // its head is on the wire, or when the gateway took the request to refuse it (a Transfer-Encoding the parser
  // refuses only after the headers: request-hygiene.ts, whose answer may come a few hooks later), that response
  // is the request's one answer: a second would be one too many. Close after it.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
  if (inFlight != null && (inFlight.headersSent || isRefusing(socket))) {
    if (inFlight.writableFinished) socket.end()
    else inFlight.once('finish', () => socket.end())
    return
  }
  const [body, status] = clientErrorBody(error.code)
  const json = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${status} ${body.httpStatus ?? ''}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      'Connection: close\r\n\r\n' +
      // RFC 9110, 9.3.2: no content in an answer to HEAD (Content-Length still says what GET would get).
      (refusedMethod(error.rawPacket) === 'HEAD' ? '' : json),
  )
}

/**
 * The method of the refused request when the parser's current buffer starts with its request line (requests
 * sent in one write: every client library); undefined otherwise (a request line read in an earlier chunk).
 */
function refusedMethod(rawPacket: Buffer | undefined): string | undefined {
  if (rawPacket === undefined) return undefined
  return /^(?:\r?\n)*([!#$%&'*+.^_`|~0-9A-Za-z-]+) [^ \r\n]/.exec(
    rawPacket.subarray(0, 64).toString('latin1'),
  )?.[1]
}

function clientErrorBody(code: string | undefined): [RestErrorInfo, 400 | 408 | 431] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        restErrorInfo('BAD_PARAMETER', 'headers: larger than the server accepts', {
          status: 431,
        }),
        431,
      ]
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        restErrorInfo('BAD_PARAMETER', 'The request was not received in time', { status: 408 }),
        408,
      ]
    default:
      return [restErrorInfo('BAD_PARAMETER', 'The request is not valid HTTP/1.1'), 400]
  }
}
