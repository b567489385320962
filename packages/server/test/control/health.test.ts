/**
 * The control plane's platform health (docs/control-plane.md, "Platform health"; docs/system-status.md): a
 * link down or up and a license warning show in `GET /system/status` and reach administrator subscriptions
 * of the `system` package over a real chunk channel; a user subscription naming `system` gets none of them.
 */
import { type SystemStatus, SystemStatus as SystemStatusSchema } from '@openness/wire'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControlApp } from '../../src/control/control-app.js'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { LoopbackService } from '../support/loopback-service.js'
import { openSession } from '../support/test-service.js'
import { AUTH, TOKEN } from './control-fixture.js'

const H = '/control/v1/health'
const STATUS = '/api/rest/1.0/system/status'
const CHUNK_STARTED = { eventName: 'OnChannelInformation', text: 'Chunk started' }

let loopback: LoopbackService
let control: FastifyInstance
let admin = ''
let alice = ''
let adminChannel: ChannelClient
let aliceChannel: ChannelClient

/** Subscribes `cookie` with these selectors (as `userAgent`) and opens the channel over a real socket. */
async function subscribe(
  cookie: string,
  selectors: unknown[],
  userAgent = 'node',
): Promise<ChannelClient> {
  const response = await loopback.service.app.inject({
    method: 'POST',
    url: '/api/rest/1.0/subscriptions',
    headers: { cookie, 'user-agent': userAgent },
    payload: { filter: { selectors }, version: '1.0', timeout: 0 },
  })
  expect(response.statusCode, response.body).toBe(200)
  const channel = loopback.track(await openChannel(response.json().privatePollingUrl))
  expect(await channel.next()).toEqual(CHUNK_STARTED)
  return channel
}

const put = (url: string, payload: Record<string, unknown>) =>
  control.inject({ method: 'PUT', url, headers: AUTH, payload })

async function status(): Promise<SystemStatus> {
  return expectSchema<SystemStatus>(
    SystemStatusSchema,
    await loopback.service.app.inject({ url: STATUS, headers: { cookie: admin } }),
  )
}

beforeAll(async () => {
  loopback = await LoopbackService.start()
  control = await buildControlApp(loopback.service.running.platform, { token: TOKEN })
  admin = await openSession(loopback.service.app, 'admin')
  alice = await openSession(loopback.service.app, 'alice')
  // The Java SDK names `system` without ids, the Node SDK with `[]`.
  adminChannel = await subscribe(admin, [{ names: ['system'] }])
  aliceChannel = await subscribe(alice, [
    { names: ['telephony'], ids: [] },
    { names: ['system'], ids: [] },
  ])
})
afterAll(async () => {
  await control?.close()
  await loopback?.close()
})

describe('PUT /health/pbx-link', () => {
  it('down: the status shows the node disconnected, the administrator gets the events, the user none', async () => {
    const response = await put(`${H}/pbx-link`, { up: false })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({
      pbxLinkUp: false,
      ctiLinkUp: false,
      pbxLoaded: false,
      licenseWarning: null,
    })
    expect(await adminChannel.next()).toEqual({ eventName: 'OnPbxLinkDown', nodeId: '1' })
    expect(await adminChannel.next()).toEqual({ eventName: 'OnCtiLinkDown', nodeId: '1' })
    expect((await status()).pbxs[0]).toMatchObject({
      connected: false,
      loaded: false,
      ctiLinkState: 'DISCONNECTED',
      monitoredUserNumber: 0,
    })
    // The user's next event is its own telephony event: no system event was queued before it.
    const snapshot = await loopback.service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/telephony/state/snapshot',
      headers: { cookie: alice },
    })
    expect(snapshot.statusCode).toBe(204)
    expect((await aliceChannel.next())['eventName']).toBe('OnTelephonyState')
  })

  it('down again changes nothing and publishes nothing; the CTI link cannot come up meanwhile', async () => {
    expect((await put(`${H}/pbx-link`, { up: false })).statusCode).toBe(200)
    expectRestError(
      await put(`${H}/cti-link`, { up: true }),
      403,
      'NOT_EXPECTED',
      /PBX link is down/,
    )
  })

  it('up: OnPbxLinkUp, OnPbxLoaded, OnCtiLinkUp, and the node connected again', async () => {
    expect((await put(`${H}/pbx-link`, { up: true })).statusCode).toBe(200)
    expect(await adminChannel.next()).toEqual({ eventName: 'OnPbxLinkUp', nodeId: '1' })
    expect(await adminChannel.next()).toEqual({ eventName: 'OnPbxLoaded', nodeId: '1' })
    expect(await adminChannel.next()).toEqual({ eventName: 'OnCtiLinkUp', nodeId: '1' })
    expect((await status()).pbxs[0]).toMatchObject({
      connected: true,
      loaded: true,
      ctiLinkState: 'CONNECTED_MAIN',
    })
  })
})

