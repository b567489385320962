/** The control plane through app.inject(): the operator token, every route's statuses and bodies, OpenAPI. */
import { User } from '@openness/wire'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildControlApp } from '../../src/control/control-app.js'
import {
  DirectoryDevice,
  DirectoryUserView,
} from '../../src/platform/directory/directory-file-schema.js'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { authenticate, basic, openSession, startTestService } from '../support/test-service.js'
import {
  AUTH,
  type ControlFixture,
  type ControlService,
  newUser,
  startControlFixture,
  startControlService,
  TOKEN,
} from './control-fixture.js'

let control: ControlFixture
beforeEach(async () => {
  control = await startControlFixture()
})
afterEach(() => control.close())

const USERS = '/control/v1/users'

function request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return control.app.inject({
    method,
    url,
    headers: AUTH,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

describe('the operator token', () => {
  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer not-the-token-at-all' }],
    ['the token without its scheme', { authorization: TOKEN }],
    ['Basic credentials', { authorization: basic('alice') }],
    ['an empty bearer', { authorization: 'Bearer ' }],
  ])('answers 401 NOT_ALLOWED with WWW-Authenticate: Bearer to %s', async (_case, headers) => {
    const response = await control.app.inject({ url: `${USERS}/alice`, headers })

    expectRestError(response, 401, 'NOT_ALLOWED', /operator token/)
    expect(response.headers['www-authenticate']).toBe('Bearer')
  })

  it('guards unknown paths and the OpenAPI document too: nothing is learnt without it', async () => {
    for (const url of ['/nothing', '/control/v1/openapi.json', USERS]) {
      const response = await control.app.inject({ url })
      expectRestError(response, 401, 'NOT_ALLOWED')
    }
  })

  it('accepts the scheme in any case', async () => {
    const response = await control.app.inject({
      url: `${USERS}/alice`,
      headers: { authorization: `bearer ${TOKEN}` },
    })

    expect(response.statusCode).toBe(200)
  })

  it('must not be empty', async () => {
    await expect(
      buildControlApp({ directory: control.directory, product: { version: '0' } }, { token: '' }),
    ).rejects.toThrow(/non-empty operator token/)
  })
})

describe('GET /control/v1/users', () => {
  it('lists every user in the directory file format, by login name, without passwords', async () => {
    const response = await request('GET', USERS)

    const body = expectSchema<{ users: DirectoryUserView[] }>(
      { type: 'object', properties: { users: { type: 'array', items: DirectoryUserView } } },
      response,
    )
    expect(body.users.map((user) => user.loginName)).toEqual(control.directory.listUserLogins())
    expect(body.users).toHaveLength(18)
    expect(response.body).not.toMatch(/password/i)
  })
})

describe('GET /control/v1/users/{loginName}', () => {
  it('shows the stored user, its assistants by login name and its preferences', async () => {
    const response = await request('GET', `${USERS}/henri`)

    const user = expectSchema<DirectoryUserView>(DirectoryUserView, response)
    expect(user).toMatchObject({ loginName: 'henri', companyPhone: '1008', assistants: ['ines'] })
    expect(user).not.toHaveProperty('password')
    expect(user).not.toHaveProperty('passwordHash')
    expect(user).not.toHaveProperty('configManagerAssistant')
  })

  it.each(['zed', 'admin'])('answers 404 NOT_FOUND for %s, who is no user', async (login) => {
    expectRestError(await request('GET', `${USERS}/${login}`), 404, 'NOT_FOUND', /No user/)
  })
})

