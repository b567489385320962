/**
 * GET /api/rest/authenticate, /authenticatenosso and /authenticationbasic/login (specification,
 * "Authentication", "Root and authentication"; wire facts 2.2), through app.inject.
 */
import { REST_ERROR_TYPES, RestErrorInfo, type RestErrorType } from '@openness/wire'
import type { LightMyRequestResponse } from 'fastify'
import { Value } from 'typebox/value'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ThrottlePolicy } from '../../src/platform/auth/login-throttle.js'
import { basic, cookieOf, startTestService, type TestService } from '../support/test-service.js'
import type { VirtualClock } from '../support/virtual-clock.js'

const AUTHENTICATE = '/api/rest/authenticate?version=1.0'
const SESSIONS = '/api/rest/1.0/sessions'
const LOGIN = '/api/rest/authenticationbasic/login'

/** Checks an error answer: status, RestErrorInfo shape, and the type with its code and canRetry. */
function expectError(
  response: LightMyRequestResponse,
  status: number,
  type: RestErrorType,
): RestErrorInfo {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  const body: unknown = response.json()
  expect(Value.Check(RestErrorInfo, body)).toBe(true)
  const info = body as RestErrorInfo
  expect(info).toMatchObject({
    type,
    code: REST_ERROR_TYPES[type].code,
    canRetry: REST_ERROR_TYPES[type].canRetry,
  })
  expect(info.helpMessage).toEqual(expect.any(String))
  return info
}

/** A 401 with the Basic challenge. */
function expectChallenge(response: LightMyRequestResponse, type: RestErrorType): RestErrorInfo {
  const info = expectError(response, 401, type)
  expect(info.httpStatus).toBe('UNAUTHORIZED')
  expect(response.headers['www-authenticate']).toMatch(/^Basic realm=/)
  expect(response.headers['set-cookie']).toBeUndefined()
  return info
}

