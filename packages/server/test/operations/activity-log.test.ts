/**
 * The info lines that tell what the platform did (docs/operations.md, "Logs"): calls created, answered and ended,
 * faults injected and cleared, the clock set forward and back, resets, snapshots and restores. The service runs
 * as `npm start` runs it (its AdjustableClock kept in the store, the control plane over it), its logger writing
 * JSON lines into a stream the test reads.
 */
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { AdjustableClock } from '../../src/clock/adjustable-clock.js'
import { keptClock } from '../../src/clock/kept-clock.js'
import { buildControlApp } from '../../src/control/control-app.js'
import { activityLog } from '../../src/operations/activity-log.js'
import { AUTH, TOKEN } from '../control/control-fixture.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const C = '/control/v1'
const T = '/api/rest/1.0/telephony'

/** One log line as pino wrote it. */
type Line = Record<string, unknown> & { msg: string; level: number }

interface Logged {
  service: TestService
  control: FastifyInstance
  /** Every line logged so far. */
  lines: Line[]
  /** The lines logged with this message. */
  named(msg: string): Line[]
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The service with its activity and its control plane logged at `level` into lines the test reads. */
async function start(level = 'info'): Promise<Logged> {
  const lines: Line[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n'))
        if (text !== '') lines.push(JSON.parse(text) as Line)
      done()
    },
  })
  const logger = pino({ level }, stream)
  const clock = new AdjustableClock()
  const service = await startTestService({ clock, activity: activityLog(logger) })
  await service.running.completeImport()
  const adjustableClock = await keptClock(clock, service.running.clockOffsets)
  const control = await buildControlApp(
    {
      ...service.running.platform,
      telephony: service.running.telephony,
      adjustableClock,
      states: service.running.states,
    },
    { token: TOKEN, logger: logger.child({ plane: 'control' }) },
  )
  cleanups.push(async () => {
    await control.close()
    await service.close()
  })
  return {
    service,
    control,
    lines,
    named: (msg) => lines.filter((line) => line.msg === msg),
  }
}

async function control(
  logged: Logged,
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) {
  const response = await logged.control.inject({
    method,
    url: `${C}${url}`,
    headers: AUTH,
    ...(body !== undefined && { payload: body as Record<string, unknown> }),
  })
  expect(response.statusCode, response.body).toBeLessThan(300)
  return response
}

/** alice calls bob from her desk phone; answers the callRef. */
async function aliceCallsBob(logged: Logged, alice: string): Promise<string> {
  const made = await logged.service.app.inject({
    method: 'POST',
    url: `${T}/calls`,
    headers: { cookie: alice },
    payload: { deviceId: '1001', callee: '1002' },
  })
  expect(made.statusCode, made.body).toBe(201)
  return String(made.headers.location).split('/').pop() ?? ''
}

