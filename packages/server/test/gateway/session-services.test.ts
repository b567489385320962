/**
 * SessionInfo.services against what the server serves (specification, "Session"; wire facts 2.3): each
 * listed service is followed the way the Node and Java SDKs build their URLs, and its first call must be
 * served (never a 404, nor a 405 of a path that does not exist); conversely every resource family the
 * server serves is reachable through a listed service.
 */
import { SessionInfo } from '@openness/wire'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectSchema } from '../support/assertions.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const V1 = '/api/rest/1.0'

/** The service names the SDKs look up, lower-cased (client census 3.1); others are never used. */
const SDK_SERVICE_NAMES = [
  'users',
  'telephony',
  'subscriptions',
  'eventsummary',
  'routing',
  'directory',
  'comlog',
  'voicemail',
  'maintenance',
  'usermanagement',
  'pbxmanagement',
  'phonesetprogramming',
  'acdagent',
  'acdpilotmonitoring',
  'acdrsi',
  'acdmanagement',
  'acdrealtime',
  'acd statistics',
  'analytics',
]

/**
 * The service URLs an SDK builds from a SessionInfo (N and J alike): every relativeUrl under /telephony
 * is the one telephony service at `<base>/telephony` (the first wins); the others are `<base> +
 * relativeUrl`, kept when the lower-cased name is one the SDK knows.
 */
function sdkServiceUrls(info: SessionInfo): Map<string, string> {
  const urls = new Map<string, string>()
  for (const { serviceName, relativeUrl } of info.services ?? []) {
    if (relativeUrl.startsWith('/telephony')) {
      if (!urls.has('telephony')) urls.set('telephony', `${info.privateBaseUrl}/telephony`)
      continue
    }
    const name = serviceName.toLowerCase()
    if (SDK_SERVICE_NAMES.includes(name) && !urls.has(name))
      urls.set(name, `${info.privateBaseUrl}${relativeUrl}`)
  }
  return urls
}

/** The path of a URL the server gave, for app.inject. */
const pathOf = (url: string) => {
  const { pathname, search } = new URL(url, 'http://localhost')
  return `${pathname}${search}`
}

/**
 * The services through which each resource family under /api/rest/1.0 is reached; `null` for those
 * reached otherwise (the sessions URL comes from the authenticate answer, the notifications URL from a
 * Subscription). A family missing here fails the test: a new resource needs a listed service.
 */
const FAMILY_SERVICES: Readonly<Record<string, readonly string[] | null>> = {
  sessions: null,
  notifications: null,
  users: ['Users'],
  logins: ['Users', 'Logins'],
  telephony: ['Telephony', 'Devices', 'State'],
  subscriptions: ['Subscriptions'],
  routing: ['Routing'],
  comlog: ['Comlog'],
  eventSummary: ['EventSummary'],
  groups: ['Groups'],
  directory: ['Directory'],
  messaging: ['Voicemail'],
  // Reached through the location service's VCARD base (docs/vcard.md).
  vcard: null,
  system: ['Maintenance'],
  acd: ['AcdAgent', 'AcdPilotMonitoring', 'AcdManagement'],
}

/**
 * Families of administrator sessions only: a user session lists no service for them (the contact center's, but
 * for its operators: carol is none).
 */
const ADMINISTRATOR_FAMILIES: ReadonlySet<string> = new Set(['system', 'acd'])

/**
 * The services with nothing at their own URL, only under it (the SDKs append the resource's path): the contact
 * center's, which the demo's has (docs/contact-center.md, "Access"). Probed at one of their resources.
 */
const UNDER: Readonly<Record<string, string>> = {
  AcdAgent: '/config',
  AcdPilotMonitoring: '/3000',
  AcdManagement: '/1/pilots',
}

interface Account {
  /** How the session is opened. */
  login: string
  supervised?: string
  /** The user whose resources the calls address (its own, or the one an administrator names). */
  user: string
  admin: boolean
}

