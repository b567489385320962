/**
 * The Routing service through HTTP (wire facts 8.3 and 9; docs/routing.md): every operation the SDKs call,
 * the L rule, refusals with RestErrorInfo.routing, the events, the engine following the settings, and the
 * settings surviving a restart.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  DndState,
  ForwardRoute,
  OverflowRoute,
  RoutingCapabilities,
  RoutingState,
  SessionInfo,
} from '@openness/wire'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'
import { connections } from '../telephony/support.js'

const ROUTING = '/api/rest/1.0/routing'

let service: TestService
let alice: string
let admin: string
beforeAll(async () => {
  service = await startTestService()
  alice = await openSession(service.app, 'alice')
  admin = await openSession(service.app, 'admin')
})
afterAll(() => service.close())

/** Every routing change left as it was found. */
afterEach(async () => {
  for (const login of ['alice', 'bob', 'carol', 'dave'])
    await service.running.platform.routing.replace(
      { loginName: login, hasMobile: true, hasVoicemail: true, hasAssociate: true },
      {},
    )
})

function inject(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  cookie = alice,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return service.app.inject({
    method,
    url: `${ROUTING}${path}`,
    headers: {
      cookie,
      ...(payload === undefined && method === 'POST' && { 'content-type': 'application/json' }),
    },
    ...(payload !== undefined && { payload: payload as object }),
  })
}

/** The events published while `action` runs. */
async function published(action: () => Promise<unknown>): Promise<PlatformEvent[]> {
  const spy = vi.spyOn(service.running.events, 'publish')
  try {
    await action()
    return spy.mock.calls.map(([event]) => event)
  } finally {
    spy.mockRestore()
  }
}

