/**
 * The control plane's simulation routes (docs/control-plane.md, "Simulation") over a running platform on the
 * demo directory: calls placed from outside and from extensions, the list of live calls, simulated devices
 * (answer, off-hook, hang up, DTMF, settings), outside parties; their errors and their OpenAPI description.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildControlApp } from '../../src/control/control-app.js'
import { expectRestError } from '../support/assertions.js'
import { AUTH, type ControlService, startControlService, TOKEN } from './control-fixture.js'

let fixture: ControlService

beforeEach(async () => {
  fixture = await startControlService()
})
afterEach(() => fixture.close())

const C = '/control/v1'

function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  return fixture.control.inject({
    method,
    url: `${C}${url}`,
    headers: AUTH,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

const telephony = () => fixture.service.running.telephony

/** Every live call's connections as `number:STATE`, read as the control plane reads them. */
function calls(): string[][] {
  return telephony()
    .queries.liveCalls()
    .map((call) => call.connections.map((c) => `${c.endpoint.number}:${c.state}`))
}

/** The connections of one call as `number:STATE`. */
function connections(callRef: string): string[] | undefined {
  return telephony()
    .queries.liveCalls()
    .find((call) => call.callRef === callRef)
    ?.connections.map((c) => `${c.endpoint.number}:${c.state}`)
}

async function place(from: string, to: string): Promise<string> {
  const response = await send('POST', '/calls', { from, to })
  expect(response.statusCode, response.body).toBe(201)
  const { callRef } = response.json() as { callRef: string }
  expect(callRef).toEqual(expect.any(String))
  return callRef
}

describe('POST /calls', () => {
  it('from an outside number: rings the extension a public number maps to', async () => {
    const callRef = await place('+33612345678', '+33155661002')

    expect(connections(callRef)).toEqual(['+33612345678:RINGING_OUTGOING', '1002:RINGING_INCOMING'])
  })

  it("from an extension: its device makes the call as its user, and the callee's device rings", async () => {
    const callRef = await place('1001', '1002')

    expect(connections(callRef)).toEqual(['1001:RINGING_OUTGOING', '1002:RINGING_INCOMING'])
    const [call] = telephony().queries.liveCalls()
    expect(call?.connections[0]?.endpoint).toMatchObject({ deviceId: '1001', loginName: 'alice' })
    // The caller is its user's: alice sees the call through the API.
    expect(
      telephony()
        .queries.calls('alice')
        .map((one) => one.callRef),
    ).toEqual([callRef])
  })

  it('answers 404 for a number that reaches nobody, naming the field', async () => {
    expectRestError(
      await send('POST', '/calls', { from: '+33612345678', to: '+33155669999' }),
      404,
      'NOT_FOUND',
      /^to: .*reaches no device/,
    )
    expectRestError(
      await send('POST', '/calls', { from: '1001', to: '999999999999999999' }),
      404,
      'NOT_FOUND',
      /^to: '999999999999999999' reaches nobody/,
    )
    expect(calls()).toEqual([])
  })

  it('answers 400 BAD_PARAMETER naming the field for a bad body', async () => {
    expectRestError(await send('POST', '/calls', { from: '+336' }), 400, 'BAD_PARAMETER', /^to: /)
    expectRestError(await send('POST', '/calls', { to: '1001' }), 400, 'BAD_PARAMETER', /^from: /)
    expectRestError(
      await send('POST', '/calls', { from: '+336', to: '1001', colour: 'blue' }),
      400,
      'BAD_PARAMETER',
      /^colour: not a known field/,
    )
    expectRestError(
      await send('POST', '/calls', { from: 'alice', to: '1001' }),
      400,
      'BAD_PARAMETER',
      /^from: 'alice' is not a phone number/,
    )
    expectRestError(
      await send('POST', '/calls', { from: 1001, to: '1002' }),
      400,
      'BAD_PARAMETER',
      /^from: required, a non-empty string/,
    )
    expectRestError(await send('POST', '/calls', ['1001']), 400, 'BAD_PARAMETER', /JSON object/)
  })

  it('answers 403 NOT_EXPECTED when the device is out of service', async () => {
    await send('PUT', '/devices/1002', { state: 'OUT_OF_SERVICE' })
    expectRestError(
      await send('POST', '/calls', { from: '+33612345678', to: '1002' }),
      403,
      'NOT_EXPECTED',
      /out of service/,
    )
    expectRestError(
      await send('POST', '/calls', { from: '1002', to: '1001' }),
      403,
      'NOT_EXPECTED',
      /out of service/,
    )
  })
})

