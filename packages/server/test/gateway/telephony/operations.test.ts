/**
 * Issue 5, item 1: the success path of every call-control row (numbering aside), each asserting the status
 * and the resulting state as the users see it through the API.
 */
import {
  Call,
  Callbacks,
  Calls,
  DeviceState,
  DeviceStates,
  Legs,
  Participants,
  TelephonicState,
} from '@openness/wire'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { expectRestError, expectSchema } from '../../support/assertions.js'
import { openSession } from '../../support/test-service.js'
import { type Login, startTelephonyTest, T, type TelephonyTest } from './support.js'

let test: TelephonyTest
beforeEach(async () => {
  test = await startTelephonyTest()
})
afterEach(() => test.close())

async function callOf(login: Login, callRef: string): Promise<Call> {
  return expectSchema<Call>(Call, await test.send(login, 'GET', `${T}/calls/${callRef}`))
}
/** The call is over. */
async function expectNoCall(login: Login, callRef: string) {
  expectRestError(await test.send(login, 'GET', `${T}/calls/${callRef}`), 404, 'NOT_FOUND')
}
/** The call goes on without the user. */
async function expectLeft(login: Login, callRef: string) {
  expectRestError(
    await test.send(login, 'GET', `${T}/calls/${callRef}`),
    403,
    'NOT_ALLOWED',
    /not a call of/,
  )
}
async function post(login: Login, path: string, body?: unknown, status = 204) {
  const response = await test.send(login, 'POST', `${T}${path}`, body)
  expect(response.statusCode, response.body).toBe(status)
  return response
}
const legState = (call: Call) => call.legs?.map((leg) => leg.state)

/** alice (1001) calls bob (1002), who answers. */
async function answeredCall(): Promise<string> {
  const callRef = await test.makeCall('alice', '1001', '1002')
  await test.answer('bob', callRef, '1002')
  return callRef
}

describe('make call to a number in +E.164 (as CRMs store them)', () => {
  const participantsOf = (call: Call) => call.participants?.map((p) => p.participantId)

  it("rings the extension behind one of the company's public numbers", async () => {
    const callRef = await test.makeCall('alice', '1001', '+33155661002')
    expect(participantsOf(await callOf('alice', callRef))).toEqual(['1002'])
    expect(legState(await callOf('bob', callRef))).toEqual(['RINGING_INCOMING'])
  })

  it('calls any other number through the outside line, as the numbering plan dials it', async () => {
    const callRef = await test.makeCall('alice', '1001', '+33612345678')
    expect(participantsOf(await callOf('alice', callRef))).toEqual(['0612345678'])
  })

  it('refuses a number of no country: 404, no call', async () => {
    expectRestError(
      await test.send('alice', 'POST', `${T}/calls`, { deviceId: '1001', callee: '+999123' }),
      404,
      'NOT_FOUND',
    )
    expect((await test.send('alice', 'GET', `${T}/calls`)).json()).toEqual({ calls: [] })
  })
})

describe('basic telephony', () => {
  it('POST /basicCall: 201 with the Location of the call, ringing on the callee', async () => {
    const response = await post(
      'alice',
      '/basicCall',
      { deviceId: '1001', callee: '1002', autoAnswer: true },
      201,
    )
    const callRef = String(response.headers.location).split('/').pop() ?? ''
    expect(response.headers.location).toBe(`${T}/calls/${callRef}`)
    expect(legState(await callOf('alice', callRef))).toEqual(['RINGING_OUTGOING'])
    expect(legState(await callOf('bob', callRef))).toEqual(['RINGING_INCOMING'])
  })

  it('POST /basicCall/answer answers the call ringing on the device; dropme releases it', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    await post('bob', '/basicCall/answer', { deviceId: '1002' })
    expect(legState(await callOf('alice', callRef))).toEqual(['ACTIVE'])
    await post('alice', '/basicCall/dropme')
    await expectNoCall('alice', callRef)
    await expectNoCall('bob', callRef)
  })

  it('a TELEPHONY_BASIC user (dave) places, answers and leaves calls without call references', async () => {
    await post('dave', '/basicCall', { deviceId: '1004', callee: '1001' }, 201)
    await post('alice', '/basicCall/answer', {})
    const { calls } = expectSchema<Calls>(Calls, await test.send('alice', 'GET', `${T}/calls`))
    expect(calls.map(legState)).toEqual([['ACTIVE']])
    await post('dave', '/basicCall/dropme')
    expect((await test.send('alice', 'GET', `${T}/calls`)).json()).toEqual({ calls: [] })
  })

  it('answer with nothing ringing, dropme in no call: 403 NOT_EXPECTED', async () => {
    expectRestError(
      await test.send('bob', 'POST', `${T}/basicCall/answer`, {}),
      403,
      'NOT_EXPECTED',
    )
    expectRestError(await test.send('bob', 'POST', `${T}/basicCall/dropme`), 403, 'NOT_EXPECTED')
  })
})

