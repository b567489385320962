/** The command line's simulation commands against a control plane over a running platform. */
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { type CliIo, run } from '../../src/cli/openness-control.js'
import { buildControlApp } from '../../src/control/control-app.js'
import { allCalls } from '../../src/platform/telephony/telephony-state.js'
import { startTestService, type TestService } from '../support/test-service.js'
import { TOKEN } from './control-fixture.js'

let service: TestService
let control: FastifyInstance
let url: string

beforeEach(async () => {
  service = await startTestService()
  const { platform, telephony } = service.running
  control = await buildControlApp(
    { directory: platform.directory, product: platform.product, telephony },
    { token: TOKEN },
  )
  await control.listen({ host: '127.0.0.1', port: 0 })
  url = `http://127.0.0.1:${(control.server.address() as AddressInfo).port}`
})
afterEach(async () => {
  await control.close()
  await service.close()
})

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const io: CliIo = {
    out: (text) => {
      out += text
    },
    err: (text) => {
      err += text
    },
    stdin: async () => '',
    env: { CONTROL_URL: url, CONTROL_TOKEN: TOKEN },
  }
  return { code: await run(argv, io), out, err }
}

const calls = () => allCalls(service.running.telephony.state)
const states = () =>
  calls().map((call) => call.connections.map((c) => `${c.endpoint.number}:${c.state}`))

describe('openness-control simulation commands', () => {
  it('lists them in its help', async () => {
    const { out } = await cli(['--help'])
    for (const command of [
      'calls incoming <from> <to>',
      'devices answer <deviceId>',
      'devices hangup <deviceId>',
      'devices offhook <deviceId>',
      'devices auto-answer <deviceId> <on|off>',
      'devices service <deviceId> <in|out>',
      'outside answer <number>',
      'outside hangup <number>',
    ])
      expect(out).toContain(command)
  })

  it('places an incoming call, answers it on the device, and hangs up from outside', async () => {
    const placed = await cli(['calls', 'incoming', '+33612345678', '+33155661001'])
    expect(placed.code, placed.err).toBe(0)
    expect(parse(placed.out)).toEqual({ callRef: expect.any(String) })
    expect(states()).toEqual([['+33612345678:RINGING_OUTGOING', '1001:RINGING_INCOMING']])

    expect(await cli(['devices', 'answer', '1001'])).toEqual({
      code: 0,
      out: 'Device 1001 answered.\n',
      err: '',
    })
    expect(states()).toEqual([['+33612345678:ACTIVE', '1001:ACTIVE']])

    expect(await cli(['outside', 'hangup', '+33612345678'])).toMatchObject({
      code: 0,
      out: 'Outside party +33612345678 hung up.\n',
    })
    expect(calls()).toEqual([])
  })

  it('sets a device auto-answer and out of service; refuses a bad word', async () => {
    const set = await cli(['devices', 'auto-answer', '1002', 'on', '--json'])
    expect(set.code, set.err).toBe(0)
    expect(JSON.parse(set.out)).toMatchObject({ deviceId: '1002', autoAnswer: true })
    const out = await cli(['devices', 'service', '1002', 'out'])
    expect(parse(out.out)).toMatchObject({ state: 'OUT_OF_SERVICE' })
    expect(await cli(['devices', 'service', '1002', 'maybe'])).toMatchObject({
      code: 2,
      err: expect.stringContaining("'maybe' is not one of in, out"),
    })
  })

  it('reports a refusal with its helpMessage and exit code 1', async () => {
    expect(await cli(['devices', 'hangup', '1001'])).toEqual({
      code: 1,
      out: '',
      err: 'Device 1001 is in no call\n',
    })
    expect(await cli(['outside', 'busy', '0155660006'])).toMatchObject({
      code: 1,
      err: 'Outside party 0155660006 is in no call\n',
    })
  })
})
