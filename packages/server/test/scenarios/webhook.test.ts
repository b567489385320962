/**
 * Webhook delivery over real loopback sockets (issue 11, item 9): a subscription made with the body the
 * vendor Node SDK sends gets its events POSTed one per request, in order, signed; a failed POST is
 * retried; a receiver down beyond the queue bound gets the loss notice; DELETE stops delivery; a host the
 * operator does not allow is refused before any connection.
 */
import { createHmac } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PlatformOptions } from '../../src/assembly/platform-options.js'
import { fetchTransport, type WebhookTransport } from '../../src/delivery/webhook-sender.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'
import { WebhookReceiver } from '../support/webhook-receiver.js'

const SECRET = 'the-operator-webhook-secret'
const SUBSCRIPTIONS = '/api/rest/1.0/subscriptions'

let service: TestService
let app: FastifyInstance
let receiver: WebhookReceiver
/** Every URL the service sent a request to, and how many answers it has processed. */
let targets: string[]
let answered: number

/** fetch, recording where each request goes and when its answer is back. */
const spyTransport: WebhookTransport = async (post) => {
  targets.push(post.url)
  try {
    return await fetchTransport(post)
  } finally {
    answered += 1
  }
}

async function start(options: Partial<PlatformOptions> = {}) {
  targets = []
  answered = 0
  service = await startTestService({
    ...options,
    webhooks: { secret: SECRET, transport: spyTransport, ...options.webhooks },
  })
  app = service.app
  receiver = await WebhookReceiver.start()
}

beforeEach(() => start())
afterEach(async () => {
  await service.close()
  await receiver.close()
  // Never a request anywhere but the loopback receiver.
  for (const url of targets) expect(url.startsWith('http://127.0.0.1:')).toBe(true)
})