describe('POST /control/v1/users', () => {
  it('creates the user: 201, its Location, the stored user; publishes OnUserCreated', async () => {
    const response = await request('POST', USERS, newUser())

    const created = expectSchema<DirectoryUserView>(DirectoryUserView, response, 201)
    expect(response.headers['location']).toBe(`${USERS}/mona`)
    expect(created).toEqual({
      loginName: 'mona',
      salutation: 'MRS',
      firstName: 'Mona',
      lastName: 'Lambert',
      type: 'STANDARD',
      companyPhone: '1013',
      companyEmail: 'mona.lambert@example.com',
      apiRights: ['TELEPHONY_BASIC'],
      devices: [{ type: 'DESKPHONE', id: '1013', role: 'MAIN' }],
      clirMode: 'INACTIVE',
    })
    expect((await request('GET', `${USERS}/mona`)).json()).toEqual(created)
    expect(await control.directory.verifyPassword('mona', 'demo-mona')).toBeDefined()
    expect(control.events).toMatchObject([{ eventName: 'OnUserCreated', loginName: 'mona' }])
  })

  it.each<[string, unknown, number, string, RegExp]>([
    [
      'an empty body',
      undefined,
      400,
      'BAD_PARAMETER',
      /^The user has 6 problems:\n {2}loginName: is required\n/,
    ],
    [
      'a number for a phone',
      { ...newUser(), companyPhone: 1013 },
      400,
      'BAD_PARAMETER',
      /^companyPhone: must be a string; write it in quotes: "1013"$/,
    ],
    [
      'an unknown field',
      { ...newUser(), firstname: 'Mona' },
      400,
      'BAD_PARAMETER',
      /^firstname: is not a known field; did you mean firstName\?$/,
    ],
    [
      'a taken login name',
      { ...newUser(), loginName: 'Alice' },
      403,
      'NOT_EXPECTED',
      /^loginName: "Alice" is already the login name of user alice/,
    ],
    [
      'a taken device id',
      { ...newUser(), devices: [{ type: 'DECT', id: '1103' }] },
      403,
      'NOT_EXPECTED',
      /^devices\[0\]\.id: "1103" is already the id of a device of user carol$/,
    ],
  ])(
    'refuses %s with a RestErrorInfo naming the field',
    async (_case, body, status, type, message) => {
      const response = await control.app.inject({
        method: 'POST',
        url: USERS,
        headers: { ...AUTH, 'content-type': 'application/json' },
        payload: body === undefined ? '' : JSON.stringify(body),
      })

      expectRestError(response, status, type as 'BAD_PARAMETER', message)
      expect(control.events).toEqual([])
    },
  )

  it('refuses malformed JSON and other content types', async () => {
    const malformed = await control.app.inject({
      method: 'POST',
      url: USERS,
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: '{"loginName": ',
    })
    const yaml = await control.app.inject({
      method: 'POST',
      url: USERS,
      headers: { ...AUTH, 'content-type': 'application/yaml' },
      payload: 'loginName: mona',
    })

    expectRestError(malformed, 400, 'BAD_PARAMETER', /malformed JSON/)
    expectRestError(yaml, 400, 'BAD_PARAMETER', /send application\/json/)
  })
})

