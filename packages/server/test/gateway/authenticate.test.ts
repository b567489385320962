/**
 * GET /api/rest/authenticate, /authenticatenosso and /authenticationbasic/login (specification,
 * "Authentication", "Root and authentication"; wire facts 2.2), through app.inject.
 */
import { REST_ERROR_TYPES, RestErrorInfo, type RestErrorType } from '@openness/wire'
import type { LightMyRequestResponse } from 'fastify'
import { Value } from 'typebox/value'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  DEFAULT_LOGIN_POLICY,
  type ThrottlePolicy,
} from '../../src/platform/auth/login-throttle.js'
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

    it('requires SvcApplicationUrl (or AlcApplicationUrl) and checks the version it carries', async () => {
      expect(
        expectError(await get(LOGIN, { authorization: basic('alice') }), 400, 'BAD_PARAMETER')
          .helpMessage,
      ).toMatch(/SvcApplicationUrl, AlcApplicationUrl/)
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

describe("the real product's cookie and parameter names (AlcUserId, AlcApplicationUrl)", () => {
  let service: TestService

  beforeEach(async () => {
    service = await startTestService()
  })
  afterEach(async () => {
    await service.close()
  })

  const get = (url: string, headers: Record<string, string> = {}) =>
    service.app.inject({ method: 'GET', url, headers })
  const setCookieOf = (response: LightMyRequestResponse) => String(response.headers['set-cookie'])
  const loginUrl = (parameter: string, target = AUTHENTICATE) =>
    `${LOGIN}?${parameter}=${encodeURIComponent(target)}`

  it("opens and uses a session with the credential sent back as AlcUserId, as the vendor's samples do", async () => {
    const authenticated = await get(AUTHENTICATE, { authorization: basic('alice') })
    expect(authenticated.statusCode, authenticated.body).toBe(200)
    const { credential } = authenticated.json()
    const cookie = `AlcUserId=${credential}`
    const opened = await service.app.inject({
      method: 'POST',
      url: SESSIONS,
      headers: { cookie },
      payload: { applicationName: 'sample' },
    })
    expect(opened.statusCode, opened.body).toBe(200)
    expect(opened.json()).toMatchObject({ login: 'alice' })

    const user = await get('/api/rest/1.0/users/alice', { cookie })
    expect(user.statusCode, user.body).toBe(200)
    expect(user.json()).toMatchObject({ loginName: 'alice' })
    const keepalive = await service.app.inject({
      method: 'POST',
      url: `${SESSIONS}/keepalive`,
      headers: { cookie, 'content-type': 'application/json' },
    })
    expect(keepalive.statusCode).toBe(204)
    const closed = await service.app.inject({
      method: 'DELETE',
      url: SESSIONS,
      headers: { cookie },
    })
    expect(closed.statusCode).toBe(204)
    expectError(
      await service.app.inject({ method: 'DELETE', url: SESSIONS, headers: { cookie } }),
      403,
      'INVALID_SESSION',
    )
  })

  it('sets SvcUserId, the first configured name, on a request that names none', async () => {
    const response = await get(AUTHENTICATE, { authorization: basic('alice') })
    expect(setCookieOf(response)).toMatch(/^SvcUserId=[^;]+; Path=\//)
    expect(setCookieOf(response)).not.toContain('AlcUserId')
  })

  it('sets AlcUserId when the request already carries an AlcUserId cookie (a re-login)', async () => {
    const response = await get(AUTHENTICATE, {
      authorization: basic('alice'),
      cookie: 'theme=dark; AlcUserId=expired-token',
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(setCookieOf(response)).toBe(
      `AlcUserId=${response.json().credential}; Path=/; HttpOnly; SameSite=Lax`,
    )
  })

  it('answers the basic login resource under AlcApplicationUrl with the AlcUserId cookie', async () => {
    const response = await get(loginUrl('AlcApplicationUrl'), { authorization: basic('alice') })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['credential', 'internalUrl', 'publicUrl'])
    expect(setCookieOf(response)).toBe(
      `AlcUserId=${body.credential}; Path=/; HttpOnly; SameSite=Lax`,
    )
    const opened = await service.app.inject({
      method: 'POST',
      url: SESSIONS,
      headers: { cookie: `AlcUserId=${body.credential}` },
      payload: { applicationName: 'sample' },
    })
    expect(opened.statusCode, opened.body).toBe(200)
  })

  it('answers the basic login resource under SvcApplicationUrl with the SvcUserId cookie', async () => {
    const response = await get(loginUrl('SvcApplicationUrl'), { authorization: basic('alice') })
    expect(response.statusCode, response.body).toBe(200)
    expect(setCookieOf(response)).toMatch(/^SvcUserId=/)
  })

  it('checks the AlcApplicationUrl target as the SvcApplicationUrl one', async () => {
    const info = expectError(
      await get(
        loginUrl('AlcApplicationUrl', 'https://elsewhere.example.com/api/rest/authenticate'),
        {
          authorization: basic('alice'),
        },
      ),
      400,
      'BAD_PARAMETER',
    )
    expect(info.helpMessage).toMatch(/^AlcApplicationUrl: must be the path/)
  })

  it('refuses both parameters at once, and names both when none is given', async () => {
    const both = `${loginUrl('SvcApplicationUrl')}&AlcApplicationUrl=${encodeURIComponent(AUTHENTICATE)}`
    expect(
      expectError(await get(both, { authorization: basic('alice') }), 400, 'BAD_PARAMETER')
        .helpMessage,
    ).toBe('Only one query parameter at a time: got SvcApplicationUrl, AlcApplicationUrl')
    expect(
      expectError(await get(LOGIN, { authorization: basic('alice') }), 400, 'BAD_PARAMETER')
        .helpMessage,
    ).toBe('One query parameter is required among SvcApplicationUrl, AlcApplicationUrl')
  })

  it('serves authenticatenosso with the same cookie rule', async () => {
    const plain = await get('/api/rest/authenticatenosso?version=1.0', {
      authorization: basic('alice'),
    })
    expect(setCookieOf(plain)).toMatch(/^SvcUserId=/)
    const relogin = await get('/api/rest/authenticatenosso?version=1.0', {
      authorization: basic('alice'),
      cookie: 'AlcUserId=old',
    })
    expect(setCookieOf(relogin)).toMatch(/^AlcUserId=/)
  })
})

describe('SESSION_COOKIE_NAMES limited to SvcUserId', () => {
  let service: TestService

  beforeEach(async () => {
    service = await startTestService({ sessionCookieNames: ['SvcUserId'] })
  })
  afterEach(async () => {
    await service.close()
  })

  it('refuses the AlcUserId cookie and the AlcApplicationUrl parameter', async () => {
    const authenticated = await service.app.inject({
      method: 'GET',
      url: AUTHENTICATE,
      headers: { authorization: basic('alice'), cookie: 'AlcUserId=old' },
    })
    expect(String(authenticated.headers['set-cookie'])).toMatch(/^SvcUserId=/)
    const opened = await service.app.inject({
      method: 'POST',
      url: SESSIONS,
      headers: { cookie: `AlcUserId=${authenticated.json().credential}` },
      payload: { applicationName: 'sample' },
    })
    expectError(opened, 403, 'INVALID_SESSION')
    const login = await service.app.inject({
      method: 'GET',
      url: `${LOGIN}?AlcApplicationUrl=${encodeURIComponent(AUTHENTICATE)}`,
      headers: { authorization: basic('alice') },
    })
    expect(expectError(login, 400, 'BAD_PARAMETER').helpMessage).toBe(
      'One query parameter is required among SvcApplicationUrl',
    )
  })
})

describe('throttling of failed authentications', () => {
  /** Per login name: 2 free failures, then 1 s doubling up to 8 s; the 4th failure locks for 60 s. */
  const POLICY: ThrottlePolicy = {
    freeFailures: 2,
    baseDelayMs: 1000,
    maxDelayMs: 8000,
    lockAfterFailures: 4,
    lockMs: 60_000,
    windowMs: 15 * 60_000,
    maxKeys: 1000,
  }
  /** Per address: thresholds above any test's number of failures (many people may share an address). */
  const ADDRESS_POLICY: ThrottlePolicy = { ...POLICY, freeFailures: 25, lockAfterFailures: 50 }
  const HERE = '127.0.0.1'
  const ELSEWHERE = '10.0.0.9'

  let service: TestService
  let clock: VirtualClock

  async function start(address: ThrottlePolicy) {
    service = await startTestService({ throttlePolicies: { login: POLICY, address } })
    clock = service.clock
  }
  afterEach(async () => {
    await service.close()
  })

  const attempt = (loginName: string, password?: string, remoteAddress = HERE) =>
    service.app.inject({
      method: 'GET',
      url: AUTHENTICATE,
      headers: { authorization: basic(loginName, password) },
      remoteAddress,
    })

  /** Lets the server run until `done` holds (real I/O such as scrypt included). */
  async function until(done: () => boolean, what: string) {
    const deadline = Date.now() + 5000
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  }

  /** Starts an attempt that the throttle delays; returns it with a flag telling whether it answered. */
  async function startDelayed(loginName: string, password?: string, remoteAddress = HERE) {
    const timersBefore = clock.pending
    const state = { settled: false }
    const response = attempt(loginName, password, remoteAddress).then((answer) => {
      state.settled = true
      return answer
    })
    // Wait until the authenticator sleeps on the clock (a new timer appears).
    await until(() => clock.pending > timersBefore || state.settled, 'the attempt sleeps')
    expect(state.settled).toBe(false)
    expect(clock.pending).toBe(timersBefore + 1)
    return { state, response }
  }

  /** A plain "bad credentials" 401: no lock, no retry-after. */
  function expectRefused(response: LightMyRequestResponse): void {
    const info = expectChallenge(response, 'NOT_ALLOWED')
    expect(info.helpMessage).toBe('Bad login name or password')
    expect(response.headers['retry-after']).toBeUndefined()
  }

  /** A "locked" 401 with its retry-after header, in seconds. */
  function expectLocked(response: LightMyRequestResponse, retryAfterSeconds: number): void {
    const info = expectChallenge(response, 'NOT_ALLOWED')
    expect(info.helpMessage).toBe(
      `Too many failed attempts: authentication is locked for ${retryAfterSeconds} s`,
    )
    expect(response.headers['retry-after']).toBe(String(retryAfterSeconds))
  }

  /** The seconds a "locked" 401 names, in its message and its retry-after header alike. */
  function lockedFor(response: LightMyRequestResponse): number {
    const seconds = Number(response.headers['retry-after'])
    expectLocked(response, seconds)
    return seconds
  }

  /** Fails twice without delay, then a third time after 1 s and a fourth after 2 s: locked. */
  async function failUntilLocked(loginName = 'alice') {
    for (let i = 0; i < POLICY.freeFailures; i++) expectRefused(await attempt(loginName, 'wrong'))
    for (const delay of [1000, 2000]) {
      const delayed = await startDelayed(loginName, 'wrong')
      await clock.advance(delay)
      expectRefused(await delayed.response)
    }
  }

  describe('by login name (the address allows more)', () => {
    beforeEach(async () => {
      await start(ADDRESS_POLICY)
    })

    it('answers the free failures at once and delays the next one by baseDelayMs', async () => {
      expectRefused(await attempt('alice', 'wrong'))
      expectRefused(await attempt('alice', 'wrong'))

      const third = await startDelayed('alice', 'wrong')
      await clock.advance(999)
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
      expect(third.state.settled).toBe(false)
      await clock.advance(1)
      expectRefused(await third.response)
    })

    it('delays the right password too, and a success forgets the failures of the login name', async () => {
      expectRefused(await attempt('alice', 'wrong'))
      expectRefused(await attempt('alice', 'wrong'))
      const right = await startDelayed('alice')
      await clock.advance(1000)
      expect((await right.response).statusCode).toBe(200)
      // The success cleared the login name's failures: two free failures again, then a delay.
      expectRefused(await attempt('alice', 'wrong'))
      expectRefused(await attempt('alice', 'wrong'))
      const third = await startDelayed('alice', 'wrong')
      await clock.advance(1000)
      expectRefused(await third.response)
    })

    it('locks after lockAfterFailures failures: even the right password gets 401 "locked" with retry-after', async () => {
      await failUntilLocked()
      expectLocked(await attempt('alice'), 60)
      expectLocked(await attempt('alice', 'wrong'), 60)
      await clock.advance(1500)
      expectLocked(await attempt('alice'), 59) // 58.5 s rounded up
    })

    it('locks the login name from every address, but not the other logins of its address', async () => {
      await failUntilLocked()
      // The login key: alice is locked from another address too.
      expectLocked(await attempt('alice', undefined, ELSEWHERE), 60)
      // The address key has higher thresholds: bob, from alice's address, is neither locked nor delayed.
      const bob = await attempt('bob', undefined, HERE)
      expect(bob.statusCode, bob.body).toBe(200)
      expect((await attempt('bob', undefined, ELSEWHERE)).statusCode).toBe(200)
    })

    it('unlocks after lockMs', async () => {
      await failUntilLocked()
      await clock.advance(POLICY.lockMs - 1)
      expectLocked(await attempt('alice'), 1)
      await clock.advance(1)
      const response = await attempt('alice')
      expect(response.statusCode, response.body).toBe(200)
    })

    it('throttles 30 parallel wrong attempts: lockAfterFailures are admitted, the free ones lock, the rest answer "locked"', async () => {
      const verify = vi.spyOn(service.running.platform.directory, 'verifyPassword')
      const timersBefore = clock.pending
      const settled: LightMyRequestResponse[] = []
      const burst = Promise.all(
        Array.from({ length: 30 }, () =>
          attempt('alice', 'wrong').then((response) => {
            settled.push(response)
            return response
          }),
        ),
      )
      // Every attempt counts from its start, and no more than lockAfterFailures are admitted: the first two
      // are free, two are delayed (1 s, 2 s), and the other 26 are refused at once, unchecked.
      await until(
        () => settled.length === 30 - 2 && clock.pending === timersBefore + 2,
        'the free attempts answer, the refused ones too, and the admitted others sleep',
      )
      const refused = settled.filter((response) => response.headers['retry-after'] === undefined)
      expect(refused).toHaveLength(POLICY.freeFailures)
      for (const response of refused) expectRefused(response)
      // Refused while the attempts in flight fill the count (retry after maxDelayMs, 8 s), or, once the free
      // ones failed, by the lock (60 s).
      for (const response of settled.filter((answer) => !refused.includes(answer)))
        expect(lockedFor(response)).toBeOneOf([8, 60])
      // The free ones failed with four attempts counted: alice is locked already.
      expectLocked(await attempt('alice'), 60)

      // Each delayed attempt wakes up to find the lock, and is refused unchecked.
      await clock.advance(999)
      expect(settled).toHaveLength(28)
      for (const [advance, answered, retryAfter] of [
        [1, 29, 59],
        [1000, 30, 58],
      ] as const) {
        const before = settled.length
        await clock.advance(advance)
        await until(() => settled.length === answered, `${answered} attempts answered`)
        for (const response of settled.slice(before)) expectLocked(response, retryAfter)
      }
      const responses = await burst
      expect(
        responses.filter((response) => response.headers['retry-after'] === undefined),
      ).toHaveLength(POLICY.freeFailures)
      expect(clock.pending).toBe(timersBefore)
      // Only the free attempts had their password checked: fewer than lockAfterFailures.
      expect(verify).toHaveBeenCalledTimes(POLICY.freeFailures)

      // bob, from the same address, is not concerned: the address allows 50 attempts.
      expect((await attempt('bob')).statusCode).toBe(200)
      // After lockMs (counted from the lock), the right password works again, without delay.
      await clock.advance(POLICY.lockMs - 2000)
      const response = await attempt('alice')
      expect(response.statusCode, response.body).toBe(200)
    })
  })

  describe('with the default policies (issue 15, item 6)', () => {
    beforeEach(async () => {
      service = await startTestService()
      clock = service.clock
    })

    it('checks at most lockAfterFailures passwords of a burst of 30 wrong ones, then the account is locked', async () => {
      const { freeFailures, lockAfterFailures, maxDelayMs, lockMs } = DEFAULT_LOGIN_POLICY
      const verify = vi.spyOn(service.running.platform.directory, 'verifyPassword')
      // The free failures first, answered: the account is not locked, and three attempts count.
      for (let i = 0; i < freeFailures; i++) expectRefused(await attempt('alice', 'wrong'))
      const timersBefore = clock.pending
      const settled: LightMyRequestResponse[] = []
      const burst = Promise.all(
        Array.from({ length: 30 }, () =>
          attempt('alice', 'wrong').then((response) => {
            settled.push(response)
            return response
          }),
        ),
      )
      // Seven more are admitted, each delayed (250 ms doubling to 4 s); the 23 others are refused at once.
      const admitted = lockAfterFailures - freeFailures
      await until(
        () => settled.length === 30 - admitted && clock.pending === timersBefore + admitted,
        'the refused attempts answer and the admitted ones sleep',
      )
      for (const response of settled) expectLocked(response, maxDelayMs / 1000)
      // The admitted ones all wake within one advance, none finding a lock: each is checked. A throttle
      // that admitted the whole burst would check all 30 here.
      await clock.advance(maxDelayMs)
      const responses = await burst
      expect(verify).toHaveBeenCalledTimes(lockAfterFailures)
      expect(
        responses.filter((response) => response.headers['retry-after'] === undefined),
      ).toHaveLength(admitted)
      // Their failures locked the account, for lockMs, even to the right password, and unchecked.
      expectLocked(await attempt('alice'), lockMs / 1000)
      expect(verify).toHaveBeenCalledTimes(lockAfterFailures)
    })
  })

  describe('by client address', () => {
    /** A small address policy: 2 free failures, then 1 s; the 3rd failure locks the address for 30 s. */
    const SMALL_ADDRESS_POLICY: ThrottlePolicy = {
      ...POLICY,
      freeFailures: 2,
      lockAfterFailures: 3,
      lockMs: 30_000,
    }
    const ADDRESS = '10.0.0.7'

    beforeEach(async () => {
      await start(SMALL_ADDRESS_POLICY)
    })

    it('delays and then locks every login from the address once its own threshold is reached', async () => {
      // One failure each for alice and bob: free for both their logins and the address.
      expectRefused(await attempt('alice', 'wrong', ADDRESS))
      expectRefused(await attempt('bob', 'wrong', ADDRESS))
      // carol has never failed, but her address has: she waits 1 s even with the right password.
      const carol = await startDelayed('carol', undefined, ADDRESS)
      await clock.advance(1000)
      expect((await carol.response).statusCode).toBe(200)
      // Her success took back her own attempt only, not the address's two failures.
      const dave = await startDelayed('dave', undefined, ADDRESS)
      await clock.advance(1000)
      expect((await dave.response).statusCode).toBe(200)
      // A third failure, by a third login with a single failure, locks the address.
      const erin = await startDelayed('erin', 'wrong', ADDRESS)
      await clock.advance(1000)
      expectRefused(await erin.response)

      // Every login from the address is locked, for the address's lockMs; none of their login names is.
      for (const loginName of ['alice', 'bob', 'carol', 'dave', 'erin', 'franck'])
        expectLocked(await attempt(loginName, undefined, ADDRESS), 30)
      for (let i = 0; i < 5; i++) expectLocked(await attempt('franck', 'wrong', ADDRESS), 30)
      // The attempts refused for the address did not count against the login names: franck, who was
      // refused six times, and erin, who failed once, authenticate from elsewhere at once.
      for (const loginName of ['franck', 'erin', 'alice']) {
        const response = await attempt(loginName, undefined, ELSEWHERE)
        expect(response.statusCode, response.body).toBe(200)
      }

      await clock.advance(SMALL_ADDRESS_POLICY.lockMs - 1)
      expectLocked(await attempt('franck', undefined, ADDRESS), 1)
      await clock.advance(1)
      // The lock reset the address's count: no delay.
      const response = await attempt('franck', undefined, ADDRESS)
      expect(response.statusCode, response.body).toBe(200)
    })

    it('does not charge a login for the attempts that its address refused while full or locked', async () => {
      for (let round = 0; round < 2; round++) {
        expectRefused(await attempt('alice', 'wrong', ADDRESS))
        expectRefused(await attempt('bob', 'wrong', ADDRESS))
        // carol waits 1 s because of the address, and fills its count: dave is refused at once, unchecked
        // (retry after maxDelayMs, 8 s); carol's failure then locks the address.
        const carol = await startDelayed('carol', 'wrong', ADDRESS)
        expectLocked(await attempt('dave', undefined, ADDRESS), 8)
        await clock.advance(1000)
        expectRefused(await carol.response)
        expectLocked(await attempt('dave', undefined, ADDRESS), 30)
        await clock.advance(30_000)
      }
      // dave never typed a wrong password: his two refused attempts were taken back from his login.
      let answer: LightMyRequestResponse | undefined
      void attempt('dave', undefined, ELSEWHERE).then((response) => {
        answer = response
      })
      await until(() => answer !== undefined, 'dave is answered without delay')
      expect(answer?.statusCode, answer?.body).toBe(200)
      // alice's two real failures do count: she is delayed from anywhere.
      const alice = await startDelayed('alice', undefined, ELSEWHERE)
      await clock.advance(1000)
      expect((await alice.response).statusCode).toBe(200)
    })
  })
})