describe('the Routing service', () => {
  it('is listed in SessionInfo at /routing', async () => {
    const response = await service.app.inject({
      url: '/api/rest/1.0/sessions',
      headers: { cookie: alice },
    })
    const info = expectSchema<SessionInfo>(SessionInfo, response)
    expect(info.services).toContainEqual({
      serviceName: 'Routing',
      serviceVersion: '1.0',
      relativeUrl: '/routing',
    })
  })

  it('GET /routing: the capabilities, the presentation route for a user with a MOBILE device only', async () => {
    expect(expectSchema(RoutingCapabilities, await inject('GET', ''))).toEqual({
      presentationRoute: false,
      forwardRoute: true,
      overflowRoute: true,
      dnd: true,
    })
    const carol = await inject('GET', '?loginName=carol', admin)
    expect(expectSchema(RoutingCapabilities, carol)).toMatchObject({ presentationRoute: true })
  })

  it('DND: POST with an empty JSON body activates, DELETE cancels; each change is announced', async () => {
    expect(expectSchema(DndState, await inject('GET', '/dnd'))).toEqual({ activate: false })
    const events = await published(async () => {
      expect((await inject('POST', '/dnd')).statusCode).toBe(204)
    })
    expect(events).toEqual([
      {
        eventName: 'OnRoutingStateChanged',
        loginName: 'alice',
        routingState: { dndState: { activate: true } },
      },
    ])
    expect(expectSchema(DndState, await inject('GET', '/dnd'))).toEqual({ activate: true })
    expect((await inject('DELETE', '/dnd')).statusCode).toBe(204)
    expect(expectSchema(DndState, await inject('GET', '/dnd'))).toEqual({ activate: false })
  })

  it('forward: GET answers an empty body when none is set, the route once set; DELETE cancels', async () => {
    const none = await inject('GET', '/forwardroute')
    expect(none.statusCode).toBe(200)
    expect(none.body).toBe('')
    const set = await inject('POST', '/forwardroute', alice, {
      forwardRoute: { destinations: [{ type: 'NUMBER', number: '1003' }] },
    })
    expect(set.statusCode, set.body).toBe(204)
    expect(expectSchema(ForwardRoute, await inject('GET', '/forwardroute'))).toEqual({
      destinations: [{ type: 'NUMBER', number: '1003' }],
    })
    await inject('POST', '/forwardroute', alice, {
      forwardRoute: { forwardType: 'NO_ANSWER', destinations: [{ type: 'VOICEMAIL' }] },
    })
    expect(expectSchema(ForwardRoute, await inject('GET', '/forwardroute'))).toEqual({
      forwardType: 'NO_ANSWER',
      destinations: [{ type: 'VOICEMAIL' }],
    })
    expect((await inject('DELETE', '/forwardroute')).statusCode).toBe(204)
    expect((await inject('GET', '/forwardroute')).body).toBe('')
  })

  it('a forward that would make a loop is refused: 400 with routing details and OnRoutingManagementFailed', async () => {
    await inject('POST', '/forwardroute?loginName=bob', admin, {
      forwardRoute: { destinations: [{ type: 'NUMBER', number: '1001' }] },
    })
    const events = await published(async () => {
      const refused = await inject('POST', '/forwardroute', alice, {
        forwardRoute: { forwardType: 'BUSY', destinations: [{ type: 'NUMBER', number: '1002' }] },
      })
      const body = expectRestError(refused, 400, 'BAD_PARAMETER', /loop/)
      expect(body.routing).toEqual({
        errorType: 'INVALID_OPERATION',
        errorCause: 'INVALID_FORWARD_ROUTE',
        message: expect.stringMatching(/loop/),
      })
    })
    expect(events).toEqual([
      {
        eventName: 'OnRoutingManagementFailed',
        loginName: 'alice',
        routing: expect.objectContaining({ errorCause: 'INVALID_FORWARD_ROUTE' }),
      },
    ])
    expect((await inject('GET', '/forwardroute')).body).toBe('')
  })

  it.each([
    [
      'an unknown number',
      { destinations: [{ type: 'NUMBER', number: '4711' }] },
      'UNKNOWN_PHONE_NUMBER',
    ],
    ['the own number', { destinations: [{ type: 'NUMBER', number: '1001' }] }, 'INVALID_OPERATION'],
    ['no number', { destinations: [{ type: 'NUMBER' }] }, 'BAD_PARAMETER_VALUE'],
    [
      'two destinations',
      { destinations: [{ type: 'VOICEMAIL' }, { type: 'VOICEMAIL' }] },
      'BAD_PARAMETER_VALUE',
    ],
    ['a MOBILE destination', { destinations: [{ type: 'MOBILE' }] }, 'BAD_PARAMETER_VALUE'],
  ])('a forward to %s is refused', async (_, forwardRoute, errorType) => {
    const body = expectRestError(
      await inject('POST', '/forwardroute', alice, { forwardRoute }),
      400,
      'BAD_PARAMETER',
    )
    expect(body.routing?.errorType).toBe(errorType)
  })

  it('overflow: accepts the Java list and the Node single object; GET and DELETE', async () => {
    const java = await inject('POST', '/overflowroute', alice, {
      overflowRoutes: [{ overflowType: 'BUSY', destinations: [{ type: 'VOICEMAIL' }] }],
    })
    expect(java.statusCode, java.body).toBe(204)
    expect(expectSchema(OverflowRoute, await inject('GET', '/overflowroute'))).toEqual({
      overflowType: 'BUSY',
      destinations: [{ type: 'VOICEMAIL' }],
    })
    const node = await inject('POST', '/overflowroute', alice, {
      overflowRoutes: { overflowType: 'NO_ANSWER', destinations: [{ type: 'VOICEMAIL' }] },
    })
    expect(node.statusCode, node.body).toBe(204)
    expect(expectSchema(OverflowRoute, await inject('GET', '/overflowroute'))).toMatchObject({
      overflowType: 'NO_ANSWER',
    })
    expect((await inject('DELETE', '/overflowroute')).statusCode).toBe(204)
    expect((await inject('GET', '/overflowroute')).body).toBe('')
  })

  it('overflow to the voice mail of a user without one, or to ASSOCIATE with one device, is refused', async () => {
    const dave = await inject('POST', '/overflowroute?loginName=dave', admin, {
      overflowRoutes: [{ overflowType: 'BUSY', destinations: [{ type: 'VOICEMAIL' }] }],
    })
    expect(expectRestError(dave, 400, 'BAD_PARAMETER').routing?.errorCause).toBe(
      'INVALID_OVERFLOW_ROUTE',
    )
    const associate = await inject('POST', '/overflowroute', alice, {
      overflowRoutes: [{ overflowType: 'BUSY', destinations: [{ type: 'ASSOCIATE' }] }],
    })
    expect(expectRestError(associate, 400, 'BAD_PARAMETER').routing?.errorCause).toBe(
      'INVALID_OVERFLOW_ROUTE',
    )
  })

  it('POST /routing: the remote extension of a user with a MOBILE device, shown in the state', async () => {
    const set = await inject('POST', '?loginName=carol', admin, {
      presentationRoutes: [{ destinations: [{ type: 'MOBILE', selected: true }] }],
    })
    expect(set.statusCode, set.body).toBe(204)
    const state = expectSchema<RoutingState>(
      RoutingState,
      await inject('GET', '/state?loginName=carol', admin),
    )
    expect(state.presentationRoutes).toEqual([
      { destinations: [{ type: 'MOBILE', selected: true }] },
    ])
    const refused = await inject('POST', '', alice, {
      presentationRoutes: [{ destinations: [{ type: 'MOBILE', selected: true }] }],
    })
    expect(expectRestError(refused, 400, 'BAD_PARAMETER').routing?.errorCause).toBe(
      'INVALID_CURRENT_DEVICE',
    )
  })

  it('GET /routing/state and POST /routing/state/snapshot show every route set', async () => {
    await inject('POST', '/dnd')
    await inject('POST', '/forwardroute', alice, {
      forwardRoute: {
        forwardType: 'BUSY_NO_ANSWER',
        destinations: [{ type: 'NUMBER', number: '1002' }],
      },
    })
    await inject('POST', '/overflowroute', alice, {
      overflowRoutes: [{ overflowType: 'NO_ANSWER', destinations: [{ type: 'VOICEMAIL' }] }],
    })
    const expected = {
      forwardRoutes: [
        { forwardType: 'BUSY_NO_ANSWER', destinations: [{ type: 'NUMBER', number: '1002' }] },
      ],
      overflowRoutes: [{ overflowType: 'NO_ANSWER', destinations: [{ type: 'VOICEMAIL' }] }],
      dndState: { activate: true },
    }
    expect(expectSchema(RoutingState, await inject('GET', '/state'))).toEqual(expected)
    const events = await published(async () => {
      expect((await inject('POST', '/state/snapshot')).statusCode).toBe(204)
    })
    expect(events).toEqual([
      { eventName: 'OnRoutingStateChanged', loginName: 'alice', routingState: expected },
    ])
  })

  it('an administrator session names the user with loginName; without it, 400', async () => {
    expectRestError(await inject('GET', '/dnd', admin), 400, 'BAD_PARAMETER', /loginName/)
    expect((await inject('POST', '/dnd?loginName=bob', admin)).statusCode).toBe(204)
    expect(expectSchema(DndState, await inject('GET', '/dnd?loginName=bob', admin))).toEqual({
      activate: true,
    })
    // A user session's loginName is ignored: alice acts on herself.
    expect(expectSchema(DndState, await inject('GET', '/dnd?loginName=bob'))).toEqual({
      activate: false,
    })
  })

  it('the call engine follows the settings: a call to alice in DND reaches her voice mail', async () => {
    await inject('POST', '/dnd')
    const { callRef } = await service.running.telephony.execute({
      type: 'makeCall',
      loginName: 'bob',
      deviceId: '1002',
      callee: '1001',
      autoAnswer: true,
    })
    expect(connections(service.running.telephony.state, callRef ?? '')).toEqual([
      '1002:ACTIVE',
      '8000:ACTIVE',
    ])
    await service.running.telephony.execute({
      type: 'release',
      loginName: 'bob',
      callRef: callRef ?? '',
    })
  })
})

describe('routing across a restart', () => {
  let dataDir: string
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'openness-routing-'))
  })
  afterEach(() => rm(dataDir, { recursive: true, force: true }))

  it("keeps every user's routing", async () => {
    const start = () =>
      startTestService({
        database: { kind: 'sqlite', filename: join(dataDir, 'openness.sqlite3') },
      })
    const first = await start()
    const cookie = await openSession(first.app, 'bob')
    const set = await first.app.inject({
      method: 'POST',
      url: `${ROUTING}/forwardroute`,
      headers: { cookie },
      payload: { forwardRoute: { forwardType: 'BUSY', destinations: [{ type: 'VOICEMAIL' }] } },
    })
    expect(set.statusCode).toBe(204)
    await first.close()
    const second = await start()
    try {
      const again = await openSession(second.app, 'bob')
      const state = await second.app.inject({ url: `${ROUTING}/state`, headers: { cookie: again } })
      expect(state.json()).toEqual({
        forwardRoutes: [{ forwardType: 'BUSY', destinations: [{ type: 'VOICEMAIL' }] }],
        dndState: { activate: false },
      })
    } finally {
      await second.close()
    }
  })
})