describe('authentication', () => {
  let service: TestService

  beforeEach(async () => {
    service = await startTestService()
  })
  afterEach(async () => {
    await service.close()
  })

  const get = (url: string, headers: Record<string, string> = {}) =>
    service.app.inject({ method: 'GET', url, headers })

  it('challenges a request without credentials with 401 and a RestErrorInfo', async () => {
    const info = expectChallenge(await get(AUTHENTICATE), 'NOT_ALLOWED')
    expect(info).toMatchObject({ httpStatus: 'UNAUTHORIZED', code: 1002, canRetry: false })
  })

  it('answers pre-emptive Basic credentials with 200, the token and the sessions URLs', async () => {
    const response = await get(AUTHENTICATE, { authorization: basic('alice') })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['credential', 'internalUrl', 'publicUrl'])
    expect(body.credential).toEqual(expect.any(String))
    expect(body.credential).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(body.publicUrl).toMatch(/^http:\/\/[^/]+\/api\/rest\/1\.0\/sessions$/)
    expect(body.internalUrl).toMatch(/^http:\/\/[^/]+\/api\/rest\/1\.0\/sessions$/)

    const setCookie = response.headers['set-cookie']
    expect(typeof setCookie).toBe('string')
    const cookie = String(setCookie)
    expect(cookie.startsWith(`SvcUserId=${body.credential}; Path=/; HttpOnly`)).toBe(true)
    expect(cookie).not.toMatch(/domain=/i)
    expect(cookie).not.toMatch(/secure/i)
    expect(cookieOf(response)).toBe(body.credential)
  })

  it('gives a token that opens a session', async () => {
    const response = await get(AUTHENTICATE, { authorization: basic('alice') })
    const opened = await service.app.inject({
      method: 'POST',
      url: SESSIONS,
      headers: { cookie: `SvcUserId=${cookieOf(response)}` },
      payload: { applicationName: 'test' },
    })
    expect(opened.statusCode, opened.body).toBe(200)
    expect(opened.json()).toMatchObject({ login: 'alice' })
  })

  it('answers a bad password and an unknown login identically', async () => {
    const badPassword = await get(AUTHENTICATE, { authorization: basic('alice', 'wrong') })
    const unknownLogin = await get(AUTHENTICATE, { authorization: basic('nobody', 'wrong') })
    expectChallenge(badPassword, 'NOT_ALLOWED')
    expectChallenge(unknownLogin, 'NOT_ALLOWED')
    expect(unknownLogin.statusCode).toBe(badPassword.statusCode)
    expect(unknownLogin.body).toBe(badPassword.body)
    expect(unknownLogin.headers['www-authenticate']).toBe(badPassword.headers['www-authenticate'])
  })

  it('refuses Kerberos (Negotiate) with 401 NOT_SUPPORTED', async () => {
    const info = expectChallenge(
      await get(AUTHENTICATE, { authorization: 'Negotiate xyz' }),
      'NOT_SUPPORTED',
    )
    expect(info.helpMessage).toMatch(/Negotiate|Kerberos/)
  })

  it('refuses a CAS ticket with 401 NOT_SUPPORTED, even beside Basic credentials', async () => {
    expectChallenge(await get(`${AUTHENTICATE}&ticket=ST-1`), 'NOT_SUPPORTED')
    const withBasic = await get(`${AUTHENTICATE}&ticket=ST-1`, { authorization: basic('alice') })
    const info = expectChallenge(withBasic, 'NOT_SUPPORTED')
    expect(info.helpMessage).toMatch(/CAS/)
  })

  it.each([
    ['no colon', `Basic ${Buffer.from('alice').toString('base64')}`],
    ['empty login', `Basic ${Buffer.from(':demo-alice').toString('base64')}`],
    ['no value', 'Basic'],
  ])('answers malformed Basic credentials (%s) with 401', async (_, authorization) => {
    expectChallenge(await get(AUTHENTICATE, { authorization }), 'NOT_ALLOWED')
  })

  it('requires the version parameter', async () => {
    const info = expectError(
      await get('/api/rest/authenticate', { authorization: basic('alice') }),
      400,
      'BAD_PARAMETER',
    )
    expect(info.httpStatus).toBe('BAD_REQUEST')
    expect(info.helpMessage).toMatch(/version/)
  })

  it('refuses a version the server does not have', async () => {
    const response = await get('/api/rest/authenticate?version=2.0', {
      authorization: basic('alice'),
    })
    const info = expectError(response, 400, 'BAD_PARAMETER')
    expect(info.helpMessage).toMatch(/2\.0/)
    expect(response.headers['set-cookie']).toBeUndefined()
  })

  it('serves authenticatenosso the same way', async () => {
    const url = '/api/rest/authenticatenosso?version=1.0'
    expectChallenge(await get(url), 'NOT_ALLOWED')
    expectChallenge(await get(url, { authorization: basic('alice', 'wrong') }), 'NOT_ALLOWED')
    expectError(
      await get('/api/rest/authenticatenosso?version=2.0', { authorization: basic('alice') }),
      400,
      'BAD_PARAMETER',
    )
    const response = await get(url, { authorization: basic('alice') })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(cookieOf(response)).toBe(body.credential)
    expect(body.publicUrl).toMatch(/\/api\/rest\/1\.0\/sessions$/)
    expect(body.internalUrl).toMatch(/\/api\/rest\/1\.0\/sessions$/)
  })

  describe('the two-step exchange of the specification', () => {
    const loginUrl = (target: string) => `${LOGIN}?SvcApplicationUrl=${encodeURIComponent(target)}`

    it('answers the authenticate resource with 401, then the basic login address with 200 JSON', async () => {
      const first = await get(AUTHENTICATE)
      expectChallenge(first, 'NOT_ALLOWED')
      expect(first.json().helpMessage).toContain(LOGIN)

      const second = await get(loginUrl(AUTHENTICATE), { authorization: basic('alice') })
      expect(second.statusCode, second.body).toBe(200)
      expect(second.headers['content-type']).toMatch(/^application\/json/)
      const body = second.json()
      expect(Object.keys(body).sort()).toEqual(['credential', 'internalUrl', 'publicUrl'])
      expect(body.publicUrl).toMatch(/\/api\/rest\/1\.0\/sessions$/)
      expect(body.internalUrl).toMatch(/\/api\/rest\/1\.0\/sessions$/)
      expect(cookieOf(second)).toBe(body.credential)

      const opened = await service.app.inject({
        method: 'POST',
        url: SESSIONS,
        headers: { cookie: `SvcUserId=${body.credential}` },
        payload: { applicationName: 'test' },
      })
      expect(opened.statusCode, opened.body).toBe(200)
    })

    it('accepts the authenticatenosso path as the application URL', async () => {
      const response = await get(loginUrl('/api/rest/authenticatenosso?version=1.0'), {
        authorization: basic('alice'),
      })
      expect(response.statusCode, response.body).toBe(200)
    })

    it('challenges the basic login address without credentials', async () => {
      expectChallenge(await get(loginUrl(AUTHENTICATE)), 'NOT_ALLOWED')
      expectChallenge(
        await get(loginUrl(AUTHENTICATE), { authorization: basic('alice', 'wrong') }),
        'NOT_ALLOWED',
      )
    })

    it.each([
      ['another resource', '/api/rest/1.0/sessions'],
      ['another path', '/elsewhere'],
      ['another host', 'https://evil.example.com/api/rest/authenticate?version=1.0'],
      ['a scheme-relative URL', '//evil.example.com/api/rest/authenticate?version=1.0'],
    ])('refuses a SvcApplicationUrl naming %s with 400', async (_, target) => {
      const response = await get(loginUrl(target), { authorization: basic('alice') })
      const info = expectError(response, 400, 'BAD_PARAMETER')
      expect(info.helpMessage).toMatch(/SvcApplicationUrl/)
      expect(response.headers['set-cookie']).toBeUndefined()
    })

    it('accepts the authenticate URL on the server itself', async () => {
      const response = await get(loginUrl(`http://localhost:80${AUTHENTICATE}`), {
        authorization: basic('alice'),
        host: 'localhost:80',
      })
      expect(response.statusCode, response.body).toBe(200)
    })

    it('requires SvcApplicationUrl and checks the version it carries', async () => {
      expect(
        expectError(await get(LOGIN, { authorization: basic('alice') }), 400, 'BAD_PARAMETER')
          .helpMessage,
      ).toMatch(/SvcApplicationUrl/)
      expectError(
        await get(loginUrl('/api/rest/authenticate?version=2.0'), {
          authorization: basic('alice'),
        }),
        400,
        'BAD_PARAMETER',
      )
    })
  })

  it('forgets a token that opened no session after 120 s', async () => {
    const early = cookieOf(await get(AUTHENTICATE, { authorization: basic('alice') }))
    const late = cookieOf(await get(AUTHENTICATE, { authorization: basic('alice') }))
    await service.clock.advance(119_999)
    const open = (token: string) =>
      service.app.inject({
        method: 'POST',
        url: SESSIONS,
        headers: { cookie: `SvcUserId=${token}` },
        payload: { applicationName: 'test' },
      })
    expect((await open(early)).statusCode).toBe(200)
    await service.clock.advance(1)
    const info = expectError(await open(late), 403, 'INVALID_SESSION')
    expect(info.httpStatus).toBe('FORBIDDEN')
  })
})

