/**
 * The session lifecycle table of the specification, row by row, and its condition-to-status rules:
 * each test names the row, and asserts status, body type and code, and the cookie behaviour.
 */
import { SessionInfo } from '@openness/wire'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { directoryVariant } from '../support/directory-variant.js'
import {
  authenticate,
  openSession,
  startTestService,
  type TestService,
} from '../support/test-service.js'

const SESSIONS = '/api/rest/1.0/sessions'
const TTL_MS = 300_000
const GRACE_MS = 30_000

let service: TestService
let app: FastifyInstance

beforeEach(async () => {
  service = await startTestService()
  app = service.app
})
afterEach(() => service.close())

function post(cookie: string, payload: unknown = { applicationName: 'test' }) {
  return app.inject({
    method: 'POST',
    url: SESSIONS,
    headers: { cookie },
    payload: payload as object,
  })
}
const get = (cookie?: string) => app.inject({ url: SESSIONS, headers: cookie ? { cookie } : {} })
const remove = (cookie?: string) =>
  app.inject({ method: 'DELETE', url: SESSIONS, headers: cookie ? { cookie } : {} })
const keepalive = (cookie?: string, method: 'POST' | 'HEAD' = 'POST') =>
  app.inject({
    method,
    url: `${SESSIONS}/keepalive`,
    headers: {
      ...(cookie && { cookie }),
      ...(method === 'POST' && { 'content-type': 'application/json' }),
    },
  })

describe('session lifecycle: none -> open (POST /sessions with a valid credential)', () => {
  it('opens a user session and returns its SessionInfo', async () => {
    const token = await authenticate(app, 'alice')
    const info = expectSchema<SessionInfo>(SessionInfo, await post(`SvcUserId=${token}`))
    expect(info).toMatchObject({
      admin: false,
      timeToLive: 300,
      login: 'alice',
      privateBaseUrl: 'http://localhost:80/api/rest/1.0',
      publicBaseUrl: 'http://localhost:80/api/rest/1.0',
      capabilities: ['BASIC_TELEPHONY', 'ADVANCED_TELEPHONY', 'MESSAGING'],
      otherSessions: [],
    })
    expect(info.services).toContainEqual({
      serviceName: 'Users',
      serviceVersion: '1.0',
      relativeUrl: '/users',
    })
    expect(info.services).toContainEqual({
      serviceName: 'Logins',
      serviceVersion: '1.0',
      relativeUrl: '/logins',
    })
  })

  it('opens an administrator session whose Users service points to /logins', async () => {
    const token = await authenticate(app, 'admin')
    const info = expectSchema<SessionInfo>(SessionInfo, await post(`SvcUserId=${token}`))
    expect(info).toMatchObject({ admin: true, login: 'admin', capabilities: [] })
    expect(info.services).toContainEqual({
      serviceName: 'Users',
      serviceVersion: '1.0',
      relativeUrl: '/logins',
    })
  })

  it.each([
    ['LOGIN_NAME', 'bob'],
    ['PHONE_NUMBER', '1002'],
    ['EMAIL', 'BOB.DURAND@example.com'],
    ['INSTANT_MESSAGING_ID', 'bob.durand@im.example.com'],
  ])('opens a supervised session of bob found by %s', async (type, id) => {
    const token = await authenticate(app, 'admin')
    const response = await post(`SvcUserId=${token}`, {
      applicationName: 'console',
      supervisedAccount: { id, type },
    })
    const info = expectSchema<SessionInfo>(SessionInfo, response)
    expect(info).toMatchObject({
      admin: false,
      login: 'bob',
      capabilities: ['BASIC_TELEPHONY', 'ADVANCED_TELEPHONY', 'MESSAGING'],
    })
    expect(info.services).toContainEqual({
      serviceName: 'Users',
      serviceVersion: '1.0',
      relativeUrl: '/users',
    })
  })

  it('refuses supervision by an administrator without the supervisor role: 403 NOT_ALLOWED', async () => {
    const token = await authenticate(app, 'operator')
    const response = await post(`SvcUserId=${token}`, {
      applicationName: 'console',
      supervisedAccount: { id: 'bob', type: 'LOGIN_NAME' },
    })
    expectRestError(response, 403, 'NOT_ALLOWED', /supervisor/)
    expectRestError(await get(`SvcUserId=${token}`), 403, 'INVALID_SESSION')
  })

  it('refuses supervision requested by a user: 403 NOT_ALLOWED', async () => {
    const token = await authenticate(app, 'alice')
    const response = await post(`SvcUserId=${token}`, {
      applicationName: 'x',
      supervisedAccount: { id: 'bob', type: 'LOGIN_NAME' },
    })
    expectRestError(response, 403, 'NOT_ALLOWED')
  })

  it('answers 404 NOT_FOUND for a supervised account that does not exist', async () => {
    const token = await authenticate(app, 'admin')
    const response = await post(`SvcUserId=${token}`, {
      applicationName: 'x',
      supervisedAccount: { id: '9999', type: 'PHONE_NUMBER' },
    })
    expectRestError(response, 404, 'NOT_FOUND', /9999/)
  })

  it('rejects a request without applicationName: 400 BAD_PARAMETER naming it, and opens nothing', async () => {
    const token = await authenticate(app, 'alice')
    expectRestError(await post(`SvcUserId=${token}`, {}), 400, 'BAD_PARAMETER', /applicationName/)
    expectRestError(
      await post(`SvcUserId=${token}`, {
        applicationName: 'x',
        supervisedAccount: { id: 'b', type: 'NAME' },
      }),
      400,
      'BAD_PARAMETER',
      /supervisedAccount\.type/,
    )
    expectSchema(SessionInfo, await post(`SvcUserId=${token}`))
  })

  it('answers 403 INVALID_SESSION without a cookie or with an unknown token', async () => {
    expectRestError(
      await app.inject({ method: 'POST', url: SESSIONS, payload: { applicationName: 'x' } }),
      403,
      'INVALID_SESSION',
    )
    expectRestError(await post('SvcUserId=forged'), 403, 'INVALID_SESSION')
  })

  it('expires a credential not used to open a session within its time', async () => {
    const token = await authenticate(app, 'alice')
    await service.clock.advance(121_000)
    expectRestError(await post(`SvcUserId=${token}`), 403, 'INVALID_SESSION')
  })
})