describe('the activity log', () => {
  it('tells each call created, answered and ended, with its reference, its parties and why it ended', async () => {
    const logged = await start()
    const { app } = logged.service
    const alice = await openSession(app, 'alice')
    const bob = await openSession(app, 'bob')
    const callRef = await aliceCallsBob(logged, alice)
    const answered = await app.inject({
      method: 'POST',
      url: `${T}/calls/${callRef}/answer`,
      headers: { cookie: bob },
      payload: { deviceId: '1002' },
    })
    expect(answered.statusCode).toBe(204)
    const released = await app.inject({
      method: 'DELETE',
      url: `${T}/calls/${callRef}`,
      headers: { cookie: alice },
    })
    expect(released.statusCode).toBe(204)

    const calls = logged.lines.filter((line) => line.msg.startsWith('call '))
    expect(calls.map((line) => line.msg)).toEqual(['call created', 'call answered', 'call ended'])
    expect(calls.every((line) => line.level === 30 && line['callRef'] === callRef)).toBe(true)
    expect(calls[0]).toMatchObject({
      from: 'alice (1001)',
      to: 'bob (1002)',
      parties: ['alice (1001)', 'bob (1002)'],
      command: 'makeCall',
    })
    expect(calls[1]).toMatchObject({ answeredBy: ['bob (1002)'] })
    expect(calls[2]).toMatchObject({ parties: ['alice (1001)', 'bob (1002)'], reason: 'release' })
  })

  it('names a timer as the reason a call that rang out ended, and logs nothing when info is off', async () => {
    const logged = await start()
    const alice = await openSession(logged.service.app, 'alice')
    const callRef = await aliceCallsBob(logged, alice)
    // Nobody answers: the ringing timeout ends the call (or routes it: either way the line names the timer).
    await control(logged, 'POST', '/clock/advance', { seconds: 600 })
    const ended = logged.named('call ended')
    expect(ended.length).toBeGreaterThan(0)
    expect(ended[0]).toMatchObject({ callRef })
    expect(ended[0]?.['reason']).not.toBe('release')
    expect(ended[0]?.['reason']).toMatch(/Timeout|timeout/)

    const quiet = await start('warn')
    const quietAlice = await openSession(quiet.service.app, 'alice')
    await aliceCallsBob(quiet, quietAlice)
    expect(quiet.lines).toEqual([])
  })

  it('tells each fault injected and cleared, and the clock set forward, from and to', async () => {
    const logged = await start()
    await control(logged, 'POST', '/faults/not-ready', { seconds: 30 })
    await control(logged, 'DELETE', '/faults')
    // Nothing to clear: no line.
    await control(logged, 'DELETE', '/faults')
    await control(logged, 'POST', '/faults/switch-over', { seconds: 5 })
    expect(logged.named('fault injected')).toMatchObject([
      { fault: 'NOT_READY', plane: 'control' },
      { fault: 'SWITCH_OVER', sessionsClosed: 0 },
    ])
    expect(logged.named('fault cleared')).toMatchObject([{ fault: 'NOT_READY' }])

    await control(logged, 'POST', '/clock/advance', { seconds: 90 })
    const [advanced] = logged.named('clock advanced')
    expect(advanced).toMatchObject({ seconds: 90, plane: 'control' })
    const moved = Date.parse(String(advanced?.['to'])) - Date.parse(String(advanced?.['from']))
    expect(moved).toBeGreaterThanOrEqual(90_000)
    expect(moved).toBeLessThan(100_000)
  })

  it('tells each snapshot saved, restore and reset, with rows, duration and the clock set back', async () => {
    const logged = await start()
    await control(logged, 'PUT', '/snapshots/before')
    const [saved] = logged.named('snapshot saved')
    expect(saved).toMatchObject({ snapshot: 'before' })
    expect(saved?.['rows']).toBeGreaterThan(10)
    expect(saved?.['bytes']).toBeGreaterThan(0)
    expect(typeof saved?.['durationMs']).toBe('number')

    // The clock an hour ahead, a preference changed, a call in progress: the restore undoes all three.
    await control(logged, 'POST', '/clock/advance', { seconds: 3600 })
    const alice = await openSession(logged.service.app, 'alice')
    const preference = await logged.service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/users/alice/preferences',
      headers: { cookie: alice },
      payload: { guiLanguage: 'fr' },
    })
    expect(preference.statusCode).toBe(204)
    await aliceCallsBob(logged, alice)
    await control(logged, 'POST', '/snapshots/before/restore')
    const [restored] = logged.named('snapshot restored')
    expect(restored).toMatchObject({
      snapshot: 'before',
      sessionsClosed: 1,
      callsEnded: 1,
      calls: 0,
    })
    expect(restored?.['rows']).toBeGreaterThanOrEqual(1)
    const [set] = logged.named('clock set')
    expect(set).toMatchObject({ by: 'restore' })
    const back = Date.parse(String(set?.['from'])) - Date.parse(String(set?.['to']))
    expect(back).toBeGreaterThanOrEqual(3_600_000 - 1000)
    expect(back).toBeLessThanOrEqual(3_600_000 + 1000)
    // The call the restore removed never was: no line says it ended.
    expect(logged.named('call ended')).toEqual([])

    await control(logged, 'POST', '/reset')
    const [reset] = logged.named('platform reset')
    expect(reset).toMatchObject({ sessionsClosed: 0, callsEnded: 0, calls: 0 })
    expect(reset).not.toHaveProperty('snapshot')
    expect(typeof reset?.['rows']).toBe('number')
    expect(typeof reset?.['durationMs']).toBe('number')
    // The clock was not ahead any more: no second move.
    expect(logged.named('clock set')).toHaveLength(1)
  })
})
