/**
 * Pickup groups through the control plane (docs/control-plane.md, "Pickup groups"): the groups routes and a
 * user's `pickupGroup`, each change stored (read back from the SQL store), none published, and every refusal
 * a RestErrorInfo that changes nothing.
 */
import { User } from '@openness/wire'
import { Value } from 'typebox/value'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DirectoryUserView } from '../../src/platform/directory/directory-file-schema.js'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { AUTH, type ControlFixture, newUser, startControlFixture } from './control-fixture.js'

let control: ControlFixture
beforeEach(async () => {
  control = await startControlFixture()
})
afterEach(() => control.close())

const GROUPS = '/control/v1/pickupGroups'
const USERS = '/control/v1/users'

function request(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return control.app.inject({
    method,
    url,
    headers: AUTH,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

/** The help message, exactly. */
const exactly = (message: string) =>
  new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)

/** The stored pickup group of each user that has one, read from the SQL store. */
async function storedGroups(): Promise<Record<string, string>> {
  const snapshot = await control.store.load()
  const groups: Record<string, string> = {}
  for (const account of snapshot?.accounts ?? [])
    if (account.kind === 'USER' && account.record.pickupGroup !== undefined)
      groups[account.loginName] = account.record.pickupGroup
  return groups
}

/** The demo directory's groups. */
/** The groups events the control plane's changes published, as `OnName loginName groupId`. */
function told(): string[] {
  return control.events.map((event) => {
    const group = event['group'] as { groupId: string } | undefined
    return `${event.eventName} ${event.loginName} ${group?.groupId ?? event['groupId']}`
  })
}

const DEMO_GROUPS = {
  alice: 'paris-front-office',
  bob: 'paris-front-office',
  franck: 'lyon-warehouse',
  gaelle: 'lyon-warehouse',
  henri: 'management',
  ines: 'management',
  karim: 'paris-front-office',
}

describe('GET /control/v1/pickupGroups', () => {
  it("lists the demo directory's groups by name, each with its members by login name", async () => {
    const response = await request('GET', GROUPS)

    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      pickupGroups: [
        { name: 'lyon-warehouse', members: ['franck', 'gaelle'] },
        { name: 'management', members: ['henri', 'ines'] },
        { name: 'paris-front-office', members: ['alice', 'bob', 'karim'] },
      ],
    })
  })

  it('shows one group, and 404 NOT_FOUND for a group no user is in', async () => {
    const response = await request('GET', `${GROUPS}/management`)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ name: 'management', members: ['henri', 'ines'] })
    expectRestError(
      await request('GET', `${GROUPS}/marketing`),
      404,
      'NOT_FOUND',
      exactly("No pickup group 'marketing'"),
    )
  })
})

describe('PUT /control/v1/pickupGroups/{name}', () => {
  it('creates a group: its members leave their own groups; stored; each member told (package groups)', async () => {
    const response = await request('PUT', `${GROUPS}/paris-marketing`, {
      members: ['lea', 'carol', 'karim'],
    })

    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ name: 'paris-marketing', members: ['carol', 'karim', 'lea'] })
    expect(await storedGroups()).toEqual({
      ...DEMO_GROUPS,
      karim: 'paris-marketing',
      carol: 'paris-marketing',
      lea: 'paris-marketing',
    })
    expect((await request('GET', `${GROUPS}/paris-front-office`)).json()).toEqual({
      name: 'paris-front-office',
      members: ['alice', 'bob'],
    })
    // The new group's members are told it exists; karim's old group tells him he left, and the others it changed.
    expect(told()).toEqual([
      'OnGroupModified alice pickup-paris-front-office',
      'OnGroupModified bob pickup-paris-front-office',
      'OnGroupRemoved karim pickup-paris-front-office',
      'OnGroupCreated carol pickup-paris-marketing',
      'OnGroupCreated karim pickup-paris-marketing',
      'OnGroupCreated lea pickup-paris-marketing',
    ])
    expect(control.events[3]).toEqual({
      eventName: 'OnGroupCreated',
      loginName: 'carol',
      group: {
        groupId: 'pickup-paris-marketing',
        type: 'PICKUP_GROUP',
        name: 'paris-marketing',
        members: [
          { loginName: 'carol', role: 'MEMBER' },
          { loginName: 'karim', role: 'MEMBER' },
          { loginName: 'lea', role: 'MEMBER' },
        ],
      },
    })
  })

  it('replaces the members of a group: a member not listed leaves it', async () => {
    const response = await request('PUT', `${GROUPS}/management`, { members: ['henri', 'julien'] })

    expect(response.json()).toEqual({ name: 'management', members: ['henri', 'julien'] })
    const { ines: _left, ...others } = DEMO_GROUPS
    expect(await storedGroups()).toEqual({ ...others, julien: 'management' })
  })

  it('the same members again: nothing changes', async () => {
    const response = await request('PUT', `${GROUPS}/management`, { members: ['ines', 'henri'] })

    expect(response.json()).toEqual({ name: 'management', members: ['henri', 'ines'] })
    expect(await storedGroups()).toEqual(DEMO_GROUPS)
  })

  it.each([
    [
      'a name that cannot be in a URL',
      'paris%20office',
      { members: ['alice'] },
      'pickup group name: "paris office" may contain only letters, digits, ".", "_" and "-"',
    ],
    [
      'a name too long',
      'g'.repeat(65),
      { members: ['alice'] },
      `pickup group name: "${'g'.repeat(65)}" is longer than 64 characters`,
    ],
    [
      'no members',
      'sales',
      { members: [] },
      'members: required, a list of at least one login name (DELETE the group to empty it)',
    ],
    [
      'members not a list',
      'sales',
      { members: 'alice' },
      'members: required, a list of at least one login name (DELETE the group to empty it)',
    ],
    [
      'an unknown field',
      'sales',
      { members: ['alice'], label: 'x' },
      'label: not a known field (members)',
    ],
    [
      'unknown users, a member twice, not a string',
      'sales',
      { members: ['alice', 'zed', 'alice', 7, 'admin'] },
      'The pickup group has 4 problems:\n' +
        '  members[1]: "zed" is not the login name of a user\n' +
        '  members[2]: "alice" is listed twice\n' +
        '  members[3]: must be a login name (a string)\n' +
        '  members[4]: "admin" is not the login name of a user',
    ],
  ])('refuses %s: 400 BAD_PARAMETER, nothing changed', async (_case, name, body, message) => {
    const response = await request('PUT', `${GROUPS}/${name}`, body)

    expectRestError(response, 400, 'BAD_PARAMETER', exactly(message))
    expect(await storedGroups()).toEqual(DEMO_GROUPS)
    expect(control.events).toEqual([])
  })
})

