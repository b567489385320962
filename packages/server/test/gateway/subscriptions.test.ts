/**
 * Subscription management (specification, "Subscription management", the subscription table, "Events"
 * items 5 to 8 and "Limits"; wire facts 4): creation and every refusal reason, filter replacement,
 * removal, the license a session needs, and the supervision counter of administrator subscriptions.
 */
import { EVENT_PACKAGES, SessionInfo, Subscription } from '@openness/wire'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SubscriptionManager } from '../../src/platform/subscriptions/subscription-manager.js'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { directoryVariant } from '../support/directory-variant.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const SESSIONS = '/api/rest/1.0/sessions'
const SUBSCRIPTIONS = '/api/rest/1.0/subscriptions'
const TELEPHONY = { filter: { selectors: [{ names: ['telephony'] }] }, version: '1.0' }

let service: TestService
let app: FastifyInstance
let subscriptions: SubscriptionManager

beforeEach(async () => {
  service = await startTestService()
  app = service.app
  subscriptions = service.running.platform.subscriptions
})
afterEach(() => service.close())

const post = (cookie: string, payload: unknown, url = SUBSCRIPTIONS) =>
  app.inject({ method: 'POST', url, headers: { cookie }, payload: payload as object })
const put = (cookie: string, payload: unknown, subscriptionId?: string) =>
  app.inject({
    method: 'PUT',
    url:
      subscriptionId === undefined
        ? SUBSCRIPTIONS
        : `${SUBSCRIPTIONS}?subscriptionId=${subscriptionId}`,
    headers: { cookie },
    payload: payload as object,
  })
const remove = (cookie: string, subscriptionId: string) =>
  app.inject({ method: 'DELETE', url: `${SUBSCRIPTIONS}/${subscriptionId}`, headers: { cookie } })

/** Asserts an ACCEPTED answer and returns it. */
function accepted(response: LightMyRequestResponse): Subscription & { subscriptionId: string } {
  const body = expectSchema<Subscription>(Subscription, response)
  expect(body.status).toBe('ACCEPTED')
  expect(body.subscriptionId).toMatch(/^[0-9a-f]{32}$/)
  return body as Subscription & { subscriptionId: string }
}

/** Asserts a REFUSED answer (400, a Subscription with the status and a message only) matching `message`. */
function refused(response: LightMyRequestResponse, message: RegExp): void {
  const body = expectSchema<Subscription>(Subscription, response, 400)
  expect(body).toEqual({ status: 'REFUSED', message: expect.stringMatching(message) })
}

/** The subscriptions removed from now on: id, state and cause, as the removal told them. */
function removals(): { subscriptionId: string; state: string; cause: string | undefined }[] {
  const removed: { subscriptionId: string; state: string; cause: string | undefined }[] = []
  subscriptions.onSubscriptionRemoved(({ subscriptionId, state, cause }) =>
    removed.push({ subscriptionId, state, cause }),
  )
  return removed
}

/** Subscribes administrator `cookie` to telephony events of `ids`. */
const supervise = (cookie: string, ...ids: string[]) =>
  post(cookie, { filter: { selectors: [{ names: ['telephony'], ids }] }, version: '1.0' })

