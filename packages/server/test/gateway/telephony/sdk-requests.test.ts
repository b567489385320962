/**
 * Issue 11 ("Real clients run unchanged"): call-control requests exactly as the SDKs send them (wire facts
 * 5.5, client census 3.4 and 5), each asserting the status, the body, the events and the resulting state.
 */
import { Call, type RestErrorInfo } from '@openness/wire'
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

describe('an administrator without loginName acts for the user the request identifies', () => {
  it('answer {deviceId}: the device owner answers (bob on 1002)', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    const events = recordEvents()
    const response = await test.send('admin', 'POST', `${T}/calls/${callRef}/answer`, {
      deviceId: '1002',
    })
    expect(response.statusCode, response.body).toBe(204)
    expect(response.body).toBe('')
    expect(legState(await callOf('bob', callRef))).toEqual(['ACTIVE'])
    expect(legState(await callOf('alice', callRef))).toEqual(['ACTIVE'])
    expect(events()).toEqual([
      ['OnCallModified', 'alice', callRef],
      ['OnCallModified', 'bob', callRef],
      ['OnUserStateModified', 'alice'],
      ['OnUserStateModified', 'bob'],
    ])
  })

  it('pickup and unpark: the owner of the device in the path', async () => {
    const ringing = await test.makeCall('alice', '1001', '1002')
    await expectStatus(
      test.send('admin', 'POST', `${T}/devices/1011/pickup`, {
        otherCallRef: ringing,
        otherPhoneNumber: '1002',
        autoAnswer: true,
      }),
      204,
    )
    expect(legState(await callOf('karim', ringing))).toEqual(['ACTIVE'])
    await expectStatus(test.send('karim', 'POST', `${T}/calls/${ringing}/park`, {}), 204)
    await expectStatus(
      test.send('admin', 'POST', `${T}/devices/1011/unpark`, { heldCallRef: ringing }),
      204,
    )
    expect(legState(await callOf('karim', ringing))).toEqual(['ACTIVE'])
  })

  it('no device named: the only user of the platform in the call (alice calling out)', async () => {
    const callRef = await test.makeCall('alice', '1001', '+33612345678')
    const admin = await callOf('admin', callRef)
    expect(admin).toEqual(await callOf('alice', callRef))
    const events = recordEvents()
    await expectStatus(test.send('admin', 'DELETE', `${T}/calls/${callRef}`), 204)
    expect(events()).toContainEqual(['OnCallRemoved', 'alice', callRef])
    expectRestError(await test.send('alice', 'GET', `${T}/calls/${callRef}`), 404, 'NOT_FOUND')
  })

  it('the device wins over the call: a device of another user than the call’s is 403, nothing changes', async () => {
    const callRef = await test.makeCall('alice', '1001', '+33612345678')
    expectRestError(
      await test.send('admin', 'POST', `${T}/calls/${callRef}/hold`, { deviceId: '1002' }),
      403,
      'NOT_ALLOWED',
      /not a call of 'bob'/,
    )
    expect(legState(await callOf('alice', callRef))).toEqual(['RINGING_OUTGOING'])
  })

  it('nothing identifies the user: 400 BAD_PARAMETER saying loginName is required and why', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    const twoUsers = expectRestError(
      await test.send('admin', 'POST', `${T}/calls/${callRef}/answer`, {}),
      400,
      'BAD_PARAMETER',
    )
    expect(twoUsers.helpMessage).toBe(
      `query parameter loginName: is required for an administrator session: call '${callRef}' has 2 users of the platform and the request names no device`,
    )
    const nothing: RestErrorInfo = expectRestError(
      await test.send('admin', 'GET', `${T}/calls`),
      400,
      'BAD_PARAMETER',
    )
    expect(nothing.helpMessage).toBe(
      'query parameter loginName: is required for an administrator session: the request names no device or call that would identify the user',
    )
    expect(legState(await callOf('bob', callRef))).toEqual(['RINGING_INCOMING'])
  })

  it('an unknown device or call: 404 NOT_FOUND', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    expectRestError(
      await test.send('admin', 'POST', `${T}/calls/${callRef}/answer`, { deviceId: '9999' }),
      404,
      'NOT_FOUND',
      /no device '9999'/,
    )
    expectRestError(
      await test.send('admin', 'POST', `${T}/calls/ffffffffffffffff/dropme`),
      404,
      'NOT_FOUND',
    )
  })

  it('loginName, when given, still names the user', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    expectRestError(
      await test.send('admin', 'POST', `${T}/calls/${callRef}/answer?loginName=alice`, {
        deviceId: '1002',
      }),
      403,
      'NOT_ALLOWED',
      /not a device of 'alice'/,
    )
    await expectStatus(
      test.send('admin', 'POST', `${T}/calls/${callRef}/answer?loginName=bob`, {}),
      204,
    )
  })
})