describe('PATCH /control/v1/users/{loginName}', () => {
  it('changes the fields given, removes those set to null: 200 with the user; OnUserInfoChanged', async () => {
    const response = await request('PATCH', `${USERS}/bob`, { department: 'Support', site: null })

    const user = expectSchema<DirectoryUserView>(DirectoryUserView, response)
    expect(user.department).toBe('Support')
    expect(user).not.toHaveProperty('site')
    expect(control.events).toMatchObject([{ eventName: 'OnUserInfoChanged', loginName: 'bob' }])
  })

  it('sets a password', async () => {
    await request('PATCH', `${USERS}/bob`, { password: 'new-bob-password' })

    expect(await control.directory.verifyPassword('bob', 'new-bob-password')).toBeDefined()
  })

  it("ends the account's sessions and voids its unused credentials when it sets a password", async () => {
    const running = await startControlService()
    try {
      const { app } = running.service
      const status = async (cookie: string) =>
        (await app.inject({ url: '/api/rest/1.0/sessions', headers: { cookie } })).statusCode
      const bob = await openSession(app, 'bob')
      const alice = await openSession(app, 'alice')
      const unused = `SvcUserId=${await authenticate(app, 'bob')}`
      const patched = await running.control.inject({
        method: 'PATCH',
        url: `${USERS}/bob`,
        headers: AUTH,
        payload: { password: 'new-bob-password' },
      })
      expect(patched.statusCode).toBe(200)
      expect(await status(bob)).toBe(403)
      expect(await status(alice)).toBe(200)
      const opening = await app.inject({
        method: 'POST',
        url: '/api/rest/1.0/sessions',
        headers: { cookie: unused },
        payload: { applicationName: 'late' },
      })
      expect(opening.statusCode).toBe(403)
      // A change of another field leaves the sessions alone.
      const alsoAlice = await openSession(app, 'alice')
      await running.control.inject({
        method: 'PATCH',
        url: `${USERS}/alice`,
        headers: AUTH,
        payload: { department: 'Support' },
      })
      expect(await status(alsoAlice)).toBe(200)
    } finally {
      await running.close()
    }
  })

  it.each<[string, string, unknown, number, string, RegExp]>([
    ['an unknown user', 'zed', { site: 'x' }, 404, 'NOT_FOUND', /^No user 'zed'$/],
    [
      'a new login name',
      'bob',
      { loginName: 'robert' },
      400,
      'BAD_PARAMETER',
      /^loginName: cannot change/,
    ],
    ['a required field removed', 'bob', { type: null }, 400, 'BAD_PARAMETER', /^type: is required/],
    ['a taken phone', 'bob', { companyPhone: '1001' }, 403, 'NOT_EXPECTED', /user alice$/],
  ])('refuses %s', async (_case, login, patch, status, type, message) => {
    const response = await request('PATCH', `${USERS}/${login}`, patch)

    expectRestError(response, status, type as 'BAD_PARAMETER', message)
  })
})

describe('DELETE /control/v1/users/{loginName}', () => {
  it('deletes the user: 204, then 404; publishes OnUserDeleted, then its pickup group to the others', async () => {
    const response = await request('DELETE', `${USERS}/bob`)

    expect(response.statusCode).toBe(204)
    expect(response.body).toBe('')
    expectRestError(await request('GET', `${USERS}/bob`), 404, 'NOT_FOUND')
    expectRestError(await request('DELETE', `${USERS}/bob`), 404, 'NOT_FOUND')
    const group = {
      groupId: 'pickup-paris-front-office',
      type: 'PICKUP_GROUP',
      name: 'paris-front-office',
      members: [
        { loginName: 'alice', role: 'MEMBER' },
        { loginName: 'karim', role: 'MEMBER' },
      ],
    }
    expect(control.events).toEqual([
      { eventName: 'OnUserDeleted', loginName: 'bob' },
      { eventName: 'OnGroupModified', loginName: 'alice', group },
      { eventName: 'OnGroupModified', loginName: 'karim', group },
    ])
  })
})