describe('GET /calls', () => {
  it('lists every call in progress, oldest first, with its parties', async () => {
    expect((await send('GET', '/calls')).json()).toEqual({ calls: [] })
    const first = await place('+33612345678', '+33155661002')
    const second = await place('1003', '1001')

    const response = await send('GET', '/calls')

    expect(response.statusCode).toBe(200)
    const createdAt = new Date(fixture.service.clock.now()).toISOString()
    expect(response.json()).toEqual({
      calls: [
        {
          callRef: first,
          createdAt,
          parties: [
            { number: '+33612345678', state: 'RINGING_OUTGOING' },
            { number: '1002', deviceId: '1002', loginName: 'bob', state: 'RINGING_INCOMING' },
          ],
        },
        {
          callRef: second,
          createdAt,
          parties: [
            { number: '1003', deviceId: '1003', loginName: 'carol', state: 'RINGING_OUTGOING' },
            { number: '1001', deviceId: '1001', loginName: 'alice', state: 'RINGING_INCOMING' },
          ],
        },
      ],
    })
  })
})

describe('simulated devices', () => {
  it('answer, then hang up, on command', async () => {
    const callRef = await place('+33612345678', '1001')

    const answered = await send('POST', '/devices/1001/answer')
    expect(answered.statusCode).toBe(204)
    expect(answered.body).toBe('')
    expect(connections(callRef)).toEqual(['+33612345678:ACTIVE', '1001:ACTIVE'])

    const hungUp = await send('POST', '/devices/1001/hangup')
    expect(hungUp.statusCode).toBe(204)
    expect(calls()).toEqual([])

    expectRestError(await send('POST', '/devices/1001/hangup'), 403, 'NOT_EXPECTED', /in no call/)
    expectRestError(await send('POST', '/devices/1001/answer'), 403, 'NOT_EXPECTED')
    expectRestError(await send('POST', '/devices/9999/answer'), 404, 'NOT_FOUND', /9999/)
    expectRestError(await send('POST', '/devices/9999/hangup'), 404, 'NOT_FOUND', /9999/)
  })

  it('go off-hook to answer a ringing call, and refuse it with nothing ringing', async () => {
    expectRestError(
      await send('POST', '/devices/1001/offhook'),
      403,
      'NOT_EXPECTED',
      /only answers a ringing call/,
    )
    expectRestError(await send('POST', '/devices/9999/offhook'), 404, 'NOT_FOUND')
    const callRef = await place('+33612345678', '1001')
    expect((await send('POST', '/devices/1001/offhook')).statusCode).toBe(204)
    expect(connections(callRef)).toEqual(['+33612345678:ACTIVE', '1001:ACTIVE'])
  })

  it('send DTMF in the call they are active in, or the one named', async () => {
    const callRef = await place('+33612345678', '1001')
    expectRestError(
      await send('POST', '/devices/1001/dtmf', { digits: '12' }),
      403,
      'NOT_EXPECTED',
      /active in no call/,
    )
    expectRestError(
      await send('POST', '/devices/1001/dtmf', { digits: '12', callRef }),
      403,
      'NOT_EXPECTED',
    )
    await send('POST', '/devices/1001/answer')

    const sent = await send('POST', '/devices/1001/dtmf', { digits: '123*#A' })
    expect(sent.statusCode, sent.body).toBe(204)
    expect((await send('POST', '/devices/1001/dtmf', { digits: '9', callRef })).statusCode).toBe(
      204,
    )
    // DTMF changes nothing in the call.
    expect(connections(callRef)).toEqual(['+33612345678:ACTIVE', '1001:ACTIVE'])
  })

  it('refuse bad DTMF requests with the field, an unknown device or call with 404', async () => {
    const callRef = await place('+33612345678', '1001')
    await send('POST', '/devices/1001/answer')
    const dtmf = (deviceId: string, body: unknown) =>
      send('POST', `/devices/${deviceId}/dtmf`, body)

    expectRestError(await dtmf('1001', {}), 400, 'BAD_PARAMETER', /^digits: required/)
    expectRestError(await dtmf('1001', { digits: '12x' }), 400, 'BAD_PARAMETER', /^digits: /)
    expectRestError(await dtmf('1001', { digits: 12 }), 400, 'BAD_PARAMETER', /^digits: /)
    expectRestError(
      await dtmf('1001', { digits: '1', callRef: 7 }),
      400,
      'BAD_PARAMETER',
      /^callRef: /,
    )
    expectRestError(
      await dtmf('1001', { digits: '1', loud: true }),
      400,
      'BAD_PARAMETER',
      /^loud: not a known field/,
    )
    expectRestError(await dtmf('9999', { digits: '1' }), 404, 'NOT_FOUND', /9999/)
    expectRestError(await dtmf('1001', { digits: '1', callRef: 'nope' }), 404, 'NOT_FOUND')
    expectRestError(await dtmf('1002', { digits: '1', callRef }), 404, 'NOT_FOUND')
  })

  it('answer by themselves with autoAnswer, and go out of service', async () => {
    const set = await send('PUT', '/devices/1002', { autoAnswer: true })
    expect(set.statusCode, set.body).toBe(200)
    expect(set.json()).toEqual({
      deviceId: '1002',
      loginName: 'bob',
      state: 'IN_SERVICE',
      autoAnswer: true,
    })
    const callRef = await place('+33612345678', '+33155661002')
    await fixture.service.clock.advance(1_000)
    await telephony().idle()
    expect(connections(callRef)).toEqual(['+33612345678:ACTIVE', '1002:ACTIVE'])

    const out = await send('PUT', '/devices/1002', { state: 'OUT_OF_SERVICE' })
    expect(out.json()).toMatchObject({ state: 'OUT_OF_SERVICE' })
    expect(calls()).toEqual([])
    expectRestError(
      await send('PUT', '/devices/1002', { state: 'BROKEN' }),
      400,
      'BAD_PARAMETER',
      /^state: /,
    )
    expectRestError(
      await send('PUT', '/devices/1002', { autoAnswer: 'yes' }),
      400,
      'BAD_PARAMETER',
      /^autoAnswer: /,
    )
    expectRestError(await send('PUT', '/devices/9999', {}), 404, 'NOT_FOUND')
  })
})

