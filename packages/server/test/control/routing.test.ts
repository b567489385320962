/** Users' routing through the control plane (docs/control-plane.md, "Routing"), against the running service. */
import { RoutingState } from '@openness/wire'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { openSession } from '../support/test-service.js'
import { AUTH, type ControlService, startControlService } from './control-fixture.js'

const URL = '/control/v1/users/alice/routing'

let running: ControlService
beforeAll(async () => {
  running = await startControlService()
})
afterAll(() => running.close())

const put = (payload: unknown, url = URL) =>
  running.control.inject({ method: 'PUT', url, headers: AUTH, payload: payload as object })

describe('control plane: routing', () => {
  it("shows a user's routing as the API does, none set", async () => {
    const response = await running.control.inject({ url: URL, headers: AUTH })
    expect(expectSchema(RoutingState, response)).toEqual({ dndState: { activate: false } })
  })

  it('replaces it, announces it, and the API and the engine see it; {} clears it', async () => {
    const publish = vi.spyOn(running.service.running.events, 'publish')
    const state = {
      forwardRoutes: [{ destinations: [{ type: 'NUMBER', number: '1003' }] }],
      overflowRoutes: [{ overflowType: 'BUSY', destinations: [{ type: 'VOICEMAIL' }] }],
      dndState: { activate: true },
    }
    const replaced = await put(state)
    expect(expectSchema(RoutingState, replaced)).toEqual(state)
    expect(publish.mock.calls.map(([event]) => event)).toEqual([
      { eventName: 'OnRoutingStateChanged', loginName: 'alice', routingState: state },
    ])
    publish.mockRestore()
    const cookie = await openSession(running.service.app, 'alice')
    const api = await running.service.app.inject({
      url: '/api/rest/1.0/routing/state',
      headers: { cookie },
    })
    expect(api.json()).toEqual(state)
    expect(running.service.running.platform.routing.lookup('alice')?.forward).toEqual({
      condition: 'IMMEDIATE',
      target: { type: 'NUMBER', number: '1003' },
    })
    expect(expectSchema(RoutingState, await put({}))).toEqual({ dndState: { activate: false } })
    expect(running.service.running.platform.routing.lookup('alice')).toBeUndefined()
  })

  it('refuses what the API refuses, with RestErrorInfo.routing, and changes nothing', async () => {
    const body = expectRestError(
      await put({
        dndState: { activate: true },
        forwardRoutes: [{ destinations: [{ type: 'NUMBER', number: '1001' }] }],
      }),
      400,
      'BAD_PARAMETER',
    )
    expect(body.routing).toMatchObject({ errorCause: 'INVALID_FORWARD_ROUTE' })
    expect((await running.control.inject({ url: URL, headers: AUTH })).json()).toEqual({
      dndState: { activate: false },
    })
  })

  it('refuses a body that is not a RoutingState, and an unknown user', async () => {
    expectRestError(await put({ dndState: { activate: 'yes' } }), 400, 'BAD_PARAMETER', /dndState/)
    expectRestError(await put({}, '/control/v1/users/nobody/routing'), 404, 'NOT_FOUND')
  })

  it('refuses a part it does not know (a misspelt one would clear the part meant), and changes nothing', async () => {
    const set = await put({ dndState: { activate: true } })
    expect(set.statusCode, set.body).toBe(200)
    expectRestError(
      await put({ forward: { destinations: [{ type: 'VOICEMAIL' }] } }),
      400,
      'BAD_PARAMETER',
      /body\.forward: not a part of a RoutingState/,
    )
    expect((await running.control.inject({ url: URL, headers: AUTH })).json()).toEqual({
      dndState: { activate: true },
    })
  })
})
