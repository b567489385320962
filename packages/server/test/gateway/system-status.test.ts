/**
 * Issue 13, item 4: the maintenance service's `GET /system/status` (wire facts 8.6; docs/system-status.md):
 * administrator sessions only, listed in their SessionInfo as `Maintenance` at `/system` (the Java SDK's
 * fixed path), with values of the running platform: its start, the PBX node, the licenses in use.
 */
import { type SessionInfo, SystemStatus } from '@openness/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const STATUS = '/api/rest/1.0/system/status'
let service: TestService
let admin = ''
let alice = ''
let startedAt = 0

beforeAll(async () => {
  service = await startTestService({ publicBaseUrl: 'https://o2g.example.com' })
  startedAt = service.clock.now()
  service.clock.advance(60_000)
  admin = await openSession(service.app, 'admin')
  alice = await openSession(service.app, 'alice')
})
afterAll(() => service?.close())

const get = (url: string, cookie?: string) =>
  service.app.inject({ url, headers: cookie === undefined ? {} : { cookie } })

describe('GET /system/status', () => {
  it('is the status of the running platform for an administrator session', async () => {
    const status = expectSchema<SystemStatus>(SystemStatus, await get(STATUS, admin))
    expect(status).toMatchObject({
      logicalAddress: { fqdn: 'o2g.example.com' },
      startDate: new Date(startedAt).toISOString(),
      ha: false,
      primary: 'o2g.example.com',
      primaryVersion: service.running.platform.product.version,
      configurationType: 'FULL_SERVICES',
      subscriberFilter: 'ALL',
    })
    const users = service.running.platform.directory.listUserLogins().length
    expect(status.pbxs).toEqual([
      {
        name: 'Example Corp node 1',
        nodeId: 1,
        mainAddress: { fqdn: 'node1.pbx.simulated' },
        version: service.running.platform.product.version,
        connected: true,
        loaded: true,
        ctiLinkState: 'CONNECTED_MAIN',
        secured: false,
        monitoredUserNumber: users,
        lmsConnectionStatus: true,
      },
    ])
    expect(status.primaryServicesStatus.services.map((entry) => entry.status)).toEqual([
      'RUNNING',
      'RUNNING',
      'RUNNING',
    ])
  })

  it('counts the licenses the open sessions hold against the installed ones', async () => {
    const before = expectSchema<SystemStatus>(SystemStatus, await get(STATUS, admin))
    const advanced = (status: SystemStatus) =>
      status.license.lics.find((license) => license.name === 'TELEPHONY_ADVANCED')
    const bob = await openSession(service.app, 'bob')
    const after = expectSchema<SystemStatus>(SystemStatus, await get(STATUS, admin))
    expect(after.license).toMatchObject({ type: 'FLEXLM', status: 'OK', context: 'Example Corp' })
    expect(advanced(after)?.currentUsed).toBe((advanced(before)?.currentUsed ?? 0) + 1)
    expect(advanced(after)?.total).toBe(
      service.running.platform.directory.settings.licenses.TELEPHONY_ADVANCED,
    )
    expect(advanced(after)?.expiration).toBeUndefined()
    await service.app.inject({
      method: 'DELETE',
      url: '/api/rest/1.0/sessions',
      headers: { cookie: bob },
    })
    const released = expectSchema<SystemStatus>(SystemStatus, await get(STATUS, admin))
    expect(advanced(released)?.currentUsed).toBe(advanced(before)?.currentUsed)
  })

  it("answers the C# SDK's IsLicenseExist: 200 for a license of the platform, else 404", async () => {
    expect((await get(`${STATUS}?lic=TELEPHONY_BASIC`, admin)).statusCode).toBe(200)
    expectRestError(
      await get(`${STATUS}?lic=NOPE`, admin),
      404,
      'NOT_FOUND',
      /lic: no license 'NOPE'/,
    )
  })

  it('answers at the Maintenance service URL itself too (GET /system)', async () => {
    const status = expectSchema<SystemStatus>(
      SystemStatus,
      await get('/api/rest/1.0/system', admin),
    )
    expect(status.pbxs[0]?.nodeId).toBe(1)
    expectRestError(await get('/api/rest/1.0/system', alice), 403, 'NOT_ALLOWED')
  })

  it('is refused to a user session (the Java SDK: administrators only) and without a session', async () => {
    expectRestError(await get(STATUS, alice), 403, 'NOT_ALLOWED', /administrator sessions only/)
    expectRestError(await get(STATUS), 403, 'INVALID_SESSION')
  })

  it('shows the end of a switch-over as the start date: the platform served again from then on', async () => {
    const control = service.running.platform.readiness
    control.notReadyFor(5_000, 'SWITCH_OVER')
    const end = service.clock.now() + 5_000
    service.clock.advance(6_000)
    const cookie = await openSession(service.app, 'admin')
    const status = expectSchema<SystemStatus>(SystemStatus, await get(STATUS, cookie))
    expect(status.startDate).toBe(new Date(end).toISOString())
  })
})

describe('SessionInfo', () => {
  it('lists Maintenance at /system for an administrator session only', async () => {
    const adminInfo = (await get('/api/rest/1.0/sessions', admin)).json() as SessionInfo
    expect(adminInfo.services).toContainEqual({
      serviceName: 'Maintenance',
      serviceVersion: '1.0',
      relativeUrl: '/system',
    })
    const userInfo = (await get('/api/rest/1.0/sessions', alice)).json() as SessionInfo
    expect(userInfo.services.map((entry) => entry.serviceName)).not.toContain('Maintenance')
  })
})