describe('session lifecycle: open', () => {
  let cookie: string
  beforeEach(async () => {
    cookie = await openSession(app, 'alice')
  })

  it('POST /sessions with the same credential: 403, the session unchanged', async () => {
    const before = expectSchema<SessionInfo>(SessionInfo, await get(cookie))
    expectRestError(await post(cookie), 403, 'NOT_EXPECTED', /already open/)
    expect(expectSchema<SessionInfo>(SessionInfo, await get(cookie)).sessionId).toBe(
      before.sessionId,
    )
  })

  it('DELETE /sessions: 204, then the session is closed', async () => {
    const response = await remove(cookie)
    expect(response.statusCode).toBe(204)
    expect(response.body).toBe('')
    expectRestError(await get(cookie), 403, 'INVALID_SESSION')
    expectRestError(
      await app.inject({ url: '/api/rest/1.0/users/alice', headers: { cookie } }),
      403,
      'INVALID_SESSION',
    )
  })

  it('session timer ends: closed after timeToLive (plus the grace) without a request', async () => {
    await service.clock.advance(TTL_MS + GRACE_MS)
    expectRestError(await get(cookie), 403, 'INVALID_SESSION')
    expectRestError(await remove(cookie), 403, 'INVALID_SESSION', /already closed/)
  })

  it('the sweep releases an expired session even when nobody asks for it', async () => {
    expect(await service.running.platform.sessions.openCount()).toBe(1)
    await service.clock.advance(TTL_MS + GRACE_MS + 5_000)
    expect(await service.running.platform.sessions.openCount()).toBe(0)
  })

  it('keeps the session through the grace: a keepalive exactly every timeToLive works', async () => {
    for (let i = 0; i < 3; i++) {
      await service.clock.advance(TTL_MS)
      expect((await keepalive(cookie)).statusCode).toBe(204)
    }
    expectSchema(SessionInfo, await get(cookie))
  })

  it('any use of the session restarts the timer', async () => {
    await service.clock.advance(TTL_MS - 1_000)
    expect(
      (await app.inject({ url: '/api/rest/1.0/users/alice', headers: { cookie } })).statusCode,
    ).toBe(200)
    await service.clock.advance(TTL_MS - 1_000)
    const info = expectSchema<SessionInfo>(SessionInfo, await get(cookie))
    expect(Date.parse(info.expirationDate ?? '')).toBe(service.clock.now() + TTL_MS)
  })

  it.each(['POST', 'HEAD'] as const)(
    'keepalive with %s: 204 and the timer restarted',
    async (method) => {
      await service.clock.advance(TTL_MS - 1_000)
      const response = await keepalive(cookie, method)
      expect(response.statusCode).toBe(204)
      await service.clock.advance(TTL_MS - 1_000)
      expectSchema(SessionInfo, await get(cookie))
    },
  )

  it('GET /sessions returns the SessionInfo of the session', async () => {
    const info = expectSchema<SessionInfo>(SessionInfo, await get(cookie))
    expect(info.login).toBe('alice')
  })
})

