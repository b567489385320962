/**
 * The chunk channel over real sockets (issue 3 acceptance): events produced before the channel opens are
 * delivered in order when it opens, and across reconnects; keepalive; idle timeout; DELETE; the end of
 * the session; a full queue; multipart framing.
 */
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { buildControlApp } from '../../src/control/control-app.js'
import { newUser, TOKEN } from '../control/control-fixture.js'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const CHUNK_STARTED = { eventName: 'OnChannelInformation', text: 'Chunk started' }

let service: TestService
let app: FastifyInstance
let listeners: Listeners
let base: string
const clients: ChannelClient[] = []

async function start(options: Parameters<typeof startTestService>[0] = {}) {
  service = await startTestService(options)
  app = service.app
  listeners = await startListeners(app, { host: '127.0.0.1', httpPort: 0 })
  service.running.platform.urls.httpPort = listeners.httpPort
  base = `http://127.0.0.1:${listeners.httpPort}`
}

beforeEach(() => start())
afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  await listeners.close()
  await service.close()
})

async function http(method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return {
    status: response.status,
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  }
}

async function subscribe(cookie: string, request: Record<string, unknown> = {}) {
  const response = await http('POST', '/api/rest/1.0/subscriptions', cookie, {
    filter: { selectors: [{ names: ['user'] }] },
    version: '1.0',
    ...request,
  })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body as {
    subscriptionId: string
    privatePollingUrl: string
    publicPollingUrl: string
  }
}

async function channel(url: string, method: 'POST' | 'GET' = 'POST') {
  const client = await openChannel(url, method)
  clients.push(client)
  return client
}

const setLanguage = (cookie: string, guiLanguage: string) =>
  http('POST', '/api/rest/1.0/users/alice/preferences', cookie, { guiLanguage })

