/**
 * The O2G additions the SDKs call on the telephony service (client census 2, section 5a): reconnect,
 * intrusion and the interphony key (`ithmicro`), each request exactly as the SDKs send it, asserting the
 * status, the body, the events and the resulting state, and the refusals that change nothing.
 */
import { Call, DeviceState } from '@openness/wire'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { expectRestError, expectSchema } from '../../support/assertions.js'
import { type Login, startTelephonyTest, T, type TelephonyTest } from './support.js'

let test: TelephonyTest
beforeEach(async () => {
  test = await startTelephonyTest()
})
afterEach(() => test.close())

async function callOf(login: Login, callRef: string): Promise<Call> {
  return expectSchema<Call>(Call, await test.send(login, 'GET', `${T}/calls/${callRef}`))
}
const legState = (call: Call) => call.legs?.map((leg) => leg.state)
const participantIds = (call: Call) => call.participants?.map((p) => p.participantId)

/** Every event the platform publishes from now on, as [eventName, loginName, callRef?]. */
function recordEvents() {
  const publish = vi.spyOn(test.service.running.events, 'publish')
  return () =>
    publish.mock.calls.map(([event]) => [
      event.eventName,
      event.loginName,
      ...('callRef' in event ? [event['callRef']] : []),
    ])
}

/**
 * A body-less request as an SDK sends it: the Node and browser SDKs put `Content-Type: application/json` on a
 * POST without a body (not on a PUT), the Java and C# SDKs send neither.
 */
function bodiless(login: Login, method: 'POST' | 'PUT', path: string, sdk: 'N' | 'J') {
  const json = sdk === 'N' && method === 'POST'
  return test.service.app.inject({
    method,
    url: `${T}${path}`,
    headers: { cookie: test.cookies[login], ...(json && { 'content-type': 'application/json' }) },
    ...(json && { payload: '' }),
  })
}

/** alice (1001) talks to bob (1002), then calls karim (1011), who answers when asked. */
async function consultation(answered: boolean) {
  const held = await test.makeCall('alice', '1001', '1002')
  await test.answer('bob', held, '1002')
  const enquiry = await test.makeCall('alice', '1001', '1011')
  if (answered) await test.answer('karim', enquiry, '1011')
  return { held, enquiry }
}

describe('POST /calls/{heldCallRef}/reconnect {deviceId, enquiryCallRef}, as every SDK sends it', () => {
  it('204: the enquiry call is released, the held call is active again', async () => {
    const { held, enquiry } = await consultation(true)
    const events = recordEvents()
    const response = await test.send('alice', 'POST', `${T}/calls/${held}/reconnect`, {
      deviceId: '1001',
      enquiryCallRef: enquiry,
    })
    expect(response.statusCode, response.body).toBe(204)
    expect(response.body).toBe('')
    expect(legState(await callOf('alice', held))).toEqual(['ACTIVE'])
    expectRestError(await test.send('alice', 'GET', `${T}/calls/${enquiry}`), 404, 'NOT_FOUND')
    expect(events()).toEqual([
      ['OnCallRemoved', 'alice', enquiry],
      ['OnCallModified', 'karim', enquiry],
      ['OnCallModified', 'alice', held],
      ['OnCallRemoved', 'karim', enquiry],
      ['OnCallModified', 'alice', held],
      ['OnUserStateModified', 'karim'],
      // Both left the enquiry call: their records of it (docs/comlog.md).
      ['OnComRecordCreated', 'alice'],
      ['OnComRecordCreated', 'karim'],
    ])
  })

  it('an administrator with ?loginName: 204, the enquiry call still ringing is cancelled', async () => {
    const { held, enquiry } = await consultation(false)
    const response = await test.send(
      'admin',
      'POST',
      `${T}/calls/${held}/reconnect?loginName=alice`,
      { deviceId: '1001', enquiryCallRef: enquiry },
    )
    expect(response.statusCode, response.body).toBe(204)
    expect(legState(await callOf('alice', held))).toEqual(['ACTIVE'])
    expect(test.service.running.telephony.state.calls.size).toBe(1)
  })

  it('refusals change nothing: an enquiry call not the user’s, the calls swapped, no enquiryCallRef', async () => {
    const { held, enquiry } = await consultation(true)
    const other = await test.makeCall('carol', '1003', '1004')
    const before = test.service.running.telephony.state
    const reconnect = (body: unknown, callRef = held) =>
      test.send('alice', 'POST', `${T}/calls/${callRef}/reconnect`, body)
    expectRestError(
      await reconnect({ deviceId: '1001', enquiryCallRef: other }),
      403,
      'NOT_ALLOWED',
      /not a call of 'alice'/,
    )
    expectRestError(
      await reconnect({ deviceId: '1001', enquiryCallRef: held }, enquiry),
      403,
      'NOT_EXPECTED',
    )
    expectRestError(
      await reconnect({ deviceId: '1001' }),
      400,
      'BAD_PARAMETER',
      /enquiryCallRef: is required/,
    )
    expect(test.service.running.telephony.state).toBe(before)
  })
})

