/**
 * User information (specification, "Users" and "User information"; wire facts 7 and 10): GET /users,
 * the User record and its starred fields, the password, preferences, telephony preferences and supported
 * languages, for user, administrator and supervised sessions, through the HTTP layer.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  RestErrorInfo,
  SupportedLanguages,
  TelephonyPreferences,
  User,
  UserPreferencesResponse,
} from '@openness/wire'
import type { LightMyRequestResponse } from 'fastify'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { DEMO_DIRECTORY_FILE } from '../../src/assembly/config.js'
import {
  authenticate,
  basic,
  openSession,
  startTestService,
  type TestService,
} from '../support/test-service.js'

const V1 = '/api/rest/1.0'

/** The fields the specification stars: only for the owner or an administrator session. */
const STARRED = [
  'type',
  'site',
  'department',
  'devices',
  'dialingRule',
  'apiRights',
  'applicationRights',
  'customAttributes',
] as const

/** The numbering plan of the demo directory, as a DialingRule. */
const DEMO_DIALING_RULE = {
  countryCode: 'FR',
  areaCode: '1',
  externalPrefix: '0',
  addPfxForNbLength: 4,
  exceptionRules: [{ lengthException: 6, beginPatternException: '39' }],
}

/** Alice's public fields, as another user sees them. */
const ALICE_PUBLIC = {
  companyPhone: '1001',
  salutation: 'MRS',
  firstName: 'Alice',
  lastName: 'Martin',
  companyEmail: 'alice.martin@example.com',
  loginName: 'alice',
  instantMessagingId: 'alice.martin@im.example.com',
  voicemail: { number: '8000', type: 'VM_4635', id: 'alice' },
  nodeId: '1',
  // Her vCard, relative to the location service's VCARD base (docs/vcard.md).
  vcardPath: 'alice.vcf',
  // companyEmail again, under the name the Node SDK reads (wire facts 7).
  eMailAddress: 'alice.martin@example.com',
}

/** Alice's starred fields. */
const ALICE_PRIVATE = {
  type: 'STANDARD',
  site: 'Paris',
  department: 'Sales',
  devices: [{ type: 'DESKPHONE', id: '1001', subType: 'SIP_8068', role: 'MAIN' }],
  dialingRule: DEMO_DIALING_RULE,
  apiRights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'MESSAGING'],
  applicationRights: ['BUSINESS_COMMUNICATIONS', 'VOICE_MAIL'],
}

/** Henri's starred fields: he is the demo user that has all eight. */
const HENRI_PRIVATE = {
  type: 'MULTIMEDIA',
  site: 'Paris',
  department: 'Management',
  devices: [
    { type: 'DESKPHONE', id: '1008', subType: 'SIP_8012', role: 'MAIN' },
    { type: 'SOFTPHONE', id: '1108', subType: 'THIRD_PARTY_VIDEO', role: 'SECONDARY' },
    {
      type: 'MOBILE',
      id: '1208',
      subType: 'MOBILE',
      associatedNumber: '+33612345608',
      role: 'SECONDARY',
    },
  ],
  dialingRule: DEMO_DIALING_RULE,
  apiRights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'MESSAGING', 'CONFERENCING'],
  applicationRights: ['BUSINESS_COMMUNICATIONS', 'DESKTOP', 'MOBILE', 'VOICE_MAIL', 'CONFERENCING'],
  customAttributes: {
    global: { costCenter: 'CC-100', badge: '4711' },
    user: { office: 'Building A, 5th floor' },
  },
}

/** The error catalog as the specification ("Errors") gives it. */
const SPEC_ERRORS = {
  INVALID_SESSION: { code: 1001, canRetry: true },
  NOT_ALLOWED: { code: 1002, canRetry: false },
  NOT_FOUND: { code: 1003, canRetry: true },
  BAD_PARAMETER: { code: 1006, canRetry: true },
} as const
const STATUS_NAMES = { 400: 'BAD_REQUEST', 403: 'FORBIDDEN', 404: 'NOT_FOUND' } as const

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

/** A 200 User body: valid against the schema, with no field the User record does not have. */
function userOf(response: LightMyRequestResponse): User {
  expect(response.statusCode, response.body).toBe(200)
  const body = response.json()
  expect(Value.Check(User, body)).toBe(true)
  expect(Object.keys(body).filter((key) => !(key in User.properties))).toEqual([])
  return body
}

function expectFullUser(body: User): void {
  for (const field of STARRED.filter((name) => name !== 'customAttributes'))
    expect(body, field).toHaveProperty(field)
}

function expectPublicUser(body: User): void {
  for (const field of STARRED) expect(body, field).not.toHaveProperty(field)
}

function preferencesOf(response: LightMyRequestResponse): Record<string, unknown> {
  expect(response.statusCode, response.body).toBe(200)
  const body = response.json()
  expect(Value.Check(UserPreferencesResponse, body)).toBe(true)
  return body
}

function expectNoContent(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(204)
  expect(response.body).toBe('')
}

/** Sessions of the demo accounts, opened on a fresh service. */
interface Sessions {
  alice: string
  bob: string
  carol: string
  henri: string
  admin: string
  /** The supervisor admin acting as alice. */
  supervised: string
}

async function openSessions(service: TestService): Promise<Sessions> {
  const { app } = service
  return {
    alice: await openSession(app, 'alice'),
    bob: await openSession(app, 'bob'),
    carol: await openSession(app, 'carol'),
    henri: await openSession(app, 'henri'),
    admin: await openSession(app, 'admin'),
    supervised: await openSession(app, 'admin', {
      applicationName: 'x',
      supervisedAccount: { id: 'alice', type: 'LOGIN_NAME' },
    }),
  }
}