describe('calls', () => {
  it('GET /calls lists the calls as the user sees them; an administrator names the user', async () => {
    const callRef = await answeredCall()
    const own = expectSchema<Calls>(Calls, await test.send('bob', 'GET', `${T}/calls`))
    expect(own.calls.map((call) => call.callRef)).toEqual([callRef])
    expect(own.calls[0]?.participants?.[0]?.participantId).toBe('1001')
    const admin = await test.send('admin', 'GET', `${T}/calls?loginName=bob`)
    expect(admin.json()).toEqual(own)
  })

  it("a supervised session acts as the supervised user: its calls, its devices, nobody else's", async () => {
    const callRef = await answeredCall()
    const cookie = await openSession(test.service.app, 'admin', {
      applicationName: 'test',
      supervisedAccount: { id: 'bob', type: 'LOGIN_NAME' },
    })
    const send = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      test.service.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) })
    const calls = (await send('GET', `${T}/calls?loginName=alice`)).json() as Calls
    expect(calls.calls.map((call) => [call.callRef, call.legs?.[0]?.deviceId])).toEqual([
      [callRef, '1002'],
    ])
    expect(
      (await send('POST', `${T}/calls/${callRef}/hold`, { deviceId: '1002' })).statusCode,
    ).toBe(204)
    expect(legState(await callOf('bob', callRef))).toEqual(['HELD'])
    expectRestError(
      await send('POST', `${T}/calls`, { deviceId: '1001', callee: '1011' }),
      403,
      'NOT_ALLOWED',
    )
  })

  it('POST /calls with associatedData (a STANDARD user): shown in CallData; the main device by default', async () => {
    const response = await post(
      'alice',
      '/calls',
      { callee: '1002', associatedData: 'order 42' },
      201,
    )
    const callRef = String(response.headers.location).split('/').pop() ?? ''
    const call = await callOf('bob', callRef)
    expect(call.callData?.associatedData).toBe('order 42')
    // The Java SDK's CallData reads `associateData` (its spelling): the same text beside it.
    expect(call.callData?.associateData).toBe('order 42')
    expect((await callOf('alice', callRef)).legs?.[0]?.deviceId).toBe('1001')
  })

  // Updated for issue 11, item 7: odd-length hex used to be 400; it is text now (sdk-requests.test.ts).
  it('POST /calls with hexaBinaryAssociatedData: decoded; odd hex: text; both forms: 400', async () => {
    const response = await post(
      'alice',
      '/calls',
      { deviceId: '1001', callee: '1002', hexaBinaryAssociatedData: '4142' },
      201,
    )
    const callRef = String(response.headers.location).split('/').pop() ?? ''
    expect((await callOf('alice', callRef)).callData?.associatedData).toBe('AB')
    const odd = await post(
      'alice',
      '/calls',
      { deviceId: '1001', callee: '1011', hexaBinaryAssociatedData: '414' },
      201,
    )
    const oddRef = String(odd.headers.location).split('/').pop() ?? ''
    expect((await callOf('alice', oddRef)).callData?.associatedData).toBe('414')
    expectRestError(
      await test.send('alice', 'POST', `${T}/calls`, {
        deviceId: '1001',
        callee: '1003',
        hexaBinaryAssociatedData: '41',
        associatedData: 'A',
      }),
      400,
      'BAD_PARAMETER',
    )
  })

  it('POST /calls: an ACD call to a number that is no pilot: BAD_PARAMETER; private-call fields for a MULTIMEDIA user: NOT_ALLOWED; unknown callee: 404', async () => {
    expectRestError(
      await test.send('alice', 'POST', `${T}/calls`, { callee: '1002', acdCall: {} }),
      400,
      'BAD_PARAMETER',
      /acdCall: the callee 1002 is no pilot/,
    )
    expectRestError(
      await test.send('carol', 'POST', `${T}/calls`, { callee: '1002', pin: '1234' }),
      403,
      'NOT_ALLOWED',
      /STANDARD users only/,
    )
    expectRestError(
      await test.send('alice', 'POST', `${T}/calls`, { callee: '4321' }),
      404,
      'NOT_FOUND',
    )
  })

  it('a private call (pin) and a business call (businessCode) of a STANDARD user are placed', async () => {
    await post(
      'alice',
      '/calls',
      { deviceId: '1001', callee: '1002', pin: '1234', secretCode: '99' },
      201,
    )
    await post('karim', '/calls', { deviceId: '1011', callee: '1009', businessCode: '7' }, 201)
    expect((await test.send('bob', 'GET', `${T}/calls`)).json().calls).toHaveLength(1)
  })

  it('DELETE /calls/{callRef} releases every party', async () => {
    const callRef = await answeredCall()
    const response = await test.send('bob', 'DELETE', `${T}/calls/${callRef}`)
    expect(response.statusCode, response.body).toBe(204)
    await expectNoCall('alice', callRef)
    await expectNoCall('bob', callRef)
  })
})

