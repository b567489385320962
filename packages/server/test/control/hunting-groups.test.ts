/**
 * Hunting groups on the control plane and the command line (docs/control-plane.md, "Hunting groups"): list,
 * show, create, change and delete a group, log a member on and off; refusals change nothing; a call follows the
 * groups at once.
 */
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { openSession } from '../support/test-service.js'
import { AUTH, type ControlService, runCli, startControlService } from './control-fixture.js'

let fixture: ControlService
beforeEach(async () => {
  fixture = await startControlService()
})
afterEach(() => fixture?.close())

function control(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  return fixture.control.inject({
    method,
    url: `/control/v1${url}`,
    headers: AUTH,
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  })
}

const SALES = {
  number: '2100',
  name: 'Sales',
  policy: 'CIRCULAR',
  members: [
    { loginName: 'alice', logon: true },
    { loginName: 'bob', logon: true },
  ],
  noAnswerSeconds: 15,
  whenBusy: 'QUEUE',
  queueSize: 5,
  queueTimeoutSeconds: 60,
  overflow: { voicemailOf: 'bob' },
  selfJoin: true,
  waiting: [],
}

describe('the control plane', () => {
  it("lists the directory file's groups with their members' states", async () => {
    const listed = await control('GET', '/huntingGroups')
    expect(listed.statusCode, listed.body).toBe(200)
    const { huntingGroups } = listed.json() as { huntingGroups: { number: string }[] }
    expect(huntingGroups.map((group) => group.number)).toEqual(['2100', '2200'])
    expect(huntingGroups[0]).toEqual(SALES)
  })

  it('creates a group, changes it, logs a member off and on, and deletes it', async () => {
    const created = await control('PUT', '/huntingGroups/2300', {
      name: 'Support',
      policy: 'SEQUENTIAL',
      members: ['karim', 'carol'],
      noAnswerSeconds: 5,
    })
    expect(created.statusCode, created.body).toBe(200)
    expect(created.json()).toMatchObject({
      number: '2300',
      members: [
        { loginName: 'karim', logon: true },
        { loginName: 'carol', logon: true },
      ],
      noAnswerSeconds: 5,
      whenBusy: 'QUEUE',
      queueSize: 10,
      selfJoin: false,
    })
    const changed = await control('PUT', '/huntingGroups/2300', {
      name: 'Support',
      policy: 'PARALLEL',
      members: ['carol'],
    })
    expect(changed.json()).toMatchObject({ policy: 'PARALLEL', members: [{ loginName: 'carol' }] })
    const off = await control('POST', '/huntingGroups/2300/members/carol/logoff')
    expect(off.statusCode, off.body).toBe(204)
    expect((await control('GET', '/huntingGroups/2300')).json()).toMatchObject({
      members: [{ loginName: 'carol', logon: false }],
    })
    expect((await control('POST', '/huntingGroups/2300/members/carol/logon')).statusCode).toBe(204)
    const deleted = await control('DELETE', '/huntingGroups/2300')
    expect(deleted.statusCode, deleted.body).toBe(204)
    expect((await control('GET', '/huntingGroups/2300')).statusCode).toBe(404)
  })

  it('refuses bad groups clearly and changes nothing', async () => {
    const cases: [string, unknown, string][] = [
      [
        '/huntingGroups/1002',
        { name: 'X', policy: 'PARALLEL', members: [] },
        'number: 1002 already reaches a party of the plan',
      ],
      [
        '/huntingGroups/2300',
        { name: 'X', policy: 'PARALLEL', members: ['alice'] },
        "members: 'alice' is a member of hunting group 2100",
      ],
      [
        '/huntingGroups/2300',
        { name: 'X', policy: 'PARALLEL', members: ['nobody'] },
        "members: no user 'nobody' with a device",
      ],
      ['/huntingGroups/2300', { name: 'X', policy: 'RANDOM', members: [] }, 'policy'],
      [
        '/huntingGroups/1900',
        { name: 'X', policy: 'PARALLEL', members: [] },
        'number: 1900 is a desk-sharing set',
      ],
      [
        '/huntingGroups/2300',
        { name: 'X', policy: 'PARALLEL', members: [], whenBusy: 'OVERFLOW' },
        'whenBusy: OVERFLOW needs an overflow',
      ],
      [
        '/huntingGroups/2300',
        { name: 'X', policy: 'PARALLEL', members: [], overflow: { voicemailOf: 'dave' } },
        "overflow.voicemailOf: no user 'dave' with a voice mail",
      ],
    ]
    for (const [url, body, message] of cases) {
      const refused = await control('PUT', url, body)
      expect(refused.statusCode, refused.body).toBe(400)
      expect(refused.json()).toMatchObject({ type: 'BAD_PARAMETER' })
      expect(refused.json().helpMessage).toContain(message)
    }
    const { huntingGroups } = (await control('GET', '/huntingGroups')).json() as {
      huntingGroups: unknown[]
    }
    expect(huntingGroups).toHaveLength(2)
    expect((await control('POST', '/huntingGroups/2100/members/karim/logoff')).statusCode).toBe(404)
    expect((await control('DELETE', '/huntingGroups/2999')).statusCode).toBe(404)
  })

  it('a call follows at once: a member logged off is not offered it', async () => {
    expect((await control('POST', '/huntingGroups/2100/members/alice/logoff')).statusCode).toBe(204)
    const cookie = await openSession(fixture.service.app, 'karim')
    const made = await fixture.service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/telephony/calls',
      headers: { cookie },
      payload: { deviceId: '1011', callee: '2100', autoAnswer: true },
    })
    expect(made.statusCode, made.body).toBe(201)
    const calls = (await control('GET', '/calls')).json() as {
      calls: { parties: { number: string; offeredBy?: string }[] }[]
    }
    expect(calls.calls[0]?.parties).toEqual([
      expect.objectContaining({ number: '1011' }),
      expect.objectContaining({ number: '2100', service: 'HUNTING_GROUP' }),
      expect.objectContaining({ number: '1002', offeredBy: '2100' }),
    ])
  })
})

describe('the command line', () => {
  it('lists, sets from a file on stdin, logs off and deletes', async () => {
    await fixture.control.listen({ host: '127.0.0.1', port: 0 })
    const url = `http://127.0.0.1:${(fixture.control.server.address() as AddressInfo).port}`
    const listed = await runCli(url, ['hunting-groups', 'list'])
    expect(listed.code, listed.err).toBe(0)
    expect((parse(listed.out) as { huntingGroups: unknown[] }).huntingGroups[0]).toEqual(SALES)
    const set = await runCli(url, ['hunting-groups', 'set', '2300', '-'], {
      stdin: 'name: Support\npolicy: LONGEST_IDLE\nmembers: [karim]\n',
    })
    expect(set.code, set.err).toBe(0)
    expect(parse(set.out)).toMatchObject({ number: '2300', policy: 'LONGEST_IDLE' })
    const off = await runCli(url, ['hunting-groups', 'logoff', '2300', 'karim'])
    expect(off).toMatchObject({ code: 0, out: 'karim is logged off from 2300.\n' })
    const deleted = await runCli(url, ['hunting-groups', 'delete', '2300'])
    expect(deleted).toMatchObject({ code: 0, out: 'Deleted hunting group 2300.\n' })
    const missing = await runCli(url, ['hunting-groups', 'show', '2300'])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain("No hunting group '2300'")
  })
})