function requests(service: () => TestService) {
  const headersOf = (cookie: string | undefined, extra: Record<string, string> = {}) =>
    cookie === undefined ? extra : { cookie, ...extra }
  return {
    get: (cookie: string | undefined, url: string, extra?: Record<string, string>) =>
      service().app.inject({
        method: 'GET',
        url: `${V1}${url}`,
        headers: headersOf(cookie, extra),
      }),
    post: (cookie: string | undefined, url: string, payload: unknown) =>
      service().app.inject({
        method: 'POST',
        url: `${V1}${url}`,
        headers: headersOf(cookie),
        payload: payload as Record<string, unknown>,
      }),
    put: (cookie: string | undefined, url: string, payload: unknown) =>
      service().app.inject({
        method: 'PUT',
        url: `${V1}${url}`,
        headers: headersOf(cookie),
        payload: payload as Record<string, unknown>,
      }),
  }
}

// An administrator session's Users service is /logins (specification, "Service"): the SDKs then send the
// look-up to /logins, so every rule of GET /users holds there too, the 307 staying under /logins.
for (const base of ['/users', '/logins']) {
  describe(`GET ${base}: lookup by one key`, () => {
    let service: TestService
    let sessions: Sessions
    const { get } = requests(() => service)

    beforeAll(async () => {
      service = await startTestService()
      sessions = await openSessions(service)
    })

    afterAll(async () => {
      await service?.close()
    })

    function expectRedirect(response: LightMyRequestResponse, loginName: string): void {
      expect(response.statusCode, response.body).toBe(307)
      expect(response.headers.location).toBe(`${V1}${base}/${loginName}`)
    }

    for (const kind of ['alice', 'admin', 'supervised'] as const) {
      it(`redirects to the user found by each key (${kind} session)`, async () => {
        const cookie = sessions[kind]
        expectRedirect(await get(cookie, `${base}?loginName=bob`), 'bob')
        expectRedirect(await get(cookie, `${base}?companyEmail=bob.durand@example.com`), 'bob')
        expectRedirect(
          await get(cookie, `${base}?instantMessagingId=bob.durand@im.example.com`),
          'bob',
        )
        expectRedirect(await get(cookie, `${base}?companyPhone=1002`), 'bob')
        expectRedirect(await get(cookie, `${base}?loginName=alice`), 'alice')
      })
    }

    it('finds a user by the number of any of its devices', async () => {
      expectRedirect(await get(sessions.alice, `${base}?companyPhone=1103`), 'carol')
      expectRedirect(await get(sessions.admin, `${base}?companyPhone=1208`), 'henri')
      expectRedirect(await get(sessions.admin, `${base}?companyPhone=1310`), 'julien')
    })

    it('compares e-mail addresses and instant messaging ids without case', async () => {
      expectRedirect(
        await get(sessions.alice, `${base}?companyEmail=Carol.LEFEBVRE@Example.COM`),
        'carol',
      )
      expectRedirect(
        await get(sessions.admin, `${base}?instantMessagingId=CAROL.Lefebvre@im.example.com`),
        'carol',
      )
    })

    it.runIf(base === '/users')('needs one parameter', async () => {
      expectError(await get(sessions.alice, '/users'), 400, 'BAD_PARAMETER', /loginName/)
      expectError(await get(sessions.admin, '/users'), 400, 'BAD_PARAMETER', /companyPhone/)
    })

    it.runIf(base === '/logins')('answers the login list without a look-up parameter', async () => {
      const list = await get(sessions.admin, '/logins')
      expect(list.statusCode, list.body).toBe(200)
      expect(list.json().loginNames).toContain('bob')
      const own = await get(sessions.alice, '/logins?nodeIds=1')
      expect(own.json()).toEqual({ loginNames: ['alice'] })
    })

    it.runIf(base === '/logins')(
      'refuses a look-up parameter mixed with a login-list parameter, naming both',
      async () => {
        for (const list of ['types=STANDARD', 'apiRights=MESSAGING', 'nodeIds=1', 'onlyACD']) {
          expectError(
            await get(sessions.admin, `/logins?companyPhone=1003&${list}`),
            400,
            'BAD_PARAMETER',
            new RegExp(`companyPhone looks up one user and ${list.split('=')[0]} filters`),
          )
        }
        expectError(
          await get(sessions.alice, '/logins?loginName=bob&types=STANDARD'),
          400,
          'BAD_PARAMETER',
          /give one or the other/,
        )
      },
    )

    it('takes one parameter at a time', async () => {
      expectError(
        await get(sessions.alice, `${base}?loginName=bob&companyPhone=1002`),
        400,
        'BAD_PARAMETER',
        /loginName.*companyPhone/,
      )
      expectError(
        await get(
          sessions.admin,
          `${base}?companyEmail=bob.durand@example.com&instantMessagingId=x`,
        ),
        400,
        'BAD_PARAMETER',
        /companyEmail.*instantMessagingId/,
      )
    })

    it('answers 404 when no user matches', async () => {
      expectError(await get(sessions.alice, `${base}?loginName=nobody`), 404, 'NOT_FOUND', /nobody/)
      expectError(await get(sessions.admin, `${base}?companyPhone=9999`), 404, 'NOT_FOUND', /9999/)
      expectError(
        await get(sessions.admin, `${base}?companyEmail=nobody@example.com`),
        404,
        'NOT_FOUND',
        /companyEmail/,
      )
    })

    it('does not find administrators', async () => {
      expectError(await get(sessions.admin, `${base}?loginName=admin`), 404, 'NOT_FOUND', /admin/)
      expectError(
        await get(sessions.alice, `${base}?loginName=operator`),
        404,
        'NOT_FOUND',
        /operator/,
      )
    })

    describe('a client that cannot follow redirects (Java SDK)', () => {
      const java = { 'user-agent': 'Java-http-client/17.0.15' }

      it('gets another user as a user session sees it: public fields only', async () => {
        const body = userOf(await get(sessions.alice, `${base}?companyPhone=1002`, java))
        expect(body).toMatchObject({ loginName: 'bob', companyPhone: '1002', firstName: 'Bob' })
        expectPublicUser(body)
      })

      it('gets its own User in full', async () => {
        const body = userOf(await get(sessions.alice, `${base}?companyPhone=1001`, java))
        expect(body).toEqual({ ...ALICE_PUBLIC, ...ALICE_PRIVATE })
      })

      it('gets any user in full in an administrator session', async () => {
        const body = userOf(
          await get(sessions.admin, `${base}?companyEmail=alice.martin@example.com`, java),
        )
        expect(body).toEqual({ ...ALICE_PUBLIC, ...ALICE_PRIVATE })
      })

      it('still gets the errors', async () => {
        expectError(
          await get(sessions.alice, `${base}?companyPhone=9999`, java),
          404,
          'NOT_FOUND',
          /9999/,
        )
        expectError(
          await get(sessions.alice, `${base}?loginName=bob&companyPhone=1002`, java),
          400,
          'BAD_PARAMETER',
          /loginName.*companyPhone/,
        )
        expectError(await get(sessions.alice, '/users', java), 400, 'BAD_PARAMETER', /loginName/)
      })
    })

    it('refuses a request without a session', async () => {
      expectError(await get(undefined, `${base}?loginName=bob`), 403, 'INVALID_SESSION', /session/i)
    })
  })
}

