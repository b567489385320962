/**
 * Each listener's connection limits on real sockets (issue 15, finding 8): a connection that sends nothing, one
 * whose headers trickle, one whose body trickles and one idle after its request are closed in time, the slow
 * ones with a 408 RestErrorInfo; beyond the cap a connection is closed at once; and a chunk channel, a long
 * response, lives on past every one of those times.
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionLimits } from '../../src/assembly/connection-limits.js'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const LIMITS: ConnectionLimits = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 800,
  keepAliveTimeoutMs: 300,
  maxConnections: 8,
  checkIntervalMs: 100,
}
/** Longest a limit may take to act: the limit, Node's check interval and a loaded machine's delay. */
const SLACK_MS = 1_500

let service: TestService
let listeners: Listeners
beforeAll(async () => {
  service = await startTestService()
  listeners = await startListeners(service.app, { host: '127.0.0.1', httpPort: 0, limits: LIMITS })
  service.running.platform.urls.httpPort = listeners.httpPort
})
afterAll(async () => {
  await listeners?.close()
  await service?.close()
})

/** A connection to the listener, with what it received and when it was closed (ms after it opened). */
async function open(): Promise<{
  socket: Socket
  received: () => string
  closed: Promise<number>
}> {
  const socket = connect(listeners.httpPort ?? 0, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  const opened = Date.now()
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk) => {
    received += chunk
  })
  socket.on('error', () => {})
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => resolve(Date.now() - opened)),
  )
  return { socket, received: () => received, closed }
}

describe('a listener sheds slow and idle connections', () => {
  it('closes a connection that sends nothing after the headers timeout', async () => {
    const connection = await open()
    expect(await connection.closed).toBeLessThan(LIMITS.headersTimeoutMs + SLACK_MS)
  })

  it('answers 408 to headers that trickle, and closes', async () => {
    const connection = await open()
    connection.socket.write('GET /api/rest HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    const ticker = setInterval(() => connection.socket.write('X-Slow: 1\r\n'), 100)
    const after = await connection.closed
    clearInterval(ticker)
    expect(after).toBeLessThan(LIMITS.headersTimeoutMs + SLACK_MS)
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /)
    expect(connection.received()).toMatch(/"httpStatus":"REQUEST_TIMEOUT"/)
  })

  it('answers 408 to a body that trickles, and closes', async () => {
    const connection = await open()
    connection.socket.write(
      'POST /api/rest/1.0/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    )
    const ticker = setInterval(() => connection.socket.write(' '), 100)
    const after = await connection.closed
    clearInterval(ticker)
    expect(after).toBeLessThan(LIMITS.requestTimeoutMs + SLACK_MS)
    expect(connection.received()).toMatch(/HTTP\/1\.1 408 /)
  })

  it('closes a kept-alive connection idle after its answer', async () => {
    const connection = await open()
    connection.socket.write('GET /api/rest HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    const after = await connection.closed
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /)
    expect(after).toBeLessThan(LIMITS.keepAliveTimeoutMs + SLACK_MS)
  })

  it('closes at once a connection beyond the cap, and accepts again once one closed', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, () => open()))
    const beyond = await open()
    expect(await beyond.closed).toBeLessThan(SLACK_MS)
    for (const connection of held) connection.socket.destroy()
    await Promise.all(held.map((connection) => connection.closed))
    const again = await open()
    again.socket.write('GET /api/rest HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    await again.closed
    expect(again.received()).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('keeps a chunk channel open past every limit', async () => {
    const cookie = await openSession(service.app, 'alice')
    const subscribed = await service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/subscriptions',
      headers: { cookie },
      payload: { filter: { selectors: [{ names: ['telephony'] }] }, version: '1.0' },
    })
    const { privatePollingUrl } = subscribed.json() as { privatePollingUrl: string }
    const path = new URL(privatePollingUrl).pathname
    const connection = await open()
    connection.socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`)
    const stillOpen = await Promise.race([
      connection.closed.then(() => false),
      new Promise<boolean>((resolve) =>
        setTimeout(() => resolve(true), LIMITS.requestTimeoutMs + SLACK_MS),
      ),
    ])
    expect(stillOpen).toBe(true)
    expect(connection.received()).toMatch(/Chunk started/)
    connection.socket.destroy()
  })
})