describe('POST /subscriptions: accepted', () => {
  it('answers 200 with the id, polling URLs, status, mode and format', async () => {
    const alice = await openSession(app, 'alice')
    const body = accepted(await post(alice, TELEPHONY))
    const channel = `/api/rest/1.0/notifications/${body.subscriptionId}`
    expect(body).toEqual({
      subscriptionId: body.subscriptionId,
      publicPollingUrl: expect.stringMatching(/^https?:\/\//),
      privatePollingUrl: expect.stringMatching(/^https?:\/\//),
      status: 'ACCEPTED',
      mode: 'CHUNK',
      format: 'JSON',
    })
    expect(body.publicPollingUrl?.endsWith(channel)).toBe(true)
    expect(body.privatePollingUrl?.endsWith(channel)).toBe(true)

    const kept = await subscriptions.find(body.subscriptionId)
    expect(kept).toMatchObject({
      owner: 'alice',
      admin: false,
      mode: 'CHUNK',
      timeoutMinutes: 10,
      keepaliveMinutes: 0,
    })
    expect(kept?.routes).toEqual([
      { eventNames: [...EVENT_PACKAGES.telephony], loginNames: ['alice'] },
    ])
  })

  it('gives each subscription its own id', async () => {
    const alice = await openSession(app, 'alice')
    const first = accepted(await post(alice, TELEPHONY))
    const second = accepted(await post(alice, TELEPHONY))
    expect(first.subscriptionId).not.toBe(second.subscriptionId)
    expect(await subscriptions.count()).toBe(2)
  })

  it('accepts the trailing-slash form /subscriptions/ (wire facts 4)', async () => {
    const alice = await openSession(app, 'alice')
    accepted(await post(alice, TELEPHONY, `${SUBSCRIPTIONS}/`))
  })

  it('copies mode CHUNK_MULTIPART', async () => {
    const alice = await openSession(app, 'alice')
    const body = accepted(await post(alice, { ...TELEPHONY, mode: 'CHUNK_MULTIPART' }))
    expect(body.mode).toBe('CHUNK_MULTIPART')
    expect((await subscriptions.find(body.subscriptionId))?.mode).toBe('CHUNK_MULTIPART')
  })

  it.each([0, 2, 60])('accepts timeout %i', async (timeout) => {
    const alice = await openSession(app, 'alice')
    const body = accepted(await post(alice, { ...TELEPHONY, timeout }))
    expect((await subscriptions.find(body.subscriptionId))?.timeoutMinutes).toBe(timeout)
  })

  it.each([
    [10, 0],
    [10, 9],
    [2, 1],
    [60, 59],
  ])('accepts timeout %i with keepalive %i', async (timeout, keepalive) => {
    const alice = await openSession(app, 'alice')
    const body = accepted(await post(alice, { ...TELEPHONY, timeout, keepalive }))
    expect(await subscriptions.find(body.subscriptionId)).toMatchObject({
      timeoutMinutes: timeout,
      keepaliveMinutes: keepalive,
    })
  })

  it('accepts a webHookUrl on an allowed host: no polling URL, and no chunk channel', async () => {
    const alice = await openSession(app, 'alice')
    const body = accepted(
      await post(alice, { ...TELEPHONY, webHookUrl: 'http://127.0.0.1:9/o2g#events' }),
    )
    expect(body).toEqual({
      subscriptionId: body.subscriptionId,
      status: 'ACCEPTED',
      format: 'JSON',
    })
    expect((await subscriptions.find(body.subscriptionId))?.webHookUrl).toBe(
      'http://127.0.0.1:9/o2g',
    )
    const channel = await app.inject({
      method: 'POST',
      url: `/api/rest/1.0/notifications/${body.subscriptionId}`,
    })
    expectRestError(channel, 400, 'NOT_SUPPORTED')
  })

  it('accepts the fields clients send that the server does not use', async () => {
    const alice = await openSession(app, 'alice')
    accepted(
      await post(alice, {
        notificationUrl: 'http://client.example/notify',
        filter: {
          selectors: [{ names: ['telephony'], ids: [], families: ['f'], origins: ['o'] }],
        },
        appId: 'com.example.app',
        format: 'JSON',
        sessionId: 'whatever',
        subscriptionId: 'mine',
        token: 'voip-token',
        tokenRemote: 'remote-token',
        version: '1.0',
        init: true,
      }),
    )
  })

  it('accepts the bodies real SDKs send (wire facts 4)', async () => {
    const alice = await openSession(app, 'alice')
    accepted(
      await post(alice, {
        filter: { selectors: [{ names: ['telephony'], ids: ['alice'] }] },
        version: '1.0',
        timeout: 0,
      }),
    )
    accepted(
      await post(alice, {
        version: '1.0',
        timeout: 10,
        filter: { selectors: [{ names: ['userManagement'] }, { names: ['user'] }] },
      }),
    )
  })

  it("accepts the real product's packages the SDKs name, exact bodies (wire facts 4, issue 11)", async () => {
    const raw = (cookie: string, body: string) =>
      app.inject({
        method: 'POST',
        url: SUBSCRIPTIONS,
        headers: { cookie, 'content-type': 'application/json' },
        payload: body,
      })
    const alice = await openSession(app, 'alice')
    // Node SDK: addTelephonyEvents([]) and addMaintenanceEvents().
    const node = accepted(
      await raw(
        alice,
        '{"filter":{"selectors":[{"names":["telephony"],"ids":[]},{"names":["system"],"ids":[]}]},"version":"1.0","timeout":0}',
      ),
    )
    expect((await subscriptions.find(node.subscriptionId))?.routes).toEqual([
      { eventNames: [...EVENT_PACKAGES.telephony], loginNames: ['alice'] },
    ])
    const admin = await openSession(app, 'admin')
    // Java SDK: addCallCenterRealtimeEventListener, then addCallCenterStatisticsEventListener.
    const java = accepted(
      await raw(
        admin,
        '{"version":"1.0","timeout":10,"filter":{"selectors":[{"names":["rti"],"ids":["*"]}]}}',
      ),
    )
    expect((await subscriptions.find(java.subscriptionId))?.routes).toEqual([])
    accepted(
      await raw(
        admin,
        '{"version":"1.0","timeout":10,"filter":{"selectors":[{"names":["acdstats"],"ids":["*"]}]}}',
      ),
    )
    // Node SDK, administrator: addMaintenanceEvents, addPbxManagementEvents, addRsiEvents,
    // addUsersManagementEvents (empty ids: the specification does not check them for these events).
    accepted(
      await raw(
        admin,
        '{"filter":{"selectors":[{"names":["system"],"ids":[]},{"names":["pbxManagement"],"ids":[]},{"names":["rsi"],"ids":[]},{"names":["userManagement"],"ids":[]}]},"version":"1.0","timeout":0}',
      ),
    )
    // C# SDK: AddMaintenanceEvents() and AddCallCenterAgentEvents() leave ids out: every operator's agent
    // events, every pilot's events (none reach the C# SDK, which parses no pilot event: client-dialect.ts).
    accepted(
      await raw(
        admin,
        '{"filter":{"selectors":[{"names":["system"]},{"names":["agent"]},{"names":["pilot"]}]},"version":"1.0","timeout":10}',
      ),
    )
    // Event names of those packages, named one by one.
    accepted(
      await raw(
        alice,
        '{"filter":{"selectors":[{"names":["OnPbxLinkUp","OnPbxLinkDown"]},{"names":["OnDynamicStateChanged"]}]},"version":"1.0"}',
      ),
    )
    expect(await subscriptions.supervision.count()).toBe(0)
  })

  it('accepts an administrator subscription listing users, and counts them', async () => {
    const admin = await openSession(app, 'admin')
    const body = accepted(await supervise(admin, 'alice', 'bob'))
    expect((await subscriptions.find(body.subscriptionId))?.supervisedUsers).toEqual(
      new Set(['alice', 'bob']),
    )
    expect(await subscriptions.supervision.count()).toBe(2)
  })

  it('does not count users of user sessions against the supervision count', async () => {
    const alice = await openSession(app, 'alice')
    accepted(await post(alice, TELEPHONY))
    expect(await subscriptions.supervision.count()).toBe(0)
  })
})

describe('POST /subscriptions: refused (400, status REFUSED, message naming the reason)', () => {
  const selectors = (...list: unknown[]) => ({ filter: { selectors: list }, version: '1.0' })

  const ROWS: [reason: string, login: string, body: unknown, message: RegExp][] = [
    [
      'webHookUrl on a host the operator does not allow',
      'alice',
      { ...TELEPHONY, webHookUrl: 'http://client.example/hook' },
      /^webHookUrl: host 'client\.example' is not allowed/,
    ],
    [
      'webHookUrl not http(s)',
      'alice',
      { ...TELEPHONY, webHookUrl: 'file:///etc/passwd' },
      /^webHookUrl: must be an absolute http or https URL/,
    ],
    [
      'webHookUrl with CHUNK_MULTIPART',
      'alice',
      { ...TELEPHONY, webHookUrl: 'http://127.0.0.1:9/hook', mode: 'CHUNK_MULTIPART' },
      /^mode: /,
    ],
    ['version 2.0', 'alice', { ...TELEPHONY, version: '2.0' }, /^version: .*'2\.0'/],
    ['timeout 1', 'alice', { ...TELEPHONY, timeout: 1 }, /^timeout: /],
    ['timeout 61', 'alice', { ...TELEPHONY, timeout: 61 }, /^timeout: /],
    ['timeout -1', 'alice', { ...TELEPHONY, timeout: -1 }, /^timeout: /],
    ['keepalive = timeout', 'alice', { ...TELEPHONY, timeout: 5, keepalive: 5 }, /^keepalive: /],
    ['keepalive > timeout', 'alice', { ...TELEPHONY, timeout: 5, keepalive: 6 }, /^keepalive: /],
    [
      'keepalive = default timeout',
      'alice',
      { ...TELEPHONY, keepalive: 10 },
      /^keepalive: .*less than timeout/,
    ],
    ['negative keepalive', 'alice', { ...TELEPHONY, keepalive: -1 }, /^keepalive: /],
    ['no filter', 'alice', { version: '1.0' }, /filter\.selectors: at least one selector/],
    ['no selectors', 'alice', selectors(), /filter\.selectors: at least one selector/],
    [
      'a package plus an event name',
      'alice',
      selectors({ names: ['telephony', 'OnCallCreated'] }),
      /selectors\[0\]\.names: .*either a package or event names/,
    ],
    [
      'events of two packages',
      'alice',
      selectors({ names: ['OnCallCreated', 'OnPreferencesChanged'] }),
      /selectors\[0\]\.names: a selector names one package only/,
    ],
    [
      'two packages',
      'alice',
      selectors({ names: ['telephony'] }, { names: ['user', 'eventSummary'] }),
      /selectors\[1\]\.names: a selector names one package only/,
    ],
    [
      'an unknown name',
      'alice',
      selectors({ names: ['OnCallCreatd'] }),
      /'OnCallCreatd' is neither an event name nor an event package/,
    ],
    [
      "a name in no package, beside the real product's packages",
      'admin',
      selectors({ names: ['rti'], ids: ['*'] }, { names: ['acdStatistics'], ids: ['*'] }),
      /selectors\[1\]\.names: 'acdStatistics' is neither an event name nor an event package/,
    ],
    [
      'a user session naming another user',
      'alice',
      selectors({ names: ['telephony'], ids: ['bob'] }),
      /selectors\[0\]\.ids: .*own events only \(got 'bob'\)/,
    ],
    [
      'an administrator session without ids',
      'admin',
      selectors({ names: ['telephony'] }),
      /selectors\[0\]\.ids: an administrator session must list at least one login name/,
    ],
    [
      'an administrator session naming an unknown login',
      'admin',
      selectors({ names: ['telephony'], ids: ['alice', 'nobody'] }),
      /no user 'nobody'/,
    ],
    [
      'an administrator session naming a user with neither TELEPHONY_ADVANCED nor MESSAGING',
      'admin',
      selectors({ names: ['telephony'], ids: ['alice'] }, { names: ['user'], ids: ['dave'] }),
      /selectors\[1\]\.ids: user 'dave' holds neither TELEPHONY_ADVANCED nor MESSAGING/,
    ],
  ]

  it.each(ROWS)('refuses %s and keeps nothing', async (_reason, login, body, message) => {
    const cookie = await openSession(app, login)
    // A subscription already held, to see that a refusal changes nothing.
    if (login === 'admin') accepted(await supervise(cookie, 'bob'))
    else accepted(await post(cookie, TELEPHONY))
    const before = {
      size: await subscriptions.count(),
      count: await subscriptions.supervision.count(),
    }

    refused(await post(cookie, body), message)

    expect({
      size: await subscriptions.count(),
      count: await subscriptions.supervision.count(),
    }).toEqual(before)
  })

  it('answers a missing version with RestErrorInfo BAD_PARAMETER naming it', async () => {
    const alice = await openSession(app, 'alice')
    expectRestError(
      await post(alice, { filter: TELEPHONY.filter }),
      400,
      'BAD_PARAMETER',
      /version/,
    )
    expect(await subscriptions.count()).toBe(0)
  })

  it('answers a selector with empty names with RestErrorInfo BAD_PARAMETER', async () => {
    const alice = await openSession(app, 'alice')
    expectRestError(
      await post(alice, { filter: { selectors: [{ names: [] }] }, version: '1.0' }),
      400,
      'BAD_PARAMETER',
      /names/,
    )
    expect(await subscriptions.count()).toBe(0)
  })
})

describe('the license a session needs (TELEPHONY_ADVANCED, MESSAGING or CONFERENCING)', () => {
  it('answers a user without a notification license with 403 NOT_ALLOWED on every operation', async () => {
    const dave = await openSession(app, 'dave')
    expectRestError(await post(dave, TELEPHONY), 403, 'NOT_ALLOWED', /TELEPHONY_ADVANCED/)
    expectRestError(await put(dave, TELEPHONY.filter), 403, 'NOT_ALLOWED')
    expectRestError(await remove(dave, 'a'.repeat(32)), 403, 'NOT_ALLOWED')
    expect(await subscriptions.count()).toBe(0)
  })

  it('lets a user holding MESSAGING only subscribe', async () => {
    const lea = await openSession(app, 'lea')
    accepted(await post(lea, TELEPHONY))
  })

  it('answers without a session with 403 INVALID_SESSION', async () => {
    expectRestError(
      await app.inject({ method: 'POST', url: SUBSCRIPTIONS, payload: TELEPHONY }),
      403,
      'INVALID_SESSION',
    )
  })

  it("lists the Subscriptions service in alice's SessionInfo, not in dave's", async () => {
    const services = async (login: string) =>
      expectSchema<SessionInfo>(
        SessionInfo,
        await app.inject({ url: SESSIONS, headers: { cookie: await openSession(app, login) } }),
      ).services ?? []
    expect(await services('alice')).toContainEqual({
      serviceName: 'Subscriptions',
      serviceVersion: '1.0',
      relativeUrl: '/subscriptions',
    })
    expect((await services('dave')).map((entry) => entry.serviceName)).not.toContain(
      'Subscriptions',
    )
    expect((await services('admin')).map((entry) => entry.serviceName)).toContain('Subscriptions')
  })
})

describe('PUT /subscriptions: filter replacement', () => {
  it('replaces the filter (204) and keeps the other parameters', async () => {
    const alice = await openSession(app, 'alice')
    const { subscriptionId } = accepted(
      await post(alice, { ...TELEPHONY, timeout: 30, keepalive: 5, mode: 'CHUNK_MULTIPART' }),
    )
    const response = await put(alice, { selectors: [{ names: ['OnPreferencesChanged'] }] })
    expect(response.statusCode, response.body).toBe(204)
    expect(response.body).toBe('')
    const kept = await subscriptions.find(subscriptionId)
    expect(kept?.routes).toEqual([{ eventNames: ['OnPreferencesChanged'], loginNames: ['alice'] }])
    expect(kept).toMatchObject({
      timeoutMinutes: 30,
      keepaliveMinutes: 5,
      mode: 'CHUNK_MULTIPART',
      state: 'ACCEPTED',
    })
  })

  it('refuses a bad filter with 400 REFUSED and keeps the old one', async () => {
    const alice = await openSession(app, 'alice')
    const { subscriptionId } = accepted(await post(alice, TELEPHONY))
    const before = await subscriptions.find(subscriptionId)
    refused(await put(alice, { selectors: [{ names: ['telephony', 'user'] }] }), /one package only/)
    refused(await put(alice, { selectors: [{ names: ['user'], ids: ['bob'] }] }), /'bob'/)
    refused(await put(alice, { selectors: [] }), /at least one selector/)
    refused(await put(alice, {}), /at least one selector/)
    // Untouched: not replaced once (the stored revision is the one read before).
    expect((await subscriptions.find(subscriptionId))?.revision).toBe(before?.revision)
    expect((await subscriptions.find(subscriptionId))?.routes).toEqual([
      { eventNames: [...EVENT_PACKAGES.telephony], loginNames: ['alice'] },
    ])
  })

  it('needs subscriptionId when the session holds two subscriptions (400 BAD_PARAMETER)', async () => {
    const alice = await openSession(app, 'alice')
    const first = accepted(await post(alice, TELEPHONY))
    const second = accepted(await post(alice, TELEPHONY))
    expectRestError(
      await put(alice, { selectors: [{ names: ['user'] }] }),
      400,
      'BAD_PARAMETER',
      /subscriptionId/,
    )
    expect(
      await put(alice, { selectors: [{ names: ['user'] }] }, second.subscriptionId),
    ).toHaveProperty('statusCode', 204)
    expect((await subscriptions.find(first.subscriptionId))?.routes[0]?.eventNames).toEqual([
      ...EVENT_PACKAGES.telephony,
    ])
    expect((await subscriptions.find(second.subscriptionId))?.routes[0]?.eventNames).toEqual([
      ...EVENT_PACKAGES.user,
    ])
  })

  it('answers 404 NOT_FOUND when the session has no subscription', async () => {
    const alice = await openSession(app, 'alice')
    expectRestError(await put(alice, TELEPHONY.filter), 404, 'NOT_FOUND')
  })

  it("answers 404 for an unknown id or another session's subscription", async () => {
    const alice = await openSession(app, 'alice')
    const bob = await openSession(app, 'bob')
    const { subscriptionId } = accepted(await post(bob, TELEPHONY))
    accepted(await post(alice, TELEPHONY))
    expectRestError(await put(alice, TELEPHONY.filter, subscriptionId), 404, 'NOT_FOUND')
    expectRestError(await put(alice, TELEPHONY.filter, 'f'.repeat(32)), 404, 'NOT_FOUND')
    expect((await subscriptions.find(subscriptionId))?.owner).toBe('bob')
  })
})

describe('DELETE /subscriptions/{subscriptionId}', () => {
  it('removes the subscription (204); again answers 404', async () => {
    const alice = await openSession(app, 'alice')
    const { subscriptionId } = accepted(await post(alice, TELEPHONY))
    const removed = removals()
    const response = await remove(alice, subscriptionId)
    expect(response.statusCode, response.body).toBe(204)
    expect(response.body).toBe('')
    expect(await subscriptions.find(subscriptionId)).toBeUndefined()
    expect(removed).toEqual([{ subscriptionId, state: 'REMOVED', cause: 'DELETED' }])
    expectRestError(await remove(alice, subscriptionId), 404, 'NOT_FOUND', /subscription/)
    expectRestError(await put(alice, TELEPHONY.filter), 404, 'NOT_FOUND')
  })

  it("answers 404 for another session's subscription and leaves it", async () => {
    const alice = await openSession(app, 'alice')
    const aliceAgain = await openSession(app, 'alice')
    const { subscriptionId } = accepted(await post(alice, TELEPHONY))
    accepted(await post(aliceAgain, TELEPHONY))
    expectRestError(await remove(aliceAgain, subscriptionId), 404, 'NOT_FOUND')
    expect((await subscriptions.find(subscriptionId))?.isActive).toBe(true)
  })

  it('removes the subscriptions of a session that closes', async () => {
    const alice = await openSession(app, 'alice')
    const { subscriptionId } = accepted(await post(alice, TELEPHONY))
    const removed = removals()
    await app.inject({ method: 'DELETE', url: SESSIONS, headers: { cookie: alice } })
    expect(await subscriptions.find(subscriptionId)).toBeUndefined()
    expect(removed).toEqual([{ subscriptionId, state: 'REMOVED', cause: 'SESSION_CLOSED' }])
    expect(await subscriptions.count()).toBe(0)
  })
})

describe('the supervision counter across administrator subscriptions (2 TELEPHONY_ADVANCED licenses)', () => {
  let limited: TestService
  let limitedSubscriptions: SubscriptionManager

  beforeEach(async () => {
    const directoryFile = await directoryVariant((document) => {
      ;(document['licenses'] as Record<string, number>)['TELEPHONY_ADVANCED'] = 2
    })
    limited = await startTestService({ directoryFile })
    limitedSubscriptions = limited.running.platform.subscriptions
  })
  afterEach(() => limited.close())

  const count = () => limitedSubscriptions.supervision.count()
  const postTo = (cookie: string, ...ids: string[]) =>
    limited.app.inject({
      method: 'POST',
      url: SUBSCRIPTIONS,
      headers: { cookie },
      payload: { filter: { selectors: [{ names: ['telephony'], ids }] }, version: '1.0' },
    })
  const deleteFrom = (cookie: string, subscriptionId: string) =>
    limited.app.inject({
      method: 'DELETE',
      url: `${SUBSCRIPTIONS}/${subscriptionId}`,
      headers: { cookie },
    })
  const putTo = (cookie: string, subscriptionId: string, ...ids: string[]) =>
    limited.app.inject({
      method: 'PUT',
      url: `${SUBSCRIPTIONS}?subscriptionId=${subscriptionId}`,
      headers: { cookie },
      payload: { selectors: [{ names: ['telephony'], ids }] },
    })
  const LIMIT = /maximum number of licenses used for notification is reached: at most 2 users/

  it('counts each user once, refuses beyond the licenses, and frees users with the last subscription', async () => {
    const admin = await openSession(limited.app, 'admin')
    const operator = await openSession(limited.app, 'operator')
    // The limit is the installed TELEPHONY_ADVANCED count, and the refusal names it.
    expect(limited.running.platform.directory.settings.licenses.TELEPHONY_ADVANCED).toBe(2)

    const first = accepted(await postTo(admin, 'alice', 'bob'))
    expect(await count()).toBe(2)
    accepted(await postTo(admin, 'bob'))
    accepted(await postTo(operator, 'bob'))
    expect(await count()).toBe(2)

    refused(await postTo(admin, 'carol'), LIMIT)
    refused(await postTo(operator, 'bob', 'carol'), LIMIT)
    expect(await count()).toBe(2)
    expect(await limitedSubscriptions.count()).toBe(3)

    expect((await deleteFrom(admin, first.subscriptionId)).statusCode).toBe(204)
    expect(await count()).toBe(1) // bob is still held by the two other subscriptions

    accepted(await postTo(operator, 'carol'))
    expect(await count()).toBe(2)
    refused(await postTo(admin, 'alice'), LIMIT)

    // Closing the operator's session frees carol; bob stays held by the administrator's subscription.
    expect(
      (await limited.app.inject({ method: 'DELETE', url: SESSIONS, headers: { cookie: operator } }))
        .statusCode,
    ).toBe(204)
    expect(await count()).toBe(1)
    accepted(await postTo(admin, 'alice'))
    expect(await count()).toBe(2)

    await limited.app.inject({ method: 'DELETE', url: SESSIONS, headers: { cookie: admin } })
    expect(await count()).toBe(0)
    expect(await limitedSubscriptions.count()).toBe(0)
  })

  it('refuses the whole subscription when one listed user has no license, counting nobody', async () => {
    const admin = await openSession(limited.app, 'admin')
    refused(await postTo(admin, 'alice', 'dave'), /'dave' holds neither/)
    expect(await count()).toBe(0)
  })

  it('PUT counts the replaced filter with the users it gives back', async () => {
    const admin = await openSession(limited.app, 'admin')
    const operator = await openSession(limited.app, 'operator')
    const first = accepted(await postTo(admin, 'alice', 'bob'))

    // Swapping alice for carol keeps two users: fits.
    expect((await putTo(admin, first.subscriptionId, 'bob', 'carol')).statusCode).toBe(204)
    expect(await count()).toBe(2)
    expect((await limitedSubscriptions.find(first.subscriptionId))?.supervisedUsers).toEqual(
      new Set(['bob', 'carol']),
    )

    // Three users do not fit: refused, the old filter and the count stay.
    refused(await putTo(admin, first.subscriptionId, 'alice', 'bob', 'carol'), LIMIT)
    expect(await count()).toBe(2)
    expect((await limitedSubscriptions.find(first.subscriptionId))?.routes).toEqual([
      { eventNames: [...EVENT_PACKAGES.telephony], loginNames: ['bob', 'carol'] },
    ])

    // Another subscription holding bob: the first may drop bob, but bob stays counted.
    const second = accepted(await postTo(operator, 'bob'))
    expect((await putTo(admin, first.subscriptionId, 'carol')).statusCode).toBe(204)
    expect(await count()).toBe(2)
    refused(await putTo(admin, first.subscriptionId, 'alice', 'carol'), LIMIT)
    // Swapping carol for alice frees carol: fits.
    expect((await putTo(admin, first.subscriptionId, 'alice')).statusCode).toBe(204)
    expect(await count()).toBe(2)
    expect((await deleteFrom(operator, second.subscriptionId)).statusCode).toBe(204)
    expect(await count()).toBe(1)
    expect((await putTo(admin, first.subscriptionId, 'alice', 'carol')).statusCode).toBe(204)
    expect(await count()).toBe(2)
  })
})