describe('devices', () => {
  const devices = (login: string) => `${USERS}/${login}/devices`

  it("lists a user's devices and shows one", async () => {
    const list = await request('GET', devices('carol'))
    const one = await request('GET', `${devices('carol')}/1103`)

    expect(list.statusCode).toBe(200)
    expect((list.json() as { devices: DirectoryDevice[] }).devices.map((d) => d.id)).toEqual([
      '1003',
      '1103',
    ])
    expect(expectSchema<DirectoryDevice>(DirectoryDevice, one)).toMatchObject({
      id: '1103',
      type: 'MOBILE',
    })
  })

  it('adds a device: 201 with its Location; publishes OnUserInfoChanged', async () => {
    const response = await request('POST', devices('bob'), { type: 'SOFTPHONE', id: '1202' })

    expect(expectSchema(DirectoryDevice, response, 201)).toEqual({ type: 'SOFTPHONE', id: '1202' })
    expect(response.headers['location']).toBe(`${devices('bob')}/1202`)
    expect((await request('GET', `${devices('bob')}/1202`)).statusCode).toBe(200)
    expect(control.events).toMatchObject([{ eventName: 'OnUserInfoChanged', loginName: 'bob' }])
  })

  it('changes a device: 200 with the device', async () => {
    const response = await request('PATCH', `${devices('carol')}/1103`, { label: 'Work' })

    expect(expectSchema(DirectoryDevice, response)).toMatchObject({ id: '1103', label: 'Work' })
  })

  it('removes a device: 204, then 404', async () => {
    const response = await request('DELETE', `${devices('carol')}/1103`)

    expect(response.statusCode).toBe(204)
    expectRestError(await request('GET', `${devices('carol')}/1103`), 404, 'NOT_FOUND')
    expect(control.events).toMatchObject([{ eventName: 'OnUserInfoChanged', loginName: 'carol' }])
  })

  it.each<[string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown, number, string, RegExp]>([
    [
      'a device of an unknown user',
      'GET',
      '/zed/devices',
      undefined,
      404,
      'NOT_FOUND',
      /No user 'zed'/,
    ],
    [
      'an unknown device',
      'GET',
      '/carol/devices/1999',
      undefined,
      404,
      'NOT_FOUND',
      /has no device '1999'/,
    ],
    [
      'changing an unknown device',
      'PATCH',
      '/carol/devices/1999',
      { label: 'x' },
      404,
      'NOT_FOUND',
      /has no device/,
    ],
    [
      'removing an unknown device',
      'DELETE',
      '/carol/devices/1999',
      undefined,
      404,
      'NOT_FOUND',
      /has no device/,
    ],
    [
      'a taken device id',
      'POST',
      '/bob/devices',
      { type: 'DECT', id: '1001' },
      403,
      'NOT_EXPECTED',
      /^id: "1001" is already/,
    ],
    [
      'a device without a type',
      'POST',
      '/bob/devices',
      { id: '1999' },
      400,
      'BAD_PARAMETER',
      /^type: is required$/,
    ],
    [
      'a new device id',
      'PATCH',
      '/carol/devices/1103',
      { id: '1104' },
      400,
      'BAD_PARAMETER',
      /^id: cannot change/,
    ],
  ])(
    'answers %s with a RestErrorInfo',
    async (_case, method, path, body, status, type, message) => {
      const response = await request(method, `${USERS}${path}`, body)

      expectRestError(response, status, type as 'BAD_PARAMETER', message)
    },
  )
})

describe('wrong methods', () => {
  it('answer 405 with Allow', async () => {
    const response = await request('DELETE', USERS)

    expectRestError(response, 405, 'NOT_SUPPORTED')
    expect(response.headers['allow']).toBe('GET, HEAD, POST')
  })
})

describe('GET /control/v1/openapi.json', () => {
  it('is OpenAPI 3.1 with every control route, the bearer scheme, and none of the API', async () => {
    const response = await request('GET', '/control/v1/openapi.json')

    expect(response.statusCode).toBe(200)
    const document = response.json() as {
      openapi: string
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
      components: { securitySchemes: Record<string, unknown> }
      security: unknown[]
    }
    expect(document.openapi).toBe('3.1.0')
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations.sort()).toEqual(
      [
        'GET /control/v1/users',
        'POST /control/v1/users',
        'GET /control/v1/users/{loginName}',
        'PATCH /control/v1/users/{loginName}',
        'DELETE /control/v1/users/{loginName}',
        'GET /control/v1/users/{loginName}/devices',
        'POST /control/v1/users/{loginName}/devices',
        'GET /control/v1/users/{loginName}/devices/{deviceId}',
        'PATCH /control/v1/users/{loginName}/devices/{deviceId}',
        'DELETE /control/v1/users/{loginName}/devices/{deviceId}',
        'GET /control/v1/users/{loginName}/routing',
        'PUT /control/v1/users/{loginName}/routing',
        'GET /control/v1/pickupGroups',
        'GET /control/v1/pickupGroups/{name}',
        'PUT /control/v1/pickupGroups/{name}',
        'DELETE /control/v1/pickupGroups/{name}',
      ].sort(),
    )
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods))
        expect(operation.responses).toHaveProperty('401')
    }
    expect(document.components.securitySchemes).toEqual({
      operatorToken: { type: 'http', scheme: 'bearer' },
    })
    expect(document.security).toEqual([{ operatorToken: [] }])
  })
})