describe('the chunk channel', () => {
  it('delivers, in order, the events produced before it opened, after Chunk started', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie)
    expect(subscription.privatePollingUrl).toBe(
      `${base}/api/rest/1.0/notifications/${subscription.subscriptionId}`,
    )
    await setLanguage(cookie, 'fr')
    await setLanguage(cookie, 'de')
    const client = await channel(subscription.privatePollingUrl)
    expect(client.status).toBe(200)
    expect(client.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(client.headers['transfer-encoding']).toBe('chunked')
    expect(await client.next()).toEqual(CHUNK_STARTED)
    const first = await client.next()
    expect(first).toMatchObject({ eventName: 'OnPreferencesChanged', loginName: 'alice' })
    expect((first['preferences'] as Record<string, unknown>)['guiLanguage']).toBe('fr')
    expect(((await client.next())['preferences'] as Record<string, unknown>)['guiLanguage']).toBe(
      'de',
    )
    await setLanguage(cookie, 'it')
    expect(((await client.next())['preferences'] as Record<string, unknown>)['guiLanguage']).toBe(
      'it',
    )
  })

  it('never sends a blank line, and writes each event whole', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie)
    const client = await channel(subscription.privatePollingUrl)
    await client.next()
    for (const language of ['fr', 'de', 'es']) await setLanguage(cookie, language)
    for (let i = 0; i < 3; i++) await client.next()
    const text = client.raw.join('')
    expect(text).not.toMatch(/\n\n/)
    for (const chunk of client.raw) expect(chunk.endsWith('\n')).toBe(true)
  })

  it('opens with GET too', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie)
    const client = await channel(subscription.privatePollingUrl, 'GET')
    expect(await client.next()).toEqual(CHUNK_STARTED)
  })

  it('keeps what is produced while the client is away and delivers it on reconnect', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie)
    const first = await channel(subscription.privatePollingUrl)
    await first.next()
    first.close()
    await first.ended
    await new Promise((resolve) => setTimeout(resolve, 20))
    await setLanguage(cookie, 'es')
    const second = await channel(subscription.privatePollingUrl)
    expect(await second.next()).toEqual(CHUNK_STARTED)
    expect(((await second.next())['preferences'] as Record<string, unknown>)['guiLanguage']).toBe(
      'es',
    )
  })

  it('replaces an open stream when the same URL is opened again', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie)
    const first = await channel(subscription.privatePollingUrl)
    await first.next()
    const second = await channel(subscription.privatePollingUrl)
    expect(await second.next()).toEqual(CHUNK_STARTED)
    await first.ended
    await setLanguage(cookie, 'fr')
    expect(await second.next()).toMatchObject({ eventName: 'OnPreferencesChanged' })
  })

  it('sends keepalive messages every keepalive minutes', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie, { timeout: 5, keepalive: 1 })
    const client = await channel(subscription.privatePollingUrl)
    await client.next()
    await service.clock.advance(60_000)
    expect(await client.next()).toEqual({ eventName: 'OnChannelInformation', text: 'keepalive' })
    await service.clock.advance(60_000)
    expect(await client.next()).toEqual({ eventName: 'OnChannelInformation', text: 'keepalive' })
  })

  it('closes the channel and removes the subscription after timeout minutes without activity', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie, { timeout: 2 })
    const client = await channel(subscription.privatePollingUrl)
    await client.next()
    await service.clock.advance(60_000)
    await setLanguage(cookie, 'fr')
    await client.next()
    await service.clock.advance(119_000)
    expect(
      await service.running.platform.subscriptions.find(subscription.subscriptionId),
    ).toBeDefined()
    await service.clock.advance(1_000)
    await client.ended
    expect(
      await service.running.platform.subscriptions.find(subscription.subscriptionId),
    ).toBeUndefined()
    const again = await channel(subscription.privatePollingUrl)
    expect(again.status).toBe(404)
  })

  it('keeps a subscription with keepalive alive while its channel is open', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie, { timeout: 2, keepalive: 1 })
    const client = await channel(subscription.privatePollingUrl)
    await client.next()
    for (let minute = 0; minute < 5; minute++) {
      await service.clock.advance(60_000)
      expect(await client.next()).toMatchObject({ text: 'keepalive' })
    }
    expect(
      await service.running.platform.subscriptions.find(subscription.subscriptionId),
    ).toBeDefined()
  })

  it('closes the open channel and drops the queue on DELETE /subscriptions/{id}', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie)
    const client = await channel(subscription.privatePollingUrl)
    await client.next()
    const response = await http(
      'DELETE',
      `/api/rest/1.0/subscriptions/${subscription.subscriptionId}`,
      cookie,
    )
    expect(response.status).toBe(204)
    await client.ended
    const again = await channel(subscription.privatePollingUrl)
    expect(again.status).toBe(404)
  })

  it('answers a polling URL of a subscription that does not exist with a RestErrorInfo 404', async () => {
    const response = await fetch(
      `${base}/api/rest/1.0/notifications/0123456789abcdef0123456789abcdef`,
      {
        method: 'POST',
      },
    )
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({
      type: 'NOT_FOUND',
      code: 1003,
      httpStatus: 'NOT_FOUND',
    })
  })

  it('follows the session: closing it removes the subscription and ends the channel', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie, { timeout: 0 })
    const client = await channel(subscription.privatePollingUrl)
    await client.next()
    expect((await http('DELETE', '/api/rest/1.0/sessions', cookie)).status).toBe(204)
    await client.ended
    expect(
      await service.running.platform.subscriptions.find(subscription.subscriptionId),
    ).toBeUndefined()
  })

  it('follows the session: its expiry removes a timeout-0 subscription', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie, { timeout: 0 })
    const client = await channel(subscription.privatePollingUrl)
    await client.next()
    await service.clock.advance(60 * 60_000)
    await client.ended
    expect(
      await service.running.platform.subscriptions.find(subscription.subscriptionId),
    ).toBeUndefined()
  })

  it('frames CHUNK_MULTIPART channels as multipart/mixed', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie, { mode: 'CHUNK_MULTIPART' })
    await setLanguage(cookie, 'fr')
    const client = await openChannel(subscription.privatePollingUrl)
    clients.push(client)
    const boundary = /boundary=([\w-]+)/.exec(String(client.headers['content-type']))?.[1]
    expect(client.headers['content-type']).toMatch(/^multipart\/mixed; boundary=/)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const text = client.raw.join('')
    const parts = text.split(`--${boundary}\r\n`).filter((part) => part !== '')
    expect(parts).toHaveLength(2)
    for (const part of parts)
      expect(part).toMatch(/^Content-Type: application\/json; charset=utf-8\r\n\r\n\{.*\}\r\n$/)
    expect(parts[0]).toContain('"text":"Chunk started"')
    expect(parts[1]).toContain('"eventName":"OnPreferencesChanged"')
  })
})

describe('an administrator subscription', () => {
  it('receives the events of the users it lists, and only theirs', async () => {
    const admin = await openSession(app, 'admin')
    const alice = await openSession(app, 'alice')
    const bob = await openSession(app, 'bob')
    const subscription = await subscribe(admin, {
      filter: { selectors: [{ names: ['OnPreferencesChanged'], ids: ['alice'] }] },
    })
    const client = await channel(subscription.publicPollingUrl)
    await client.next()
    await http('POST', '/api/rest/1.0/users/bob/preferences', bob, { guiLanguage: 'de' })
    await setLanguage(alice, 'fr')
    expect(await client.next()).toMatchObject({
      eventName: 'OnPreferencesChanged',
      loginName: 'alice',
    })
    await expect(client.next(200)).rejects.toThrow(/no line/)
  })
})

