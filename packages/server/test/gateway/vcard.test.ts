/**
 * Issue 13, item 3: the location service and the vCards (docs/vcard.md). The VCARD base URL from
 * `GET /api/rest/locator/services` plus a User's or a PartyInfo's `vcardPath` is the user's vCard 4.0,
 * which ical.js parses back here.
 */
import { LocatedServices, type PartyInfo, type User } from '@openness/wire'
import ICAL from 'ical.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, type ControlService, startControlService } from '../control/control-fixture.js'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { openSession, startTestService } from '../support/test-service.js'

const LOCATOR = '/api/rest/locator/services'
const V = '/api/rest/1.0'
/** A provisioned user whose names need escaping in a vCard (`;` and `,` are separators there). */
const ZOE = {
  loginName: 'zoe.o_neil-2',
  password: 'demo-zoe',
  salutation: 'MRS',
  firstName: 'Zoë',
  lastName: "Ñúñez; d'Arc, Jr.",
  type: 'STANDARD',
  companyPhone: '1014',
  companyEmail: 'zoe@example.com',
  apiRights: ['TELEPHONY_BASIC'],
  devices: [
    { type: 'DESKPHONE', id: '1014', role: 'MAIN' },
    { type: 'MOBILE', id: '1015', role: 'SECONDARY' },
  ],
}

let running: ControlService
let alice = ''

beforeAll(async () => {
  running = await startControlService()
  const provisioned = await running.control.inject({
    method: 'POST',
    url: '/control/v1/users',
    headers: AUTH,
    payload: ZOE,
  })
  expect(provisioned.statusCode, provisioned.body).toBe(201)
  alice = await openSession(running.service.app, 'alice')
})
afterAll(() => running?.close())

const get = (url: string, cookie?: string) =>
  running.service.app.inject({ url, headers: cookie === undefined ? {} : { cookie } })

/** The VCARD base the locator gives (its `url`). */
async function vcardBase(): Promise<string> {
  const located = expectSchema<LocatedServices>(
    LocatedServices,
    await get(`${LOCATOR}?names=VCARD`),
  )
  expect(located).toHaveLength(1)
  return located[0]?.url ?? ''
}

/** The path of an absolute URL, for inject. */
const pathOf = (url: string) => new URL(url).pathname

describe('GET /api/rest/locator/services', () => {
  it('gives the VCARD base, ending with /, without a session', async () => {
    const response = await get(`${LOCATOR}?names=VCARD`)
    const located = expectSchema<LocatedServices>(LocatedServices, response)
    expect(located).toEqual([
      {
        name: 'VCARD',
        url: 'http://localhost:80/api/rest/1.0/vcard/',
        internalUrl: 'http://localhost:80/api/rest/1.0/vcard/',
      },
    ])
    expect((await get(LOCATOR)).json()).toEqual(located)
  })

  it('refuses an unknown or empty service name, naming the parameter', async () => {
    expectRestError(
      await get(`${LOCATOR}?names=VCARD,PRESENCE`),
      400,
      'BAD_PARAMETER',
      /names: no service 'PRESENCE'/,
    )
    expectRestError(
      await get(`${LOCATOR}?names=`),
      400,
      'BAD_PARAMETER',
      /names: give at least one/,
    )
  })

  it('honours PUBLIC_BASE_URL and PRIVATE_BASE_URL as the root resource does', async () => {
    const service = await startTestService({
      publicBaseUrl: 'https://pbx.example.com',
      privateBaseUrl: 'https://10.0.0.5:8443',
    })
    try {
      const response = await service.app.inject({ url: LOCATOR })
      expect(response.json()).toEqual([
        {
          name: 'VCARD',
          url: 'https://pbx.example.com/api/rest/1.0/vcard/',
          internalUrl: 'https://10.0.0.5:8443/api/rest/1.0/vcard/',
        },
      ])
    } finally {
      await service.close()
    }
  })
})

describe('vcardPath', () => {
  it('is on every user (GET /users/{loginName}): the login name, URL-encoded, and .vcf', async () => {
    const user = (await get(`${V}/users/zoe.o_neil-2`, alice)).json() as User
    expect(user.vcardPath).toBe('zoe.o_neil-2.vcf')
    const own = (await get(`${V}/users/alice`, alice)).json() as User
    expect(own.vcardPath).toBe('alice.vcf')
  })

  it('is on the PartyInfo of a directory user in a call, not on an outside party', async () => {
    const { app } = running.service
    const made = await app.inject({
      method: 'POST',
      url: `${V}/telephony/calls`,
      headers: { cookie: alice },
      payload: { deviceId: '1001', callee: '1014' },
    })
    expect(made.statusCode, made.body).toBe(201)
    const calls = (await get(`${V}/telephony/calls`, alice)).json() as {
      calls: { participants?: { identity?: PartyInfo }[] }[]
    }
    const identity = calls.calls[0]?.participants?.[0]?.identity
    expect(identity).toMatchObject({
      id: { loginName: 'zoe.o_neil-2' },
      vcardPath: 'zoe.o_neil-2.vcf',
    })
    const callRef = (made.headers.location ?? '').split('/').pop()
    await app.inject({
      method: 'DELETE',
      url: `${V}/telephony/calls/${callRef}`,
      headers: { cookie: alice },
    })
  })
})

describe('GET <VCARD base><vcardPath>', () => {
  it("is the user's vCard 4.0, which a vCard parser reads back", async () => {
    const base = await vcardBase()
    const user = (await get(`${V}/users/zoe.o_neil-2`, alice)).json() as User
    const response = await get(pathOf(`${base}${user.vcardPath}`), alice)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('text/vcard; charset=utf-8')
    expect(response.body.startsWith('BEGIN:VCARD\r\nVERSION:4.0\r\n')).toBe(true)
    expect(response.body.endsWith('END:VCARD\r\n')).toBe(true)
    const card = new ICAL.Component(ICAL.parse(response.body))
    expect(card.name).toBe('vcard')
    expect(card.getFirstPropertyValue('version')).toBe('4.0')
    expect(card.getFirstPropertyValue('fn')).toBe("Zoë Ñúñez; d'Arc, Jr.")
    expect(card.getFirstPropertyValue('n')).toEqual(["Ñúñez; d'Arc, Jr.", 'Zoë', '', '', ''])
    expect(card.getFirstPropertyValue('uid')).toBe('urn:openness:user:zoe.o_neil-2')
    expect(card.getFirstPropertyValue('email')).toBe('zoe@example.com')
    const tels = card
      .getAllProperties('tel')
      .map((tel) => [tel.getFirstValue(), tel.getParameter('type')])
    expect(tels).toEqual([
      ['1014', ['work', 'voice']],
      ['tel:+33155661014', ['work', 'voice']],
      ['1015', 'cell'],
    ])
  })

  it('answers an administrator session too', async () => {
    const admin = await openSession(running.service.app, 'admin')
    expect((await get(`${V}/vcard/alice.vcf`, admin)).statusCode).toBe(200)
  })

  it('needs a session', async () => {
    expectRestError(await get(`${V}/vcard/alice.vcf`), 403, 'INVALID_SESSION')
  })

  it('is 404 for an unknown user, an administrator and a path without .vcf', async () => {
    expectRestError(await get(`${V}/vcard/nobody.vcf`, alice), 404, 'NOT_FOUND', /No user 'nobody'/)
    expectRestError(await get(`${V}/vcard/admin.vcf`, alice), 404, 'NOT_FOUND', /No user 'admin'/)
    expectRestError(await get(`${V}/vcard/alice`, alice), 404, 'NOT_FOUND', /end with \.vcf/)
  })
})