describe('the control plane and the API together', () => {
  it('provisions a user who then logs in through the API, and whose deletion leaves its session', async () => {
    const service = await startTestService()
    const app = await buildControlApp(service.running.platform, { token: TOKEN })
    try {
      const created = await app.inject({
        method: 'POST',
        url: USERS,
        headers: AUTH,
        payload: newUser(),
      })
      expect(created.statusCode).toBe(201)
      const cookie = await openSession(service.app, 'mona', { applicationName: 'test' })
      const own = await service.app.inject({ url: '/api/rest/1.0/users/mona', headers: { cookie } })
      expect(own.json()).toMatchObject({ loginName: 'mona', companyPhone: '1013' })

      const deleted = await app.inject({ method: 'DELETE', url: `${USERS}/mona`, headers: AUTH })

      expect(deleted.statusCode).toBe(204)
      // The session stays until it is closed or expires; the user it acts for is gone.
      const session = await service.app.inject({
        url: '/api/rest/1.0/sessions',
        headers: { cookie },
      })
      expect(session.statusCode).toBe(200)
      const gone = await service.app.inject({
        url: '/api/rest/1.0/users/mona',
        headers: { cookie },
      })
      expectRestError(gone, 404, 'NOT_FOUND')
      const login = await service.app.inject({
        url: '/api/rest/authenticate?version=1.0',
        headers: { authorization: basic('mona', 'demo-mona') },
      })
      expectRestError(login, 401, 'NOT_ALLOWED')
    } finally {
      await app.close()
      await service.close()
    }
  })
})