describe('PUT /health/cti-link', () => {
  it('down then up, each shown and published', async () => {
    expect((await put(`${H}/cti-link`, { up: false })).json()).toMatchObject({ ctiLinkUp: false })
    expect(await adminChannel.next()).toEqual({ eventName: 'OnCtiLinkDown', nodeId: '1' })
    const down = await status()
    expect(down.pbxs[0]).toMatchObject({ connected: true, ctiLinkState: 'DISCONNECTED' })
    expect(down.primaryServicesStatus.services).toContainEqual({
      name: 'cti',
      status: 'STOPPED',
      mode: 'STANDALONE',
    })
    expect((await put(`${H}/cti-link`, { up: true })).statusCode).toBe(200)
    expect(await adminChannel.next()).toEqual({ eventName: 'OnCtiLinkUp', nodeId: '1' })
    expect((await status()).pbxs[0]?.ctiLinkState).toBe('CONNECTED_MAIN')
  })

  it('refuses a body without a boolean `up`, changing nothing', async () => {
    expectRestError(
      await put(`${H}/cti-link`, { up: 'no' }),
      400,
      'BAD_PARAMETER',
      /up: required, a boolean/,
    )
    expectRestError(
      await put(`${H}/cti-link`, { down: true }),
      400,
      'BAD_PARAMETER',
      /down: not a known field/,
    )
    expect((await status()).pbxs[0]?.ctiLinkState).toBe('CONNECTED_MAIN')
  })
})

describe('the C# SDK (no User-Agent)', () => {
  it('gets, for the package name, only the system events it registers', async () => {
    const dotnet = await subscribe(admin, [{ names: ['system'] }], '')
    expect((await put(`${H}/pbx-link`, { up: false })).statusCode).toBe(200)
    expect((await put(`${H}/pbx-link`, { up: true })).statusCode).toBe(200)
    const names = []
    for (let index = 0; index < 3; index += 1) names.push((await dotnet.next())['eventName'])
    expect(names).toEqual(['OnCtiLinkDown', 'OnPbxLoaded', 'OnCtiLinkUp'])
    // Every other client gets all five.
    const all = []
    for (let index = 0; index < 5; index += 1) all.push((await adminChannel.next())['eventName'])
    expect(all).toEqual([
      'OnPbxLinkDown',
      'OnCtiLinkDown',
      'OnPbxLinkUp',
      'OnPbxLoaded',
      'OnCtiLinkUp',
    ])
  })
})

describe('/health/license-warning', () => {
  it('a warning: OnLicenseExpiration, the expiration date on each license, then EXPIRED once past', async () => {
    const { clock } = loopback.service
    const response = await put(`${H}/license-warning`, { nbDays: 3 })
    expect(response.statusCode, response.body).toBe(200)
    expect(await adminChannel.next()).toEqual({
      eventName: 'OnLicenseExpiration',
      message: 'The license file expires in 3 day(s)',
      nbDays: 3,
    })
    const expiring = (await status()).license
    const day = new Date(clock.now() + 3 * 86_400_000)
    const month = day.toLocaleString('en', { month: 'short', timeZone: 'UTC' }).toLowerCase()
    const expected = `${String(day.getUTCDate()).padStart(2, '0')}-${month}-${day.getUTCFullYear()}`
    expect(expiring).toMatchObject({
      status: 'EXPIRING',
      statusMessage: 'The license file expires in 3 day(s)',
    })
    expect(expiring.lics.every((license) => license.expiration === expected)).toBe(true)
    // Given again, it replaces the first: expired two days ago.
    expect((await put(`${H}/license-warning`, { nbDays: -2 })).statusCode).toBe(200)
    expect(await adminChannel.next()).toEqual({
      eventName: 'OnLicenseExpiration',
      message: 'The license file expired 2 day(s) ago',
      nbDays: -2,
    })
    expect((await status()).license.status).toBe('EXPIRED')
  })

  it('refuses a number of days that is no integer in range, changing nothing', async () => {
    expectRestError(
      await put(`${H}/license-warning`, { nbDays: 1.5 }),
      400,
      'BAD_PARAMETER',
      /nbDays: an integer/,
    )
    expectRestError(
      await put(`${H}/license-warning`, { nbDays: 99999 }),
      400,
      'BAD_PARAMETER',
      /nbDays/,
    )
    expectRestError(await put(`${H}/license-warning`, {}), 400, 'BAD_PARAMETER', /nbDays: required/)
    expect((await status()).license.status).toBe('EXPIRED')
  })

  it('withdrawn: the licenses are OK again, without expiration', async () => {
    const response = await control.inject({
      method: 'DELETE',
      url: `${H}/license-warning`,
      headers: AUTH,
    })
    expect(response.json()).toMatchObject({ licenseWarning: null })
    const license = (await status()).license
    expect(license.status).toBe('OK')
    expect(license.lics.every((entry) => entry.expiration === undefined)).toBe(true)
  })
})