describe('POST /devices/{deviceId}/intrusion, no body, no loginName', () => {
  /** alice talks to bob; karim (who has the intrusion right in the demo directory) calls alice. */
  async function karimCallingBusyAlice() {
    const busy = await test.makeCall('alice', '1001', '1002')
    await test.answer('bob', busy, '1002')
    const waiting = await test.makeCall('karim', '1011', '1001')
    return { busy, waiting }
  }

  it.each(['N', 'J'] as const)(
    "as the %s SDK sends it: 204, karim joins alice's call with bob",
    async (sdk) => {
      const { busy, waiting } = await karimCallingBusyAlice()
      expect((await callOf('karim', waiting)).callData?.capabilities?.intrusion).toBe(true)
      const events = recordEvents()
      const response = await bodiless('karim', 'POST', '/devices/1011/intrusion', sdk)
      expect(response.statusCode, response.body).toBe(204)
      expect(response.body).toBe('')
      const call = await callOf('karim', busy)
      expect(legState(call)).toEqual(['ACTIVE'])
      expect(participantIds(call)).toEqual(['1001', '1002'])
      expect(participantIds(await callOf('bob', busy))).toEqual(['1001', '1011'])
      expectRestError(await test.send('karim', 'GET', `${T}/calls/${waiting}`), 404, 'NOT_FOUND')
      // karim's call is replaced by the busy one (OnCallModified with previousCallRef, in the place of the
      // OnCallCreated it stands for); alice's call waiting ends.
      expect(events()).toEqual([
        ['OnCallRemoved', 'alice', waiting],
        ['OnCallModified', 'alice', busy],
        ['OnCallModified', 'bob', busy],
        ['OnCallModified', 'karim', busy],
        ['OnUserStateModified', 'karim'],
        // alice's record of the call that rang: no missed call, karim reached her (docs/comlog.md).
        ['OnComRecordCreated', 'alice'],
      ])
    },
  )

  it('without the intrusion right (bob): 403 NOT_ALLOWED, nothing changes', async () => {
    const busy = await test.makeCall('alice', '1001', '1011')
    await test.answer('karim', busy, '1011')
    await test.makeCall('bob', '1002', '1001')
    const before = test.service.running.telephony.state
    expectRestError(
      await bodiless('bob', 'POST', '/devices/1002/intrusion', 'J'),
      403,
      'NOT_ALLOWED',
      /'bob' has no intrusion feature/,
    )
    expect(test.service.running.telephony.state).toBe(before)
  })

  it('into a call of a protected user (lea): 403 NOT_ALLOWED; calling nobody: 403 NOT_EXPECTED', async () => {
    const response = await test.send('admin', 'POST', `${T}/basicCall?loginName=lea`, {
      deviceId: '1012',
      callee: '1001',
    })
    expect(response.statusCode, response.body).toBe(201)
    const busy = String(response.headers.location).split('/').pop() ?? ''
    await test.answer('alice', busy, '1001')
    expectRestError(
      await bodiless('karim', 'POST', '/devices/1011/intrusion', 'N'),
      403,
      'NOT_EXPECTED',
      /calling no user/,
    )
    await test.makeCall('karim', '1011', '1001')
    const before = test.service.running.telephony.state
    expectRestError(
      await bodiless('karim', 'POST', '/devices/1011/intrusion', 'N'),
      403,
      'NOT_ALLOWED',
      /'lea' is protected against intrusion/,
    )
    expect(test.service.running.telephony.state).toBe(before)
  })
})

describe('/devices/{deviceId}/ithmicro: PUT (Node SDK) and POST (Java SDK), no body', () => {
  const deviceState = async (login: Login, deviceId: string) =>
    expectSchema<DeviceState>(
      DeviceState,
      await test.send(login, 'GET', `${T}/devices/${deviceId}`),
    )

  it.each([
    ['PUT', 'N'],
    ['POST', 'J'],
  ] as const)(
    '%s in a call: 204, the microphone off then on (muted), OnDeviceStateModified',
    async (method, sdk) => {
      const callRef = await test.makeCall('alice', '1001', '1002')
      await test.answer('bob', callRef, '1002')
      const events = recordEvents()
      const off = await bodiless('alice', method, '/devices/1001/ithmicro', sdk)
      expect(off.statusCode, off.body).toBe(204)
      expect(off.body).toBe('')
      expect(await deviceState('alice', '1001')).toMatchObject({ muted: true })
      expect(events()).toEqual([['OnDeviceStateModified', 'alice']])
      await expectStatus(bodiless('alice', method, '/devices/1001/ithmicro', sdk), 204)
      expect(await deviceState('alice', '1001')).toMatchObject({ muted: false })
    },
  )

  it.each([
    ['PUT', 'N'],
    ['POST', 'J'],
  ] as const)(
    '%s on an idle device: 204, interphony on (the device answers by itself), no event',
    async (method, sdk) => {
      const events = recordEvents()
      await expectStatus(bodiless('bob', method, '/devices/1002/ithmicro', sdk), 204)
      expect(test.service.running.telephony.state.devices['1002']?.autoAnswer).toBe(true)
      expect(await deviceState('bob', '1002')).toMatchObject({ muted: false })
      expect(events()).toEqual([])
    },
  )

  it('while the device only rings: 204, nothing changes', async () => {
    await test.makeCall('alice', '1001', '1002')
    const before = test.service.running.telephony.state.devices['1002']
    await expectStatus(bodiless('bob', 'PUT', '/devices/1002/ithmicro', 'N'), 204)
    expect(test.service.running.telephony.state.devices['1002']).toEqual(before)
  })
})

async function expectStatus(response: ReturnType<typeof bodiless>, status: number) {
  const answered = await response
  expect(answered.statusCode, answered.body).toBe(status)
}