describe('DELETE /control/v1/pickupGroups/{name}', () => {
  it('takes every member out: 204, then 404; stored; each member told it left', async () => {
    const response = await request('DELETE', `${GROUPS}/lyon-warehouse`)

    expect(response.statusCode).toBe(204)
    expectRestError(await request('GET', `${GROUPS}/lyon-warehouse`), 404, 'NOT_FOUND')
    const { franck: _franck, gaelle: _gaelle, ...others } = DEMO_GROUPS
    expect(await storedGroups()).toEqual(others)
    expect(told()).toEqual([
      'OnGroupRemoved franck pickup-lyon-warehouse',
      'OnGroupRemoved gaelle pickup-lyon-warehouse',
    ])
  })

  it('answers 404 NOT_FOUND for a group no user is in, changing nothing', async () => {
    expectRestError(await request('DELETE', `${GROUPS}/nobody`), 404, 'NOT_FOUND')
    expect(await storedGroups()).toEqual(DEMO_GROUPS)
  })
})

describe("a user's pickupGroup", () => {
  it('is shown in the directory file format, and set, moved and removed by PATCH', async () => {
    const shown = expectSchema<DirectoryUserView>(
      DirectoryUserView,
      await request('GET', `${USERS}/bob`),
    )
    expect(shown.pickupGroup).toBe('paris-front-office')

    const moved = await request('PATCH', `${USERS}/bob`, { pickupGroup: 'management' })
    expect(expectSchema<DirectoryUserView>(DirectoryUserView, moved).pickupGroup).toBe('management')
    expect((await storedGroups())['bob']).toBe('management')

    const removed = await request('PATCH', `${USERS}/bob`, { pickupGroup: null })
    expect(expectSchema<DirectoryUserView>(DirectoryUserView, removed)).not.toHaveProperty(
      'pickupGroup',
    )
    expect(await storedGroups()).not.toHaveProperty('bob')
    // Not a field of the User record: no OnUserInfoChanged; the groups package tells who moved where.
    expect(told()).toEqual([
      'OnGroupCreated bob pickup-management',
      'OnGroupModified henri pickup-management',
      'OnGroupModified ines pickup-management',
      'OnGroupModified alice pickup-paris-front-office',
      'OnGroupModified karim pickup-paris-front-office',
      'OnGroupRemoved bob pickup-paris-front-office',
      'OnGroupModified henri pickup-management',
      'OnGroupModified ines pickup-management',
      'OnGroupRemoved bob pickup-management',
    ])
  })

  it('is given to a new user', async () => {
    const response = await request('POST', USERS, { ...newUser(), pickupGroup: 'management' })

    expect(expectSchema<DirectoryUserView>(DirectoryUserView, response, 201).pickupGroup).toBe(
      'management',
    )
    expect((await request('GET', `${GROUPS}/management`)).json()).toEqual({
      name: 'management',
      members: ['henri', 'ines', 'mona'],
    })
    // The User record of the event, as the API shows it, has no pickup group.
    const [created] = control.events
    expect(created?.['user']).not.toHaveProperty('pickupGroup')
    expect(Value.Check(User, created?.['user'])).toBe(true)
  })

  it('refuses a name that is not one: 400 BAD_PARAMETER naming the field, nothing changed', async () => {
    expectRestError(
      await request('PATCH', `${USERS}/bob`, { pickupGroup: 'front office' }),
      400,
      'BAD_PARAMETER',
      exactly('pickupGroup: "front office" may contain only letters, digits, ".", "_" and "-"'),
    )
    expectRestError(
      await request('PATCH', `${USERS}/bob`, { pickupGroup: 12 }),
      400,
      'BAD_PARAMETER',
      /^pickupGroup: /,
    )
    expect(await storedGroups()).toEqual(DEMO_GROUPS)
  })
})