describe('alternate names the held call (specification) or the active one (Node SDK)', () => {
  /** alice talks to bob, then consults karim: bob's call is held, karim's active. */
  async function consultation() {
    const held = await test.makeCall('alice', '1001', '1002')
    await test.answer('bob', held, '1002')
    const active = await test.makeCall('alice', '1001', '1011')
    await test.answer('karim', active, '1011')
    return { held, active }
  }

  it.each(['held', 'active'] as const)(
    'an administrator without loginName, given the %s call and {deviceId}: 204, the calls swap',
    async (given) => {
      const calls = await consultation()
      const events = recordEvents()
      await expectStatus(
        test.send('admin', 'POST', `${T}/calls/${calls[given]}/alternate`, { deviceId: '1001' }),
        204,
      )
      expect(legState(await callOf('alice', calls.held))).toEqual(['ACTIVE'])
      expect(legState(await callOf('alice', calls.active))).toEqual(['HELD'])
      // The active call is held first, then the held one retrieved; only alice's legs change.
      expect(events()).toEqual([
        ['OnCallModified', 'alice', calls.active],
        ['OnCallModified', 'alice', calls.held],
      ])
    },
  )

  it('the active call with no held call: 403 NOT_EXPECTED, nothing changes', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    await test.answer('bob', callRef, '1002')
    expectRestError(
      await test.send('alice', 'POST', `${T}/calls/${callRef}/alternate`, { deviceId: '1001' }),
      403,
      'NOT_EXPECTED',
      /is active and device 1001 has no held call/,
    )
    expect(legState(await callOf('alice', callRef))).toEqual(['ACTIVE'])
  })
})

describe('associated data as every SDK sends it: hex stays hex, anything else is text', () => {
  const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex')
  /** POST /telephony/calls as alice from 1001 to bob; the callRef. */
  async function makeCall(body: Record<string, unknown>): Promise<string> {
    const response = await test.send('alice', 'POST', `${T}/calls`, {
      deviceId: '1001',
      callee: '1002',
      ...body,
    })
    expect(response.statusCode, response.body).toBe(201)
    return String(response.headers.location).split('/').pop() ?? ''
  }
  /** The callData of the events published since `events` began, per user. */
  function callDataOf(events: { mock: { calls: unknown[][] } }, callRef: string) {
    return events.mock.calls
      .map(([event]) => event as Record<string, unknown>)
      .filter((event) => event['callRef'] === callRef && 'callData' in event)
      .map((event) => {
        const { associatedData, hexaBinaryAssociatedData } = event['callData'] as Record<
          string,
          unknown
        >
        return [
          event['eventName'],
          event['loginName'],
          { associatedData, hexaBinaryAssociatedData },
        ]
      })
  }

  it("Java's make call with correlator text in hexaBinaryAssociatedData: 201, the text and its hex shown", async () => {
    const events = vi.spyOn(test.service.running.events, 'publish')
    // TelephonyRest.makeCall: autoAnswer and inhibitProgressTone always, hexaBinaryAssociatedData = asString().
    const callRef = await makeCall({
      autoAnswer: true,
      inhibitProgressTone: false,
      hexaBinaryAssociatedData: 'commande n° 42',
    })
    const shown = {
      associatedData: 'commande n° 42',
      hexaBinaryAssociatedData: hex('commande n° 42'),
    }
    expect((await callOf('bob', callRef)).callData).toMatchObject(shown)
    expect((await callOf('alice', callRef)).callData).toMatchObject(shown)
    expect(callDataOf(events, callRef)).toEqual([
      ['OnCallCreated', 'alice', shown],
      ['OnCallCreated', 'bob', shown],
    ])
  })

  it('Node and C# send hexadecimal: decoded to the same text; bytes that are no UTF-8 text stay hex only', async () => {
    const text = await makeCall({ autoAnswer: true, hexaBinaryAssociatedData: '4F524445522D3432' })
    expect((await callOf('bob', text)).callData).toMatchObject({
      associatedData: 'ORDER-42',
      hexaBinaryAssociatedData: '4f524445522d3432',
    })
    await test.send('alice', 'DELETE', `${T}/calls/${text}`)
    const binary = await makeCall({ hexaBinaryAssociatedData: 'c0ffee' })
    const { callData } = await callOf('bob', binary)
    expect(callData?.hexaBinaryAssociatedData).toBe('c0ffee')
    expect(callData).not.toHaveProperty('associatedData')
  })

  it("C#'s associatedData text: shown with its hex as well", async () => {
    const callRef = await makeCall({ associatedData: '東京' })
    expect((await callOf('bob', callRef)).callData).toMatchObject({
      associatedData: '東京',
      hexaBinaryAssociatedData: hex('東京'),
    })
  })

  it('attachdata {deviceId, hexaBinaryAssociatedData}, hex or text: 204, every party gets OnCallModified', async () => {
    const callRef = await makeCall({})
    await test.answer('bob', callRef, '1002')
    for (const [sent, text] of [
      ['6f6b', 'ok'],
      ['not hex', 'not hex'],
    ] as const) {
      const events = vi.spyOn(test.service.running.events, 'publish')
      await expectStatus(
        test.send('alice', 'POST', `${T}/calls/${callRef}/attachdata`, {
          deviceId: '1001',
          hexaBinaryAssociatedData: sent,
        }),
        204,
      )
      const shown = { associatedData: text, hexaBinaryAssociatedData: hex(text) }
      expect(callDataOf(events, callRef)).toEqual([
        ['OnCallModified', 'alice', shown],
        ['OnCallModified', 'bob', shown],
      ])
      expect((await callOf('bob', callRef)).callData).toMatchObject(shown)
      events.mockRestore()
    }
  })

  it('more than 256 bytes, or both fields: 400 BAD_PARAMETER, no call', async () => {
    for (const [body, message] of [
      [
        { hexaBinaryAssociatedData: 'é'.repeat(129) },
        /hexaBinaryAssociatedData: at most 256 bytes of associated data; 258 given/,
      ],
      [
        { hexaBinaryAssociatedData: 'ab'.repeat(257) },
        /at most 256 bytes of associated data; 257 given/,
      ],
      [{ associatedData: 'x'.repeat(257) }, /body\/associatedData: at most 256 bytes/],
      [{ associatedData: 'A', hexaBinaryAssociatedData: '41' }, /not both/],
    ] as const)
      expectRestError(
        await test.send('alice', 'POST', `${T}/calls`, {
          deviceId: '1001',
          callee: '1002',
          ...body,
        }),
        400,
        'BAD_PARAMETER',
        message,
      )
    expect((await test.send('alice', 'GET', `${T}/calls`)).json()).toEqual({ calls: [] })
    expect(await makeCall({ hexaBinaryAssociatedData: 'ab'.repeat(256) })).toBeTruthy()
  })
})

