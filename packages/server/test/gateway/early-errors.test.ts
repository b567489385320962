/**
 * Errors raised before Fastify sees a request, on a real socket (issue 15, finding 2; issue 32, item 5): Node's
 * HTTP parser refuses headers over its limit and bytes that are not HTTP, and HTTP/1.1 requires a Host and a
 * body it can frame; the service answers each with one RestErrorInfo (no body to HEAD), then closes the
 * connection. (The errors Fastify raises before routing are in errors.test.ts.)
 */
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { RestErrorInfo } from '@openness/wire'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LoopbackService } from '../support/loopback-service.js'

let loopback: LoopbackService
let port = 0
beforeAll(async () => {
  loopback = await LoopbackService.start()
  port = Number(new URL(loopback.origin).port)
})
afterAll(() => loopback.close())

/** Sends `request` as raw bytes and reads everything the server answers until it closes the connection. */
function exchangeRaw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.end(request)
  })
}

/** The status line's code and the JSON body of a raw answer. */
function parsed(answer: string): { status: number; body: unknown; headers: string } {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body), headers: head }
}

describe("the HTTP parser's refusals are RestErrorInfo", () => {
  it('headers over 16 KB: 431 REQUEST_HEADER_FIELDS_TOO_LARGE, a RestErrorInfo, the connection closed', async () => {
    const answer = parsed(
      await exchangeRaw(
        `GET /api/rest HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
    )
    expect(answer.status).toBe(431)
    expect(answer.headers).toMatch(/content-type: application\/json/i)
    expect(Value.Check(RestErrorInfo, answer.body)).toBe(true)
    expect(answer.body).toMatchObject({
      httpStatus: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
      type: 'BAD_PARAMETER',
      helpMessage: expect.stringMatching(/^headers: /),
    })
  })

  it('bytes that are not HTTP: 400 BAD_PARAMETER', async () => {
    const answer = parsed(await exchangeRaw('HELLO THERE\r\n\r\n'))
    expect(answer.status).toBe(400)
    expect(Value.Check(RestErrorInfo, answer.body)).toBe(true)
    expect(answer.body).toMatchObject({ httpStatus: 'BAD_REQUEST', type: 'BAD_PARAMETER' })
  })

  it('headers over 16 KB on HEAD: the 431 head alone, no body, and a Node client reads it without a parse error', async () => {
    const raw = await exchangeRaw(
      `HEAD /api/rest?x=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    )
    const [head = '', ...rest] = raw.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 431 /)
    expect(head).toMatch(/content-length: \d+/i)
    expect(head).toMatch(/connection: close/i)
    expect(rest.join('')).toBe('')

    const answer = await new Promise<{ status: number | undefined; body: string }>(
      (resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, method: 'HEAD', path: `/api/rest?x=${'a'.repeat(100_000)}` },
          (response) => {
            let body = ''
            response.setEncoding('utf8')
            response.on('data', (chunk: string) => {
              body += chunk
            })
            response.on('end', () => resolve({ status: response.statusCode, body }))
          },
        )
        req.on('error', reject)
        req.end()
      },
    )
    expect(answer).toStrictEqual({ status: 431, body: '' })
  })

  it('HTTP/1.1 without Host: one 400 BAD_PARAMETER RestErrorInfo, the connection closed', async () => {
    const raw = await exchangeRaw('GET /api/rest HTTP/1.1\r\n\r\n')
    expect(raw.match(/HTTP\/1\.1 /g)).toHaveLength(1)
    const answer = parsed(raw)
    expect(answer.status).toBe(400)
    expect(answer.headers).toMatch(/connection: close/i)
    expect(Value.Check(RestErrorInfo, answer.body)).toBe(true)
    expect(answer.body).toMatchObject({ type: 'BAD_PARAMETER', helpMessage: 'Host: missing' })
  })

  it('HTTP/1.1 HEAD without Host: the 400 head alone', async () => {
    const raw = await exchangeRaw('HEAD /api/rest HTTP/1.1\r\n\r\n')
    const [head = '', ...rest] = raw.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 400 /)
    expect(rest.join('')).toBe('')
  })

  it.each([
    ['without a body', ''],
    ['with a JSON body', 'Content-Type: application/json\r\n'],
  ])(
    'a Transfer-Encoding that is not chunked last, %s: one 400 RestErrorInfo, the connection closed',
    async (_case, contentType) => {
      const body = contentType === '' ? '' : '{"applicationName":"x"}'
      const raw = await exchangeRaw(
        'POST /api/rest/1.0/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          `Transfer-Encoding: xchunked\r\n${contentType}\r\n${body}`,
      )
      expect(raw.match(/HTTP\/1\.1 /g)).toHaveLength(1)
      const answer = parsed(raw)
      expect(answer.status).toBe(400)
      expect(answer.headers).toMatch(/connection: close/i)
      expect(Value.Check(RestErrorInfo, answer.body)).toBe(true)
      expect(answer.body).toMatchObject({
        type: 'BAD_PARAMETER',
        helpMessage: expect.stringMatching(/^Transfer-Encoding 'xchunked' is not accepted/),
      })
    },
  )

  it('still answers a good request on a new connection afterwards', async () => {
    const response = await fetch(`${loopback.origin}/api/rest`)
    expect(response.status).toBe(200)
  })
})