describe('configured base URLs', () => {
  let service: TestService

  beforeEach(async () => {
    service = await startTestService({
      publicBaseUrl: 'https://pbx.example.com',
      privateBaseUrl: 'http://10.0.0.5:8080',
    })
  })
  afterEach(async () => {
    await service.close()
  })

  it('appear in the authentication URLs of the root', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/api/rest' })
    expect(response.statusCode).toBe(200)
    expect(response.json().versions).toContainEqual({
      id: '1.0',
      status: 'CURRENT',
      publicUrl: 'https://pbx.example.com/api/rest/authenticate?version=1.0',
      internalUrl: 'http://10.0.0.5:8080/api/rest/authenticate?version=1.0',
    })
  })

  it('appear in the sessions URLs of the authentication result', async () => {
    const response = await service.app.inject({
      method: 'GET',
      url: AUTHENTICATE,
      headers: { authorization: basic('alice') },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({
      publicUrl: 'https://pbx.example.com/api/rest/1.0/sessions',
      internalUrl: 'http://10.0.0.5:8080/api/rest/1.0/sessions',
    })
  })

  it('make an authenticate URL on those origins a valid SvcApplicationUrl', async () => {
    const login = (target: string) =>
      service.app.inject({
        method: 'GET',
        url: `${LOGIN}?SvcApplicationUrl=${encodeURIComponent(target)}`,
        headers: { authorization: basic('alice') },
      })
    for (const origin of ['https://pbx.example.com', 'http://10.0.0.5:8080'])
      expect((await login(`${origin}${AUTHENTICATE}`)).statusCode).toBe(200)
    expectError(await login(`https://pbx.example.org${AUTHENTICATE}`), 400, 'BAD_PARAMETER')
  })
})

describe('throttling of failed authentications', () => {
  const POLICY: ThrottlePolicy = {
    freeFailures: 2,
    baseDelayMs: 1000,
    maxDelayMs: 8000,
    lockAfterFailures: 4,
    lockMs: 60_000,
    windowMs: 15 * 60_000,
    maxKeys: 1000,
  }
  let service: TestService
  let clock: VirtualClock

  beforeEach(async () => {
    service = await startTestService({ throttlePolicy: POLICY })
    clock = service.clock
  })
  afterEach(async () => {
    await service.close()
  })

  const attempt = (loginName: string, password?: string, remoteAddress = '127.0.0.1') =>
    service.app.inject({
      method: 'GET',
      url: AUTHENTICATE,
      headers: { authorization: basic(loginName, password) },
      remoteAddress,
    })

  /** Starts an attempt that the throttle delays; returns it with a flag telling whether it answered. */
  async function startDelayed(loginName: string, password?: string) {
    const timersBefore = clock.pending
    const state = { settled: false }
    const response = attempt(loginName, password).then((answer) => {
      state.settled = true
      return answer
    })
    // Wait until the authenticator sleeps on the clock (a new timer appears).
    for (let i = 0; i < 1000 && clock.pending <= timersBefore && !state.settled; i++)
      await new Promise((resolve) => setImmediate(resolve))
    expect(state.settled).toBe(false)
    expect(clock.pending).toBe(timersBefore + 1)
    return { state, response }
  }

  /** Fails twice without delay, then a third time after 1 s and a fourth after 2 s: locked. */
  async function failUntilLocked() {
    for (let i = 0; i < POLICY.freeFailures; i++)
      expectChallenge(await attempt('alice', 'wrong'), 'NOT_ALLOWED')
    for (const delay of [1000, 2000]) {
      const third = await startDelayed('alice', 'wrong')
      await clock.advance(delay)
      expectChallenge(await third.response, 'NOT_ALLOWED')
    }
  }

  it('answers the free failures at once and delays the next one by baseDelayMs', async () => {
    expectChallenge(await attempt('alice', 'wrong'), 'NOT_ALLOWED')
    expectChallenge(await attempt('alice', 'wrong'), 'NOT_ALLOWED')

    const third = await startDelayed('alice', 'wrong')
    await clock.advance(999)
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
    expect(third.state.settled).toBe(false)
    await clock.advance(1)
    const info = expectChallenge(await third.response, 'NOT_ALLOWED')
    expect(info.helpMessage).not.toMatch(/lock/i)
  })

  it('delays the right password too; a success forgets the failures of the login name, not of the address', async () => {
    expectChallenge(await attempt('alice', 'wrong'), 'NOT_ALLOWED')
    expectChallenge(await attempt('alice', 'wrong'), 'NOT_ALLOWED')
    const right = await startDelayed('alice')
    await clock.advance(1000)
    expect((await right.response).statusCode).toBe(200)
    // The success cleared the login name's failures, but the address keeps its two.
    const again = await startDelayed('alice')
    await clock.advance(1000)
    expect((await again.response).statusCode).toBe(200)
  })

  it('locks after lockAfterFailures failures: the right password gets 401 "locked"', async () => {
    await failUntilLocked()
    const info = expectChallenge(await attempt('alice'), 'NOT_ALLOWED')
    expect(info.helpMessage).toMatch(/locked/i)
    const wrong = expectChallenge(await attempt('alice', 'wrong'), 'NOT_ALLOWED')
    expect(wrong.helpMessage).toMatch(/locked/i)
  })

  it('locks every login from the same address, and the login name from every address', async () => {
    await failUntilLocked()
    // The address key: bob, from the same address, is locked although he never failed.
    const bob = expectChallenge(await attempt('bob'), 'NOT_ALLOWED')
    expect(bob.helpMessage).toMatch(/locked/i)
    // The login key: alice is locked from another address too.
    const elsewhere = expectChallenge(await attempt('alice', undefined, '10.0.0.9'), 'NOT_ALLOWED')
    expect(elsewhere.helpMessage).toMatch(/locked/i)
    // bob from another address is not concerned.
    expect((await attempt('bob', undefined, '10.0.0.9')).statusCode).toBe(200)
  })

  it('unlocks after lockMs', async () => {
    await failUntilLocked()
    await clock.advance(POLICY.lockMs - 1)
    expect(expectChallenge(await attempt('alice'), 'NOT_ALLOWED').helpMessage).toMatch(/locked/i)
    await clock.advance(1)
    const response = await attempt('alice')
    expect(response.statusCode, response.body).toBe(200)
    expect((await attempt('bob')).statusCode).toBe(200)
  })
})