describe('outside parties', () => {
  /** alice calls an outside number through the outside-line prefix "0". */
  async function aliceCalls(number: string): Promise<string> {
    return place('1001', `0${number}`)
  }

  it('answer and hang up on command', async () => {
    const callRef = await aliceCalls('0155660006')
    expect((await send('POST', '/outside/0155660006/answer')).statusCode).toBe(204)
    expect(connections(callRef)).toEqual(['1001:ACTIVE', '0155660006:ACTIVE'])
    expect((await send('POST', '/outside/0155660006/hangup')).statusCode).toBe(204)
    expect(calls()).toEqual([])
    expectRestError(
      await send('POST', '/outside/0155660006/hangup'),
      404,
      'NOT_FOUND',
      /in no call/,
    )
    expectRestError(await send('POST', '/outside/0155660006/answer'), 404, 'NOT_FOUND')
  })

  it('reject on command, busy when asked', async () => {
    await aliceCalls('0155660006')
    expectRestError(
      await send('POST', '/outside/0155660006/reject', { cause: 'LATER' }),
      400,
      'BAD_PARAMETER',
      /^cause: /,
    )
    expect((await send('POST', '/outside/0155660006/reject', { cause: 'BUSY' })).statusCode).toBe(
      204,
    )
    expect(calls()).toEqual([])
    expectRestError(await send('POST', '/outside/0155660006/reject'), 404, 'NOT_FOUND')
  })

  it('hang up as the caller of an incoming call, written %2B for +', async () => {
    await place('+33612345678', '1001')
    expect((await send('POST', '/outside/%2B33612345678/hangup')).statusCode).toBe(204)
    expect(calls()).toEqual([])
  })

  it('follow the demo directory rules: 0155660003 answers after 3 s, 0155660005 is busy', async () => {
    const answers = await aliceCalls('0155660003')
    await fixture.service.clock.advance(2_999)
    await telephony().idle()
    expect(connections(answers)).toEqual(['1001:RINGING_OUTGOING', '0155660003:RINGING_INCOMING'])
    await fixture.service.clock.advance(1)
    await telephony().idle()
    expect(connections(answers)).toEqual(['1001:ACTIVE', '0155660003:ACTIVE'])

    const busy = await place('1002', '00155660005')
    await fixture.service.clock.advance(0)
    await telephony().idle()
    expect(connections(busy)).toBeUndefined()
  })
})

describe('the OpenAPI document', () => {
  it('describes the simulation routes, none under /simulation any more', async () => {
    const document = (
      await fixture.control.inject({ url: `${C}/openapi.json`, headers: AUTH })
    ).json() as { paths: Record<string, Record<string, unknown>> }
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /control/v1/calls',
        'GET /control/v1/calls',
        'POST /control/v1/devices/{deviceId}/answer',
        'POST /control/v1/devices/{deviceId}/offhook',
        'POST /control/v1/devices/{deviceId}/hangup',
        'POST /control/v1/devices/{deviceId}/dtmf',
        'PUT /control/v1/devices/{deviceId}',
        'POST /control/v1/outside/{number}/answer',
        'POST /control/v1/outside/{number}/hangup',
        'POST /control/v1/outside/{number}/reject',
      ]),
    )
    expect(operations.filter((operation) => operation.includes('/simulation'))).toEqual([])
    expectRestError(
      await send('POST', '/simulation/calls', { from: '+336', to: '1001' }),
      404,
      'NOT_FOUND',
    )
  })

  it('is not there without the running telephony (a control plane over a directory alone)', async () => {
    const bare = await buildControlApp(
      { directory: fixture.service.running.platform.directory, product: { version: '0' } },
      { token: TOKEN },
    )
    for (const url of ['/calls', '/devices/1001/answer', '/clock/advance', '/faults/not-ready'])
      expectRestError(
        await bare.inject({ method: 'POST', url: `${C}${url}`, headers: AUTH, payload: {} }),
        404,
        'NOT_FOUND',
      )
    await bare.close()
  })
})
