/**
 * The variants of the wire some SDKs get, over real sockets (issue 11; docs/subscriptions.md, "Client
 * variants"): a subscription made with the Java SDK's User-Agent receives OnTelephonyState with
 * `state.deviceStates` as a list (its Gson class), every other one the nested object of GET
 * /telephony/state; a subscription made without a User-Agent (the C# SDK's HttpClient) receives, through
 * a package name, only the events the C# SDK knows, and any event it names exactly.
 */
import { request } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const CHUNK_STARTED = { eventName: 'OnChannelInformation', text: 'Chunk started' }
const JAVA = 'Java-http-client/17.0.2'

let service: TestService
let app: FastifyInstance
let listeners: Listeners
let base: string
const clients: ChannelClient[] = []

beforeEach(async () => {
  service = await startTestService()
  app = service.app
  listeners = await startListeners(app, { host: '127.0.0.1', httpPort: 0 })
  service.running.platform.urls.httpPort = listeners.httpPort
  base = `http://127.0.0.1:${listeners.httpPort}`
})
afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  await listeners.close()
  await service.close()
})

/**
 * A request over node:http, which sends only the headers given: with `userAgent` undefined there is no
 * User-Agent header at all, as from the C# SDK's HttpClient.
 */
function send(
  method: string,
  path: string,
  cookie: string,
  body: unknown,
  userAgent: string | undefined,
): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  const payload = body === undefined ? '' : JSON.stringify(body)
  const headers: Record<string, string> = { cookie, 'content-type': 'application/json' }
  if (userAgent !== undefined) headers['user-agent'] = userAgent
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
        }),
      )
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/** Subscribes with `names` (one selector) as the client `userAgent`, opens the channel, reads Chunk started. */
async function subscribed(cookie: string, names: string[], userAgent: string | undefined) {
  const response = await send(
    'POST',
    '/api/rest/1.0/subscriptions',
    cookie,
    { filter: { selectors: [{ names, ids: [] }] }, version: '1.0', timeout: 0 },
    userAgent,
  )
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  const client = await openChannel(String(response.body?.['privatePollingUrl']))
  clients.push(client)
  expect(await client.next()).toEqual(CHUNK_STARTED)
  return client
}

const telephony = (cookie: string, path: string, body?: unknown) =>
  send('POST', `/api/rest/1.0/telephony${path}`, cookie, body, 'node')

describe('OnTelephonyState (POST /telephony/state/snapshot)', () => {
  it('is nested for Node and browser clients, a list for the Java SDK: the same device states', async () => {
    const alice = await openSession(app, 'alice')
    const node = await subscribed(alice, ['telephony'], 'node')
    const java = await subscribed(alice, ['telephony'], JAVA)
    const dotnet = await subscribed(alice, ['telephony'], undefined)

    expect((await telephony(alice, '/state/snapshot')).status).toBe(204)

    const rest = await send('GET', '/api/rest/1.0/telephony/state', alice, undefined, JAVA)
    const nested = rest.body as { deviceStates: { deviceStates: unknown[] } }
    expect(nested.deviceStates.deviceStates.length).toBeGreaterThan(0)
    // GET /telephony/state stays nested for everyone: the Java SDK's O2GTelephonicState reads it so.
    expect(await node.next()).toEqual({
      eventName: 'OnTelephonyState',
      loginName: 'alice',
      state: rest.body,
    })
    expect(await dotnet.next()).toEqual({
      eventName: 'OnTelephonyState',
      loginName: 'alice',
      state: rest.body,
    })
    expect(await java.next()).toEqual({
      eventName: 'OnTelephonyState',
      loginName: 'alice',
      state: { ...rest.body, deviceStates: nested.deviceStates.deviceStates },
    })

    // The Java channel goes on with the next events (its event thread is alive).
    await aliceCallsBob(alice)
    expect(await java.next()).toMatchObject({ eventName: 'OnCallCreated', loginName: 'alice' })
    expect(await node.next()).toMatchObject({ eventName: 'OnCallCreated', loginName: 'alice' })
  })
})

/** Alice calls bob: an event on alice's telephony channels. */
async function aliceCallsBob(alice: string) {
  expect((await telephony(alice, '/calls', { callee: '1002' })).status).toBe(201)
}

describe('events the C# SDK does not know', () => {
  it('reach it through the telephony package only when named exactly; others get them all', async () => {
    const bob = await openSession(app, 'bob')
    const node = await subscribed(bob, ['telephony'], 'node')
    const dotnet = await subscribed(bob, ['telephony'], undefined)
    const dotnetNaming = await subscribed(bob, ['OnCallbackRequestAdded'], undefined)
    const karim = await openSession(app, 'karim')

    // Karim asks bob to call him back: OnCallbackRequestAdded for bob (docs/call-model.md).
    expect((await telephony(karim, '/outgoingCallbacks', { callee: '1002' })).status).toBe(204)
    // Then karim calls bob: OnCallCreated for bob.
    expect((await telephony(karim, '/calls', { callee: '1002' })).status).toBe(201)

    expect(await node.next()).toMatchObject({
      eventName: 'OnCallbackRequestAdded',
      loginName: 'bob',
    })
    expect(await node.next()).toMatchObject({ eventName: 'OnCallCreated', loginName: 'bob' })
    // The C# reader would throw on OnCallbackRequestAdded and drop the lines behind it.
    expect(await dotnet.next()).toMatchObject({ eventName: 'OnCallCreated', loginName: 'bob' })
    expect(await dotnetNaming.next()).toMatchObject({
      eventName: 'OnCallbackRequestAdded',
      loginName: 'bob',
    })
  })

  it('the user package leaves OnPreferencesChanged out for the C# SDK', async () => {
    const alice = await openSession(app, 'alice')
    const dotnet = await subscribed(alice, ['user'], undefined)
    const node = await subscribed(alice, ['user'], 'node')
    const preferences = await send(
      'POST',
      '/api/rest/1.0/users/alice/preferences',
      alice,
      { guiLanguage: 'fr' },
      undefined,
    )
    expect(preferences.status).toBe(204)
    expect(await node.next()).toMatchObject({ eventName: 'OnPreferencesChanged' })
    await expect(dotnet.next(300)).rejects.toThrow('no line arrived')
  })

  it('the routingManagement package leaves OnRoutingManagementFailed out for the C# SDK', async () => {
    const alice = await openSession(app, 'alice')
    const dotnet = await subscribed(alice, ['routingManagement'], undefined)
    const node = await subscribed(alice, ['routingManagement'], 'node')
    const routing = (path: string, body?: unknown) =>
      send('POST', `/api/rest/1.0/routing${path}`, alice, body, undefined)
    const refused = await routing('/forwardroute', {
      forwardRoute: { destinations: [{ type: 'NUMBER', number: '4711' }] },
    })
    expect(refused.status).toBe(400)
    expect((await routing('/dnd')).status).toBe(204)
    expect(await node.next()).toMatchObject({ eventName: 'OnRoutingManagementFailed' })
    expect(await node.next()).toMatchObject({ eventName: 'OnRoutingStateChanged' })
    // The C# reader knows OnRoutingStateChanged only: the failure would end its stream.
    expect(await dotnet.next()).toEqual({
      eventName: 'OnRoutingStateChanged',
      loginName: 'alice',
      routingState: { dndState: { activate: true } },
    })
  })
})
