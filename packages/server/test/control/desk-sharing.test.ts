/**
 * Desk sharing on the control plane and the command line (docs/control-plane.md, "Desk sharing"): the sets with
 * who sits at each; a desk-sharing user logged on and off as its own requests would, refusals included.
 */
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { AUTH, type ControlService, runCli, startControlService } from './control-fixture.js'

let fixture: ControlService
beforeEach(async () => {
  fixture = await startControlService()
})
afterEach(() => fixture?.close())

function control(method: 'GET' | 'POST', url: string, payload?: unknown) {
  return fixture.control.inject({
    method,
    url: `/control/v1${url}`,
    headers: AUTH,
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  })
}

const SETS = [
  { number: '1900', label: 'Paris open space, desk 1' },
  { number: '1901', label: 'Paris open space, desk 2' },
]

describe('the control plane', () => {
  it('lists the sets, logs nora on at one (her number in service there), then off', async () => {
    expect((await control('GET', '/deskSharing')).json()).toEqual({ sets: SETS })
    const on = await control('POST', '/deskSharing/1901/logon', { loginName: 'nora' })
    expect(on.statusCode, on.body).toBe(204)
    expect((await control('GET', '/deskSharing')).json()).toEqual({
      sets: [SETS[0], { ...SETS[1], loginName: 'nora' }],
    })
    expect(fixture.service.running.telephony.queries.device('1030')).toMatchObject({
      state: 'IN_SERVICE',
    })
    const off = await control('POST', '/deskSharing/logoff', { loginName: 'nora' })
    expect(off.statusCode, off.body).toBe(204)
    expect((await control('GET', '/deskSharing')).json()).toEqual({ sets: SETS })
  })

  it("refuses as the user's own request would, and changes nothing", async () => {
    const cases: [string, unknown, number, string][] = [
      ['/deskSharing/1900/logon', { loginName: 'alice' }, 403, 'NOT_ALLOWED'],
      ['/deskSharing/1999/logon', { loginName: 'nora' }, 404, 'NOT_FOUND'],
      ['/deskSharing/1900/logon', {}, 400, 'BAD_PARAMETER'],
      ['/deskSharing/logoff', { loginName: 'nora', extra: 1 }, 400, 'BAD_PARAMETER'],
    ]
    for (const [url, body, status, type] of cases) {
      const refused = await control('POST', url, body)
      expect(refused.statusCode, `${url} ${refused.body}`).toBe(status)
      expect(refused.json()).toMatchObject({ type })
    }
    expect((await control('GET', '/deskSharing')).json()).toEqual({ sets: SETS })
  })
})

describe('the command line', () => {
  it('lists, logs on and off', async () => {
    await fixture.control.listen({ host: '127.0.0.1', port: 0 })
    const url = `http://127.0.0.1:${(fixture.control.server.address() as AddressInfo).port}`
    const on = await runCli(url, ['desk-sharing', 'logon', '1900', 'nora'])
    expect(on).toMatchObject({ code: 0, out: 'nora is logged on at 1900.\n' })
    const listed = await runCli(url, ['desk-sharing', 'list'])
    expect(listed.code, listed.err).toBe(0)
    expect(parse(listed.out)).toEqual({ sets: [{ ...SETS[0], loginName: 'nora' }, SETS[1]] })
    const off = await runCli(url, ['desk-sharing', 'logoff', 'nora'])
    expect(off).toMatchObject({ code: 0, out: 'nora is logged off.\n' })
  })
})
