/**
 * Desk sharing through the telephony API as the SDKs send it (docs/telephony-api.md, "Desk sharing"; client
 * census 2, 5a), on the demo directory: nora (1030) is a desk-sharing user, 1900 and 1901 are desk-sharing
 * sets. Each asserts the status and the state that follows; every refusal leaves it as it was.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectRestError } from '../../support/assertions.js'
import { openSession } from '../../support/test-service.js'
import { startTelephonyTest, T, type TelephonyTest } from './support.js'

let test: TelephonyTest
let nora: string
beforeEach(async () => {
  test = await startTelephonyTest()
  nora = await openSession(test.service.app, 'nora')
})
afterEach(() => test.close())

/** A request as nora's own session sends it. */
function asNora(method: 'POST' | 'DELETE' | 'GET', url: string, payload?: unknown) {
  return test.service.app.inject({
    method,
    url,
    headers: { cookie: nora },
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  })
}

const numberState = () => test.service.running.telephony.state.devices['1030']?.state
const seats = () => test.service.running.telephony.state.deskSharing

describe('log on and off', () => {
  it("nora's number is out of service at first; POST logs her on at 1900, DELETE off; each twice", async () => {
    expect(numberState()).toBe('OUT_OF_SERVICE')
    for (const _ of [1, 2]) {
      const on = await asNora('POST', `${T}/deskSharing`, { dssDeviceNumber: '1900' })
      expect(on.statusCode, on.body).toBe(204)
      expect(numberState()).toBe('IN_SERVICE')
      expect(seats()).toEqual({ '1900': 'nora' })
    }
    for (const _ of [1, 2]) {
      const off = await asNora('DELETE', `${T}/deskSharing`)
      expect(off.statusCode, off.body).toBe(204)
      expect(numberState()).toBe('OUT_OF_SERVICE')
      expect(seats()).toBeUndefined()
    }
  })

  it('an administrator acts for the user named by loginName', async () => {
    const on = await test.send('admin', 'POST', `${T}/deskSharing?loginName=nora`, {
      dssDeviceNumber: '1901',
    })
    expect(on.statusCode, on.body).toBe(204)
    expect(seats()).toEqual({ '1901': 'nora' })
    const off = await test.send('admin', 'DELETE', `${T}/deskSharing?loginName=nora`)
    expect(off.statusCode, off.body).toBe(204)
    expect(seats()).toBeUndefined()
  })

  it('a call to the number rings nora while she is logged on; she cannot log off in it', async () => {
    await asNora('POST', `${T}/deskSharing`, { dssDeviceNumber: '1900' })
    const callRef = await test.makeCall('karim', '1011', '1030')
    const calls = await asNora('GET', `${T}/calls`)
    expect(calls.json().calls.map((call: { callRef: string }) => call.callRef)).toEqual([callRef])
    expectRestError(
      await asNora('DELETE', `${T}/deskSharing`),
      403,
      'NOT_EXPECTED',
      /'nora' is in a call on 1030/,
    )
    expect(numberState()).toBe('IN_SERVICE')
  })
})

describe('refusals, which change nothing', () => {
  it.each([
    [{}, /dssDeviceNumber/],
    [{ dssDeviceNumber: '' }, /dssDeviceNumber/],
    [{ dssDeviceNumber: 'desk 1' }, /dssDeviceNumber/],
    [{ dssDeviceNumber: '1900', extra: true }, /extra/],
  ])('body %j: 400 BAD_PARAMETER naming the field', async (body, field) => {
    expectRestError(await asNora('POST', `${T}/deskSharing`, body), 400, 'BAD_PARAMETER', field)
    expect(numberState()).toBe('OUT_OF_SERVICE')
  })

  it('no such set (a number that is none, a device): 404 NOT_FOUND', async () => {
    for (const dssDeviceNumber of ['1950', '1001'])
      expectRestError(
        await asNora('POST', `${T}/deskSharing`, { dssDeviceNumber }),
        404,
        'NOT_FOUND',
        new RegExp(`no desk-sharing set '${dssDeviceNumber}'`),
      )
    expect(seats()).toBeUndefined()
  })

  it('a user who is not a desk-sharing user: 403 NOT_ALLOWED, for log on and log off', async () => {
    expectRestError(
      await test.send('alice', 'POST', `${T}/deskSharing`, { dssDeviceNumber: '1900' }),
      403,
      'NOT_ALLOWED',
      /'alice' is not a desk-sharing user/,
    )
    expectRestError(
      await test.send('alice', 'DELETE', `${T}/deskSharing`),
      403,
      'NOT_ALLOWED',
      /'alice' is not a desk-sharing user/,
    )
    expect(seats()).toBeUndefined()
  })
})