describe('operations on a call', () => {
  it('answer, hold, retrieve', async () => {
    const callRef = await answeredCall()
    expect(legState(await callOf('bob', callRef))).toEqual(['ACTIVE'])
    await post('alice', `/calls/${callRef}/hold`, { deviceId: '1001' })
    expect(legState(await callOf('alice', callRef))).toEqual(['HELD'])
    await post('alice', `/calls/${callRef}/retrieve`, {})
    expect(legState(await callOf('alice', callRef))).toEqual(['ACTIVE'])
    expectRestError(
      await test.send('alice', 'POST', `${T}/calls/${callRef}/retrieve`, {}),
      403,
      'NOT_EXPECTED',
    )
  })

  it('consultation, alternate, then transfer: alice leaves, bob and karim talk', async () => {
    const first = await answeredCall()
    const second = await test.makeCall('alice', '1001', '1011')
    await test.answer('karim', second, '1011')
    expect(legState(await callOf('alice', first))).toEqual(['HELD'])
    await post('alice', `/calls/${first}/alternate`, { deviceId: '1001' })
    expect(legState(await callOf('alice', first))).toEqual(['ACTIVE'])
    expect(legState(await callOf('alice', second))).toEqual(['HELD'])
    await post('alice', `/calls/${first}/transfer`, { heldCallRef: second })
    expect((await test.send('alice', 'GET', `${T}/calls`)).json()).toEqual({ calls: [] })
    const bobs = (await test.send('bob', 'GET', `${T}/calls`)).json() as Calls
    expect(bobs.calls.map(legState)).toEqual([['ACTIVE']])
    expect(bobs.calls[0]?.participants?.map((p) => p.participantId)).toEqual(['1011'])
  })

  it('merge into a conference, list and drop a participant, then dropme', async () => {
    const first = await answeredCall()
    const second = await test.makeCall('alice', '1001', '1011')
    await test.answer('karim', second, '1011')
    await post('alice', `/calls/${second}/merge`, { heldCallRef: first })
    const [conference] = ((await test.send('alice', 'GET', `${T}/calls`)).json() as Calls).calls
    const callRef = conference?.callRef ?? ''
    const list = expectSchema<Participants>(
      Participants,
      await test.send('alice', 'GET', `${T}/calls/${callRef}/participants`),
    )
    expect(list.participants.map((p) => p.participantId).sort()).toEqual(['1002', '1011'])
    const one = await test.send('alice', 'GET', `${T}/calls/${callRef}/participants/1011`)
    expect(one.json()).toMatchObject({
      participantId: '1011',
      identity: { id: { loginName: 'karim' } },
    })
    expectRestError(
      await test.send('alice', 'GET', `${T}/calls/${callRef}/participants/1999`),
      404,
      'NOT_FOUND',
    )
    expect(
      (await test.send('alice', 'DELETE', `${T}/calls/${callRef}/participants/1011`)).statusCode,
    ).toBe(204)
    await expectLeft('karim', callRef)
    await post('bob', `/calls/${callRef}/dropme`)
    await expectNoCall('alice', callRef)
  })

  it('a MULTIMEDIA user adds a participant to its call', async () => {
    const callRef = await test.makeCall('carol', '1003', '1002')
    await test.answer('bob', callRef, '1002')
    await post('carol', `/calls/${callRef}/participants`, { participantId: '1011' })
    expect(legState(await callOf('karim', callRef))).toEqual(['RINGING_INCOMING'])
  })

  it('blind transfer: the transferred party rings the target, the user leaves', async () => {
    const callRef = await answeredCall()
    await post('alice', `/calls/${callRef}/blindtransfer`, { transferTo: '1011', anonymous: false })
    await expectLeft('alice', callRef)
    const karims = ((await test.send('karim', 'GET', `${T}/calls`)).json() as Calls).calls
    expect(karims.map(legState)).toEqual([['RINGING_INCOMING']])
  })

  it('redirect to VOICEMAIL, overflow to voice mail', async () => {
    const ringing = await test.makeCall('alice', '1001', '1002')
    await post('bob', `/calls/${ringing}/redirect`, { redirectTo: 'VOICEMAIL' })
    await expectLeft('bob', ringing)
    expect(legState(await callOf('alice', ringing))).toEqual(['ACTIVE'])
    const other = await test.makeCall('karim', '1011', '1002')
    await post('karim', `/calls/${other}/overflowToVoiceMail`)
    await expectLeft('bob', other)
  })

  it('park on the current device, then unpark', async () => {
    const callRef = await answeredCall()
    await post('alice', `/calls/${callRef}/park`, {})
    expect(legState(await callOf('bob', callRef))).toEqual(['ACTIVE'])
    await post('alice', '/devices/1001/unpark', { heldCallRef: callRef })
    expect(legState(await callOf('alice', callRef))).toEqual(['ACTIVE'])
  })

  it('call back request, then the incoming callbacks: list, delete one, delete all', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    await post('alice', `/calls/${callRef}/callback`)
    await post('karim', '/outgoingCallbacks', { callee: '1002' })
    const { callbacks } = expectSchema<Callbacks>(
      Callbacks,
      await test.send('bob', 'GET', `${T}/incomingCallbacks`),
    )
    expect(callbacks.map((callback) => callback.partyInfo.id.loginName)).toEqual(['alice', 'karim'])
    const first = callbacks[0]?.callbackId ?? ''
    expect((await test.send('bob', 'DELETE', `${T}/incomingCallbacks/${first}`)).statusCode).toBe(
      204,
    )
    expectRestError(
      await test.send('bob', 'DELETE', `${T}/incomingCallbacks/${first}`),
      404,
      'NOT_FOUND',
    )
    expect((await test.send('bob', 'DELETE', `${T}/incomingCallbacks`)).statusCode).toBe(204)
    expect((await test.send('bob', 'GET', `${T}/incomingCallbacks`)).json()).toEqual({
      callbacks: [],
    })
  })

  it('recording: action matched case-insensitively; pause and resume; a bad action is 400', async () => {
    const callRef = await answeredCall()
    await post('alice', `/calls/${callRef}/recording?action=Start`)
    expect((await callOf('bob', callRef)).callData?.recordState).toBe('RECORDING')
    await post('alice', `/calls/${callRef}/recording?action=pause`)
    expect((await callOf('bob', callRef)).callData?.recordState).toBe('PAUSED')
    await post('alice', `/calls/${callRef}/recording?action=RESUME`)
    await post('alice', `/calls/${callRef}/recording?action=stop`)
    expect((await callOf('bob', callRef)).callData?.recordState).toBeUndefined()
    expectRestError(
      await test.send('alice', 'POST', `${T}/calls/${callRef}/recording?action=rewind`),
      400,
      'BAD_PARAMETER',
      /action/,
    )
    expectRestError(
      await test.send('alice', 'POST', `${T}/calls/${callRef}/recording`),
      400,
      'BAD_PARAMETER',
      /action/,
    )
  })

  it('recording pause by a MULTIMEDIA user: 403 NOT_ALLOWED', async () => {
    const callRef = await test.makeCall('carol', '1003', '1002')
    await test.answer('bob', callRef, '1002')
    await post('carol', `/calls/${callRef}/recording?action=start`)
    expectRestError(
      await test.send('carol', 'POST', `${T}/calls/${callRef}/recording?action=pause`),
      403,
      'NOT_ALLOWED',
    )
  })

  it('sendDtmf and attachdata', async () => {
    const callRef = await answeredCall()
    await post('alice', `/calls/${callRef}/sendDtmf`, { deviceId: '1001', number: '12#' })
    await post('alice', `/calls/${callRef}/attachdata`, {
      deviceId: '1001',
      hexaBinaryAssociatedData: '4f4b',
    })
    expect((await callOf('bob', callRef)).callData?.associatedData).toBe('OK')
    expectRestError(
      await test.send('alice', 'POST', `${T}/calls/${callRef}/attachdata`, {}),
      400,
      'BAD_PARAMETER',
    )
  })

  it('device legs: list, one, and moving the call to another device of the user', async () => {
    const callRef = await test.makeCall('carol', '1003', '1002')
    await test.answer('bob', callRef, '1002')
    const { legs } = expectSchema<Legs>(
      Legs,
      await test.send('carol', 'GET', `${T}/calls/${callRef}/deviceLegs`),
    )
    expect(legs.map((leg) => leg.deviceId)).toEqual(['1003'])
    expect(
      (await test.send('carol', 'GET', `${T}/calls/${callRef}/deviceLegs/1003`)).json(),
    ).toMatchObject({ deviceId: '1003', state: 'ACTIVE' })
    expectRestError(
      await test.send('carol', 'GET', `${T}/calls/${callRef}/deviceLegs/1103`),
      404,
      'NOT_FOUND',
    )
    await post('carol', `/calls/${callRef}/deviceLegs/1003`, { deviceId: '1103' })
    const moved = await test.send('carol', 'GET', `${T}/calls/${callRef}/deviceLegs`)
    expect((moved.json() as Legs).legs.map((leg) => leg.deviceId)).toEqual(['1103'])
  })
})

