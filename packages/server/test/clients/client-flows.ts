/**
 * The flows every SDK runs against us, written once and played by each client's suite with that client's
 * habits (sdk-client.ts): each step sends the exact request the SDK sends for one operation (wire facts 5.5,
 * 7, 11; census 3) and reads the answer as the SDK does (sdk-readers.ts). Each step records the operation
 * it covered as `METHOD /path` with `{}` for path parameters, the census's notation, so that each suite
 * can check it covers every operation its SDK calls and we serve.
 */
import { expect } from 'vitest'
import type { ChannelClient } from '../support/channel-client.js'
import { WebhookReceiver } from '../support/webhook-receiver.js'
import {
  type Answer,
  type ClientProfile,
  type ClientWorld,
  expectSuccess,
  nextEvent,
  SdkClient,
} from './sdk-client.js'
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
  readUser,
  removedParticipantIds,
} from './sdk-readers.js'

/** The operations a suite covered, in the census's notation. */
export type Coverage = Set<string>

/** One flow: a few SDK operations that belong together. */
export interface Flow {
  name: string
  run(world: ClientWorld, profile: ClientProfile, covered: Coverage): Promise<void>
}

/** The subscription body each SDK sends for telephony events of its own user (wire facts 4). */
export function telephonySubscription(profile: ClientProfile, ids: string[] = []): unknown {
  const selectors = [
    { names: ['telephony'], ...(ids.length > 0 || profile.tag === 'N' ? { ids } : {}) },
  ]
  switch (profile.tag) {
    case 'N':
      return { filter: { selectors }, version: '1.0', timeout: 0 }
    case 'J':
      return { version: '1.0', timeout: 10, filter: { selectors } }
    case 'C#':
      return { filter: { selectors }, version: '1.0', timeout: 10 }
    case 'JS':
      return { timeout: 0, filter: { selectors }, version: '1.0' }
  }
}

/** The make-call body of each SDK (census 3.4: J and C# always send both booleans). */
function makeCallBody(profile: ClientProfile, deviceId: string, callee: string): unknown {
  const body = { deviceId, callee, autoAnswer: true }
  return profile.tag === 'J' || profile.tag === 'C#'
    ? { ...body, inhibitProgressTone: false }
    : body
}

/** The recording `action` as each SDK spells it (N capitalises; wire facts 5.5). */
function recordingAction(profile: ClientProfile, action: string): string {
  return profile.tag === 'N' ? action.charAt(0).toUpperCase() + action.slice(1) : action
}

/** Records an operation and checks the SDK would count the answer a success. */
function covered(coverage: Coverage, operation: string, answer: Answer): Answer {
  coverage.add(operation)
  expectSuccess(answer)
  return answer
}

/** The callRef of the single call a user has, read through GET /telephony/calls. */
async function onlyCall(client: SdkClient): Promise<string> {
  const calls = list((await client.request('GET', 'telephony', '/calls')).body, 'calls')
  expect(calls).toHaveLength(1)
  return String(readCall(calls[0])['callRef'])
}

/** Ends a call as the SDK can: release (DELETE), or drop me for the browser SDK, which has no release. */
function hangUp(client: SdkClient, callRef: string): Promise<Answer> {
  return client.profile.tag === 'JS'
    ? client.request('POST', 'telephony', `/calls/${callRef}/dropme`)
    : client.request('DELETE', 'telephony', `/calls/${callRef}`)
}

/** A user of the scenario with an open telephony channel. */
interface Party {
  client: SdkClient
  channel: ChannelClient
}

async function party(world: ClientWorld, profile: ClientProfile, login: string): Promise<Party> {
  const client = await SdkClient.login(world, profile, login)
  const channel = await client.subscribe(telephonySubscription(profile))
  return { client, channel }
}

/** `caller` calls `callee`'s device with the SDK's make call; `callee` answers; returns the callRef. */
async function answeredCall(
  caller: Party,
  callee: Party,
  callerDevice: string,
  calleeDevice: string,
  coverage: Coverage,
  profile: ClientProfile,
): Promise<string> {
  covered(
    coverage,
    'POST /telephony/calls',
    await caller.client.request('POST', 'telephony', '/calls', {
      body: makeCallBody(profile, callerDevice, calleeDevice),
    }),
  )
  const callRef = await onlyCall(callee.client)
  covered(
    coverage,
    'POST /telephony/calls/{}/answer',
    await callee.client.request('POST', 'telephony', `/calls/${callRef}/answer`, {
      body: { deviceId: calleeDevice },
    }),
  )
  return callRef
}

