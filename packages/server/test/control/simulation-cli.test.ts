/** The command line's simulation, clock and fault commands against a control plane over a running platform. */
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { openSession, type TestService } from '../support/test-service.js'
import { type CliRun, type ControlService, runCli, startControlService } from './control-fixture.js'

const START = Date.UTC(2026, 0, 1)

let fixture: ControlService
let service: TestService
let url: string

beforeEach(async () => {
  fixture = await startControlService()
  service = fixture.service
  await fixture.control.listen({ host: '127.0.0.1', port: 0 })
  url = `http://127.0.0.1:${(fixture.control.server.address() as AddressInfo).port}`
})
afterEach(() => fixture.close())

function cli(argv: string[]): Promise<CliRun> {
  return runCli(url, argv)
}

const states = () =>
  service.running.telephony.queries
    .liveCalls()
    .map((call) => call.connections.map((c) => `${c.endpoint.number}:${c.state}`))

describe('openness-control simulation commands', () => {
  it('lists them in its help', async () => {
    const { out } = await cli(['--help'])
    for (const command of [
      'calls list',
      'calls make <from> <to>',
      'devices answer <deviceId>',
      'devices hangup <deviceId>',
      'devices offhook <deviceId>',
      'devices dtmf <deviceId> <digits>',
      'devices auto-answer <deviceId> <on|off>',
      'devices service <deviceId> <in|out>',
      'outside answer <number>',
      'outside hangup <number>',
      'clock show',
      'clock advance <seconds>',
      'faults show',
      'faults not-ready <seconds>',
      'faults switch-over [seconds]',
      'faults clear',
    ])
      expect(out).toContain(command)
  })

  it('places an incoming call, answers it on the device, and hangs up from outside', async () => {
    const placed = await cli(['calls', 'make', '+33612345678', '+33155661001'])
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
    expect(states()).toEqual([])
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

describe('openness-control calls, DTMF, clock and faults', () => {
  it('makes a call from an extension, lists the calls, and sends DTMF once answered', async () => {
    const made = await cli(['calls', 'make', '1001', '1002', '--json'])
    expect(made.code, made.err).toBe(0)
    const { callRef } = JSON.parse(made.out) as { callRef: string }

    const listed = await cli(['calls', 'list'])
    expect(listed.code, listed.err).toBe(0)
    expect(parse(listed.out)).toEqual({
      calls: [
        {
          callRef,
          createdAt: new Date(START).toISOString(),
          parties: [
            { number: '1001', deviceId: '1001', loginName: 'alice', state: 'RINGING_OUTGOING' },
            { number: '1002', deviceId: '1002', loginName: 'bob', state: 'RINGING_INCOMING' },
          ],
        },
      ],
    })

    expect(await cli(['devices', 'dtmf', '1002', '12#'])).toEqual({
      code: 1,
      out: '',
      err: 'Device 1002 is active in no call\n',
    })
    await cli(['devices', 'answer', '1002'])
    expect(await cli(['devices', 'dtmf', '1002', '12#'])).toEqual({
      code: 0,
      out: 'Device 1002 sent 12#.\n',
      err: '',
    })
    expect(await cli(['devices', 'dtmf', '1002', 'xyz'])).toMatchObject({
      code: 1,
      err: 'digits: DTMF digits are 0-9, *, #, A, B, C, D\n',
    })
  })

  it('shows and advances the clock: a ringing call ends at its timeout', async () => {
    expect(parse((await cli(['clock', 'show'])).out)).toEqual({
      now: new Date(START).toISOString(),
    })
    await cli(['calls', 'make', '+33612345678', '1001'])

    const advanced = await cli(['clock', 'advance', '31'])

    expect(advanced.code, advanced.err).toBe(0)
    expect(parse(advanced.out)).toEqual({ now: new Date(START + 31_000).toISOString() })
    expect(states()).toEqual([])
    expect(await cli(['clock', 'advance', 'soon'])).toMatchObject({
      code: 2,
      err: expect.stringContaining("'soon' is not a number of seconds"),
    })
    expect(await cli(['clock', 'advance', '0'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^seconds: .*more than 0/),
    })
  })

  it('injects not ready and a switch-over, shows and clears them', async () => {
    expect(parse((await cli(['faults', 'show'])).out)).toEqual({ fault: null })
    const notReady = await cli(['faults', 'not-ready', '30'])
    expect(notReady.code, notReady.err).toBe(0)
    expect(parse(notReady.out)).toMatchObject({
      fault: { type: 'NOT_READY', remainingSeconds: 30 },
    })
    const refused = await service.app.inject({ url: '/api/rest/authenticate?version=1.0' })
    expect(refused.statusCode).toBe(503)
    expect(parse((await cli(['faults', 'show'])).out)).toMatchObject({
      fault: { type: 'NOT_READY' },
    })
    expect(await cli(['faults', 'clear'])).toEqual({
      code: 0,
      out: 'No fault is in force any more.\n',
      err: '',
    })

    await openSession(service.app, 'alice')
    const switched = await cli(['faults', 'switch-over'])
    expect(parse(switched.out)).toMatchObject({
      fault: { type: 'SWITCH_OVER', remainingSeconds: 5 },
      sessionsClosed: 1,
    })
    expect(parse((await cli(['faults', 'switch-over', '12'])).out)).toMatchObject({
      fault: { remainingSeconds: 12 },
      sessionsClosed: 0,
    })
    expect(await cli(['faults', 'switch-over', '1', '2'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('usage: faults switch-over [seconds]'),
    })
    expect(await cli(['faults', 'not-ready'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('usage: faults not-ready <seconds>'),
    })
  })
})
