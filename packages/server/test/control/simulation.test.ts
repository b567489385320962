/**
 * The control plane's simulation routes (docs/control-plane.md, "Simulation") over a running platform on
 * the demo directory: calls from outside to public numbers, simulated devices, outside parties; their
 * errors and their OpenAPI description.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildControlApp } from '../../src/control/control-app.js'
import { allCalls, callOf } from '../../src/platform/telephony/telephony-state.js'
import { expectRestError } from '../support/assertions.js'
import { startTestService, type TestService } from '../support/test-service.js'
import { AUTH } from './control-fixture.js'

let service: TestService
let control: Awaited<ReturnType<typeof buildControlApp>>

beforeEach(async () => {
  service = await startTestService()
  const { platform, telephony } = service.running
  control = await buildControlApp(
    { directory: platform.directory, product: platform.product, telephony },
    { token: 'control-test-token-0123456789' },
  )
})
afterEach(async () => {
  await control.close()
  await service.close()
})

const SIM = '/control/v1/simulation'

function send(method: 'POST' | 'PUT', url: string, payload?: unknown) {
  return control.inject({
    method,
    url,
    headers: AUTH,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

/** The connections of a call as `number:STATE`. */
function connections(callRef: string): string[] | undefined {
  return callOf(service.running.telephony.state, callRef)?.connections.map(
    (c) => `${c.endpoint.number}:${c.state}`,
  )
}

async function incoming(from: string, to: string): Promise<string> {
  const response = await send('POST', `${SIM}/calls`, { from, to })
  expect(response.statusCode, response.body).toBe(201)
  return (response.json() as { callRef: string }).callRef
}

describe('POST /simulation/calls', () => {
  it('rings the extension a public number maps to, with the outside party as participant', async () => {
    const callRef = await incoming('+33612345678', '+33155661002')

    expect(connections(callRef)).toEqual(['+33612345678:RINGING_OUTGOING', '1002:RINGING_INCOMING'])
  })

  it('answers 404 for a number that reaches no device, 400 for a bad body', async () => {
    expectRestError(
      await send('POST', `${SIM}/calls`, { from: '+33612345678', to: '+33155669999' }),
      404,
      'NOT_FOUND',
      /reaches no device/,
    )
    expectRestError(
      await send('POST', `${SIM}/calls`, { from: '+336' }),
      400,
      'BAD_PARAMETER',
      /to/,
    )
    expectRestError(
      await send('POST', `${SIM}/calls`, { from: '+336', to: '1001', colour: 'blue' }),
      400,
      'BAD_PARAMETER',
      /colour/,
    )
    expectRestError(
      await send('POST', `${SIM}/calls`, { from: 'alice', to: '1001' }),
      400,
      'BAD_PARAMETER',
    )
  })
})

describe('simulated devices', () => {
  it('answer, then hang up, on command', async () => {
    const callRef = await incoming('+33612345678', '1001')

    const answered = await send('POST', `${SIM}/devices/1001/answer`)
    expect(answered.statusCode).toBe(204)
    expect(connections(callRef)).toEqual(['+33612345678:ACTIVE', '1001:ACTIVE'])

    const hungUp = await send('POST', `${SIM}/devices/1001/hangup`)
    expect(hungUp.statusCode).toBe(204)
    expect(allCalls(service.running.telephony.state)).toEqual([])

    expectRestError(await send('POST', `${SIM}/devices/1001/hangup`), 403, 'NOT_EXPECTED')
    expectRestError(await send('POST', `${SIM}/devices/9999/answer`), 404, 'NOT_FOUND')
  })

  it('go off-hook to answer a ringing call, and refuse it with nothing ringing', async () => {
    expectRestError(
      await send('POST', `${SIM}/devices/1001/offhook`),
      403,
      'NOT_EXPECTED',
      /only answers a ringing call/,
    )
    const callRef = await incoming('+33612345678', '1001')
    expect((await send('POST', `${SIM}/devices/1001/offhook`)).statusCode).toBe(204)
    expect(connections(callRef)).toEqual(['+33612345678:ACTIVE', '1001:ACTIVE'])
  })

  it('answer by themselves with autoAnswer, and go out of service', async () => {
    const set = await send('PUT', `${SIM}/devices/1002`, { autoAnswer: true })
    expect(set.statusCode, set.body).toBe(200)
    expect(set.json()).toEqual({
      deviceId: '1002',
      loginName: 'bob',
      state: 'IN_SERVICE',
      autoAnswer: true,
    })
    const callRef = await incoming('+33612345678', '+33155661002')
    await service.clock.advance(1_000)
    await service.running.telephony.idle()
    expect(connections(callRef)).toEqual(['+33612345678:ACTIVE', '1002:ACTIVE'])

    const out = await send('PUT', `${SIM}/devices/1002`, { state: 'OUT_OF_SERVICE' })
    expect(out.json()).toMatchObject({ state: 'OUT_OF_SERVICE' })
    expect(allCalls(service.running.telephony.state)).toEqual([])
    expectRestError(
      await send('POST', `${SIM}/calls`, { from: '+33612345678', to: '1002' }),
      403,
      'NOT_EXPECTED',
      /out of service/,
    )
    expectRestError(
      await send('PUT', `${SIM}/devices/1002`, { state: 'BROKEN' }),
      400,
      'BAD_PARAMETER',
    )
    expectRestError(
      await send('PUT', `${SIM}/devices/1002`, { autoAnswer: 'yes' }),
      400,
      'BAD_PARAMETER',
    )
    expectRestError(await send('PUT', `${SIM}/devices/9999`, {}), 404, 'NOT_FOUND')
  })
})