describe('the voice-mail number (8000 in the demo) is dialable, like VOICEMAIL', () => {
  const participantsOf = (call: Call) =>
    call.participants?.map((p) => [p.participantId, p.identity?.type?.main])

  it('POST /calls with callee 8000: 201, the caller talks to its own voice mail', async () => {
    const events = recordEvents()
    const response = await test.send('alice', 'POST', `${T}/calls`, {
      deviceId: '1001',
      callee: '8000',
      autoAnswer: true,
    })
    expect(response.statusCode, response.body).toBe(201)
    const callRef = String(response.headers.location).split('/').pop() ?? ''
    const call = await callOf('alice', callRef)
    expect(legState(call)).toEqual(['ACTIVE'])
    expect(participantsOf(call)).toEqual([['8000', 'SERVICE']])
    expect(events()).toEqual([
      ['OnCallCreated', 'alice', callRef],
      ['OnCallModified', 'alice', callRef],
      ['OnUserStateModified', 'alice'],
    ])
  })

  it('redirect {redirectTo: 8000, anonymous: false}: 204, as VOICEMAIL', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    const events = recordEvents()
    await expectStatus(
      test.send('bob', 'POST', `${T}/calls/${callRef}/redirect`, {
        redirectTo: '8000',
        anonymous: false,
      }),
      204,
    )
    expectRestError(
      await test.send('bob', 'GET', `${T}/calls/${callRef}`),
      403,
      'NOT_ALLOWED',
      /not a call of/,
    )
    const call = await callOf('alice', callRef)
    expect(legState(call)).toEqual(['ACTIVE'])
    expect(participantsOf(call)).toEqual([['8000', 'SERVICE']])
    expect(events()).toEqual([
      ['OnCallModified', 'alice', callRef],
      ['OnCallRemoved', 'bob', callRef],
      ['OnCallModified', 'alice', callRef],
      ['OnUserStateModified', 'alice'],
      // bob left the call: his record of it (docs/comlog.md).
      ['OnComRecordCreated', 'bob'],
    ])
  })

  it('blind transfer {transferTo: 8000}: the other party talks to the voice mail', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    await test.answer('bob', callRef, '1002')
    await expectStatus(
      test.send('alice', 'POST', `${T}/calls/${callRef}/blindtransfer`, {
        transferTo: '8000',
        anonymous: false,
      }),
      204,
    )
    expect(participantsOf(await callOf('bob', callRef))).toEqual([['8000', 'SERVICE']])
  })

  it('a user without a voice mail (dave): 403 NOT_ALLOWED, no call', async () => {
    expectRestError(
      await test.send('dave', 'POST', `${T}/basicCall`, { deviceId: '1004', callee: '8000' }),
      403,
      'NOT_ALLOWED',
      /'dave' has no voice mail/,
    )
    expect(test.service.running.telephony.state.calls.size).toBe(0)
  })

  it('+33155668000 is no voice mail: the numbering plan gives the voice mail no public number (numbering.md)', async () => {
    const callRef = await test.makeCall('alice', '1001', '+33155668000')
    expect(participantsOf(await callOf('alice', callRef))).toEqual([['0155668000', 'EXTERNAL']])
  })
})

async function expectStatus(response: ReturnType<TelephonyTest['send']>, status: number) {
  const answered = await response
  expect(answered.statusCode, answered.body).toBe(status)
}