export const FLOWS: readonly Flow[] = [
  {
    name: 'session: login, SessionInfo services, GET, keepalive, close',
    async run(world, profile, coverage) {
      const client = await SdkClient.login(world, profile, 'alice')
      coverage.add('GET /api/rest').add('GET /api/rest/authenticate').add('POST /sessions')
      for (const service of ['users', 'telephony', 'subscriptions']) client.service(service)
      if (profile.tag === 'J' || profile.tag === 'C#') {
        const info = covered(
          coverage,
          'GET /sessions',
          await client.send('GET', client.sessionsUrl),
        )
        expect(object(info.body, 'SessionInfo')['timeToLive']).toBeTypeOf('number')
      }
      covered(
        coverage,
        'POST /sessions/keepalive',
        await client.send('POST', `${client.sessionsUrl}/keepalive`),
      )
      covered(coverage, 'DELETE /sessions', await client.send('DELETE', client.sessionsUrl))
    },
  },
  {
    name: 'users: by login name, by company phone, logins, preferences, languages, password',
    async run(world, profile, coverage) {
      const client = await SdkClient.login(world, profile, 'ines')
      const users = client.service('users')
      const own = covered(coverage, 'GET /users/{}', await client.send('GET', `${users}/ines`))
      expect(readUser(own.body)['loginName']).toBe('ines')
      const byPhone = covered(
        coverage,
        'GET /users',
        await client.send('GET', `${users}?companyPhone=1002`),
      )
      expect(readUser(byPhone.body)['loginName']).toBe('bob')
      const logins = covered(
        coverage,
        'GET /logins',
        await client.send('GET', users.replace('/users', '/logins')),
      )
      expect(list(logins.body, 'loginNames')).toEqual(['ines'])
      const preferences = covered(
        coverage,
        'GET /users/{}/preferences',
        await client.send('GET', `${users}/ines/preferences`),
      )
      object(preferences.body, 'Preferences')
      const languages = covered(
        coverage,
        'GET /users/{}/preferences/supportedLanguages',
        await client.send('GET', `${users}/ines/preferences/supportedLanguages`),
      )
      const supported = object(languages.body, 'SupportedLanguages')
      const key = profile.tag === 'C#' ? 'SupportedLanguages' : 'supportedLanguages'
      expect(Array.isArray(supported[key]), `${profile.tag} reads ${key}`).toBe(true)
      for (const [oldPassword, newPassword] of [
        ['demo-ines', `changed-by-${profile.tag}`],
        [`changed-by-${profile.tag}`, 'demo-ines'],
      ])
        covered(
          coverage,
          'PUT /users/{}/password',
          await client.send('PUT', `${users}/ines/password`, { oldPassword, newPassword }),
        )
    },
  },
  {
    name: 'an administrator: users through its Users service, telephony for the user a request identifies',
    async run(world, profile, coverage) {
      const admin = await SdkClient.login(world, profile, 'admin')
      const users = admin.service('users')
      const byPhone = covered(
        coverage,
        'GET /users',
        await admin.send('GET', `${users}?companyPhone=1002`),
      )
      expect(readUser(byPhone.body)['loginName']).toBe('bob')
      const bob = covered(coverage, 'GET /users/{}', await admin.send('GET', `${users}/bob`))
      expect(readUser(bob.body)['loginName']).toBe('bob')
      const logins = covered(
        coverage,
        'GET /logins',
        await admin.send('GET', users.replace('/users', '/logins')),
      )
      expect(list(logins.body, 'loginNames')).toEqual(expect.arrayContaining(['alice', 'bob']))
      const as = (loginName: string) => ({ loginName })
      covered(
        coverage,
        'POST /telephony/calls',
        await admin.request('POST', 'telephony', '/calls', {
          body: makeCallBody(profile, '1001', '1002'),
          query: as('alice'),
        }),
      )
      const calls = list(
        (await admin.request('GET', 'telephony', '/calls', { query: as('bob') })).body,
        'calls',
      )
      const callRef = String(readCall(calls[0])['callRef'])
      const t = `/calls/${callRef}`
      // The SDKs send no loginName on these rows (census 3.4): the device or the call names the user.
      covered(
        coverage,
        'POST /telephony/calls/{}/answer',
        await admin.request('POST', 'telephony', `${t}/answer`, { body: { deviceId: '1002' } }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/sendDtmf',
        await admin.request('POST', 'telephony', `${t}/sendDtmf`, {
          body: { deviceId: '1002', number: '5' },
        }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/attachdata',
        await admin.request('POST', 'telephony', `${t}/attachdata`, {
          body: { deviceId: '1001', hexaBinaryAssociatedData: '0a1b' },
        }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/hold',
        await admin.request('POST', 'telephony', `${t}/hold`, {
          body: { deviceId: '1002' },
          query: as('bob'),
        }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/retrieve',
        await admin.request('POST', 'telephony', `${t}/retrieve`, {
          body: { deviceId: '1002' },
          ...(profile.tag !== 'J' && { query: as('bob') }),
        }),
      )
      const released = await (profile.tag === 'JS'
        ? admin.request('POST', 'telephony', `${t}/dropme`, { query: as('alice') })
        : admin.request('DELETE', 'telephony', t, { query: as('alice') }))
      expectSuccess(released)
    },
  },
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
]
