/**
 * Client flows of the Routing service (wire facts 8.3; docs/routing.md): the 13 operations as each SDK sends
 * them, read as each SDK reads them (a route with one destination, element [0] of the state's lists, an
 * empty forward or overflow answer meaning "none").
 */
import { expect } from 'vitest'
import { covered, type Flow, makeCallBody, onlyCall } from './flow-support.js'
import type { ClientProfile } from './sdk-client.js'
import { nextEvent, SdkClient } from './sdk-client.js'
import { list, object, readCall } from './sdk-readers.js'

/** The route the SDKs make of a forward or overflow answer: none when the body is empty (N, J) or not one destination. */
function readRoute(answer: { text: string; body: unknown }): Record<string, unknown> | undefined {
  if (answer.text === '') return undefined
  const route = object(answer.body, 'route')
  return list(route, 'destinations').length === 1 ? route : undefined
}

/** The overflow body: the Java and C# SDKs send a list, the Node and browser SDKs one object (wire facts 8.3). */
function overflowBody(profile: ClientProfile, overflowType: string, type: string): unknown {
  const route = { overflowType, destinations: [{ type }] }
  return { overflowRoutes: profile.tag === 'J' || profile.tag === 'C#' ? [route] : route }
}

export const ROUTING_FLOWS: readonly Flow[] = [
  {
    name: 'routing: capabilities, DND on and off, and the remote extension of a user with a mobile',
    async run(world, profile, coverage) {
      const carol = await SdkClient.login(world, profile, 'carol')
      const capabilities = object(
        covered(coverage, 'GET /routing', await carol.request('GET', 'routing')).body,
        'RoutingCapabilities',
      )
      expect(capabilities).toEqual({
        presentationRoute: true,
        forwardRoute: true,
        overflowRoute: true,
        dnd: true,
      })
      covered(coverage, 'POST /routing/dnd', await carol.request('POST', 'routing', '/dnd'))
      const dnd = covered(
        coverage,
        'GET /routing/dnd',
        await carol.request('GET', 'routing', '/dnd'),
      )
      expect(object(dnd.body, 'DndState')['activate']).toBe(true)
      covered(coverage, 'DELETE /routing/dnd', await carol.request('DELETE', 'routing', '/dnd'))
      expect(object((await carol.request('GET', 'routing', '/dnd')).body, 'DndState')).toEqual({
        activate: false,
      })
      // N always sends selected: true (wire facts 8.3); the others send what was asked.
      covered(
        coverage,
        'POST /routing',
        await carol.request('POST', 'routing', '', {
          body: { presentationRoutes: [{ destinations: [{ type: 'MOBILE', selected: true }] }] },
        }),
      )
      const state = object(
        covered(coverage, 'GET /routing/state', await carol.request('GET', 'routing', '/state'))
          .body,
        'RoutingState',
      )
      const presentation = object(list(state, 'presentationRoutes')[0], 'PresentationRoute')
      expect(list(presentation, 'destinations')).toEqual([{ type: 'MOBILE', selected: true }])
    },
  },
  {
    name: 'routing: forward on a number, then on voice mail, read back; cancelled, read as none',
    async run(world, profile, coverage) {
      const bob = await SdkClient.login(world, profile, 'bob')
      const none = covered(
        coverage,
        'GET /routing/forwardroute',
        await bob.request('GET', 'routing', '/forwardroute'),
      )
      expect(readRoute(none)).toBeUndefined()
      covered(
        coverage,
        'POST /routing/forwardroute',
        await bob.request('POST', 'routing', '/forwardroute', {
          body: { forwardRoute: { destinations: [{ type: 'NUMBER', number: '1003' }] } },
        }),
      )
      // Absent forwardType: an immediate forward (clients never send IMMEDIATE).
      expect(readRoute(await bob.request('GET', 'routing', '/forwardroute'))).toEqual({
        destinations: [{ type: 'NUMBER', number: '1003' }],
      })
      covered(
        coverage,
        'POST /routing/forwardroute',
        await bob.request('POST', 'routing', '/forwardroute', {
          body: {
            forwardRoute: { forwardType: 'BUSY_NO_ANSWER', destinations: [{ type: 'VOICEMAIL' }] },
          },
        }),
      )
      const state = object((await bob.request('GET', 'routing', '/state')).body, 'RoutingState')
      expect(list(state, 'forwardRoutes')[0]).toEqual({
        forwardType: 'BUSY_NO_ANSWER',
        destinations: [{ type: 'VOICEMAIL' }],
      })
      covered(
        coverage,
        'DELETE /routing/forwardroute',
        await bob.request('DELETE', 'routing', '/forwardroute'),
      )
      expect(readRoute(await bob.request('GET', 'routing', '/forwardroute'))).toBeUndefined()
    },
  },
  {
    name: "routing: overflow on voice mail and on the associate, in the SDK's body shape; cancelled",
    async run(world, profile, coverage) {
      const carol = await SdkClient.login(world, profile, 'carol')
      expect(readRoute(await carol.request('GET', 'routing', '/overflowroute'))).toBeUndefined()
      covered(
        coverage,
        'POST /routing/overflowroute',
        await carol.request('POST', 'routing', '/overflowroute', {
          body: overflowBody(profile, 'NO_ANSWER', 'VOICEMAIL'),
        }),
      )
      const overflow = covered(
        coverage,
        'GET /routing/overflowroute',
        await carol.request('GET', 'routing', '/overflowroute'),
      )
      expect(readRoute(overflow)).toEqual({
        overflowType: 'NO_ANSWER',
        destinations: [{ type: 'VOICEMAIL' }],
      })
      // carol's associate: her other device, the mobile (C# and J name ASSOCIATE; N sends it too).
      covered(
        coverage,
        'POST /routing/overflowroute',
        await carol.request('POST', 'routing', '/overflowroute', {
          body: overflowBody(profile, 'BUSY', 'ASSOCIATE'),
        }),
      )
      expect(readRoute(await carol.request('GET', 'routing', '/overflowroute'))).toMatchObject({
        destinations: [{ type: 'ASSOCIATE' }],
      })
      covered(
        coverage,
        'DELETE /routing/overflowroute',
        await carol.request('DELETE', 'routing', '/overflowroute'),
      )
      expect(readRoute(await carol.request('GET', 'routing', '/overflowroute'))).toBeUndefined()
    },
  },
  {
    name: 'routing: the snapshot and every change come as OnRoutingStateChanged; a forwarded call shows it',
    async run(world, profile, coverage) {
      const bob = await SdkClient.login(world, profile, 'bob')
      const alice = await SdkClient.login(world, profile, 'alice')
      const selectors = [{ names: ['routingManagement'], ...(profile.tag === 'N' && { ids: [] }) }]
      const channel = await bob.subscribe({ filter: { selectors }, version: '1.0', timeout: 10 })
      covered(
        coverage,
        'POST /routing/state/snapshot',
        await bob.request('POST', 'routing', '/state/snapshot'),
      )
      expect(await nextEvent(channel, 'OnRoutingStateChanged')).toEqual({
        eventName: 'OnRoutingStateChanged',
        loginName: 'bob',
        routingState: { dndState: { activate: false } },
      })
      // A refused change: 400 (which the SDKs only see as a failure), and OnRoutingManagementFailed. The real
      // C# SDK, which sends no User-Agent, never gets that event on a package selector (an unknown name ends
      // its reader: client-dialect.ts); this harness's fetch sends one, so it is only checked for the others.
      const refused = await bob.request('POST', 'routing', '/forwardroute', {
        body: { forwardRoute: { destinations: [{ type: 'NUMBER', number: '4711' }] } },
      })
      expect(refused.status).toBe(400)
      if (profile.tag !== 'C#')
        expect(await channel.next()).toMatchObject({
          eventName: 'OnRoutingManagementFailed',
          loginName: 'bob',
          routing: { errorType: 'UNKNOWN_PHONE_NUMBER', errorCause: 'INVALID_FORWARD_ROUTE' },
        })
      await bob.request('POST', 'routing', '/forwardroute', {
        body: { forwardRoute: { destinations: [{ type: 'NUMBER', number: '1003' }] } },
      })
      const changed = await nextEvent(channel, 'OnRoutingStateChanged')
      expect(list(object(changed['routingState'], 'RoutingState'), 'forwardRoutes')).toEqual([
        { destinations: [{ type: 'NUMBER', number: '1003' }] },
      ])
      // alice calls bob: carol's device rings instead, the call showing bob as the last redirecting party.
      const carol = await SdkClient.login(world, profile, 'carol')
      await alice.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1001', '1002'),
      })
      const call = readCall(
        (await carol.request('GET', 'telephony', `/calls/${await onlyCall(carol)}`)).body,
      )
      const callData = object(call['callData'], 'CallData')
      expect(object(object(callData['lastRedirecting'], 'PartyInfo')['id'], 'id')).toMatchObject({
        loginName: 'bob',
      })
      expect(list((await bob.request('GET', 'telephony', '/calls')).body, 'calls')).toEqual([])
    },
  },
]
