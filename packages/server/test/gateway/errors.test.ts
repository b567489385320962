/**
 * Every error is a RestErrorInfo (specification, "Errors"): bad input of every kind is a 400
 * BAD_PARAMETER naming the field, unexpected faults a 500 without a stack trace, and the catalog
 * matches docs/errors.md.
 */
import { readFileSync } from 'node:fs'
import { REST_ERROR_TYPES } from '@openness/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectRestError } from '../support/assertions.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

let service: TestService
let cookie: string
beforeAll(async () => {
  service = await startTestService()
  cookie = await openSession(service.app, 'alice')
})
afterAll(() => service.close())

const preferences = '/api/rest/1.0/users/alice/preferences'

describe('bad input: 400 BAD_PARAMETER naming what is wrong, nothing changed', () => {
  it.each([
    ['malformed JSON', 'application/json', '{"guiLanguage":', /malformed JSON/],
    [
      'a wrong content type',
      'application/xml',
      '<guiLanguage>fr</guiLanguage>',
      /Content-Type 'application\/xml'/,
    ],
    ['an ill-typed field', 'application/json', '{"guiLanguage":42}', /guiLanguage/],
    ['a field of the wrong format', 'application/json', '{"guiLanguage":"french"}', /guiLanguage/],
    [
      'an unknown field',
      'application/json',
      '{"guiLanguag":"fr"}',
      /guiLanguag: is not a known field/,
    ],
    [
      'a nested bad value',
      'application/json',
      '{"telephony":{"clirMode":"LOUD"}}',
      /telephony\.clirMode: must be one of/,
    ],
    ['a body that is not an object', 'application/json', '"fr"', /body/],
  ])('%s', async (_case, contentType, payload, message) => {
    const response = await service.app.inject({
      method: 'POST',
      url: preferences,
      headers: { cookie, 'content-type': contentType },
      payload,
    })
    expectRestError(response, 400, 'BAD_PARAMETER', message)
    const current = await service.app.inject({ url: preferences, headers: { cookie } })
    expect(current.json()).toEqual({
      guiLanguage: 'en',
      tuiLanguage: 'en',
      oxeLanguage: 'en',
      telephony: { clirMode: 'INACTIVE' },
    })
  })

  it('a body over the size limit', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: preferences,
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ colleague: 'x'.repeat(70_000) }),
    })
    expectRestError(response, 400, 'BAD_PARAMETER', /larger than 65536 bytes/)
  })

  it('a missing required field', async () => {
    const response = await service.app.inject({
      method: 'PUT',
      url: '/api/rest/1.0/users/alice/password',
      headers: { cookie },
      payload: { oldPassword: 'demo-alice' },
    })
    expectRestError(response, 400, 'BAD_PARAMETER', /newPassword: is required/)
  })

  it('every error of a request, a misspelt field told as unknown before the one it stands for (issue 16)', async () => {
    // The issue's own case: `calee` was told as "callee: is required" only.
    const call = await service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/telephony/calls',
      headers: { cookie },
      payload: { deviceId: '1001', calee: '1002' },
    })
    expect(expectRestError(call, 400, 'BAD_PARAMETER').helpMessage).toBe(
      'calee: is not a known field; callee: is required',
    )
    const preferences = await service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/users/alice/preferences',
      headers: { cookie },
      payload: { guiLanguag: 'fr', tuiLanguage: 'french' },
    })
    expect(expectRestError(preferences, 400, 'BAD_PARAMETER').helpMessage).toBe(
      'guiLanguag: is not a known field; tuiLanguage: must match pattern "^([a-z]{2}(_[A-Z]{2})?)?$"',
    )
  })

  it('at most five errors named, the others counted', async () => {
    const payload = Object.fromEntries(
      Array.from({ length: 8 }, (_, index) => [`unknown${index}`, index]),
    )
    const response = await service.app.inject({
      method: 'POST',
      url: preferences,
      headers: { cookie },
      payload,
    })
    const body = expectRestError(response, 400, 'BAD_PARAMETER')
    expect(body.helpMessage).toBe(
      'unknown0: is not a known field; unknown1: is not a known field; unknown2: is not a known field; ' +
        'unknown3: is not a known field; unknown4: is not a known field; and 3 more',
    )
  })

  it('a missing query parameter', async () => {
    const response = await service.app.inject({ url: '/api/rest/authenticate' })
    expectRestError(response, 400, 'BAD_PARAMETER', /query parameter version: is required/)
  })

  it('an empty body with a JSON content type is accepted where no body is needed', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/sessions/keepalive',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '',
    })
    expect(response.statusCode).toBe(204)
  })
})

describe('errors raised before a route runs are RestErrorInfo too (issue 15, finding 2)', () => {
  it('a bad percent-encoding in the path: 400 BAD_PARAMETER', async () => {
    const response = await service.app.inject({
      url: '/api/rest/1.0/users/%ZZ',
      headers: { cookie },
    })
    expectRestError(response, 400, 'BAD_PARAMETER', /path/)
  })

  it('a path parameter over 100 characters: 414 with a RestErrorInfo', async () => {
    const response = await service.app.inject({
      url: `/api/rest/1.0/users/${'a'.repeat(150)}`,
      headers: { cookie },
    })
    expect(response.statusCode).toBe(414)
    expect(response.json()).toMatchObject({ httpStatus: 'URI_TOO_LONG', type: 'BAD_PARAMETER' })
  })
})

describe('unexpected faults', () => {
  it('answer 500 SERVER_PROBLEM without a stack trace', async () => {
    const broken = await startTestService()
    broken.app.get('/api/rest/1.0/boom', async () => {
      throw new TypeError('secret internals')
    })
    const session = await openSession(broken.app, 'alice')
    const response = await broken.app.inject({
      url: '/api/rest/1.0/boom',
      headers: { cookie: session },
    })
    const body = expectRestError(response, 500, 'SERVER_PROBLEM')
    expect(JSON.stringify(body)).not.toContain('secret internals')
    await broken.close()
  })
})

describe('the error catalog', () => {
  it('lists the same types, codes and statuses as docs/errors.md', () => {
    const doc = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8')
    const rows = [
      ...doc.matchAll(/^\|\s*(\w+)\s*\|\s*(\d{4})\s*\|\s*(\d{3})\s*\|\s*(true|false)\s*\|/gm),
    ].map((match) => ({
      type: match[1],
      code: Number(match[2]),
      status: Number(match[3]),
      canRetry: match[4] === 'true',
    }))
    const catalog = Object.entries(REST_ERROR_TYPES).map(([type, entry]) => ({
      type,
      code: entry.code,
      status: entry.status,
      canRetry: entry.canRetry,
    }))
    expect(rows).toEqual(catalog)
  })
})