describe('outside parties', () => {
  /** alice calls an outside number through the outside-line prefix "0". */
  async function aliceCalls(number: string): Promise<string> {
    const result = await service.running.telephony.execute({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: `0${number}`,
      autoAnswer: true,
    })
    return result.callRef ?? ''
  }

  it('answer and hang up on command', async () => {
    const callRef = await aliceCalls('0155660006')
    expect((await send('POST', `${SIM}/outside/0155660006/answer`)).statusCode).toBe(204)
    expect(connections(callRef)).toEqual(['1001:ACTIVE', '0155660006:ACTIVE'])
    expect((await send('POST', `${SIM}/outside/0155660006/hangup`)).statusCode).toBe(204)
    expect(allCalls(service.running.telephony.state)).toEqual([])
    expectRestError(await send('POST', `${SIM}/outside/0155660006/hangup`), 404, 'NOT_FOUND')
  })

  it('reject on command, busy when asked', async () => {
    await aliceCalls('0155660006')
    expectRestError(
      await send('POST', `${SIM}/outside/0155660006/reject`, { cause: 'LATER' }),
      400,
      'BAD_PARAMETER',
    )
    expect(
      (await send('POST', `${SIM}/outside/0155660006/reject`, { cause: 'BUSY' })).statusCode,
    ).toBe(204)
    expect(allCalls(service.running.telephony.state)).toEqual([])
  })

  it('follow the demo directory rules: 0155660003 answers after 3 s, 0155660005 is busy', async () => {
    const answers = await aliceCalls('0155660003')
    await service.clock.advance(2_999)
    await service.running.telephony.idle()
    expect(connections(answers)).toEqual(['1001:RINGING_OUTGOING', '0155660003:RINGING_INCOMING'])
    await service.clock.advance(1)
    await service.running.telephony.idle()
    expect(connections(answers)).toEqual(['1001:ACTIVE', '0155660003:ACTIVE'])

    const busy = await service.running.telephony.execute({
      type: 'makeCall',
      loginName: 'bob',
      deviceId: '1002',
      callee: '00155660005',
      autoAnswer: true,
    })
    await service.clock.advance(0)
    await service.running.telephony.idle()
    expect(callOf(service.running.telephony.state, busy.callRef ?? '')).toBeUndefined()
  })
})

describe('the OpenAPI document', () => {
  it('describes the simulation routes', async () => {
    const response = await send('POST', `${SIM}/calls`, { from: '+336', to: '1001' })
    expect(response.statusCode).toBe(201)
    const document = (
      await control.inject({ url: '/control/v1/openapi.json', headers: AUTH })
    ).json() as { paths: Record<string, unknown> }
    for (const path of [
      '/control/v1/simulation/calls',
      '/control/v1/simulation/devices/{deviceId}/answer',
      '/control/v1/simulation/devices/{deviceId}/offhook',
      '/control/v1/simulation/devices/{deviceId}/hangup',
      '/control/v1/simulation/devices/{deviceId}',
      '/control/v1/simulation/outside/{number}/answer',
      '/control/v1/simulation/outside/{number}/hangup',
      '/control/v1/simulation/outside/{number}/reject',
    ])
      expect(Object.keys(document.paths)).toContain(path)
  })

  it('is not there without the running telephony (a control plane over a directory alone)', async () => {
    const bare = await buildControlApp(
      { directory: service.running.platform.directory, product: { version: '0' } },
      { token: 'control-test-token-0123456789' },
    )
    expectRestError(
      await bare.inject({ method: 'POST', url: `${SIM}/calls`, headers: AUTH, payload: {} }),
      404,
      'NOT_FOUND',
    )
    await bare.close()
  })
})
