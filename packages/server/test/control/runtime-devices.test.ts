/**
 * The devices of users created, changed and deleted through the control plane while the service runs are the
 * engine's at once (docs/call-model.md, "Devices follow the directory"): a new user's device rings, answers
 * and calls; deleting the user releases its call; a device's new number rings and the old one is gone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSession } from '../support/test-service.js'
import { AUTH, type ControlService, newUser, startControlService } from './control-fixture.js'

const API = '/api/rest/1.0'
let fixture: ControlService

beforeEach(async () => {
  fixture = await startControlService()
})
afterEach(() => fixture?.close())

function control(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return fixture.control.inject({
    method,
    url: `/control/v1${url}`,
    headers: AUTH,
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  })
}

/** The parties of every call in progress, as `number:STATE`. */
async function liveCalls(): Promise<string[][]> {
  const response = await control('GET', '/calls')
  expect(response.statusCode, response.body).toBe(200)
  return (
    response.json() as { calls: { parties: { number: string; state: string }[] }[] }
  ).calls.map((call) => call.parties.map((party) => `${party.number}:${party.state}`))
}

/** alice calls `callee` from her desk phone over the API; returns the callRef and her session cookie. */
async function aliceCalls(callee: string): Promise<{ callRef: string; cookie: string }> {
  const { app } = fixture.service
  const cookie = await openSession(app, 'alice')
  const made = await app.inject({
    method: 'POST',
    url: `${API}/telephony/calls`,
    headers: { cookie },
    payload: { deviceId: '1001', callee, autoAnswer: true },
  })
  expect(made.statusCode, made.body).toBe(201)
  const calls = await app.inject({ url: `${API}/telephony/calls`, headers: { cookie } })
  const [call] = (calls.json() as { calls: { callRef: string }[] }).calls
  return { callRef: call?.callRef ?? '', cookie }
}

describe('a user created while the service runs', () => {
  beforeEach(async () => {
    const created = await control('POST', '/users', {
      ...newUser(),
      apiRights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED'],
    })
    expect(created.statusCode, created.body).toBe(201)
  })

  it('is rung at its device, which answers; the user sees its device and the call', async () => {
    const { app } = fixture.service
    const { callRef } = await aliceCalls('1013')
    expect(await liveCalls()).toEqual([['1001:RINGING_OUTGOING', '1013:RINGING_INCOMING']])

    const answered = await control('POST', '/devices/1013/answer')
    expect(answered.statusCode, answered.body).toBe(204)
    expect(await liveCalls()).toEqual([['1001:ACTIVE', '1013:ACTIVE']])

    const mona = await openSession(app, 'mona')
    const devices = await app.inject({ url: `${API}/telephony/devices`, headers: { cookie: mona } })
    expect(devices.json()).toMatchObject({
      deviceStates: [{ deviceId: '1013', state: 'IN_SERVICE' }],
    })
    const calls = await app.inject({ url: `${API}/telephony/calls`, headers: { cookie: mona } })
    expect(calls.json()).toMatchObject({
      calls: [{ callRef, legs: [{ deviceId: '1013', state: 'ACTIVE' }] }],
    })
  })

  it('answers from its application and calls from its device', async () => {
    const { app } = fixture.service
    const { callRef } = await aliceCalls('mona')
    const mona = await openSession(app, 'mona')
    const answered = await app.inject({
      method: 'POST',
      url: `${API}/telephony/calls/${callRef}/answer`,
      headers: { cookie: mona },
    })
    expect(answered.statusCode, answered.body).toBe(204)
    expect(await liveCalls()).toEqual([['1001:ACTIVE', '1013:ACTIVE']])

    const placed = await control('POST', '/calls', { from: '1013', to: '1002' })
    expect(placed.statusCode, placed.body).toBe(201)
    expect((await liveCalls())[1]).toEqual(['1013:RINGING_OUTGOING', '1002:RINGING_INCOMING'])
  })

  it('deleted while its device rings: the call is released, and its number reaches nobody', async () => {
    const { app } = fixture.service
    const { cookie } = await aliceCalls('1013')
    const deleted = await control('DELETE', '/users/mona')
    expect(deleted.statusCode, deleted.body).toBe(204)

    expect(await liveCalls()).toEqual([])
    const calls = await app.inject({ url: `${API}/telephony/calls`, headers: { cookie } })
    expect(calls.json()).toMatchObject({ calls: [] })
    expect((await control('POST', '/devices/1013/answer')).statusCode).toBe(404)
    const again = await app.inject({
      method: 'POST',
      url: `${API}/telephony/calls`,
      headers: { cookie },
      payload: { deviceId: '1001', callee: '1013', autoAnswer: true },
    })
    expect(again.statusCode).toBe(404)
  })

  it('given a new number: the new one rings, the old one is gone and its call released', async () => {
    await aliceCalls('1013')
    const changed = await control('PATCH', '/users/mona', {
      companyPhone: '1014',
      devices: [{ type: 'DESKPHONE', id: '1014', role: 'MAIN' }],
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(await liveCalls()).toEqual([])
    expect((await control('POST', '/devices/1013/answer')).statusCode).toBe(404)

    await aliceCalls('1014')
    expect(await liveCalls()).toEqual([['1001:RINGING_OUTGOING', '1014:RINGING_INCOMING']])
    expect((await control('POST', '/devices/1014/answer')).statusCode).toBe(204)
    const incoming = await control('POST', '/calls', { from: '+33612345678', to: '+33155661014' })
    expect(incoming.statusCode, incoming.body).toBe(201)
  })

  it('given a second device through the devices routes: it rings; removed, it leaves its call', async () => {
    const added = await control('POST', '/users/mona/devices', { type: 'SOFTPHONE', id: '1213' })
    expect(added.statusCode, added.body).toBe(201)
    await aliceCalls('1213')
    expect((await control('POST', '/devices/1213/answer')).statusCode).toBe(204)

    const removed = await control('DELETE', '/users/mona/devices/1213')
    expect(removed.statusCode, removed.body).toBe(204)
    expect(await liveCalls()).toEqual([])
    expect((await control('POST', '/devices/1013/answer')).statusCode).toBe(403)
  })
})