for (const prefix of ['/users', '/logins']) {
  describe(`GET ${prefix}/{loginName}`, () => {
    let service: TestService
    let sessions: Sessions
    const { get } = requests(() => service)

    beforeAll(async () => {
      service = await startTestService()
      sessions = await openSessions(service)
    })

    afterAll(async () => {
      await service?.close()
    })

    it('gives the owner every starred field', async () => {
      const alice = userOf(await get(sessions.alice, `${prefix}/alice`))
      expect(alice).toEqual({ ...ALICE_PUBLIC, ...ALICE_PRIVATE })
      expectFullUser(alice)

      const henri = userOf(await get(sessions.henri, `${prefix}/henri`))
      for (const field of STARRED) expect(henri, field).toHaveProperty(field)
      expect(henri).toMatchObject({
        ...HENRI_PRIVATE,
        loginName: 'henri',
        salutation: 'MR',
        sipUri: 'sip:1008@example.com',
        voicemail: { number: '8000', type: 'VM_UM', id: 'henri' },
        nodeId: '1',
      })
    })

    it('answers JSON, and the account as it is now: read, changed, read again', async () => {
      const before = await get(sessions.bob, `${prefix}/alice`)
      expect(before.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(userOf(before).firstName).toBe('Alice')
      const { directory } = service.running.platform
      await directory.updateUser('alice', { firstName: 'Alicia' })
      try {
        const after = await get(sessions.bob, `${prefix}/alice`)
        expect(userOf(after)).toEqual({ ...ALICE_PUBLIC, firstName: 'Alicia' })
        expect(after.headers['content-length']).toBe(String(Buffer.byteLength(after.body)))
        const own = userOf(await get(sessions.alice, `${prefix}/alice`))
        expect(own).toEqual({ ...ALICE_PUBLIC, ...ALICE_PRIVATE, firstName: 'Alicia' })
      } finally {
        await directory.updateUser('alice', { firstName: 'Alice' })
      }
      expect(userOf(await get(sessions.bob, `${prefix}/alice`))).toEqual(ALICE_PUBLIC)
    })

    it("gives the user's own dialing rule when the directory has one, else the numbering plan's", async () => {
      const franck = await openSession(service.app, 'franck')
      const body = userOf(await get(franck, `${prefix}/franck`))
      expect(body.dialingRule).toEqual({
        countryCode: 'FR',
        areaCode: '4',
        externalPrefix: '0',
        addPfxForNbLength: 4,
      })
      const carol = userOf(await get(sessions.carol, `${prefix}/carol`))
      expect(carol.dialingRule).toEqual(DEMO_DIALING_RULE)
    })

    it("gives a user session none of another user's starred fields, but the public ones", async () => {
      const alice = userOf(await get(sessions.bob, `${prefix}/alice`))
      expectPublicUser(alice)
      expect(alice).toEqual(ALICE_PUBLIC)

      const henri = userOf(await get(sessions.alice, `${prefix}/henri`))
      expectPublicUser(henri)
      expect(henri).toMatchObject({
        companyPhone: '1008',
        salutation: 'MR',
        firstName: 'Henri',
        lastName: 'Fournier',
        companyEmail: 'henri.fournier@example.com',
        loginName: 'henri',
        instantMessagingId: 'henri.fournier@im.example.com',
        sipUri: 'sip:1008@example.com',
        voicemail: { number: '8000', type: 'VM_UM', id: 'henri' },
      })
    })

    it('gives an administrator session every field of any user', async () => {
      expect(userOf(await get(sessions.admin, `${prefix}/alice`))).toEqual({
        ...ALICE_PUBLIC,
        ...ALICE_PRIVATE,
      })
      const henri = userOf(await get(sessions.admin, `${prefix}/henri`))
      expect(henri).toMatchObject(HENRI_PRIVATE)
    })

    it('gives a session supervising alice her full record, and others public ones', async () => {
      expect(userOf(await get(sessions.supervised, `${prefix}/alice`))).toEqual({
        ...ALICE_PUBLIC,
        ...ALICE_PRIVATE,
      })
      expectPublicUser(userOf(await get(sessions.supervised, `${prefix}/bob`)))
    })

    it('answers 404 for an unknown login', async () => {
      expectError(await get(sessions.alice, `${prefix}/nobody`), 404, 'NOT_FOUND', /nobody/)
      expectError(await get(sessions.admin, `${prefix}/nobody`), 404, 'NOT_FOUND', /nobody/)
    })

    it('answers 404 for an administrator login: administrators are not users', async () => {
      expectError(await get(sessions.admin, `${prefix}/admin`), 404, 'NOT_FOUND', /admin/)
      expectError(await get(sessions.alice, `${prefix}/operator`), 404, 'NOT_FOUND', /operator/)
    })

    it('answers 403 INVALID_SESSION without a session', async () => {
      const response = await get(undefined, `${prefix}/alice`)
      expectError(response, 403, 'INVALID_SESSION', /session/i)
      expect(response.json()).toMatchObject({ code: 1001, httpStatus: 'FORBIDDEN' })
      expectError(
        await get('SvcUserId=0123456789abcdef', `${prefix}/alice`),
        403,
        'INVALID_SESSION',
        /session/i,
      )
    })
  })
}

describe('PUT /users/{loginName}/password', () => {
  let service: TestService
  let sessions: Sessions
  const { put } = requests(() => service)

  /** The status of a Basic authentication with this password. */
  const authenticationStatus = async (loginName: string, password: string) =>
    (
      await service.app.inject({
        method: 'GET',
        url: '/api/rest/authenticate?version=1.0',
        headers: { authorization: basic(loginName, password) },
      })
    ).statusCode

  beforeEach(async () => {
    service = await startTestService()
    sessions = await openSessions(service)
    return () => service.close()
  })

  it('changes the own password: the new one works, the old one no longer', async () => {
    expectNoContent(
      await put(sessions.alice, '/users/alice/password', {
        oldPassword: 'demo-alice',
        newPassword: 'new-secret-1',
      }),
    )
    expect(await authenticate(service.app, 'alice', 'new-secret-1')).toEqual(expect.any(String))
    expect(await authenticationStatus('alice', 'demo-alice')).toBe(401)
  })

  it('refuses a wrong old password and keeps the password', async () => {
    expectError(
      await put(sessions.alice, '/users/alice/password', {
        oldPassword: 'wrong-password',
        newPassword: 'new-secret-1',
      }),
      403,
      'NOT_ALLOWED',
      /oldPassword/,
    )
    expect(await authenticate(service.app, 'alice', 'demo-alice')).toEqual(expect.any(String))
    expect(await authenticationStatus('alice', 'new-secret-1')).toBe(401)
  })

  it('refuses a new password shorter than 8 characters', async () => {
    expectError(
      await put(sessions.alice, '/users/alice/password', {
        oldPassword: 'demo-alice',
        newPassword: 'short',
      }),
      400,
      'BAD_PARAMETER',
      /newPassword/,
    )
    expect(await authenticate(service.app, 'alice', 'demo-alice')).toEqual(expect.any(String))
  })

  it('refuses a body without one of the fields, naming it', async () => {
    expectError(
      await put(sessions.alice, '/users/alice/password', { oldPassword: 'demo-alice' }),
      400,
      'BAD_PARAMETER',
      /newPassword/,
    )
    expectError(
      await put(sessions.alice, '/users/alice/password', { newPassword: 'new-secret-1' }),
      400,
      'BAD_PARAMETER',
      /oldPassword/,
    )
    expect(await authenticate(service.app, 'alice', 'demo-alice')).toEqual(expect.any(String))
  })

  it("refuses a user session changing another user's password", async () => {
    expectError(
      await put(sessions.bob, '/users/alice/password', {
        oldPassword: 'demo-alice',
        newPassword: 'new-secret-1',
      }),
      403,
      'NOT_ALLOWED',
      /alice/,
    )
    expect(await authenticate(service.app, 'alice', 'demo-alice')).toEqual(expect.any(String))
  })

  describe('ends the sessions the old password opened (issue 15, finding 3)', () => {
    const SESSIONS_URL = '/api/rest/1.0/sessions'
    const sessionStatus = async (cookie: string) =>
      (await service.app.inject({ url: SESSIONS_URL, headers: { cookie } })).statusCode

    it("closes the account's other sessions with their subscriptions and voids its unused credentials; the changing session stays", async () => {
      const other = await openSession(service.app, 'alice')
      const subscribed = await service.app.inject({
        method: 'POST',
        url: '/api/rest/1.0/subscriptions',
        headers: { cookie: other },
        payload: { filter: { selectors: [{ names: ['telephony'] }] }, version: '1.0' },
      })
      const { subscriptionId } = subscribed.json() as { subscriptionId: string }
      const { subscriptions } = service.running.platform
      expect(await subscriptions.find(subscriptionId)).toBeDefined()
      const unused = `SvcUserId=${await authenticate(service.app, 'alice')}`

      expectNoContent(
        await put(sessions.alice, '/users/alice/password', {
          oldPassword: 'demo-alice',
          newPassword: 'new-secret-1',
        }),
      )

      expect(await sessionStatus(sessions.alice)).toBe(200)
      expectError(
        await service.app.inject({ url: SESSIONS_URL, headers: { cookie: other } }),
        403,
        'INVALID_SESSION',
        /session/i,
      )
      expect(await subscriptions.find(subscriptionId)).toBeUndefined()
      const opening = await service.app.inject({
        method: 'POST',
        url: SESSIONS_URL,
        headers: { cookie: unused },
        payload: { applicationName: 'late' },
      })
      expect(opening.statusCode).toBe(403)
      // Other accounts keep theirs.
      expect(await sessionStatus(sessions.bob)).toBe(200)
    })

    it("closes every session of the account when an administrator changed it, the administrator's staying", async () => {
      const second = await openSession(service.app, 'bob')
      expectNoContent(
        await put(sessions.admin, '/users/bob/password', {
          oldPassword: 'demo-bob',
          newPassword: 'bob-new-secret',
        }),
      )
      expect(await sessionStatus(sessions.bob)).toBe(403)
      expect(await sessionStatus(second)).toBe(403)
      expect(await sessionStatus(sessions.admin)).toBe(200)
      expect(await sessionStatus(sessions.alice)).toBe(200)
    })

    it('changes nothing when the change is refused', async () => {
      const other = await openSession(service.app, 'alice')
      expectError(
        await put(sessions.alice, '/users/alice/password', {
          oldPassword: 'wrong-password',
          newPassword: 'new-secret-1',
        }),
        403,
        'NOT_ALLOWED',
        /oldPassword/,
      )
      expect(await sessionStatus(other)).toBe(200)
    })
  })

  it("lets an administrator change a user's password, given the user's old one", async () => {
    expectNoContent(
      await put(sessions.admin, '/users/bob/password', {
        oldPassword: 'demo-bob',
        newPassword: 'bob-new-secret',
      }),
    )
    expect(await authenticate(service.app, 'bob', 'bob-new-secret')).toEqual(expect.any(String))
    expect(await authenticationStatus('bob', 'demo-bob')).toBe(401)
  })

  it('lets an administrator change its own password', async () => {
    expectNoContent(
      await put(sessions.admin, '/users/admin/password', {
        oldPassword: 'demo-admin',
        newPassword: 'admin-new-secret',
      }),
    )
    expect(await authenticate(service.app, 'admin', 'admin-new-secret')).toEqual(expect.any(String))
    expect(await authenticationStatus('admin', 'demo-admin')).toBe(401)
  })

  it('lets a session supervising alice change her password', async () => {
    expectNoContent(
      await put(sessions.supervised, '/users/alice/password', {
        oldPassword: 'demo-alice',
        newPassword: 'new-secret-1',
      }),
    )
    expect(await authenticate(service.app, 'alice', 'new-secret-1')).toEqual(expect.any(String))
  })

  it('answers 404 for an unknown account in an administrator session', async () => {
    expectError(
      await put(sessions.admin, '/users/nobody/password', {
        oldPassword: 'whatever-1',
        newPassword: 'new-secret-1',
      }),
      404,
      'NOT_FOUND',
      /nobody/,
    )
  })

  it('answers 403 INVALID_SESSION without a session', async () => {
    expectError(
      await put(undefined, '/users/alice/password', {
        oldPassword: 'demo-alice',
        newPassword: 'new-secret-1',
      }),
      403,
      'INVALID_SESSION',
      /session/i,
    )
    expect(await authenticate(service.app, 'alice', 'demo-alice')).toEqual(expect.any(String))
  })
})

describe('GET and POST /users/{loginName}/preferences', () => {
  let service: TestService
  let sessions: Sessions
  const { get, post } = requests(() => service)
  const preferences = async (loginName: string) =>
    preferencesOf(await get(sessions.admin, `/users/${loginName}/preferences`))

  beforeEach(async () => {
    service = await startTestService()
    sessions = await openSessions(service)
    return () => service.close()
  })

  it('gives the stored preferences, the telephony ones and oxeLanguage mirroring tuiLanguage', async () => {
    expect(preferencesOf(await get(sessions.alice, '/users/alice/preferences'))).toEqual({
      guiLanguage: 'en',
      tuiLanguage: 'en',
      oxeLanguage: 'en',
      telephony: { clirMode: 'INACTIVE' },
    })
    expect(preferencesOf(await get(sessions.carol, '/users/carol/preferences'))).toEqual({
      guiLanguage: 'fr',
      tuiLanguage: 'fr',
      oxeLanguage: 'fr',
      professionalMobile: '+33612345603',
      telephony: { clirMode: 'INACTIVE' },
    })
    expect(await preferences('karim')).toEqual({
      guiLanguage: 'es',
      tuiLanguage: 'en',
      oxeLanguage: 'en',
      telephony: { clirMode: 'INACTIVE' },
    })
  })

  it('has no oxeLanguage when no tuiLanguage is set', async () => {
    expect(preferencesOf(await get(sessions.henri, '/users/henri/preferences'))).toEqual({
      telephony: { clirMode: 'ACTIVE' },
    })
  })

  it('changes the GUI language', async () => {
    expectNoContent(await post(sessions.alice, '/users/alice/preferences', { guiLanguage: 'fr' }))
    expect(await preferences('alice')).toEqual({
      guiLanguage: 'fr',
      tuiLanguage: 'en',
      oxeLanguage: 'en',
      telephony: { clirMode: 'INACTIVE' },
    })
  })

  it('accepts a language with a country', async () => {
    expectNoContent(
      await post(sessions.alice, '/users/alice/preferences', { guiLanguage: 'fr_FR' }),
    )
    expect(await preferences('alice')).toMatchObject({ guiLanguage: 'fr_FR' })
  })

  it('changes the TUI language, and oxeLanguage with it', async () => {
    expectNoContent(await post(sessions.alice, '/users/alice/preferences', { tuiLanguage: 'de' }))
    expect(await preferences('alice')).toMatchObject({ tuiLanguage: 'de', oxeLanguage: 'de' })
  })

  it('refuses a language that is not an ISO 639-1 code, changing nothing', async () => {
    const before = await preferences('alice')
    expectError(
      await post(sessions.alice, '/users/alice/preferences', {
        guiLanguage: 'french',
        personalMobile: '+33600000001',
      }),
      400,
      'BAD_PARAMETER',
      /guiLanguage/,
    )
    expect(await preferences('alice')).toEqual(before)
  })

  it('refuses a language the platform does not offer, changing nothing', async () => {
    const before = await preferences('alice')
    expectError(
      await post(sessions.alice, '/users/alice/preferences', { guiLanguage: 'ja' }),
      400,
      'BAD_PARAMETER',
      /guiLanguage/,
    )
    expectError(
      await post(sessions.alice, '/users/alice/preferences', {
        personalPhone: '+33100000001',
        tuiLanguage: 'es',
      }),
      400,
      'BAD_PARAMETER',
      /tuiLanguage/,
    )
    expect(await preferences('alice')).toEqual(before)
  })

  it('refuses an unknown field, naming it', async () => {
    const before = await preferences('alice')
    expectError(
      await post(sessions.alice, '/users/alice/preferences', {
        guiLanguage: 'fr',
        favouriteColour: 'blue',
      }),
      400,
      'BAD_PARAMETER',
      /favouriteColour/,
    )
    expect(await preferences('alice')).toEqual(before)
  })

  it('stores the phone numbers, and clears a field given as an empty string', async () => {
    expectNoContent(
      await post(sessions.alice, '/users/alice/preferences', {
        personalMobile: '+33600000001',
        personalPhone: '+33100000001',
        colleague: 'bob',
      }),
    )
    expect(await preferences('alice')).toEqual({
      guiLanguage: 'en',
      tuiLanguage: 'en',
      oxeLanguage: 'en',
      personalMobile: '+33600000001',
      personalPhone: '+33100000001',
      colleague: 'bob',
      telephony: { clirMode: 'INACTIVE' },
    })
    expectNoContent(
      await post(sessions.alice, '/users/alice/preferences', { personalMobile: '', colleague: '' }),
    )
    expect(await preferences('alice')).toEqual({
      guiLanguage: 'en',
      tuiLanguage: 'en',
      oxeLanguage: 'en',
      personalPhone: '+33100000001',
      telephony: { clirMode: 'INACTIVE' },
    })
  })

  it('clears a language given as an empty string', async () => {
    expectNoContent(await post(sessions.alice, '/users/alice/preferences', { tuiLanguage: '' }))
    const after = await preferences('alice')
    expect(after).not.toHaveProperty('tuiLanguage')
    expect(after).not.toHaveProperty('oxeLanguage')
    expect(after).toMatchObject({ guiLanguage: 'en' })
  })

  it('refuses professionalMobile from a standard user, changing no field of the request', async () => {
    const before = await preferences('alice')
    expectError(
      await post(sessions.alice, '/users/alice/preferences', {
        guiLanguage: 'fr',
        personalMobile: '+33600000001',
        professionalMobile: '+33600000002',
      }),
      403,
      'NOT_ALLOWED',
      /professionalMobile/,
    )
    expect(await preferences('alice')).toEqual(before)
  })

  it('refuses professionalMobile for a standard user from an administrator too', async () => {
    expectError(
      await post(sessions.admin, '/users/bob/preferences', { professionalMobile: '+33600000002' }),
      403,
      'NOT_ALLOWED',
      /professionalMobile/,
    )
    expect(await preferences('bob')).not.toHaveProperty('professionalMobile')
  })

  it('lets a multimedia user change professionalMobile', async () => {
    expectNoContent(
      await post(sessions.carol, '/users/carol/preferences', {
        professionalMobile: '+33699999903',
      }),
    )
    expect(await preferences('carol')).toMatchObject({ professionalMobile: '+33699999903' })
  })

  it('also changes the telephony preferences through the preferences', async () => {
    expectNoContent(
      await post(sessions.alice, '/users/alice/preferences', { telephony: { clirMode: 'ACTIVE' } }),
    )
    expect(await preferences('alice')).toMatchObject({ telephony: { clirMode: 'ACTIVE' } })
  })

  it("refuses a user session reading or changing another user's preferences", async () => {
    expectError(await get(sessions.bob, '/users/alice/preferences'), 403, 'NOT_ALLOWED', /alice/)
    const before = await preferences('alice')
    expectError(
      await post(sessions.bob, '/users/alice/preferences', { guiLanguage: 'fr' }),
      403,
      'NOT_ALLOWED',
      /alice/,
    )
    expect(await preferences('alice')).toEqual(before)
  })

  it('lets a session supervising alice read and change hers, but no one else’s', async () => {
    expectNoContent(
      await post(sessions.supervised, '/users/alice/preferences', { guiLanguage: 'de' }),
    )
    expect(preferencesOf(await get(sessions.supervised, '/users/alice/preferences'))).toMatchObject(
      {
        guiLanguage: 'de',
      },
    )
    expectError(await get(sessions.supervised, '/users/bob/preferences'), 403, 'NOT_ALLOWED', /bob/)
  })

  it('lets an administrator read and change the preferences of any user', async () => {
    expect(preferencesOf(await get(sessions.admin, '/users/gaelle/preferences'))).toEqual({
      guiLanguage: 'fr',
      tuiLanguage: 'fr',
      oxeLanguage: 'fr',
      personalMobile: '+33698765407',
      telephony: { clirMode: 'INACTIVE' },
    })
    expectNoContent(
      await post(sessions.admin, '/users/gaelle/preferences', {
        guiLanguage: 'it',
        personalMobile: '',
      }),
    )
    expect(await preferences('gaelle')).toEqual({
      guiLanguage: 'it',
      tuiLanguage: 'fr',
      oxeLanguage: 'fr',
      telephony: { clirMode: 'INACTIVE' },
    })
  })

  it('answers 404 for an unknown user or an administrator', async () => {
    expectError(await get(sessions.admin, '/users/nobody/preferences'), 404, 'NOT_FOUND', /nobody/)
    expectError(
      await post(sessions.admin, '/users/admin/preferences', { guiLanguage: 'fr' }),
      404,
      'NOT_FOUND',
      /admin/,
    )
  })

  it('accepts an empty body with a JSON content type and changes nothing', async () => {
    const before = await preferences('alice')
    const response = await service.app.inject({
      method: 'POST',
      url: `${V1}/users/alice/preferences`,
      headers: { cookie: sessions.alice, 'content-type': 'application/json' },
      payload: '',
    })
    expectNoContent(response)
    expectNoContent(await post(sessions.alice, '/users/alice/preferences', {}))
    expect(await preferences('alice')).toEqual(before)
  })

  it('serves the same preferences under /logins/{loginName}', async () => {
    expectNoContent(await post(sessions.admin, '/logins/alice/preferences', { guiLanguage: 'es' }))
    expect(preferencesOf(await get(sessions.admin, '/logins/alice/preferences'))).toMatchObject({
      guiLanguage: 'es',
    })
  })

  it('answers 403 INVALID_SESSION without a session', async () => {
    expectError(
      await get(undefined, '/users/alice/preferences'),
      403,
      'INVALID_SESSION',
      /session/i,
    )
    expectError(
      await post(undefined, '/users/alice/preferences', { guiLanguage: 'fr' }),
      403,
      'INVALID_SESSION',
      /session/i,
    )
  })
})

describe('GET and POST /users/{loginName}/preferences/telephony', () => {
  let service: TestService
  let sessions: Sessions
  const { get, post } = requests(() => service)

  function telephonyOf(response: LightMyRequestResponse): unknown {
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(Value.Check(TelephonyPreferences, body)).toBe(true)
    return body
  }

  beforeEach(async () => {
    service = await startTestService()
    sessions = await openSessions(service)
    return () => service.close()
  })

  it('gives the clirMode in force', async () => {
    expect(telephonyOf(await get(sessions.alice, '/users/alice/preferences/telephony'))).toEqual({
      clirMode: 'INACTIVE',
    })
    expect(telephonyOf(await get(sessions.henri, '/users/henri/preferences/telephony'))).toEqual({
      clirMode: 'ACTIVE',
    })
  })

  it('sets ACTIVE then INACTIVE', async () => {
    expectNoContent(
      await post(sessions.alice, '/users/alice/preferences/telephony', { clirMode: 'ACTIVE' }),
    )
    expect(telephonyOf(await get(sessions.alice, '/users/alice/preferences/telephony'))).toEqual({
      clirMode: 'ACTIVE',
    })
    expect(preferencesOf(await get(sessions.alice, '/users/alice/preferences'))).toMatchObject({
      guiLanguage: 'en',
      telephony: { clirMode: 'ACTIVE' },
    })
    expectNoContent(
      await post(sessions.alice, '/users/alice/preferences/telephony', { clirMode: 'INACTIVE' }),
    )
    expect(telephonyOf(await get(sessions.alice, '/users/alice/preferences/telephony'))).toEqual({
      clirMode: 'INACTIVE',
    })
  })

  it('refuses the modes a user cannot choose', async () => {
    for (const clirMode of ['UNKNOWN', 'NOT_SUPPORTED', 'ACTIVE_NOT_UPDATABLE']) {
      expectError(
        await post(sessions.alice, '/users/alice/preferences/telephony', { clirMode }),
        400,
        'BAD_PARAMETER',
        /clirMode/,
      )
    }
    expect(telephonyOf(await get(sessions.alice, '/users/alice/preferences/telephony'))).toEqual({
      clirMode: 'INACTIVE',
    })
  })

  it('refuses a value outside the ClirMode enumeration, naming clirMode', async () => {
    expectError(
      await post(sessions.alice, '/users/alice/preferences/telephony', { clirMode: 'HIDDEN' }),
      400,
      'BAD_PARAMETER',
      /clirMode/,
    )
    expectError(
      await post(sessions.alice, '/users/alice/preferences/telephony', { clirMode: 'active' }),
      400,
      'BAD_PARAMETER',
      /clirMode/,
    )
  })

  it('refuses an unknown field, naming it', async () => {
    expectError(
      await post(sessions.alice, '/users/alice/preferences/telephony', {
        clirMode: 'ACTIVE',
        cli: 1,
      }),
      400,
      'BAD_PARAMETER',
      /\bcli\b/,
    )
  })

  it('accepts an empty body and changes nothing', async () => {
    expectNoContent(await post(sessions.henri, '/users/henri/preferences/telephony', {}))
    const response = await service.app.inject({
      method: 'POST',
      url: `${V1}/users/henri/preferences/telephony`,
      headers: { cookie: sessions.henri, 'content-type': 'application/json' },
      payload: '',
    })
    expectNoContent(response)
    expect(telephonyOf(await get(sessions.henri, '/users/henri/preferences/telephony'))).toEqual({
      clirMode: 'ACTIVE',
    })
  })

  it("refuses a user session on another user's telephony preferences", async () => {
    expectError(
      await get(sessions.bob, '/users/alice/preferences/telephony'),
      403,
      'NOT_ALLOWED',
      /alice/,
    )
    expectError(
      await post(sessions.bob, '/users/alice/preferences/telephony', { clirMode: 'ACTIVE' }),
      403,
      'NOT_ALLOWED',
      /alice/,
    )
    expect(telephonyOf(await get(sessions.alice, '/users/alice/preferences/telephony'))).toEqual({
      clirMode: 'INACTIVE',
    })
  })

  it('lets an administrator and a supervising session act on the user', async () => {
    expectNoContent(
      await post(sessions.admin, '/users/henri/preferences/telephony', { clirMode: 'INACTIVE' }),
    )
    expect(telephonyOf(await get(sessions.admin, '/users/henri/preferences/telephony'))).toEqual({
      clirMode: 'INACTIVE',
    })
    expectNoContent(
      await post(sessions.supervised, '/users/alice/preferences/telephony', { clirMode: 'ACTIVE' }),
    )
    expect(
      telephonyOf(await get(sessions.supervised, '/users/alice/preferences/telephony')),
    ).toEqual({
      clirMode: 'ACTIVE',
    })
  })

  it('answers 404 for an unknown user', async () => {
    expectError(
      await get(sessions.admin, '/users/nobody/preferences/telephony'),
      404,
      'NOT_FOUND',
      /nobody/,
    )
  })
})

/** Writes, in `folder`, the demo directory with `loginName`'s clirMode set to `clirMode`; returns its path. */
async function demoDirectoryWith(
  folder: string,
  loginName: string,
  clirMode: string,
): Promise<string> {
  const demo = parse(await readFile(DEMO_DIRECTORY_FILE, 'utf8')) as {
    users: { loginName: string; clirMode?: string }[]
  }
  const user = demo.users.find((candidate) => candidate.loginName === loginName)
  if (user === undefined) throw new Error(`${loginName} is not in the demo directory`)
  user.clirMode = clirMode
  const directoryFile = join(folder, `directory-${loginName}-${clirMode}.yaml`)
  await writeFile(directoryFile, stringify(demo))
  return directoryFile
}

describe('telephony preferences of a user whose clirMode is not updatable', () => {
  let service: TestService
  let directory: string
  let bob: string
  let admin: string
  const { get, post } = requests(() => service)

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'openness-users-test-'))
    const directoryFile = await demoDirectoryWith(directory, 'bob', 'ACTIVE_NOT_UPDATABLE')
    service = await startTestService({ directoryFile })
    bob = await openSession(service.app, 'bob')
    admin = await openSession(service.app, 'admin')
  })

  afterAll(async () => {
    await service?.close()
    if (directory !== undefined) await rm(directory, { recursive: true, force: true })
  })

  it('shows the provisioned mode', async () => {
    const response = await get(bob, '/users/bob/preferences/telephony')
    expect(response.statusCode, response.body).toBe(200)
    expect(Value.Check(TelephonyPreferences, response.json())).toBe(true)
    expect(response.json()).toEqual({ clirMode: 'ACTIVE_NOT_UPDATABLE' })
  })

  it('refuses a change with 403, from the user and from an administrator', async () => {
    for (const [cookie, clirMode] of [
      [bob, 'INACTIVE'],
      [bob, 'ACTIVE'],
      [admin, 'INACTIVE'],
    ] as const) {
      expectError(
        await post(cookie, '/users/bob/preferences/telephony', { clirMode }),
        403,
        'NOT_ALLOWED',
        /clirMode/,
      )
    }
    expectError(
      await post(bob, '/users/bob/preferences', {
        guiLanguage: 'fr',
        telephony: { clirMode: 'INACTIVE' },
      }),
      403,
      'NOT_ALLOWED',
      /clirMode/,
    )
    expect(preferencesOf(await get(bob, '/users/bob/preferences'))).toEqual({
      telephony: { clirMode: 'ACTIVE_NOT_UPDATABLE' },
    })
  })
})

