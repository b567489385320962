/**
 * The node's health for load balancers (docs/operations.md) and the drain before a stop: liveness and
 * readiness outside the API and its simulated faults; a draining node answers not ready while it still
 * serves, and its channels end with the response's end, the subscriptions staying.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

let service: TestService
let listeners: Listeners
let base: string
const clients: ChannelClient[] = []

beforeEach(async () => {
  service = await startTestService()
  listeners = await startListeners(service.app, { host: '127.0.0.1', httpPort: 0 })
  service.running.platform.urls.httpPort = listeners.httpPort
  base = `http://127.0.0.1:${listeners.httpPort}`
})
afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  await listeners.close()
  await service.close()
})

async function get(path: string) {
  const response = await fetch(`${base}${path}`)
  return {
    status: response.status,
    cacheControl: response.headers.get('cache-control'),
    body: (await response.json()) as unknown,
  }
}

describe('liveness and readiness', () => {
  it('answers live, and ready with the state of the database, without a session', async () => {
    expect(await get('/health/live')).toStrictEqual({
      status: 200,
      cacheControl: 'no-store',
      body: { status: 'UP' },
    })
    expect(await get('/health/ready')).toStrictEqual({
      status: 200,
      cacheControl: 'no-store',
      body: { status: 'UP', checks: { database: 'UP' } },
    })
  })

  it('answers the same under /healthz and /readyz', async () => {
    expect(await get('/healthz')).toStrictEqual(await get('/health/live'))
    expect(await get('/readyz')).toStrictEqual(await get('/health/ready'))
  })

  it("stays ready during the control plane's simulated NOT_READY fault, which the API shows", async () => {
    service.running.platform.readiness.notReadyFor(60_000, 'NOT_READY')

    expect((await get('/health/ready')).status).toBe(200)
    const api = await fetch(`${base}/api/rest/1.0/users/alice`)
    expect(api.status).toBe(503)
  })

  it('is not in the OpenAPI document', async () => {
    const document = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    expect(
      Object.keys(document.paths as object).filter((path) => path.startsWith('/health')),
    ).toEqual([])
  })
})

describe('the drain before a stop', () => {
  it('answers not ready but still serves, then ends the channels and keeps the subscriptions', async () => {
    const cookie = await openSession(service.app, 'alice')
    const subscribed = await fetch(`${base}/api/rest/1.0/subscriptions`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ filter: { selectors: [{ names: ['user'] }] }, version: '1.0' }),
    })
    const { subscriptionId, privatePollingUrl } = (await subscribed.json()) as {
      subscriptionId: string
      privatePollingUrl: string
    }
    const channel = await openChannel(privatePollingUrl)
    clients.push(channel)
    expect(await channel.next()).toMatchObject({ eventName: 'OnChannelInformation' })

    service.running.platform.health.drain()
    expect(await get('/health/ready')).toMatchObject({
      status: 503,
      body: { status: 'DRAINING', checks: { database: 'UP' } },
    })
    expect(await get('/readyz')).toMatchObject({ status: 503, body: { status: 'DRAINING' } })
    const read = await fetch(`${base}/api/rest/1.0/users/alice`, { headers: { cookie } })
    expect(read.status).toBe(200)

    service.running.platform.outlets.endChannels()
    expect(await channel.next()).toEqual({
      eventName: 'OnChannelInformation',
      text: 'Server stopping: open the channel again',
    })
    await channel.ended
    expect(service.running.platform.outlets.openChannels).toBe(0)
    // The subscription stays: its channel can be opened again (on another node, in cluster mode).
    expect(await service.running.platform.subscriptions.find(subscriptionId)).toBeDefined()
    const again = await openChannel(privatePollingUrl)
    clients.push(again)
    expect(await again.next()).toMatchObject({ eventName: 'OnChannelInformation' })
  })
})