const ACCOUNTS: Record<string, Account> = {
  'a user with every license (carol)': { login: 'carol', user: 'carol', admin: false },
  'a user with TELEPHONY_BASIC only (dave)': { login: 'dave', user: 'dave', admin: false },
  'a user with TELEPHONY_BASIC and MESSAGING (lea)': { login: 'lea', user: 'lea', admin: false },
  'an administrator session': { login: 'admin', user: 'alice', admin: true },
  'a session supervising alice': {
    login: 'admin',
    supervised: 'alice',
    user: 'alice',
    admin: false,
  },
}

describe('SessionInfo services, followed as the SDKs follow them', () => {
  let service: TestService

  beforeAll(async () => {
    service = await startTestService()
  })
  afterAll(async () => {
    await service?.close()
  })

  async function sessionOf(account: Account): Promise<{ cookie: string; info: SessionInfo }> {
    const body = {
      applicationName: 'sdk',
      ...(account.supervised && {
        supervisedAccount: { id: account.supervised, type: 'LOGIN_NAME' },
      }),
    }
    const cookie = await openSession(service.app, account.login, body)
    const response = await service.app.inject({ url: `${V1}/sessions`, headers: { cookie } })
    return { cookie, info: expectSchema<SessionInfo>(SessionInfo, response) }
  }

  function request(cookie: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string) {
    return (payload?: object) =>
      service.app.inject({
        method,
        url: pathOf(url),
        headers: { cookie, ...(method === 'POST' && { 'content-type': 'application/json' }) },
        ...(payload && { payload }),
      })
  }

  function expectServed(response: LightMyRequestResponse, what: string): void {
    expect(response.statusCode, `${what}: ${response.body}`).toBeGreaterThanOrEqual(200)
    expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(400)
  }

  for (const [kind, account] of Object.entries(ACCOUNTS)) {
    describe(kind, () => {
      it('lists services whose own URL exists: a GET answers neither 404 nor 503, a 405 names its methods', async () => {
        const { cookie, info } = await sessionOf(account)
        expect(info.services?.length).toBeGreaterThan(0)
        const query = account.admin ? `?loginName=${account.user}` : ''
        for (const listed of info.services ?? []) {
          const { serviceName } = listed
          const relativeUrl = `${listed.relativeUrl}${UNDER[serviceName] ?? ''}`
          const response = await request(cookie, 'GET', `${info.privateBaseUrl}${relativeUrl}`)()
          expect([404, 503], `${serviceName} ${relativeUrl}`).not.toContain(response.statusCode)
          if (response.statusCode === 405) expect(response.headers.allow).toBeTruthy()
          const withUser = await request(
            cookie,
            'GET',
            `${info.privateBaseUrl}${relativeUrl}${query}`,
          )()
          expect([404, 503], `${serviceName} ${relativeUrl}${query}`).not.toContain(
            withUser.statusCode,
          )
        }
      })

      it("serves the SDKs' calls on the Users service URL", async () => {
        const { cookie, info } = await sessionOf(account)
        const users = sdkServiceUrls(info).get('users')
        expect(users, 'the SDK finds a Users service').toBeDefined()
        const base = users as string
        expect(pathOf(base)).toBe(account.admin ? `${V1}/logins` : `${V1}/users`)

        const found = await request(cookie, 'GET', `${base}?companyPhone=1003`)()
        expect(found.statusCode, found.body).toBe(307)
        expect(found.headers.location).toBe(`${pathOf(base)}/carol`)
        expectServed(await request(cookie, 'GET', String(found.headers.location))(), 'followed')
        expectServed(await request(cookie, 'GET', `${base}/carol`)(), 'user')
        expectServed(await request(cookie, 'GET', `${base}/${account.user}`)(), 'own user')
        expectServed(
          await request(cookie, 'GET', `${base}/${account.user}/preferences`)(),
          'preferences',
        )
        expectServed(
          await request(cookie, 'GET', `${base}/${account.user}/preferences/supportedLanguages`)(),
          'supported languages',
        )
        const logins = await request(cookie, 'GET', base.replace('/users', '/logins'))()
        expectServed(logins, 'logins')
        expect(logins.json().loginNames).toContain(account.user)
        const password = `${account.user}-new-password`
        expectServed(
          await request(
            cookie,
            'PUT',
            `${base}/${account.user}/password`,
          )({ oldPassword: `demo-${account.user}`, newPassword: password }),
          'password',
        )
        expectServed(
          await request(
            cookie,
            'PUT',
            `${base}/${account.user}/password`,
          )({ oldPassword: password, newPassword: `demo-${account.user}` }),
          'password back',
        )
      })

      it("serves the SDKs' first calls on the telephony, routing and subscriptions URLs it lists", async () => {
        const { cookie, info } = await sessionOf(account)
        const urls = sdkServiceUrls(info)
        const query = account.admin ? `?loginName=${account.user}` : ''
        const telephony = urls.get('telephony')
        if (telephony !== undefined) {
          expect(pathOf(telephony)).toBe(`${V1}/telephony`)
          expectServed(await request(cookie, 'GET', `${telephony}/state${query}`)(), 'state')
          if (account.admin || info.capabilities?.includes('ADVANCED_TELEPHONY'))
            expectServed(await request(cookie, 'GET', `${telephony}/calls${query}`)(), 'calls')
        }
        const routing = urls.get('routing')
        expect(routing, 'the SDK finds a Routing service').toBeDefined()
        expectServed(await request(cookie, 'GET', `${routing}/state${query}`)(), 'routing state')
        const subscriptions = urls.get('subscriptions')
        if (subscriptions !== undefined) {
          const created = await request(
            cookie,
            'POST',
            subscriptions,
          )({
            filter: {
              selectors: [{ names: ['user'], ...(account.admin && { ids: [account.user] }) }],
            },
            version: '1.0',
            timeout: 10,
          })
          expectServed(created, 'subscription')
          const { subscriptionId } = created.json()
          expectServed(
            await request(cookie, 'DELETE', `${subscriptions}/${subscriptionId}`)(),
            'subscription removed',
          )
        }
      })
    })
  }

  it('lists no service the SDKs would find that the server does not serve', async () => {
    for (const account of Object.values(ACCOUNTS)) {
      const { info } = await sessionOf(account)
      for (const name of sdkServiceUrls(info).keys())
        expect(
          [
            'users',
            'telephony',
            'subscriptions',
            'routing',
            'comlog',
            'eventsummary',
            'directory',
            'voicemail',
            'maintenance',
            'acdagent',
            'acdpilotmonitoring',
            'acdmanagement',
          ],
          account.login,
        ).toContain(name)
    }
  })

  it('lists, for a fully licensed user and an administrator, a service for every resource family served', async () => {
    const openApi = await service.app.inject({ url: '/openapi.json' })
    expect(openApi.statusCode).toBe(200)
    const families = new Set(
      Object.keys(openApi.json().paths as Record<string, unknown>)
        .filter((path) => path.startsWith(`${V1}/`))
        .map((path) => path.slice(V1.length + 1).split('/')[0] as string),
    )
    expect([...families].sort()).toEqual(Object.keys(FAMILY_SERVICES).sort())
    for (const account of [
      ACCOUNTS['a user with every license (carol)'],
      ACCOUNTS['an administrator session'],
    ]) {
      const { info } = await sessionOf(account as Account)
      const listed = (info.services ?? []).map((entry) => entry.serviceName)
      for (const family of families) {
        const names = FAMILY_SERVICES[family]
        if (names === null || names === undefined) continue
        expect(
          names.some((name) => listed.includes(name)),
          `${family} for ${account?.login}`,
        ).toBe(account?.admin === true || !ADMINISTRATOR_FAMILIES.has(family))
      }
    }
  })
})