describe('devices and state', () => {
  it('GET /devices and /devices/{deviceId}', async () => {
    const list = expectSchema<DeviceStates>(
      DeviceStates,
      await test.send('carol', 'GET', `${T}/devices`),
    )
    expect(list.deviceStates.map((device) => device.deviceId)).toEqual(['1003', '1103'])
    const one = expectSchema<DeviceState>(
      DeviceState,
      await test.send('carol', 'GET', `${T}/devices/1103`),
    )
    expect(one).toEqual(list.deviceStates[1])
    expect(one.state).toBe('IN_SERVICE')
  })

  it('mute and unmute a device in a call; the outcome is an event', async () => {
    const callRef = await answeredCall()
    const publish = vi.spyOn(test.service.running.events, 'publish')
    await post('alice', '/devices/1001/mute/true')
    expect((await test.send('alice', 'GET', `${T}/devices/1001`)).json()).toMatchObject({
      muted: true,
    })
    await post('alice', '/devices/1001/mute/false')
    expect((await test.send('alice', 'GET', `${T}/devices/1001`)).json()).toMatchObject({
      muted: false,
    })
    const names = publish.mock.calls.map(([event]) => event.eventName)
    expect(names.filter((name) => name.startsWith('OnDeviceMute'))).toEqual([
      'OnDeviceMuteSuccess',
      'OnDeviceMuteSuccess',
    ])
    expect(callRef).toBeTruthy()
    expectRestError(
      await test.send('alice', 'POST', `${T}/devices/1001/mute/maybe`),
      400,
      'BAD_PARAMETER',
    )
  })

  it("pickup: a call ringing on another user's device is taken on the user's device", async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    await post('karim', '/devices/1011/pickup', {
      otherCallRef: callRef,
      otherPhoneNumber: '1002',
      autoAnswer: true,
    })
    await expectLeft('bob', callRef)
    expect(legState(await callOf('karim', callRef))).toEqual(['ACTIVE'])
  })

  it.each([
    [
      'carol, in no pickup group',
      'carol',
      '1003',
      "User 'carol' is in no pickup group: they may pick up their own calls only",
    ],
    [
      'admin for carol (the owner of the device)',
      'admin',
      '1003',
      "User 'carol' is in no pickup group: they may pick up their own calls only",
    ],
  ] as const)(
    "pickup outside the ringing user's pickup group, by %s: 403 NOT_ALLOWED, nothing changes",
    async (_case, login, deviceId, message) => {
      const callRef = await test.makeCall('alice', '1001', '1002')
      const publish = vi.spyOn(test.service.running.events, 'publish')
      const body = expectRestError(
        await test.send(login, 'POST', `${T}/devices/${deviceId}/pickup`, {
          otherCallRef: callRef,
          otherPhoneNumber: '1002',
          autoAnswer: true,
        }),
        403,
        'NOT_ALLOWED',
      )
      expect(body.helpMessage).toBe(message)
      expect(publish).not.toHaveBeenCalled()
      expect(legState(await callOf('bob', callRef))).toEqual(['RINGING_INCOMING'])
      expect((await test.send('carol', 'GET', `${T}/calls`)).json()).toEqual({ calls: [] })
    },
  )

  it('GET /state: calls, device capabilities, user state, nested device states', async () => {
    await answeredCall()
    const state = expectSchema<TelephonicState>(
      TelephonicState,
      await test.send('alice', 'GET', `${T}/state`),
    )
    expect(state.userState).toBe('BUSY')
    expect(state.calls).toHaveLength(1)
    expect(state.deviceStates?.deviceStates.map((device) => device.deviceId)).toEqual(['1001'])
    expect(state.deviceCapabilities?.[0]).toMatchObject({ deviceId: '1001', makeCall: true })
  })

  it('POST /state/snapshot publishes OnTelephonyState with the same state', async () => {
    await answeredCall()
    const publish = vi.spyOn(test.service.running.events, 'publish')
    await post('alice', '/state/snapshot')
    const snapshot = publish.mock.calls
      .map(([event]) => event)
      .find((event) => event.eventName === 'OnTelephonyState')
    expect(snapshot).toEqual({
      eventName: 'OnTelephonyState',
      loginName: 'alice',
      state: (await test.send('alice', 'GET', `${T}/state`)).json(),
    })
  })

  it('a call reaching a MOBILE device also appears as OnCallAppeared, after its OnCallCreated', async () => {
    const publish = vi.spyOn(test.service.running.events, 'publish')
    const carolsEvents = () =>
      publish.mock.calls.map(([event]) => event).filter((event) => event.loginName === 'carol')
    const toSoftphone = await test.makeCall('alice', '1001', '1003')
    expect(carolsEvents().map((event) => event.eventName)).toEqual(['OnCallCreated'])
    await post('alice', `/calls/${toSoftphone}/dropme`)
    publish.mockClear()
    const toMobile = await test.makeCall('alice', '1001', '1103')
    const [created, appeared] = carolsEvents()
    expect(created?.eventName).toBe('OnCallCreated')
    expect(appeared).toEqual({
      eventName: 'OnCallAppeared',
      loginName: 'carol',
      callRef: toMobile,
      callData: created?.['callData'],
      legs: created?.['legs'],
      participants: created?.['participants'],
    })
    expect(carolsEvents()).toHaveLength(2)
  })

  it('moving a call to a MOBILE device makes it appear there (OnCallAppeared with the new leg)', async () => {
    const callRef = await test.makeCall('carol', '1003', '1002')
    await test.answer('bob', callRef, '1002')
    const publish = vi.spyOn(test.service.running.events, 'publish')
    await post('carol', `/calls/${callRef}/deviceLegs/1003`, { deviceId: '1103' })
    const names = publish.mock.calls
      .map(([event]) => event)
      .filter((event) => event.loginName === 'carol')
      .map((event) => [
        event.eventName,
        (event['legs'] as { deviceId: string }[] | undefined)?.map((leg) => leg.deviceId),
      ])
    expect(names).toEqual([
      ['OnCallModified', undefined],
      ['OnCallAppeared', ['1103']],
    ])
  })
})