describe('session lifecycle: closed', () => {
  it('DELETE /sessions again: 403', async () => {
    const cookie = await openSession(app, 'alice')
    expect((await remove(cookie)).statusCode).toBe(204)
    expectRestError(await remove(cookie), 403, 'INVALID_SESSION', /already closed/)
  })

  it('two DELETE /sessions at once: one closes it (204), the other finds it closed (403)', async () => {
    const cookie = await openSession(app, 'alice')
    const [first, second] = await Promise.all([remove(cookie), remove(cookie)])
    expect(first.statusCode).toBe(204)
    expectRestError(second, 403, 'INVALID_SESSION', /already closed/)
  })

  it('the credential cannot open another session: 403', async () => {
    const cookie = await openSession(app, 'alice')
    await remove(cookie)
    expectRestError(await post(cookie), 403, 'NOT_EXPECTED', /already opened/)
  })

  it('keepalive: 403', async () => {
    const cookie = await openSession(app, 'alice')
    await remove(cookie)
    expectRestError(await keepalive(cookie), 403, 'INVALID_SESSION')
  })
})

describe('a session that does not exist', () => {
  it('DELETE /sessions with a credential that opened no session: 500', async () => {
    const token = await authenticate(app, 'alice')
    expectRestError(await remove(`SvcUserId=${token}`), 500, 'SERVER_PROBLEM', /No session/)
  })

  it('keepalive with a credential that opened no session: 403', async () => {
    const token = await authenticate(app, 'alice')
    expectRestError(await keepalive(`SvcUserId=${token}`), 403, 'INVALID_SESSION')
  })

  it('no cookie at all: 403 INVALID_SESSION everywhere', async () => {
    expectRestError(await get(), 403, 'INVALID_SESSION')
    expectRestError(await remove(), 403, 'INVALID_SESSION')
    expectRestError(await keepalive(), 403, 'INVALID_SESSION')
  })
})

