/**
 * The quotas of a shared sandbox (issue 15, finding 7; docs/security.md), set low: sessions per account, each
 * refusal a RestErrorInfo naming the limit; subscriptions per session, a REFUSED subscription naming it; open
 * channels per node, a 503 with Retry-After on a real socket. Each refusal changes nothing, and room made
 * again is taken again.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import type { PlatformEvent } from '../../src/platform/events.js'
import { expectRestError } from '../support/assertions.js'
import { openChannel } from '../support/channel-client.js'
import { LoopbackService } from '../support/loopback-service.js'
import {
  authenticate,
  openSession,
  startTestService,
  type TestService,
} from '../support/test-service.js'

const SESSIONS = '/api/rest/1.0/sessions'
const SUBSCRIPTIONS = '/api/rest/1.0/subscriptions'
const SUBSCRIPTION = { filter: { selectors: [{ names: ['telephony'] }] }, version: '1.0' }

let service: TestService
let listeners: Listeners
beforeAll(async () => {
  service = await startTestService({
    quotas: { sessionsPerAccount: 2, subscriptionsPerSession: 2, openChannels: 1 },
  })
  listeners = await startListeners(service.app, { host: '127.0.0.1', httpPort: 0 })
  service.running.platform.urls.httpPort = listeners.httpPort
})
afterAll(async () => {
  await listeners?.close()
  await service?.close()
})

describe('sessions per account', () => {
  it('refuses a third session of alice, naming the limit, and opens it once one closed; bob is not counted', async () => {
    const first = await openSession(service.app, 'alice')
    await openSession(service.app, 'alice')
    const token = await authenticate(service.app, 'alice')
    const third = () =>
      service.app.inject({
        method: 'POST',
        url: SESSIONS,
        headers: { cookie: `SvcUserId=${token}` },
        payload: { applicationName: 'third' },
      })
    expectRestError(await third(), 403, 'NOT_ALLOWED', /MAX_SESSIONS_PER_ACCOUNT=2/)
    await openSession(service.app, 'bob')
    const closed = await service.app.inject({
      method: 'DELETE',
      url: SESSIONS,
      headers: { cookie: first },
    })
    expect(closed.statusCode).toBe(204)
    // The credential refused is still unused: it opens the session now.
    expect((await third()).statusCode).toBe(200)
  })
})

describe('subscriptions per session', () => {
  it('refuses a third subscription of a session as REFUSED naming the limit, and takes it once one is deleted', async () => {
    const cookie = await openSession(service.app, 'carol')
    const subscribe = () =>
      service.app.inject({
        method: 'POST',
        url: SUBSCRIPTIONS,
        headers: { cookie },
        payload: SUBSCRIPTION,
      })
    const first = (await subscribe()).json() as { subscriptionId: string }
    expect((await subscribe()).statusCode).toBe(200)
    const refused = await subscribe()
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({
      status: 'REFUSED',
      message: expect.stringMatching(/MAX_SUBSCRIPTIONS_PER_SESSION=2/),
    })
    const deleted = await service.app.inject({
      method: 'DELETE',
      url: `${SUBSCRIPTIONS}/${first.subscriptionId}`,
      headers: { cookie },
    })
    expect(deleted.statusCode).toBe(204)
    expect((await subscribe()).statusCode).toBe(200)
  })
})

describe('open channels per node', () => {
  /** Opens the channel at `url`; resolves with its status, headers and first chunk, and a way to close it. */
  function openChannel(url: string) {
    return new Promise<{
      status: number
      retryAfter: string | undefined
      first: string
      close(): void
    }>((resolve, reject) => {
      const outgoing = request(url, { method: 'POST', agent: false }, (response) => {
        response.setEncoding('utf8')
        response.once('data', (chunk: string) =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'] as string | undefined,
            first: chunk,
            close: () => outgoing.destroy(),
          }),
        )
      })
      outgoing.on('error', reject)
      outgoing.end()
    })
  }

  it('answers 503 NOT_READY with Retry-After to a channel beyond the limit, and opens it once one closed', async () => {
    const cookie = await openSession(service.app, 'bob')
    const urls: string[] = []
    for (let index = 0; index < 2; index++) {
      const subscribed = await service.app.inject({
        method: 'POST',
        url: SUBSCRIPTIONS,
        headers: { cookie },
        payload: SUBSCRIPTION,
      })
      urls.push((subscribed.json() as { privatePollingUrl: string }).privatePollingUrl)
    }
    const held = await openChannel(urls[0] ?? '')
    expect(held.first).toMatch(/Chunk started/)
    const refused = await openChannel(urls[1] ?? '')
    expect(refused.status).toBe(503)
    expect(refused.retryAfter).toBe('5')
    expect(JSON.parse(refused.first)).toMatchObject({
      type: 'NOT_READY',
      helpMessage: expect.stringMatching(/MAX_OPEN_CHANNELS=1/),
    })
    held.close()
    const deadline = Date.now() + 2_000
    while (service.running.platform.outlets.openChannels > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    const opened = await openChannel(urls[1] ?? '')
    expect(opened.first).toMatch(/Chunk started/)
    opened.close()
  })
})

describe('queued events per node', () => {
  it('drops the oldest event of the queue that would pass the limit, naming it in the loss notice', async () => {
    const small = await LoopbackService.start({ quotas: { queuedEvents: 3 } })
    try {
      const subscribe = async (login: string) => {
        const response = await small.service.app.inject({
          method: 'POST',
          url: SUBSCRIPTIONS,
          headers: { cookie: await openSession(small.service.app, login) },
          payload: { filter: { selectors: [{ names: ['user'] }] }, version: '1.0' },
        })
        expect(response.statusCode, response.body).toBe(200)
        return response.json().privatePollingUrl as string
      }
      const publish = (loginName: string, n: number) =>
        small.service.running.events.publish({
          eventName: 'OnUserInfoChanged',
          loginName,
          n,
        } as unknown as PlatformEvent)
      const alice = await subscribe('alice')
      const bob = await subscribe('bob')
      publish('alice', 1)
      publish('alice', 2)
      publish('bob', 1)
      // The node holds 3: bob's next event takes the place of bob's oldest, not of alice's.
      publish('bob', 2)
      const bobs = small.track(await openChannel(bob))
      await bobs.next()
      expect(await bobs.next()).toEqual({
        eventName: 'OnChannelInformation',
        text: '1 event lost: this node holds the most queued events it may (MAX_QUEUED_EVENTS=3); resynchronize',
        firstSequence: 1,
        lastSequence: 1,
      })
      expect(await bobs.next()).toMatchObject({ loginName: 'bob', n: 2 })
      const alices = small.track(await openChannel(alice))
      await alices.next()
      expect(await alices.next()).toMatchObject({ loginName: 'alice', n: 1 })
      expect(await alices.next()).toMatchObject({ loginName: 'alice', n: 2 })
    } finally {
      await small.close()
    }
  })
})
