/** GET /logins (specification, "User information"; wire facts 7 and 10.15) through the HTTP layer. */
import { LoginsResponse, RestErrorInfo } from '@openness/wire'
import type { LightMyRequestResponse } from 'fastify'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const LOGINS = '/api/rest/1.0/logins'

/** Every user of the demo directory, sorted; the administrators (admin, operator) are not users. */
const ALL_USERS = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'franck',
  'gaelle',
  'henri',
  'ines',
  'julien',
  'karim',
  'lea',
  'nora',
  'olivia',
  'paul',
  'quentin',
  'rose',
  'sophie',
]

/** The error catalog as the specification ("Errors") gives it. */
const SPEC_ERRORS = {
  INVALID_SESSION: { code: 1001, canRetry: true },
  NOT_ALLOWED: { code: 1002, canRetry: false },
  BAD_PARAMETER: { code: 1006, canRetry: true },
} as const
const STATUS_NAMES = { 400: 'BAD_REQUEST', 403: 'FORBIDDEN' } as const

function expectError(
  response: LightMyRequestResponse,
  status: keyof typeof STATUS_NAMES,
  type: keyof typeof SPEC_ERRORS,
  mention: RegExp,
): void {
  expect(response.statusCode, response.body).toBe(status)
  const body = response.json()
  expect(Value.Check(RestErrorInfo, body)).toBe(true)
  expect(body).toMatchObject({ type, httpStatus: STATUS_NAMES[status], ...SPEC_ERRORS[type] })
  expect(body.helpMessage).toMatch(mention)
}

function expectLogins(response: LightMyRequestResponse, loginNames: string[]): void {
  expect(response.statusCode, response.body).toBe(200)
  const body = response.json()
  expect(Value.Check(LoginsResponse, body)).toBe(true)
  expect(body).toEqual({ loginNames })
}

describe('GET /logins', () => {
  let service: TestService
  let admin: string
  let operator: string
  let alice: string
  let supervised: string

  const get = (cookie: string | undefined, query = '') =>
    service.app.inject({
      method: 'GET',
      url: `${LOGINS}${query}`,
      headers: cookie === undefined ? {} : { cookie },
    })

  beforeAll(async () => {
    service = await startTestService()
    admin = await openSession(service.app, 'admin')
    operator = await openSession(service.app, 'operator')
    alice = await openSession(service.app, 'alice')
    supervised = await openSession(service.app, 'admin', {
      applicationName: 'x',
      supervisedAccount: { id: 'alice', type: 'LOGIN_NAME' },
    })
  })

  afterAll(async () => {
    await service?.close()
  })

  describe('administrator session', () => {
    it('gets every user login, sorted, without the administrators', async () => {
      expectLogins(await get(admin), ALL_USERS)
    })

    it('gets the same list from an administrator without the supervisor role', async () => {
      expectLogins(await get(operator), ALL_USERS)
    })

    it('filters by type', async () => {
      expectLogins(await get(admin, '?types=MULTIMEDIA'), [
        'carol',
        'erin',
        'henri',
        'julien',
        'lea',
      ])
      expectLogins(await get(admin, '?types=STANDARD'), [
        'alice',
        'bob',
        'dave',
        'franck',
        'gaelle',
        'ines',
        'karim',
        'nora',
        'olivia',
        'paul',
        'quentin',
        'rose',
        'sophie',
      ])
      expectLogins(await get(admin, '?types=STANDARD,MULTIMEDIA'), ALL_USERS)
    })

    it('keeps only the users holding every listed API right', async () => {
      expectLogins(await get(admin, '?apiRights=TELEPHONY_ADVANCED,MESSAGING'), [
        'alice',
        'bob',
        'carol',
        'erin',
        'henri',
        'ines',
        'julien',
        'karim',
        'nora',
        'sophie',
      ])
      expectLogins(await get(admin, '?apiRights=CONFERENCING'), ['carol', 'henri'])
      expectLogins(await get(admin, '?apiRights=TELEPHONY_BASIC'), ALL_USERS)
    })

    it('combines the type and rights filters', async () => {
      expectLogins(await get(admin, '?types=MULTIMEDIA&apiRights=TELEPHONY_ADVANCED,MESSAGING'), [
        'carol',
        'erin',
        'henri',
        'julien',
      ])
      expectLogins(await get(admin, '?types=STANDARD&apiRights=CONFERENCING'), [])
    })

    it('refuses an unknown type, naming the parameter', async () => {
      expectError(await get(admin, '?types=ADMINISTRATOR'), 400, 'BAD_PARAMETER', /\btypes\b/)
      expectError(await get(admin, '?types=STANDARD,multimedia'), 400, 'BAD_PARAMETER', /\btypes\b/)
    })

    it('refuses an unknown API right, naming the parameter', async () => {
      expectError(
        await get(admin, '?apiRights=TELEPHONY_BASIC,VIDEO'),
        400,
        'BAD_PARAMETER',
        /\bapiRights\b/,
      )
    })

    it('refuses an empty filter, naming the parameter', async () => {
      expectError(await get(admin, '?types='), 400, 'BAD_PARAMETER', /\btypes\b/)
    })

    it('keeps every user of node 1 and none of another node (nodeIds of real clients)', async () => {
      expectLogins(await get(admin, '?nodeIds=1'), ALL_USERS)
      expectLogins(await get(admin, '?nodeIds=9;1'), ALL_USERS)
      expectLogins(await get(admin, '?nodeIds=9'), [])
    })

    it('answers the valueless onlyACD and onlyWithExtLogin flags with an empty list', async () => {
      expectLogins(await get(admin, '?onlyACD'), [])
      expectLogins(await get(admin, '?onlyWithExtLogin'), [])
      expectLogins(await get(admin, '?nodeIds=1&onlyACD'), [])
    })
  })

  describe('user session', () => {
    it('gets only its own login', async () => {
      expectLogins(await get(alice), ['alice'])
    })

    it('may not filter by type or API rights', async () => {
      expectError(await get(alice, '?types=MULTIMEDIA'), 403, 'NOT_ALLOWED', /types/)
      expectError(await get(alice, '?apiRights=MESSAGING'), 403, 'NOT_ALLOWED', /apiRights/)
      expectError(
        await get(alice, '?types=STANDARD&apiRights=MESSAGING'),
        403,
        'NOT_ALLOWED',
        /types|apiRights/,
      )
    })

    it('still gets only its own login with the parameters of real clients', async () => {
      expectLogins(await get(alice, '?nodeIds=1'), ['alice'])
    })
  })

  describe('supervised session', () => {
    it('behaves as the supervised user: its login only, no filters', async () => {
      expectLogins(await get(supervised), ['alice'])
      expectError(await get(supervised, '?types=STANDARD'), 403, 'NOT_ALLOWED', /types/)
    })
  })

  it('refuses a request without a session cookie', async () => {
    const response = await get(undefined)
    expectError(response, 403, 'INVALID_SESSION', /session/i)
    expect(response.json()).toMatchObject({ code: 1001, httpStatus: 'FORBIDDEN' })
  })

  it('refuses an unknown session cookie', async () => {
    expectError(await get('SvcUserId=not-a-session'), 403, 'INVALID_SESSION', /session/i)
  })
})