describe('a provisioning change to a non-updatable clirMode', () => {
  let directory: string
  let service: TestService | undefined

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'openness-users-test-'))
  })

  afterAll(async () => {
    await service?.close()
    await rm(directory, { recursive: true, force: true })
  })

  it("overrides the mode the user chose before: the platform's mode is in force", async () => {
    const database = { kind: 'sqlite' as const, filename: join(directory, 'store.sqlite3') }
    service = await startTestService({ database })
    const { get, post } = requests(() => service as TestService)
    let alice = await openSession(service.app, 'alice')
    expectNoContent(await post(alice, '/users/alice/preferences/telephony', { clirMode: 'ACTIVE' }))
    await service.close()
    service = undefined

    const directoryFile = await demoDirectoryWith(directory, 'alice', 'INACTIVE_NOT_UPDATABLE')
    service = await startTestService({ database, directoryFile })
    alice = await openSession(service.app, 'alice')
    const telephony = await get(alice, '/users/alice/preferences/telephony')
    expect(telephony.statusCode, telephony.body).toBe(200)
    expect(telephony.json()).toEqual({ clirMode: 'INACTIVE_NOT_UPDATABLE' })
    expect(preferencesOf(await get(alice, '/users/alice/preferences'))).toMatchObject({
      guiLanguage: 'en',
      telephony: { clirMode: 'INACTIVE_NOT_UPDATABLE' },
    })
    expectError(
      await post(alice, '/users/alice/preferences/telephony', { clirMode: 'ACTIVE' }),
      403,
      'NOT_ALLOWED',
      /clirMode/,
    )
  })
})

