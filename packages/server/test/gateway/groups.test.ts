/**
 * The groups resource (docs/groups.md, "The groups resource"), on the demo directory: alice is in the hunting
 * group 2100 (Sales) and the pickup group paris-front-office; henri supervises franck and gaelle (supervision
 * group warehouse); karim is in a pickup group only. Each asserts the
 * status and the body; the resource follows the engine and the directory at once.
 */
import { Group, Groups } from '@openness/wire'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const V1 = '/api/rest/1.0'
let service: TestService
const cookies: Record<string, string> = {}
beforeEach(async () => {
  service = await startTestService()
  for (const login of ['alice', 'karim', 'admin'])
    cookies[login] = await openSession(service.app, login)
})
afterEach(() => service.close())

const get = (login: string, url: string) =>
  service.app.inject({
    method: 'GET',
    url: `${V1}${url}`,
    headers: { cookie: cookies[login] ?? '' },
  })

const SALES = {
  groupId: 'hunting-2100',
  type: 'HUNTING_GROUP',
  name: 'Sales',
  number: '2100',
  policy: 'CIRCULAR',
  members: [
    { loginName: 'alice', role: 'AGENT', logon: true },
    { loginName: 'bob', role: 'AGENT', logon: true },
  ],
}

describe('GET /groups', () => {
  it("lists the user's hunting group, then its pickup group", async () => {
    const { groups } = expectSchema<Groups>(Groups, await get('alice', '/groups'))
    expect(groups.map((group) => group.groupId)).toEqual([
      'hunting-2100',
      'pickup-paris-front-office',
    ])
    expect(groups[0]).toEqual(SALES)
    expect(groups[1]).toMatchObject({ type: 'PICKUP_GROUP', name: 'paris-front-office' })
    expect(groups[1]?.members).toContainEqual({ loginName: 'alice', role: 'MEMBER' })
  })

  it('shows a supervision group to its supervisor and to the users it supervises', async () => {
    const warehouse = {
      groupId: 'supervision-warehouse',
      type: 'SUPERVISION_GROUP',
      name: 'warehouse',
      members: [
        { loginName: 'henri', role: 'SUPERVISOR' },
        { loginName: 'franck', role: 'MEMBER' },
        { loginName: 'gaelle', role: 'MEMBER' },
      ],
    }
    const franck = await openSession(service.app, 'franck')
    const asFranck = await service.app.inject({
      method: 'GET',
      url: `${V1}/groups/supervision-warehouse`,
      headers: { cookie: franck },
    })
    expect(expectSchema<Group>(Group, asFranck)).toEqual(warehouse)
    const henri = await openSession(service.app, 'henri')
    const asHenri = await service.app.inject({
      method: 'GET',
      url: `${V1}/groups`,
      headers: { cookie: henri },
    })
    expect(expectSchema<Groups>(Groups, asHenri).groups).toContainEqual(warehouse)
  })

  it('follows the engine at once: a member logged off shows so', async () => {
    await service.running.telephony.execute({
      type: 'huntingGroupLogOn',
      loginName: 'bob',
      logOn: false,
    })
    const sales = expectSchema<Group>(Group, await get('alice', '/groups/hunting-2100'))
    expect(sales.members).toContainEqual({ loginName: 'bob', role: 'AGENT', logon: false })
  })

  it("an administrator reads any user's with loginName, and must name one", async () => {
    const { groups } = expectSchema<Groups>(Groups, await get('admin', '/groups?loginName=alice'))
    expect(groups[0]).toEqual(SALES)
    expectRestError(await get('admin', '/groups'), 400, 'BAD_PARAMETER', /loginName/)
  })

  it('a group the user is not in answers 404, as an unknown one does', async () => {
    expectRestError(await get('karim', '/groups/hunting-2100'), 404, 'NOT_FOUND', /is in no group/)
    expectRestError(await get('alice', '/groups/hunting-9999'), 404, 'NOT_FOUND')
  })

  it('the session lists the Groups service', async () => {
    const session = (await get('alice', '/sessions')).json() as {
      services: { serviceName: string; relativeUrl: string }[]
    }
    expect(session.services).toContainEqual({
      serviceName: 'Groups',
      serviceVersion: '1.0',
      relativeUrl: '/groups',
    })
  })
})
