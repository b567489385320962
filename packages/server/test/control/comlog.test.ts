/** The control plane's view of a user's communication log: read it, clear it (docs/control-plane.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { expectRestError } from '../support/assertions.js'
import { openSession } from '../support/test-service.js'
import { AUTH, type ControlService, startControlService } from './control-fixture.js'

const U = '/control/v1/users'
let fixture: ControlService
const published: PlatformEvent[] = []

beforeAll(async () => {
  fixture = await startControlService()
  const { app, running } = fixture.service
  const publish = running.events.publish.bind(running.events)
  running.events.publish = (event) => {
    published.push(event)
    publish(event)
  }
  const cookie = await openSession(app, 'alice')
  const made = await app.inject({
    method: 'POST',
    url: '/api/rest/1.0/telephony/calls',
    headers: { cookie },
    payload: { deviceId: '1001', callee: '1002', autoAnswer: true },
  })
  expect(made.statusCode, made.body).toBe(201)
  const location = String(made.headers.location)
  const released = await app.inject({ method: 'DELETE', url: location, headers: { cookie } })
  expect(released.statusCode).toBe(204)
  await running.platform.eventSummary.idle()
})
afterAll(() => fixture?.close())

describe('/control/v1/users/{loginName}/comlog', () => {
  it("reads the user's records", async () => {
    const response = await fixture.control.inject({ url: `${U}/bob/comlog`, headers: AUTH })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({
      totalCount: 1,
      records: [{ participants: [{ role: 'CALLEE', answered: false }, {}] }],
    })
  })

  it('clears it, telling the user, and its missed calls go with it', async () => {
    const id = (await fixture.control.inject({ url: `${U}/bob/comlog`, headers: AUTH })).json()
      .records[0].recordId
    published.length = 0
    const cleared = await fixture.control.inject({
      method: 'DELETE',
      url: `${U}/bob/comlog`,
      headers: AUTH,
    })
    expect(cleared.statusCode).toBe(204)
    await fixture.service.running.platform.eventSummary.idle()
    expect(published.map((event) => event.eventName)).toStrictEqual([
      'OnComRecordsDeleted',
      'OnEventSummaryUpdated',
    ])
    expect(published[0]).toMatchObject({ loginName: 'bob', recordIds: [id] })
    const after = await fixture.control.inject({ url: `${U}/bob/comlog`, headers: AUTH })
    expect(after.json()).toStrictEqual({ totalCount: 0, records: [] })
    const alice = await fixture.control.inject({ url: `${U}/alice/comlog`, headers: AUTH })
    expect(alice.json().totalCount).toBe(1)
  })

  it('answers 404 for an unknown user, 400 for a bad page, 401 without the token', async () => {
    expectRestError(
      await fixture.control.inject({ url: `${U}/nobody/comlog`, headers: AUTH }),
      404,
      'NOT_FOUND',
    )
    expectRestError(
      await fixture.control.inject({ url: `${U}/bob/comlog?limit=x`, headers: AUTH }),
      400,
      'BAD_PARAMETER',
    )
    expect((await fixture.control.inject({ url: `${U}/bob/comlog` })).statusCode).toBe(401)
  })
})

describe('an incoming call to a public number (DDI)', () => {
  it('leaves the called user a CALLEE record and a missed call, the outside party its CALLER', async () => {
    const { app, running } = fixture.service
    const cookie = await openSession(app, 'alice')
    const before = await app.inject({ url: '/api/rest/1.0/eventSummary', headers: { cookie } })
    expect(before.statusCode, before.body).toBe(200)
    const placed = await fixture.control.inject({
      method: 'POST',
      url: '/control/v1/calls',
      headers: AUTH,
      payload: { from: '+33612345678', to: '+33155661001' },
    })
    expect(placed.statusCode, placed.body).toBe(201)
    const { callRef } = placed.json() as { callRef: string }
    const hungUp = await fixture.control.inject({
      method: 'POST',
      url: '/control/v1/outside/+33612345678/hangup',
      headers: AUTH,
    })
    expect(hungUp.statusCode, hungUp.body).toBeLessThan(300)
    await running.platform.eventSummary.idle()

    const log = await fixture.control.inject({ url: `${U}/alice/comlog`, headers: AUTH })
    const record = (log.json() as { records: { comRef: string }[] }).records.find(
      (each) => each.comRef === callRef,
    )
    expect(record).toMatchObject({
      participants: [
        {
          role: 'CALLEE',
          answered: false,
          reason: 'ABANDONED',
          identity: { id: { loginName: 'alice', phoneNumber: '1001' } },
          initialCalled: { id: { phoneNumber: '+33155661001' } },
        },
        { role: 'CALLER', identity: { id: { phoneNumber: '+33612345678' } } },
      ],
    })
    const after = await app.inject({ url: '/api/rest/1.0/eventSummary', headers: { cookie } })
    expect(after.json().missedCallsNb).toBe(before.json().missedCallsNb + 1)
  })
})
