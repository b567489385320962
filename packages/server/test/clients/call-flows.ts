/** Client flows of call control and its events (client-flows.ts). */
import { expect } from 'vitest'
import {
  answeredCall,
  covered,
  type Flow,
  hangUp,
  makeCallBody,
  onlyCall,
  party,
  recordingAction,
  telephonySubscription,
} from './flow-support.js'
import { nextEvent, SdkClient } from './sdk-client.js'
import {
  list,
  object,
  readCall,
  readDeviceState,
  readLeg,
  readOnCallCreated,
  readOnCallModified,
  readOnCallRemoved,
  readParticipant,
  readTelephonicState,
  removedParticipantIds,
} from './sdk-readers.js'

export const CALL_FLOWS: readonly Flow[] = [
  {
    name: 'a two-party call: make, events, read, answer, hold, retrieve, record, DTMF, state, release',
    async run(world, profile, coverage) {
      coverage.add('POST /subscriptions').add('POST <privatePollingUrl>')
      const alice = await party(world, profile, 'alice')
      const bob = await party(world, profile, 'bob')
      const callRef = await answeredCall(alice, bob, '1001', '1002', coverage, profile)
      expect(readOnCallCreated(await nextEvent(alice.channel, 'OnCallCreated'))['callRef']).toBe(
        callRef,
      )
      const active = readOnCallModified(await nextEvent(bob.channel, 'OnCallModified'), profile)
      expect(active['callRef']).toBe(callRef)
      const t = (path: string) => `/calls/${callRef}${path}`
      const tel = (method: string, path: string, body?: unknown, query?: Record<string, string>) =>
        alice.client.request(method, 'telephony', path, {
          ...(body !== undefined && { body }),
          ...(query !== undefined && { query }),
        })
      const calls = covered(coverage, 'GET /telephony/calls', await tel('GET', '/calls'))
      expect(list(calls.body, 'calls').map((call) => readCall(call)['callRef'])).toEqual([callRef])
      readCall(covered(coverage, 'GET /telephony/calls/{}', await tel('GET', t(''))).body)
      const legs = list(
        covered(coverage, 'GET /telephony/calls/{}/deviceLegs', await tel('GET', t('/deviceLegs')))
          .body,
        'legs',
      )
      const legId = String(readLeg(legs[0])['deviceId'])
      readLeg(
        covered(
          coverage,
          'GET /telephony/calls/{}/deviceLegs/{}',
          await tel('GET', t(`/deviceLegs/${legId}`)),
        ).body,
      )
      const participants = list(
        covered(
          coverage,
          'GET /telephony/calls/{}/participants',
          await tel('GET', t('/participants')),
        ).body,
        'participants',
      )
      const participantId = String(readParticipant(participants[0])['participantId'])
      readParticipant(
        covered(
          coverage,
          'GET /telephony/calls/{}/participants/{}',
          await tel('GET', t(`/participants/${participantId}`)),
        ).body,
      )
      for (const action of ['start', 'pause', 'resume', 'stop'])
        covered(
          coverage,
          'POST /telephony/calls/{}/recording',
          await tel('POST', t('/recording'), undefined, {
            action: recordingAction(profile, action),
          }),
        )
      covered(
        coverage,
        'POST /telephony/calls/{}/sendDtmf',
        await tel('POST', t('/sendDtmf'), { deviceId: '1001', number: '12#' }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/attachdata',
        await tel('POST', t('/attachdata'), {
          deviceId: '1001',
          hexaBinaryAssociatedData: Buffer.from('order 42').toString('hex'),
        }),
      )
      // J reads the associated data under its own spelling, `associateData` (census 3.5).
      const withData = readCall((await tel('GET', t(''))).body)
      const dataKey = profile.tag === 'J' ? 'associateData' : 'associatedData'
      expect(object(withData['callData'], 'CallData')[dataKey]).toBe('order 42')
      covered(
        coverage,
        'POST /telephony/calls/{}/hold',
        await tel('POST', t('/hold'), { deviceId: '1001' }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/retrieve',
        await tel('POST', t('/retrieve'), { deviceId: '1001' }),
      )
      const state = readTelephonicState(
        covered(coverage, 'GET /telephony/state', await tel('GET', '/state')).body,
      )
      expect(state['userState']).toBe('BUSY')
      const devices = list(
        covered(coverage, 'GET /telephony/devices', await tel('GET', '/devices')).body,
        'deviceStates',
      )
      expect(devices.map((device) => readDeviceState(device)['deviceId'])).toEqual(['1001'])
      readDeviceState(
        covered(coverage, 'GET /telephony/devices/{}', await tel('GET', '/devices/1001')).body,
      )
      covered(coverage, 'POST /telephony/state/snapshot', await tel('POST', '/state/snapshot'))
      const snapshot = object(
        await nextEvent(alice.channel, 'OnTelephonyState'),
        'OnTelephonyState',
      )
      const snapshotState = object(snapshot['state'], 'OnTelephonyState.state')
      // N reads the nested REST shape; J's event class a plain list (Gson throws on the other: census 5).
      if (profile.tag === 'J') expect(Array.isArray(snapshotState['deviceStates'])).toBe(true)
      if (profile.tag === 'N') list(snapshotState['deviceStates'], 'deviceStates')
      const released = await hangUp(alice.client, callRef)
      covered(
        coverage,
        profile.tag === 'JS' ? 'POST /telephony/calls/{}/dropme' : 'DELETE /telephony/calls/{}',
        released,
      )
      readOnCallRemoved(await nextEvent(bob.channel, 'OnCallRemoved'))
    },
  },
  {
    name: 'basic calls: make, answer, drop me',
    async run(world, profile, coverage) {
      const alice = await SdkClient.login(world, profile, 'alice')
      const bob = await SdkClient.login(world, profile, 'bob')
      const made = covered(
        coverage,
        'POST /telephony/basicCall',
        await alice.request('POST', 'telephony', '/basicCall', {
          body: { deviceId: '1001', callee: '1002', autoAnswer: true },
        }),
      )
      expect([201, 204]).toContain(made.status)
      covered(
        coverage,
        'POST /telephony/basicCall/answer',
        await bob.request('POST', 'telephony', '/basicCall/answer', { body: { deviceId: '1002' } }),
      )
      covered(
        coverage,
        'POST /telephony/basicCall/dropme',
        await alice.request('POST', 'telephony', '/basicCall/dropme'),
      )
    },
  },
  {
    name: 'consultation: alternate, transfer; then merge, drop a participant, drop me',
    async run(world, profile, coverage) {
      const [alice, bob, karim] = [
        await party(world, profile, 'alice'),
        await party(world, profile, 'bob'),
        await party(world, profile, 'karim'),
      ]
      const first = await answeredCall(alice, bob, '1001', '1002', coverage, profile)
      const second = await answeredCall(alice, karim, '1001', '1011', coverage, profile)
      const post = (path: string, body?: unknown) =>
        alice.client.request('POST', 'telephony', path, body === undefined ? {} : { body })
      // The specification gives the held call; the Node SDK documents the active one: both work.
      const alternated = profile.tag === 'N' ? second : first
      covered(
        coverage,
        'POST /telephony/calls/{}/alternate',
        await post(`/calls/${alternated}/alternate`, { deviceId: '1001' }),
      )
      const afterAlternate = list(
        (await alice.client.request('GET', 'telephony', '/calls')).body,
        'calls',
      )
      const stateOf = (callRef: string) =>
        afterAlternate.find((call) => call['callRef'] === callRef)?.['legs']
      expect(JSON.stringify(stateOf(first))).toContain('ACTIVE')
      expect(JSON.stringify(stateOf(second))).toContain('HELD')
      covered(
        coverage,
        'POST /telephony/calls/{}/transfer',
        await post(`/calls/${first}/transfer`, { heldCallRef: second }),
      )
      expect(
        list((await alice.client.request('GET', 'telephony', '/calls')).body, 'calls'),
      ).toEqual([])
      const third = await onlyCall(bob.client)
      const fourth = await answeredCall(bob, alice, '1002', '1001', coverage, profile)
      covered(
        coverage,
        'POST /telephony/calls/{}/merge',
        await bob.client.request('POST', 'telephony', `/calls/${fourth}/merge`, {
          body: { heldCallRef: third },
        }),
      )
      const conference = await onlyCall(bob.client)
      covered(
        coverage,
        'DELETE /telephony/calls/{}/participants/{}',
        await bob.client.request('DELETE', 'telephony', `/calls/${conference}/participants/1011`),
      )
      // alice, still in the conference, reads karim's departure under her SDK's list name (census 4).
      const left = await nextEvent(alice.channel, 'OnCallModified', (event) =>
        JSON.stringify(removedParticipantIds(event, profile) ?? []).includes('1011'),
      )
      expect(removedParticipantIds(readOnCallModified(left, profile), profile)).toEqual(['1011'])
      covered(
        coverage,
        'POST /telephony/calls/{}/dropme',
        await bob.client.request('POST', 'telephony', `/calls/${conference}/dropme`),
      )
      expect(list((await bob.client.request('GET', 'telephony', '/calls')).body, 'calls')).toEqual(
        [],
      )
    },
  },
  {
    name: 'blind transfer, redirect, overflow to voice mail, park and unpark, pickup',
    async run(world, profile, coverage) {
      const [alice, bob, karim] = [
        await party(world, profile, 'alice'),
        await party(world, profile, 'bob'),
        await party(world, profile, 'karim'),
      ]
      const first = await answeredCall(alice, bob, '1001', '1002', coverage, profile)
      covered(
        coverage,
        'POST /telephony/calls/{}/blindtransfer',
        await alice.client.request('POST', 'telephony', `/calls/${first}/blindtransfer`, {
          body: { transferTo: '1011', anonymous: false },
        }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/redirect',
        await karim.client.request('POST', 'telephony', `/calls/${first}/redirect`, {
          body: { redirectTo: 'VOICEMAIL', anonymous: false },
        }),
      )
      await hangUp(bob.client, first)
      await alice.client.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1001', '1002'),
      })
      const ringing = await onlyCall(alice.client)
      covered(
        coverage,
        'POST /telephony/calls/{}/overflowToVoiceMail',
        await alice.client.request('POST', 'telephony', `/calls/${ringing}/overflowToVoiceMail`),
      )
      await hangUp(alice.client, ringing)
      const parked = await answeredCall(alice, bob, '1001', '1002', coverage, profile)
      covered(
        coverage,
        'POST /telephony/calls/{}/park',
        await alice.client.request('POST', 'telephony', `/calls/${parked}/park`, {
          body: { parkTo: '1001' },
        }),
      )
      covered(
        coverage,
        'POST /telephony/devices/{}/unpark',
        await alice.client.request('POST', 'telephony', '/devices/1001/unpark', {
          body: { heldCallRef: parked },
        }),
      )
      await hangUp(alice.client, parked)
      await alice.client.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1001', '1002'),
      })
      const toPick = await onlyCall(alice.client)
      covered(
        coverage,
        'POST /telephony/devices/{}/pickup',
        await karim.client.request('POST', 'telephony', '/devices/1011/pickup', {
          body: { otherCallRef: toPick, otherPhoneNumber: '1002', autoAnswer: true },
        }),
      )
      expect(await onlyCall(karim.client)).toBe(toPick)
      await hangUp(karim.client, toPick)
    },
  },
  {
    name: 'callbacks: request on a call, request from an idle device, list, delete one, delete all',
    async run(world, profile, coverage) {
      const alice = await SdkClient.login(world, profile, 'alice')
      const bob = await SdkClient.login(world, profile, 'bob')
      const karim = await SdkClient.login(world, profile, 'karim')
      await alice.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1001', '1002'),
      })
      const ringing = await onlyCall(alice)
      covered(
        coverage,
        'POST /telephony/calls/{}/callback',
        await alice.request('POST', 'telephony', `/calls/${ringing}/callback`),
      )
      covered(
        coverage,
        'POST /telephony/outgoingCallbacks',
        await karim.request('POST', 'telephony', '/outgoingCallbacks', {
          body: { callee: '1002' },
        }),
      )
      const callbacks = list(
        covered(
          coverage,
          'GET /telephony/incomingCallbacks',
          await bob.request('GET', 'telephony', '/incomingCallbacks'),
        ).body,
        'callbacks',
      )
      expect(callbacks).toHaveLength(2)
      for (const callback of callbacks) {
        expect(callback['callbackId']).toBeTypeOf('string')
        object(object(callback['partyInfo'], 'Callback.partyInfo')['id'], 'partyInfo.id')
      }
      if (profile.tag !== 'C#')
        covered(
          coverage,
          'DELETE /telephony/incomingCallbacks/{}',
          await bob.request(
            'DELETE',
            'telephony',
            `/incomingCallbacks/${callbacks[0]?.['callbackId']}`,
          ),
        )
      covered(
        coverage,
        'DELETE /telephony/incomingCallbacks',
        await bob.request('DELETE', 'telephony', '/incomingCallbacks'),
      )
    },
  },
  {
    name: 'subscription: unsubscribe closes the channel',
    async run(world, profile, coverage) {
      if (profile.tag !== 'J' && profile.tag !== 'C#') return
      const client = await SdkClient.login(world, profile, 'bob')
      const answer = await client.request('POST', 'subscriptions', '', {
        body: telephonySubscription(profile),
      })
      const { subscriptionId, privatePollingUrl } = object(answer.body, 'Subscription')
      const channel = await world.openChannel(String(privatePollingUrl))
      covered(
        coverage,
        'DELETE /subscriptions/{}',
        await client.request('DELETE', 'subscriptions', `/${String(subscriptionId)}`),
      )
      await channel.ended
    },
  },
]