describe('POST /sessions/release', () => {
  it('lists the other sessions of the account and releases one', async () => {
    const first = await openSession(app, 'alice')
    const second = await openSession(app, 'alice')
    const firstInfo = expectSchema<SessionInfo>(SessionInfo, await get(first))
    const secondInfo = expectSchema<SessionInfo>(SessionInfo, await get(second))
    expect(secondInfo.otherSessions?.map((other) => other.sessionId)).toEqual([firstInfo.sessionId])
    const response = await app.inject({
      method: 'POST',
      url: `${SESSIONS}/release`,
      headers: { cookie: second, 'content-type': 'text/plain' },
      payload: firstInfo.sessionId ?? '',
    })
    expect(expectSchema<SessionInfo>(SessionInfo, response).otherSessions).toEqual([])
    expectRestError(await get(first), 403, 'INVALID_SESSION')
    expectSchema(SessionInfo, await get(second))
  })

  it("refuses an unknown session, another account's, or its own", async () => {
    const alice = await openSession(app, 'alice')
    const bob = await openSession(app, 'bob')
    const bobId = expectSchema<SessionInfo>(SessionInfo, await get(bob)).sessionId ?? ''
    const aliceId = expectSchema<SessionInfo>(SessionInfo, await get(alice)).sessionId ?? ''
    const release = (payload: string) =>
      app.inject({
        method: 'POST',
        url: `${SESSIONS}/release`,
        headers: { cookie: alice, 'content-type': 'text/plain' },
        payload,
      })
    expectRestError(await release('nope'), 404, 'NOT_FOUND')
    expectRestError(await release(bobId), 404, 'NOT_FOUND')
    expectRestError(await release(aliceId), 400, 'BAD_PARAMETER', /DELETE/)
    expectRestError(await release(''), 400, 'BAD_PARAMETER')
    expectSchema(SessionInfo, await get(bob))
  })

  it('refuses a JSON body that is not a string with 400, releasing nothing (issue 15, finding 1)', async () => {
    const first = await openSession(app, 'alice')
    const second = await openSession(app, 'alice')
    for (const payload of ['false', '123', '["x"]', '{"sessionId":"x"}', 'null']) {
      const response = await app.inject({
        method: 'POST',
        url: `${SESSIONS}/release`,
        headers: { cookie: second, 'content-type': 'application/json' },
        payload,
      })
      expectRestError(response, 400, 'BAD_PARAMETER', /^body: /)
    }
    // A JSON string is the sessionId, as text/plain is.
    const firstId = expectSchema<SessionInfo>(SessionInfo, await get(first)).sessionId ?? ''
    expectSchema(SessionInfo, await get(first))
    const released = await app.inject({
      method: 'POST',
      url: `${SESSIONS}/release`,
      headers: { cookie: second, 'content-type': 'application/json' },
      payload: JSON.stringify(firstId),
    })
    expect(expectSchema<SessionInfo>(SessionInfo, released).otherSessions).toEqual([])
  })
})

describe('licenses held by sessions', () => {
  it('grants a license while one is free, and releases it when the session closes or expires', async () => {
    const directoryFile = await directoryVariant((document) => {
      ;(document['licenses'] as Record<string, number>)['TELEPHONY_ADVANCED'] = 1
    })
    const limited = await startTestService({ directoryFile })
    const capabilities = async (cookie: string) =>
      expectSchema<SessionInfo>(
        SessionInfo,
        await limited.app.inject({ url: SESSIONS, headers: { cookie } }),
      ).capabilities
    const alice = await openSession(limited.app, 'alice')
    const aliceAgain = await openSession(limited.app, 'alice')
    expect(await capabilities(aliceAgain)).toEqual([
      'BASIC_TELEPHONY',
      'ADVANCED_TELEPHONY',
      'MESSAGING',
    ])
    const bob = await openSession(limited.app, 'bob')
    expect(await capabilities(bob)).toEqual(['BASIC_TELEPHONY', 'MESSAGING'])
    await limited.app.inject({ method: 'DELETE', url: SESSIONS, headers: { cookie: alice } })
    expect(await capabilities(await openSession(limited.app, 'bob'))).toEqual([
      'BASIC_TELEPHONY',
      'MESSAGING',
    ])
    await limited.app.inject({ method: 'DELETE', url: SESSIONS, headers: { cookie: aliceAgain } })
    expect(await capabilities(await openSession(limited.app, 'bob'))).toEqual([
      'BASIC_TELEPHONY',
      'ADVANCED_TELEPHONY',
      'MESSAGING',
    ])
    await limited.clock.advance(TTL_MS + GRACE_MS + 5_000)
    expect(await capabilities(await openSession(limited.app, 'alice'))).toEqual([
      'BASIC_TELEPHONY',
      'ADVANCED_TELEPHONY',
      'MESSAGING',
    ])
    await limited.close()
  })

  it("lists only the services a user's licenses allow", async () => {
    const dave = await openSession(app, 'dave')
    const info = expectSchema<SessionInfo>(SessionInfo, await get(dave))
    expect(info.capabilities).toEqual(['BASIC_TELEPHONY'])
    // TELEPHONY_BASIC: the telephony service (basicCall) and the state, not the devices (advanced); the
    // directory search, event summary, groups, routing and the communication log need no license
    // (docs/directory-search.md, docs/groups.md, docs/comlog.md, docs/routing.md).
    expect(info.services.map((service) => service.serviceName)).toEqual([
      'Users',
      'Telephony',
      'Logins',
      'State',
      'Directory',
      'EventSummary',
      'Groups',
      'Routing',
      'Comlog',
    ])
  })
})