describe('GET /users/{loginName}/preferences/supportedLanguages', () => {
  let service: TestService
  let sessions: Sessions
  const { get } = requests(() => service)
  const DEMO_LANGUAGES = {
    supportedLanguages: ['en', 'fr', 'de'],
    supportedGuiLanguages: ['en', 'fr', 'de', 'es', 'it'],
    // The same lists under the names the C# SDK reads (case-sensitive).
    SupportedLanguages: ['en', 'fr', 'de'],
    SupportedGuiLanguages: ['en', 'fr', 'de', 'es', 'it'],
  }

  beforeAll(async () => {
    service = await startTestService()
    sessions = await openSessions(service)
  })

  afterAll(async () => {
    await service?.close()
  })

  function languagesOf(response: LightMyRequestResponse): unknown {
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(Value.Check(SupportedLanguages, body)).toBe(true)
    return body
  }

  it('gives the languages of the directory to the user, an administrator and a supervisor', async () => {
    expect(
      languagesOf(await get(sessions.alice, '/users/alice/preferences/supportedLanguages')),
    ).toEqual(DEMO_LANGUAGES)
    expect(
      languagesOf(await get(sessions.admin, '/users/bob/preferences/supportedLanguages')),
    ).toEqual(DEMO_LANGUAGES)
    expect(
      languagesOf(await get(sessions.supervised, '/logins/alice/preferences/supportedLanguages')),
    ).toEqual(DEMO_LANGUAGES)
  })

  it("refuses a user session on another user's", async () => {
    expectError(
      await get(sessions.alice, '/users/bob/preferences/supportedLanguages'),
      403,
      'NOT_ALLOWED',
      /bob/,
    )
  })

  it('answers 404 for an unknown user', async () => {
    expectError(
      await get(sessions.admin, '/users/nobody/preferences/supportedLanguages'),
      404,
      'NOT_FOUND',
      /nobody/,
    )
  })
})
