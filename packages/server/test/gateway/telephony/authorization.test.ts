/**
 * Issue 5, items 1 and 2: the refusals of every call-control row, table-driven over ENDPOINTS — no session,
 * a missing license, the wrong user type, another user's call or device, an unknown call or device, a
 * bad body, an administrator without loginName (acting for a named device's owner, else 400) — each asserted as status and RestErrorInfo, and none of
 * them changing the engine's state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TelephonyState } from '../../../src/platform/telephony/telephony-state.js'
import { expectRestError } from '../../support/assertions.js'
import { directoryVariant } from '../../support/directory-variant.js'
import { openSession } from '../../support/test-service.js'
import { ENDPOINTS, type EndpointRow, namesCall, namesDevice } from './endpoints.js'
import { startTelephonyTest, T, type TelephonyTest } from './support.js'

let test: TelephonyTest
/** mona: a STANDARD user with MESSAGING only (no telephony license). */
let mona: string
const calls = { alice: '', carol: '', foreign: '' }
let before: TelephonyState

beforeAll(async () => {
  const directoryFile = await directoryVariant((document) => {
    const users = document['users'] as Record<string, unknown>[]
    users.push({
      loginName: 'mona',
      password: 'demo-mona',
      salutation: 'MRS',
      firstName: 'Mona',
      lastName: 'Messaging',
      type: 'STANDARD',
      companyPhone: '1020',
      apiRights: ['MESSAGING'],
      devices: [{ type: 'DESKPHONE', id: '1020', role: 'MAIN' }],
    })
  })
  test = await startTelephonyTest({ directoryFile })
  mona = await openSession(test.service.app, 'mona')
  calls.alice = await test.makeCall('alice', '1001', '1002')
  calls.carol = await test.makeCall('carol', '1003', '1007')
  calls.foreign = await test.makeCall('karim', '1011', '1006')
  before = test.service.running.telephony.state
})
afterAll(() => test.close())

/** The row's URL and body with its placeholders filled. */
function fill(row: EndpointRow, values: { callRef: string; deviceId: string }) {
  const replace = (text: string) =>
    text
      .replaceAll('{callRef}', values.callRef)
      .replaceAll('{deviceId}', values.deviceId)
      .replaceAll('{legId}', values.deviceId)
      .replaceAll('{participantId}', '1002')
      .replaceAll('{callbackId}', '00000000000000aa')
  return {
    url: `${T}${replace(row.path)}`,
    body: row.body === undefined ? undefined : JSON.parse(replace(JSON.stringify(row.body))),
  }
}

/** Who may use the row, with its own device and call. */
function ownerOf(row: EndpointRow) {
  return row.userType === 'MULTIMEDIA'
    ? ({ login: 'carol', deviceId: '1003', callRef: calls.carol } as const)
    : ({ login: 'alice', deviceId: '1001', callRef: calls.alice } as const)
}

const label = (row: EndpointRow) => `${row.method} ${row.path}`
/** The rows `keep` selects, as describe.each cases. */
const rows = (keep: (row: EndpointRow) => boolean = () => true) =>
  ENDPOINTS.filter(keep).map((row) => [label(row), row] as const)

describe.each(rows())('%s', (_name, row) => {
  it('without a session: 403 INVALID_SESSION', async () => {
    const { url, body } = fill(row, ownerOf(row))
    expectRestError(await test.send(undefined, row.method, url, body), 403, 'INVALID_SESSION')
  })

  it(`without the ${row.license} telephony license: 403 NOT_ALLOWED`, async () => {
    const { url, body } = fill(row, ownerOf(row))
    const response =
      row.license === 'advanced'
        ? await test.send('dave', row.method, url, body)
        : await test.service.app.inject({
            method: row.method,
            url,
            headers: { cookie: mona },
            ...(body !== undefined && { payload: body }),
          })
    expectRestError(response, 403, 'NOT_ALLOWED', /license/)
  })
})

describe.each(rows((row) => !namesDevice(row)))('%s', (_name, row) => {
  // Updated for issue 11, item 2: a request naming a device now acts for its owner (below); these rows
  // name none, and the call they name (alice's, to bob) has two users.
  it('for an administrator without loginName, nothing identifying the user: 400 BAD_PARAMETER', async () => {
    const { url, body } = fill(row, ownerOf(row))
    expectRestError(
      await test.send('admin', row.method, url, body),
      400,
      'BAD_PARAMETER',
      /loginName: is required for an administrator session: .*(names no device|2 users)/,
    )
  })
})

describe.each(rows(namesDevice))('%s', (_name, row) => {
  it("for an administrator without loginName: acts for the device's owner (mona: 403 license)", async () => {
    const { url, body } = fill(row, { ...ownerOf(row), deviceId: '1020' })
    expectRestError(
      await test.send('admin', row.method, url, body),
      403,
      'NOT_ALLOWED',
      /user 'mona' does not have/,
    )
  })
})

describe.each(rows((row) => row.userType !== undefined))('%s', (_name, row) => {
  it('for the other user type: 403 NOT_ALLOWED', async () => {
    const other =
      row.userType === 'MULTIMEDIA'
        ? { login: 'alice', deviceId: '1001', callRef: calls.alice }
        : { login: 'carol', deviceId: '1003', callRef: calls.carol }
    const { url, body } = fill(row, other)
    const response = await test.send(other.login as 'alice' | 'carol', row.method, url, body)
    expectRestError(response, 403, 'NOT_ALLOWED', new RegExp(`${row.userType} users only`))
  })
})

describe.each(rows(namesCall))('%s', (_name, row) => {
  it("on another user's call: 403 NOT_ALLOWED; on no call: 404 NOT_FOUND", async () => {
    const owner = ownerOf(row)
    const foreign = fill(row, { ...owner, callRef: calls.foreign })
    expectRestError(
      await test.send(owner.login, row.method, foreign.url, foreign.body),
      403,
      'NOT_ALLOWED',
      /not a call of/,
    )
    const unknown = fill(row, { ...owner, callRef: 'ffffffffffffffff' })
    expectRestError(
      await test.send(owner.login, row.method, unknown.url, unknown.body),
      404,
      'NOT_FOUND',
    )
  })
})

describe.each(rows(namesDevice))('%s', (_name, row) => {
  it("on another user's device: 403 NOT_ALLOWED; on no device: 404 NOT_FOUND", async () => {
    const owner = ownerOf(row)
    const foreign = fill(row, { ...owner, deviceId: '1002' })
    expectRestError(
      await test.send(owner.login, row.method, foreign.url, foreign.body),
      403,
      'NOT_ALLOWED',
      /not a device of/,
    )
    const unknown = fill(row, { ...owner, deviceId: '9999' })
    const response = await test.send(owner.login, row.method, unknown.url, unknown.body)
    expectRestError(response, 404, 'NOT_FOUND')
  })
})

describe.each(rows((row) => row.badBody !== undefined))('%s', (_name, row) => {
  it('with a bad body: 400 BAD_PARAMETER', async () => {
    const owner = ownerOf(row)
    const { url } = fill(row, owner)
    const bad = JSON.parse(
      JSON.stringify(row.badBody)
        .replaceAll('{callRef}', owner.callRef)
        .replaceAll('{deviceId}', owner.deviceId),
    )
    expectRestError(await test.send(owner.login, row.method, url, bad), 400, 'BAD_PARAMETER')
  })
})

describe('refusals', () => {
  it('changed nothing: the engine state is the one before them', () => {
    expect(test.service.running.telephony.state).toBe(before)
  })
})
