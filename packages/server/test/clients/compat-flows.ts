/** Client flows of the places where the clients and the specification differ (docs/wire-compat.md). */
import { expect } from 'vitest'
import { WebhookReceiver } from '../support/webhook-receiver.js'
import {
  covered,
  type Flow,
  hangUp,
  makeCallBody,
  onlyCall,
  telephonySubscription,
} from './flow-support.js'
import { nextEvent, SdkClient } from './sdk-client.js'
import { list, object, readCall, readOnCallCreated, readUser } from './sdk-readers.js'

export const COMPAT_FLOWS: readonly Flow[] = [
  {
    name: "correlator data as the SDK sends it on make call, read back under the SDK's name",
    async run(world, profile, coverage) {
      const alice = await SdkClient.login(world, profile, 'alice')
      // J puts CorrelatorData.asString() (plain text) in the hex field; the others send hex (census 3.4).
      const sent =
        profile.tag === 'J' ? 'ticket 7, urgent' : Buffer.from('ticket 7, urgent').toString('hex')
      covered(
        coverage,
        'POST /telephony/calls',
        await alice.request('POST', 'telephony', '/calls', {
          body: {
            ...(makeCallBody(profile, '1001', '1002') as object),
            hexaBinaryAssociatedData: sent,
          },
        }),
      )
      const data = object(
        readCall((await alice.request('GET', 'telephony', `/calls/${await onlyCall(alice)}`)).body)[
          'callData'
        ],
        'CallData',
      )
      expect(data[profile.tag === 'J' ? 'associateData' : 'associatedData']).toBe(
        'ticket 7, urgent',
      )
      expect(data['hexaBinaryAssociatedData']).toBe(Buffer.from('ticket 7, urgent').toString('hex'))
    },
  },
  {
    name: "the voice-mail number from the user's record is dialable, and a redirect to it reaches voice mail",
    async run(world, profile, coverage) {
      const alice = await SdkClient.login(world, profile, 'alice')
      const bob = await SdkClient.login(world, profile, 'bob')
      const number = String(
        object(
          readUser((await alice.request('GET', 'users', '/alice')).body)['voicemail'],
          'voicemail',
        )['number'],
      )
      covered(
        coverage,
        'POST /telephony/calls',
        await alice.request('POST', 'telephony', '/calls', {
          body: makeCallBody(profile, '1001', number),
        }),
      )
      await hangUp(alice, await onlyCall(alice))
      await alice.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1001', '1002'),
      })
      const ringing = await onlyCall(bob)
      covered(
        coverage,
        'POST /telephony/calls/{}/redirect',
        await bob.request('POST', 'telephony', `/calls/${ringing}/redirect`, {
          body: { redirectTo: number, anonymous: false },
        }),
      )
      expect(list((await bob.request('GET', 'telephony', '/calls')).body, 'calls')).toEqual([])
      expect(await onlyCall(alice)).toBe(ringing)
    },
  },
  {
    name: "the product's own event packages in a subscription are accepted (the SDKs add them)",
    async run(world, profile, coverage) {
      // N addMaintenanceEvents() and J addSystemEventListener name `system`; an administrator's
      // wallboard names `rti` with the id '*' (wire facts 4).
      const user = await SdkClient.login(world, profile, 'alice')
      const system = telephonySubscription(profile) as { filter: { selectors: unknown[] } }
      system.filter.selectors.push({ names: ['system'], ...(profile.tag === 'N' && { ids: [] }) })
      coverage.add('POST /subscriptions').add('POST <privatePollingUrl>')
      await user.subscribe(system)
      const admin = await SdkClient.login(world, profile, 'admin')
      const rti = telephonySubscription(profile, ['alice']) as { filter: { selectors: unknown[] } }
      rti.filter.selectors.push({ names: ['rti'], ids: ['*'] })
      await admin.subscribe(rti)
    },
  },
  {
    name: 'webhook delivery: events POSTed one per request to the URL the subscription gives',
    async run(world, profile, coverage) {
      // Only the Node SDK sends webHookUrl (C# declares it and never sends it: docs/subscriptions.md).
      if (profile.tag !== 'N') return
      const receiver = await WebhookReceiver.start()
      try {
        const alice = await SdkClient.login(world, profile, 'alice')
        const answer = covered(
          coverage,
          'POST /subscriptions',
          await alice.request('POST', 'subscriptions', '', {
            body: {
              filter: { selectors: [{ names: ['telephony'], ids: [] }] },
              version: '1.0',
              webHookUrl: receiver.url,
            },
          }),
        )
        const subscription = object(answer.body, 'Subscription')
        expect(subscription['status']).toBe('ACCEPTED')
        expect(subscription['subscriptionId']).toBeTypeOf('string')
        await alice.request('POST', 'telephony', '/calls', {
          body: makeCallBody(profile, '1001', '1002'),
        })
        const [first] = await receiver.received(1)
        expect(first?.method).toBe('POST')
        readOnCallCreated(first?.json)
      } finally {
        await receiver.close()
      }
    },
  },
  {
    name: 'events the SDK does not register never reach its channel by a package name (C#), the others get them',
    async run(world, profile, coverage) {
      // A call to carol's MOBILE raises OnCallAppeared after OnCallCreated: an event the C# reader does not
      // register, and on which it would drop its stream (docs/subscriptions.md, "Client variants").
      const carol = await SdkClient.login(world, profile, 'carol')
      const channel = await carol.subscribe(telephonySubscription(profile))
      const alice = await SdkClient.login(world, profile, 'alice')
      covered(
        coverage,
        'POST /telephony/calls',
        await alice.request('POST', 'telephony', '/calls', {
          body: makeCallBody(profile, '1001', '1103'),
        }),
      )
      readOnCallCreated(await nextEvent(channel, 'OnCallCreated'))
      const following: string[] = []
      for (;;) {
        const event = await channel.next(300).catch(() => undefined)
        if (event === undefined) break
        following.push(String(event['eventName']))
      }
      if (profile.tag === 'C#') expect(following).not.toContain('OnCallAppeared')
      else expect(following).toContain('OnCallAppeared')
    },
  },
]