describe('a user without a company phone or devices (both optional in the specification)', () => {
  /** newUser() without companyPhone and devices, with the telephony licenses. */
  function phonelessUser(): Record<string, unknown> {
    const { companyPhone: _phone, devices: _devices, ...rest } = newUser()
    return { ...rest, apiRights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED'] }
  }

  let running: ControlService
  beforeEach(async () => {
    running = await startControlService()
  })
  afterEach(() => running.close())

  const control = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    running.control.inject({
      method,
      url,
      headers: AUTH,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    })
  const api = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    running.service.app.inject({
      method,
      url: `/api/rest/1.0${url}`,
      headers: { cookie, ...(method === 'POST' && { 'content-type': 'application/json' }) },
      ...(payload && { payload }),
    })

  it('is created through the control plane, shown without companyPhone and with no devices', async () => {
    const created = expectSchema<DirectoryUserView>(
      DirectoryUserView,
      await control('POST', USERS, phonelessUser()),
      201,
    )
    expect(created).not.toHaveProperty('companyPhone')
    expect(created.devices).toEqual([])
    expect((await control('GET', `${USERS}/mona`)).json()).toEqual(created)
    expect((await control('GET', `${USERS}/mona/devices`)).json()).toEqual({ devices: [] })
  })

  it('gets a company phone and devices, and loses them again (null removes them)', async () => {
    await control('POST', USERS, phonelessUser())
    const given = await control('PATCH', `${USERS}/mona`, { companyPhone: '1013' })
    expect(given.statusCode, given.body).toBe(200)
    expect(given.json()).toMatchObject({ companyPhone: '1013' })
    const removed = await control('PATCH', `${USERS}/mona`, { companyPhone: null })
    expect(removed.statusCode, removed.body).toBe(200)
    expect(removed.json()).not.toHaveProperty('companyPhone')
    const device = await control('POST', `${USERS}/mona/devices`, { type: 'DESKPHONE', id: '1013' })
    expect(device.statusCode, device.body).toBe(201)
    expect((await control('DELETE', `${USERS}/mona/devices/1013`)).statusCode).toBe(204)
    expect((await control('GET', `${USERS}/mona`)).json().devices).toEqual([])
    await control('POST', `${USERS}/mona/devices`, { type: 'DESKPHONE', id: '1013' })
    const noDevices = await control('PATCH', `${USERS}/mona`, { devices: null })
    expect(noDevices.statusCode, noDevices.body).toBe(200)
    expect(noDevices.json().devices).toEqual([])
  })

  it('logs in and reads its SessionInfo and User: no companyPhone, no devices', async () => {
    await control('POST', USERS, phonelessUser())
    const cookie = await openSession(running.service.app, 'mona')
    const info = await api(cookie, 'GET', '/sessions')
    expect(info.statusCode, info.body).toBe(200)
    expect(info.json()).toMatchObject({ login: 'mona', admin: false })
    expect(
      info.json().services.map((entry: { serviceName: string }) => entry.serviceName),
    ).toContain('Telephony')
    const own = await api(cookie, 'GET', '/users/mona')
    const user = expectSchema<User>(User, own)
    expect(user).toMatchObject({ loginName: 'mona', firstName: 'Mona' })
    expect(user).not.toHaveProperty('companyPhone')
    expect(user).not.toHaveProperty('devices')
    const preferences = await api(cookie, 'GET', '/users/mona/preferences')
    expect(preferences.statusCode, preferences.body).toBe(200)
  })

  it('gets empty device lists and sensible refusals from the telephony routes', async () => {
    await control('POST', USERS, phonelessUser())
    const cookie = await openSession(running.service.app, 'mona')
    const devices = await api(cookie, 'GET', '/telephony/devices')
    expect(devices.statusCode, devices.body).toBe(200)
    expect(devices.json()).toEqual({ deviceStates: [] })
    const state = await api(cookie, 'GET', '/telephony/state')
    expect(state.statusCode, state.body).toBe(200)
    const calls = await api(cookie, 'GET', '/telephony/calls')
    expect(calls.statusCode, calls.body).toBe(200)
    expect(calls.json()).toEqual({ calls: [] })
    // A make call without deviceId has no main device to place it from.
    expectRestError(
      await api(cookie, 'POST', '/telephony/calls', { callee: '1002' }),
      403,
      'NOT_EXPECTED',
      /^User 'mona' has no device$/,
    )
    // A device of somebody else, and one that does not exist.
    expectRestError(
      await api(cookie, 'POST', '/telephony/basicCall', { deviceId: '1001', callee: '1002' }),
      403,
      'NOT_ALLOWED',
      /not a device of 'mona'/,
    )
    expectRestError(
      await api(cookie, 'POST', '/telephony/basicCall', { deviceId: '1999', callee: '1002' }),
      404,
      'NOT_FOUND',
      /no device '1999'/,
    )
    const canonical = await api(cookie, 'GET', '/telephony/numbering/canonical?phoneNumber=1002')
    expect(canonical.statusCode, canonical.body).toBe(200)
    const dialable = await api(
      cookie,
      'GET',
      '/telephony/numbering/dialable?phoneNumber=%2B33155661002',
    )
    expect(dialable.statusCode, dialable.body).toBe(200)
  })

  it('is found by login name, e-mail and for supervision, never by a phone number', async () => {
    await control('POST', USERS, phonelessUser())
    const admin = await openSession(running.service.app, 'admin')
    const logins = await api(admin, 'GET', '/logins')
    expect(logins.json().loginNames).toContain('mona')
    const byEmail = await api(admin, 'GET', '/users?companyEmail=mona.lambert@example.com')
    expect(byEmail.statusCode, byEmail.body).toBe(307)
    expect(byEmail.headers.location).toBe('/api/rest/1.0/users/mona')
    expectRestError(await api(admin, 'GET', '/users?companyPhone=1013'), 404, 'NOT_FOUND')
    const supervised = await openSession(running.service.app, 'admin', {
      applicationName: 'test',
      supervisedAccount: { id: 'mona', type: 'LOGIN_NAME' },
    })
    const own = await api(supervised, 'GET', '/users/mona')
    expect(own.statusCode, own.body).toBe(200)
    const token = await authenticate(running.service.app, 'admin')
    const byPhone = await running.service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/sessions',
      headers: { cookie: `SvcUserId=${token}` },
      payload: { applicationName: 'test', supervisedAccount: { id: '1013', type: 'PHONE_NUMBER' } },
    })
    expectRestError(byPhone, 404, 'NOT_FOUND')
  })
})