/** Waits (real time) until the service has processed `count` answers, then lets it react. */
async function answers(count: number): Promise<void> {
  const deadline = Date.now() + 3000
  while (answered < count) {
    if (Date.now() > deadline)
      throw new Error(
        `expected ${count} answers, got ${answered}; ${targets.length} sent, ${receiver.requests.length} received`,
      )
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await new Promise((resolve) => setImmediate(resolve))
}

/** The body the Node SDK (o2g-node-sdk, src/internal/rest/subscriptions-rest.ts) sends in webhook mode. */
const nodeSdkBody = (webHookUrl: string) => ({
  filter: {
    selectors: [
      { names: ['telephony'], ids: [] },
      { names: ['user'], ids: [] },
    ],
  },
  version: '1.0',
  webHookUrl,
})

async function subscribe(cookie: string, body: object) {
  return app.inject({ method: 'POST', url: SUBSCRIPTIONS, headers: { cookie }, payload: body })
}

const setLanguage = (cookie: string, guiLanguage: string) =>
  app.inject({
    method: 'POST',
    url: '/api/rest/1.0/users/alice/preferences',
    headers: { cookie },
    payload: { guiLanguage },
  })

const language = (event: Record<string, unknown>) =>
  (event['preferences'] as Record<string, unknown> | undefined)?.['guiLanguage']

describe('webhook delivery: nominal', () => {
  it('accepts the Node SDK body with what the SDK reads, and POSTs each event as one JSON object, in order', async () => {
    const cookie = await openSession(app, 'alice')
    const response = await subscribe(cookie, nodeSdkBody(receiver.url))
    expect(response.statusCode).toBe(200)
    const body = response.json<Record<string, unknown>>()
    // The SDK reads status and subscriptionId; it opens no channel in webhook mode.
    expect(body).toEqual({
      subscriptionId: expect.stringMatching(/^[0-9a-f]{32}$/),
      status: 'ACCEPTED',
      format: 'JSON',
    })
    for (const value of ['fr', 'de', 'es']) await setLanguage(cookie, value)
    const requests = await receiver.received(3)
    expect(requests.map((request) => language(request.json))).toEqual(['fr', 'de', 'es'])
    for (const request of requests) {
      expect(request.method).toBe('POST')
      expect(request.path).toBe('/o2g/events')
      expect(request.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(request.json).toMatchObject({ eventName: 'OnPreferencesChanged', loginName: 'alice' })
      expect(request.body.toString()).not.toContain('\n')
      expect(request.headers['x-openness-subscription']).toBe(body['subscriptionId'])
    }
    expect(requests.map((request) => request.headers['x-openness-sequence'])).toEqual([
      '1',
      '2',
      '3',
    ])
  })

  it('signs each request: HMAC-SHA256 of "<timestamp>.<body>" with the operator secret', async () => {
    const cookie = await openSession(app, 'alice')
    await subscribe(cookie, nodeSdkBody(receiver.url))
    await setLanguage(cookie, 'fr')
    const [request] = await receiver.received(1)
    if (request === undefined) throw new Error('no request')
    const timestamp = String(request.headers['x-openness-timestamp'])
    expect(Number(timestamp)).toBe(Math.floor(service.clock.now() / 1000))
    const expected = createHmac('sha256', SECRET)
      .update(`${timestamp}.`)
      .update(request.body)
      .digest('hex')
    expect(request.headers['x-openness-signature']).toBe(`sha256=${expected}`)
  })

  it('retries a POST answered 500: the same event once more, then the next ones in order', async () => {
    const cookie = await openSession(app, 'alice')
    await subscribe(cookie, nodeSdkBody(receiver.url))
    receiver.status = 500
    await setLanguage(cookie, 'fr')
    await setLanguage(cookie, 'de')
    await receiver.received(1)
    await answers(1)
    receiver.status = 200
    await service.clock.advance(1000)
    const requests = await receiver.received(3)
    expect(requests.map((request) => language(request.json))).toEqual(['fr', 'fr', 'de'])
    expect(requests.map((request) => request.headers['x-openness-sequence'])).toEqual([
      '1',
      '1',
      '2',
    ])
    await answers(3)
    expect(receiver.requests).toHaveLength(3)
  })

  it('stops delivery on DELETE: no retry, no new event', async () => {
    const cookie = await openSession(app, 'alice')
    const response = await subscribe(cookie, nodeSdkBody(receiver.url))
    const { subscriptionId } = response.json<{ subscriptionId: string }>()
    receiver.status = 500
    await setLanguage(cookie, 'fr')
    await answers(1)
    const deleted = await app.inject({
      method: 'DELETE',
      url: `${SUBSCRIPTIONS}/${subscriptionId}`,
      headers: { cookie },
    })
    expect(deleted.statusCode).toBe(204)
    receiver.status = 200
    await setLanguage(cookie, 'de')
    await service.clock.advance(60_000)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(receiver.requests).toHaveLength(1)
  })

  it('stops delivery when the session closes', async () => {
    const cookie = await openSession(app, 'alice')
    await subscribe(cookie, nodeSdkBody(receiver.url))
    await app.inject({ method: 'DELETE', url: '/api/rest/1.0/sessions', headers: { cookie } })
    expect(await service.running.platform.subscriptions.count()).toBe(0)
    const other = await openSession(app, 'alice')
    await setLanguage(other, 'fr')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(receiver.requests).toHaveLength(0)
  })

  it('keeps a quiet subscription beyond its timeout, and removes one whose receiver takes nothing for timeout minutes', async () => {
    await service.close()
    await receiver.close()
    await start({ webhooks: { policy: { maxAttempts: 1000 } } })
    const cookie = await openSession(app, 'alice')
    const subscriptions = service.running.platform.subscriptions
    const response = await subscribe(cookie, { ...nodeSdkBody(receiver.url), timeout: 2 })
    const { subscriptionId } = response.json<{ subscriptionId: string }>()
    await service.clock.advance(5 * 60_000)
    expect(await subscriptions.find(subscriptionId)).toBeDefined()
    receiver.status = 503
    await setLanguage(cookie, 'fr')
    // Attempt after attempt, 1, 2, 4 … 30 s apart: removed 2 minutes after the event began to wait.
    let waited = 0
    for (let attempt = 1; (await subscriptions.find(subscriptionId)) !== undefined; attempt += 1) {
      await answers(attempt)
      const delay = Math.min(30_000, 1000 * 2 ** (attempt - 1))
      await service.clock.advance(delay)
      waited += delay
    }
    expect(waited).toBeGreaterThanOrEqual(120_000)
    expect(waited).toBeLessThan(150_000)
    const count = receiver.requests.length
    await service.clock.advance(60_000)
    expect(receiver.requests).toHaveLength(count)
  })
})

describe('webhook delivery: a receiver down beyond the queue bound', () => {
  beforeEach(async () => {
    await service.close()
    await receiver.close()
    await start({ queueCapacity: 3 })
  })

  it('drops the oldest waiting events and starts again with the loss notice', async () => {
    const cookie = await openSession(app, 'alice')
    await subscribe(cookie, nodeSdkBody(receiver.url))
    receiver.status = 503
    for (const value of ['fr', 'de', 'es', 'it', 'en', 'fr']) await setLanguage(cookie, value)
    await answers(1)
    receiver.status = 200
    await service.clock.advance(1000)
    const requests = await receiver.received(6)
    expect(requests.map((request) => language(request.json) ?? request.json['text'])).toEqual([
      'fr',
      'fr',
      '2 events lost: the queue was full; resynchronize',
      'it',
      'en',
      'fr',
    ])
    expect(requests[2]?.json).toEqual({
      eventName: 'OnChannelInformation',
      text: '2 events lost: the queue was full; resynchronize',
    })
  })
})

describe('webhook delivery: off-nominal', () => {
  it.each(['http://10.1.2.3/', 'http://client.example/hook', 'https://[2001:db8::1]/hook'])(
    'refuses %s (not allowed by default) with 400 REFUSED, keeping nothing',
    async (url) => {
      const cookie = await openSession(app, 'alice')
      const response = await subscribe(cookie, nodeSdkBody(url))
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({
        status: 'REFUSED',
        message: expect.stringMatching(/^webHookUrl: host .* is not allowed/),
      })
      expect(await service.running.platform.subscriptions.count()).toBe(0)
      await setLanguage(cookie, 'fr')
      expect(targets).toEqual([])
    },
  )

  it('answers the polling URL of a webhook subscription with NOT_SUPPORTED', async () => {
    const cookie = await openSession(app, 'alice')
    const response = await subscribe(cookie, nodeSdkBody(receiver.url))
    const { subscriptionId } = response.json<{ subscriptionId: string }>()
    const channel = await app.inject({
      method: 'GET',
      url: `/api/rest/1.0/notifications/${subscriptionId}`,
    })
    expect(channel.statusCode).toBe(400)
    expect(channel.json()).toMatchObject({ type: 'NOT_SUPPORTED' })
  })

  it('delivers to an allowed non-loopback host only when the operator allows it', async () => {
    await service.close()
    await receiver.close()
    await start({ webhooks: { allowedHosts: '10.0.0.0/8' } })
    const cookie = await openSession(app, 'alice')
    // Allowed now (but no event is produced, so nothing is sent there).
    expect((await subscribe(cookie, nodeSdkBody('http://10.1.2.3/'))).statusCode).toBe(200)
    // Loopback is no longer allowed.
    expect((await subscribe(cookie, nodeSdkBody(receiver.url))).statusCode).toBe(400)
    expect(targets).toEqual([])
  })
})