describe('user and user-management events from the control plane', () => {
  it('reach the administrator subscription that selects them, over the channel', async () => {
    const control = await buildControlApp(service.running.platform, { token: TOKEN })
    const operator = { authorization: `Bearer ${TOKEN}` }
    const admin = await openSession(app, 'admin')
    const subscription = await subscribe(admin, {
      filter: {
        selectors: [
          { names: ['userManagement'], ids: ['alice'] },
          { names: ['user'], ids: ['bob'] },
        ],
      },
    })
    const client = await channel(subscription.privatePollingUrl)
    await client.next()
    const created = await control.inject({
      method: 'POST',
      url: '/control/v1/users',
      headers: operator,
      payload: {
        ...newUser(),
        loginName: 'zoe',
        companyPhone: '1099',
        devices: [{ id: '1099', type: 'DESKPHONE' }],
      },
    })
    expect(created.statusCode, created.body).toBe(201)
    const onCreated = await client.next()
    expect(onCreated).toMatchObject({ eventName: 'OnUserCreated', loginName: 'zoe' })
    expect((onCreated['user'] as Record<string, unknown>)['loginName']).toBe('zoe')
    const patched = await control.inject({
      method: 'PATCH',
      url: '/control/v1/users/bob',
      headers: operator,
      payload: { department: 'Support' },
    })
    expect(patched.statusCode, patched.body).toBe(200)
    const changed = await client.next()
    expect(changed).toMatchObject({ eventName: 'OnUserInfoChanged', loginName: 'bob' })
    expect((changed['user'] as Record<string, unknown>)['department']).toBe('Support')
    // The Node SDK reads the e-mail address of a User as `eMailAddress`: beside companyEmail.
    expect(changed['user']).toMatchObject({
      companyEmail: 'bob.durand@example.com',
      eMailAddress: 'bob.durand@example.com',
    })
    const deleted = await control.inject({
      method: 'DELETE',
      url: '/control/v1/users/zoe',
      headers: operator,
    })
    expect(deleted.statusCode).toBe(204)
    expect(await client.next()).toEqual({ eventName: 'OnUserDeleted', loginName: 'zoe' })
    await control.close()
  })

  it('do not reach a user session that named the userManagement package', async () => {
    const control = await buildControlApp(service.running.platform, { token: TOKEN })
    const alice = await openSession(app, 'alice')
    const subscription = await subscribe(alice, {
      filter: { selectors: [{ names: ['userManagement'] }, { names: ['user'] }] },
    })
    const client = await channel(subscription.privatePollingUrl)
    await client.next()
    await control.inject({
      method: 'POST',
      url: '/control/v1/users',
      headers: { authorization: `Bearer ${TOKEN}` },
      payload: {
        ...newUser(),
        loginName: 'zoe',
        companyPhone: '1099',
        devices: [{ id: '1099', type: 'DESKPHONE' }],
      },
    })
    await control.inject({
      method: 'PATCH',
      url: '/control/v1/users/alice',
      headers: { authorization: `Bearer ${TOKEN}` },
      payload: { site: 'Lyon' },
    })
    expect(await client.next()).toMatchObject({
      eventName: 'OnUserInfoChanged',
      loginName: 'alice',
    })
    await control.close()
  })
})

describe('a full queue', () => {
  beforeEach(async () => {
    await listeners.close()
    await service.close()
    await start({ queueCapacity: 3 })
  })

  it('drops the oldest events and says how many were lost before delivering the rest', async () => {
    const cookie = await openSession(app, 'alice')
    const subscription = await subscribe(cookie)
    for (const language of ['fr', 'de', 'es', 'it', 'en']) await setLanguage(cookie, language)
    const client = await channel(subscription.privatePollingUrl)
    expect(await client.next()).toEqual(CHUNK_STARTED)
    expect(await client.next()).toEqual({
      eventName: 'OnChannelInformation',
      text: '2 events lost: the queue was full; resynchronize',
      firstSequence: 1,
      lastSequence: 2,
    })
    const languages = []
    for (let i = 0; i < 3; i++)
      languages.push(
        ((await client.next())['preferences'] as Record<string, unknown>)['guiLanguage'],
      )
    expect(languages).toEqual(['es', 'it', 'en'])
  })
})
