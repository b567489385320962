/**
 * Errors raised before Fastify sees a request, on a real socket (issue 15, finding 2): Node's HTTP parser refuses
 * headers over its limit and bytes that are not HTTP; the service answers both with a RestErrorInfo, then closes
 * the connection. (The errors Fastify raises before routing are in errors.test.ts.)
 */
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

  it('still answers a good request on a new connection afterwards', async () => {
    const response = await fetch(`${loopback.origin}/api/rest`)
    expect(response.status).toBe(200)
  })
})
