import {
  OnPreferencesChanged,
  OnUserCreated,
  OnUserDeleted,
  OnUserInfoChanged,
  type RestErrorType,
} from '@openness/wire'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../storage/sql/database.js'
import { SqlDirectoryStore } from '../../storage/sql/sql-directory-store.js'
import { PasswordHasher } from '../auth/password-hasher.js'
import type { Clock, EventSink, PlatformEvent } from '../events.js'
import type { StoredAccount } from './account.js'
import { Directory } from './directory.js'
import {
  DirectoryDevice,
  DirectoryDevicePatch,
  type DirectoryDocument,
  DirectoryUser,
  DirectoryUserPatch,
} from './directory-file-schema.js'
import { importDirectory } from './directory-import.js'
import type { DirectorySnapshot } from './directory-store.js'

const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 })
const WELL_FORMED_HASH = 'scrypt$1024$8$1$c2FsdA==$a2V5'

const clock: Clock = {
  now: () => Date.UTC(2026, 0, 1),
  setTimer: () => ({ cancel: () => {} }),
  sleep: async () => {},
}

/** Every event the directory publishes, in order. */
class RecordingSink implements EventSink {
  readonly events: PlatformEvent[] = []
  publish(event: PlatformEvent): void {
    this.events.push(event)
  }
}

/** alice is the assistant of carol; bob stands alone; admin is an administrator. */
function document(): DirectoryDocument {
  return {
    company: { name: 'Test Corp', nodeId: '7' },
    numberingPlan: {
      countryCode: 'FR',
      externalPrefix: '0',
      addPfxForNbLength: 4,
      extensionLength: 4,
    },
    licenses: { TELEPHONY_BASIC: 10, TELEPHONY_ADVANCED: 5, MESSAGING: 5, CONFERENCING: 1 },
    languages: { gui: ['en', 'fr'], tui: ['en'] },
    users: [
      {
        loginName: 'alice',
        password: 'demo-alice',
        salutation: 'MRS',
        firstName: 'Alice',
        lastName: 'Martin',
        type: 'STANDARD',
        companyPhone: '1001',
        companyEmail: 'alice@example.com',
        instantMessagingId: 'alice@im.example.com',
        apiRights: ['TELEPHONY_BASIC'],
        devices: [{ type: 'DESKPHONE', id: '1001', role: 'MAIN' }],
      },
      {
        loginName: 'bob',
        password: 'demo-bob',
        salutation: 'MR',
        firstName: 'Bob',
        lastName: 'Durand',
        type: 'STANDARD',
        companyPhone: '1002',
        apiRights: ['TELEPHONY_BASIC'],
        devices: [{ type: 'DESKPHONE', id: '1002' }],
      },
      {
        loginName: 'carol',
        password: 'demo-carol',
        salutation: 'MRS',
        firstName: 'Carol',
        lastName: 'Lefebvre',
        type: 'MULTIMEDIA',
        companyPhone: '1003',
        companyEmail: 'carol@example.com',
        apiRights: ['TELEPHONY_BASIC', 'MESSAGING'],
        devices: [
          { type: 'SOFTPHONE', id: '1003', role: 'MAIN' },
          { type: 'MOBILE', id: '1103', associatedNumber: '+33612345603' },
        ],
        assistants: ['alice'],
        clirMode: 'ACTIVE',
        preferences: { professionalMobile: '+33600000003' },
      },
    ],
    administrators: [{ loginName: 'admin', password: 'demo-admin', supervisor: true }],
  }
}

/** A user who is not in the directory yet. */
function erin(): DirectoryUser {
  return {
    loginName: 'erin',
    password: 'erin-password',
    salutation: 'MRS',
    firstName: 'Erin',
    lastName: 'Moreau',
    type: 'STANDARD',
    companyPhone: '1005',
    companyEmail: 'erin@example.com',
    instantMessagingId: 'erin@im.example.com',
    apiRights: ['TELEPHONY_BASIC'],
    devices: [{ type: 'DESKPHONE', id: '1005', role: 'MAIN' }],
    preferences: { guiLanguage: 'fr' },
  }
}

let store: SqlDirectoryStore
let directory: Directory
let sink: RecordingSink

beforeEach(async () => {
  store = new SqlDirectoryStore(await openDatabase({ kind: 'sqlite', filename: ':memory:' }))
  const snapshot = await importDirectory(document(), 'digest', undefined, hasher)
  const stored = { ...snapshot, revisions: await store.replace(snapshot) }
  sink = new RecordingSink()
  directory = new Directory(store, stored, hasher, clock, sink)
})

afterEach(async () => {
  await store.close()
})

async function loaded(): Promise<DirectorySnapshot> {
  const snapshot = await store.load()
  if (snapshot === undefined) throw new Error('nothing stored')
  return snapshot
}

async function stored(loginName: string): Promise<StoredAccount | undefined> {
  return (await loaded()).accounts.find((account) => account.loginName === loginName)
}

function user(loginName: string) {
  const found = directory.findUser(loginName)
  if (found === undefined) throw new Error(`no user ${loginName}`)
  return found
}

/** The full User view of a user as events carry it. */
function view(loginName: string) {
  return directory.userView(user(loginName), true)
}

/** Every event recorded is valid against its wire schema. */
function expectWireEvents(): void {
  const schemas: Record<string, TSchema> = {
    OnUserCreated,
    OnUserDeleted,
    OnUserInfoChanged,
    OnPreferencesChanged,
  }
  for (const event of sink.events) {
    const schema = schemas[event.eventName]
    expect(schema, event.eventName).toBeDefined()
    if (schema) expect([...Value.Errors(schema, event)]).toEqual([])
  }
}

/** Runs a change that must be refused, and checks that nothing changed: store, memory, events. */
async function expectRefused(
  change: () => Promise<unknown>,
  type: RestErrorType,
  message: string | RegExp,
): Promise<void> {
  const before = await loaded()
  const entries = directory.listUserLogins().map((login) => directory.userEntry(user(login)))
  await expect(change()).rejects.toMatchObject({
    name: 'PlatformError',
    type,
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  })
  expect(await loaded()).toStrictEqual(before)
  expect(directory.listUserLogins().map((login) => directory.userEntry(user(login)))).toEqual(
    entries,
  )
  expect(sink.events).toEqual([])
}

describe('Directory.createUser', () => {
  it('stores the user, indexes it and publishes OnUserCreated with the full User', async () => {
    const created = await directory.createUser(erin())

    expect(directory.findUser('erin')).toBe(created)
    expect(directory.findUserBy('companyPhone', '1005')?.loginName).toBe('erin')
    expect(directory.findUserBy('companyEmail', 'ERIN@example.com')?.loginName).toBe('erin')
    expect(directory.findUserBy('instantMessagingId', 'erin@im.example.com')?.loginName).toBe(
      'erin',
    )
    expect(directory.listUserLogins()).toEqual(['alice', 'bob', 'carol', 'erin'])
    expect(await stored('erin')).toEqual(created)
    expect(created.record).toEqual({
      loginName: 'erin',
      salutation: 'MRS',
      firstName: 'Erin',
      lastName: 'Moreau',
      type: 'STANDARD',
      companyPhone: '1005',
      companyEmail: 'erin@example.com',
      instantMessagingId: 'erin@im.example.com',
      apiRights: ['TELEPHONY_BASIC'],
      devices: [{ type: 'DESKPHONE', id: '1005', role: 'MAIN' }],
      clirMode: 'INACTIVE',
      nodeId: '7',
    })
    expect(created.preferences).toEqual({ guiLanguage: 'fr' })
    expect(sink.events).toEqual([
      { eventName: 'OnUserCreated', loginName: 'erin', user: view('erin') },
    ])
    expect(view('erin')).toMatchObject({ nodeId: '7', devices: [{ id: '1005' }] })
    expectWireEvents()
  })

  it('hashes the password, which then verifies', async () => {
    const created = await directory.createUser(erin())

    expect(created.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/)
    expect(created.passwordChangedAt).toBeUndefined()
    expect(await directory.verifyPassword('erin', 'erin-password')).toBe(created)
    expect(await directory.verifyPassword('erin', 'wrong')).toBeUndefined()
  })

  it('keeps a given passwordHash as it is, and gives no password when there is none', async () => {
    const { password: _password, ...withoutPassword } = erin()

    const hashed = await directory.createUser({
      ...withoutPassword,
      passwordHash: WELL_FORMED_HASH,
    })
    await directory.deleteUser('erin')
    const none = await directory.createUser(withoutPassword)

    expect(hashed.passwordHash).toBe(WELL_FORMED_HASH)
    expect(none.passwordHash).toBeUndefined()
    expect(await stored('erin')).not.toHaveProperty('passwordHash')
  })

  it('makes the new user manager of its assistants: both records, then OnUserInfoChanged for each', async () => {
    await directory.createUser({ ...erin(), assistants: ['bob', 'alice'] })

    const erinRecord = user('erin').record.configManagerAssistant
    expect(erinRecord).toEqual({
      assistants: [
        {
          id: { loginName: 'bob', phoneNumber: '1002' },
          firstName: 'Bob',
          lastName: 'Durand',
          displayName: 'Bob Durand',
          key: 1,
        },
        {
          id: {
            loginName: 'alice',
            phoneNumber: '1001',
            instantMessagingId: 'alice@im.example.com',
            companyEmail: 'alice@example.com',
          },
          firstName: 'Alice',
          lastName: 'Martin',
          displayName: 'Alice Martin',
          key: 2,
        },
      ],
      filters: [],
    })
    // alice already had carol: erin comes second.
    expect(
      user('alice').record.configManagerAssistant?.managers?.map((manager) => [
        manager.id.loginName,
        manager.key,
      ]),
    ).toEqual([
      ['carol', 1],
      ['erin', 2],
    ])
    expect(user('bob').record.configManagerAssistant?.managers?.[0]).toEqual({
      id: {
        loginName: 'erin',
        phoneNumber: '1005',
        instantMessagingId: 'erin@im.example.com',
        companyEmail: 'erin@example.com',
      },
      firstName: 'Erin',
      lastName: 'Moreau',
      displayName: 'Erin Moreau',
      key: 1,
      supervisedFilters: [],
    })
    expect(await stored('alice')).toEqual(user('alice'))
    expect(await stored('bob')).toEqual(user('bob'))
    expect(sink.events).toEqual([
      { eventName: 'OnUserCreated', loginName: 'erin', user: view('erin') },
      { eventName: 'OnUserInfoChanged', loginName: 'alice', user: view('alice') },
      { eventName: 'OnUserInfoChanged', loginName: 'bob', user: view('bob') },
    ])
    expectWireEvents()
  })

  it('builds the same records as an import of a file with that user', async () => {
    await directory.createUser({ ...erin(), assistants: ['bob'] })
    const file = document()
    file.users.push({ ...erin(), assistants: ['bob'] })

    const imported = await importDirectory(file, 'other', undefined, hasher)

    for (const login of ['alice', 'bob', 'carol', 'erin']) {
      const account = imported.accounts.find((one) => one.loginName === login)
      expect(user(login).record, login).toEqual(account?.record)
    }
  })

  it.each<[string, (entry: Record<string, unknown>) => unknown, RestErrorType, string | RegExp]>([
    [
      'not a mapping',
      () => ['erin'],
      'BAD_PARAMETER',
      'user: must be a mapping of fields (key: value)',
    ],
    [
      'required fields missing',
      ({ salutation: _s, type: _t, ...rest }) => rest,
      'BAD_PARAMETER',
      'The user has 2 problems:\n  salutation: is required\n  type: is required',
    ],
    [
      'an unknown field',
      (entry) => ({ ...entry, salutaton: 'MRS' }),
      'BAD_PARAMETER',
      'salutaton: is not a known field; did you mean salutation?',
    ],
    [
      'a number where a string is expected',
      (entry) => ({ ...entry, companyPhone: 1005 }),
      'BAD_PARAMETER',
      'companyPhone: must be a string; write it in quotes: "1005"',
    ],
    [
      'a value outside an enumeration',
      (entry) => ({ ...entry, type: 'VIP' }),
      'BAD_PARAMETER',
      'type: must be one of STANDARD, MULTIMEDIA',
    ],
    [
      'a login name with a space',
      (entry) => ({ ...entry, loginName: 'erin m' }),
      'BAD_PARAMETER',
      'loginName: "erin m" may contain only letters, digits, ".", "_" and "-"',
    ],
    [
      "another user's login name, whatever its case",
      (entry) => ({ ...entry, loginName: 'Alice' }),
      'NOT_EXPECTED',
      'loginName: "Alice" is already the login name of user alice as "alice" (case does not matter)',
    ],
    [
      "an administrator's login name",
      (entry) => ({ ...entry, loginName: 'admin' }),
      'NOT_EXPECTED',
      'loginName: "admin" is already the login name of administrator admin',
    ],
    [
      "another user's companyPhone",
      (entry) => ({ ...entry, companyPhone: '1002' }),
      'NOT_EXPECTED',
      'companyPhone: "1002" is already the companyPhone of user bob',
    ],
    [
      "another user's companyEmail, whatever its case",
      (entry) => ({ ...entry, companyEmail: 'Carol@Example.com' }),
      'NOT_EXPECTED',
      'companyEmail: "Carol@Example.com" is already the companyEmail of user carol as "carol@example.com" (case does not matter)',
    ],
    [
      "another user's instantMessagingId",
      (entry) => ({ ...entry, instantMessagingId: 'alice@im.example.com' }),
      'NOT_EXPECTED',
      'instantMessagingId: "alice@im.example.com" is already the instantMessagingId of user alice',
    ],
    [
      "another user's device id",
      (entry) => ({ ...entry, devices: [{ type: 'MOBILE', id: '1103' }] }),
      'NOT_EXPECTED',
      'devices[0].id: "1103" is already the id of a device of user carol',
    ],
    [
      'the same device id twice',
      (entry) => ({
        ...entry,
        devices: [
          { type: 'DESKPHONE', id: '1005' },
          { type: 'DECT', id: '1005' },
        ],
      }),
      'NOT_EXPECTED',
      'devices[1].id: "1005" is already the id of devices[0]',
    ],
    [
      'a device id that is not a number',
      (entry) => ({ ...entry, devices: [{ type: 'DESKPHONE', id: 'desk' }] }),
      'BAD_PARAMETER',
      'devices[0].id: "desk" must be made of digits: a device id is its phone number',
    ],
    [
      'two MAIN devices',
      (entry) => ({
        ...entry,
        devices: [
          { type: 'DESKPHONE', id: '1005', role: 'MAIN' },
          { type: 'DECT', id: '1105', role: 'MAIN' },
        ],
      }),
      'BAD_PARAMETER',
      'devices[1].role: a user has at most one MAIN device, and devices[0] is MAIN already',
    ],
    [
      'both password and passwordHash',
      (entry) => ({ ...entry, passwordHash: WELL_FORMED_HASH }),
      'BAD_PARAMETER',
      'user: has both password and passwordHash; give only one',
    ],
    [
      'a malformed passwordHash',
      ({ password: _p, ...entry }) => ({ ...entry, passwordHash: 'secret' }),
      'BAD_PARAMETER',
      /^passwordHash: is not a password hash of the form scrypt/,
    ],
    [
      'an application right of the other user type',
      (entry) => ({ ...entry, applicationRights: ['NOMADIC'] }),
      'BAD_PARAMETER',
      'applicationRights[0]: NOMADIC is for MULTIMEDIA users only, and this user is STANDARD',
    ],
    [
      'a professional mobile for a STANDARD user',
      (entry) => ({ ...entry, preferences: { professionalMobile: '+33600000005' } }),
      'BAD_PARAMETER',
      'preferences.professionalMobile: only MULTIMEDIA users have a professional mobile, and this user is STANDARD',
    ],
    [
      'a language the directory does not offer',
      (entry) => ({ ...entry, preferences: { guiLanguage: 'de' } }),
      'BAD_PARAMETER',
      'preferences.guiLanguage: de is not one of languages.gui (en, fr)',
    ],
    [
      'an assistant who is not a user',
      (entry) => ({ ...entry, assistants: ['admin'] }),
      'BAD_PARAMETER',
      'assistants[0]: "admin" is not the login name of a user',
    ],
    [
      'itself as its assistant',
      (entry) => ({ ...entry, assistants: ['erin'] }),
      'BAD_PARAMETER',
      'assistants[0]: a user cannot be its own assistant',
    ],
    [
      'a conflict and a bad value: BAD_PARAMETER naming both',
      (entry) => ({
        ...entry,
        companyPhone: '1001',
        type: 'MULTIMEDIA',
        applicationRights: ['NOMADIC_SIP'],
      }),
      'BAD_PARAMETER',
      'The user has 2 problems:\n  companyPhone: "1001" is already the companyPhone of user alice\n  applicationRights[0]: NOMADIC_SIP is for STANDARD users only, and this user is MULTIMEDIA',
    ],
  ])('refuses %s, changing nothing', async (_case, edit, type, message) => {
    await expectRefused(() => directory.createUser(edit({ ...erin() })), type, message)
    expect(directory.findUser('erin')).toBeUndefined()
  })

  it('runs concurrent changes one after the other: the second creation of a login name is refused', async () => {
    const { password: _password, ...entry } = erin()
    const first = { ...entry, passwordHash: WELL_FORMED_HASH }

    const results = await Promise.allSettled([
      directory.createUser(first),
      directory.createUser({ ...first, companyPhone: '1006', devices: [] }),
    ])

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected'])
    expect(results[1]).toMatchObject({ reason: { type: 'NOT_EXPECTED' } })
    expect(user('erin').record.companyPhone).toBe('1005')
    expect(sink.events.map((event) => event.eventName)).toEqual(['OnUserCreated'])
  })

  it('refuses the later of two creations that race while hashing their passwords', async () => {
    const results = await Promise.allSettled([
      directory.createUser(erin()),
      directory.createUser({ ...erin(), companyPhone: '1006', devices: [] }),
    ])

    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(await stored('erin')).toEqual(user('erin'))
    expect(sink.events.map((event) => event.eventName)).toEqual(['OnUserCreated'])
  })
})

describe('Directory.updateUser', () => {
  it('replaces the fields given, removes those set to null, keeps the others; publishes OnUserInfoChanged', async () => {
    const updated = await directory.updateUser('bob', {
      firstName: 'Robert',
      site: 'Lyon',
      companyEmail: 'robert@example.com',
    })
    await directory.updateUser('bob', { site: null })

    expect(updated.record).toMatchObject({ firstName: 'Robert', lastName: 'Durand', site: 'Lyon' })
    expect(user('bob').record).not.toHaveProperty('site')
    expect(user('bob').record.companyEmail).toBe('robert@example.com')
    expect(await stored('bob')).toEqual(user('bob'))
    expect(directory.findUserBy('companyEmail', 'robert@example.com')?.loginName).toBe('bob')
    expect(sink.events).toEqual([
      {
        eventName: 'OnUserInfoChanged',
        loginName: 'bob',
        user: directory.userView(updated, true),
      },
      { eventName: 'OnUserInfoChanged', loginName: 'bob', user: view('bob') },
    ])
    expectWireEvents()
  })

  it('drops the index entries of the values it replaces or removes', async () => {
    await directory.updateUser('alice', {
      companyPhone: '1011',
      companyEmail: null,
      instantMessagingId: 'a@im.example.com',
      devices: [{ type: 'DECT', id: '1111' }],
    })

    expect(directory.findUserBy('companyPhone', '1001')).toBeUndefined()
    expect(directory.findUserBy('companyEmail', 'alice@example.com')).toBeUndefined()
    expect(directory.findUserBy('instantMessagingId', 'alice@im.example.com')).toBeUndefined()
    expect(directory.findUserBy('companyPhone', '1011')?.loginName).toBe('alice')
    expect(directory.findUserBy('companyPhone', '1111')?.loginName).toBe('alice')
    expect(directory.findUserBy('instantMessagingId', 'A@IM.example.com')?.loginName).toBe('alice')
  })

  it('accepts its own values and its own login name: a shown user sent back changes nothing', async () => {
    const before = await loaded()

    const same = await directory.updateUser('carol', directory.userEntry(user('carol')))

    expect(same).toBe(user('carol'))
    expect(await loaded()).toStrictEqual(before)
    expect(sink.events).toEqual([])
  })

  it('sets a password, which rules from now on like the file’s, and publishes nothing', async () => {
    await directory.changePassword('bob', 'demo-bob', 'chosen-by-bob')
    expect(user('bob').passwordChangedAt).toBeDefined()

    await directory.updateUser('bob', { password: 'reset-by-operator' })

    expect(await directory.verifyPassword('bob', 'reset-by-operator')).toBeDefined()
    expect(await directory.verifyPassword('bob', 'chosen-by-bob')).toBeUndefined()
    expect(user('bob').passwordChangedAt).toBeUndefined()
    expect(await stored('bob')).toEqual(user('bob'))
    expect(sink.events).toEqual([])
  })

  it('sets a passwordHash as it is, and removes the password with null', async () => {
    await directory.updateUser('bob', { passwordHash: WELL_FORMED_HASH })
    expect(user('bob').passwordHash).toBe(WELL_FORMED_HASH)

    await directory.updateUser('bob', { password: null })

    expect(user('bob').passwordHash).toBeUndefined()
    expect(await stored('bob')).not.toHaveProperty('passwordHash')
    expect(await directory.verifyPassword('bob', 'demo-bob')).toBeUndefined()
  })

  it('replaces the preferences as a whole and publishes OnPreferencesChanged alone', async () => {
    await directory.updatePreferences(user('carol'), { guiLanguage: 'en' })
    sink.events.length = 0

    await directory.updateUser('carol', { preferences: { tuiLanguage: 'en' } })

    expect(user('carol').preferences).toEqual({ tuiLanguage: 'en' })
    expect(await stored('carol')).toEqual(user('carol'))
    expect(sink.events).toEqual([
      {
        eventName: 'OnPreferencesChanged',
        loginName: 'carol',
        preferences: { tuiLanguage: 'en', telephony: { clirMode: 'ACTIVE' } },
      },
    ])
    expectWireEvents()
  })

  it('publishes OnPreferencesChanged when a new clirMode changes the mode in force', async () => {
    await directory.updateUser('carol', { clirMode: 'NOT_SUPPORTED' })

    expect(directory.clirMode(user('carol'))).toBe('NOT_SUPPORTED')
    expect(sink.events).toEqual([
      {
        eventName: 'OnPreferencesChanged',
        loginName: 'carol',
        preferences: {
          professionalMobile: '+33600000003',
          telephony: { clirMode: 'NOT_SUPPORTED' },
        },
      },
    ])
  })

  it('publishes both events in order when the record and the preferences change', async () => {
    await directory.updateUser('bob', { lastName: 'Dupont', preferences: { guiLanguage: 'fr' } })

    expect(sink.events.map((event) => event.eventName)).toEqual([
      'OnUserInfoChanged',
      'OnPreferencesChanged',
    ])
  })

  it('is not blocked by a language the user chose through the API that the file rule refuses', async () => {
    await directory.updatePreferences(user('bob'), { guiLanguage: 'fr_CA' })

    await directory.updateUser('bob', { department: 'Sales' })

    expect(user('bob').preferences.guiLanguage).toBe('fr_CA')
    expect(user('bob').record.department).toBe('Sales')
  })

  it('gives its assistants to a manager: the assistant gains the manager', async () => {
    await directory.updateUser('bob', { assistants: ['alice'] })

    expect(
      user('alice').record.configManagerAssistant?.managers?.map((manager) => manager.id.loginName),
    ).toEqual(['carol', 'bob'])
    expect(sink.events).toEqual([
      { eventName: 'OnUserInfoChanged', loginName: 'bob', user: view('bob') },
      { eventName: 'OnUserInfoChanged', loginName: 'alice', user: view('alice') },
    ])
  })

  it('takes an assistant away: the assistant loses the manager, and its record when it has no other', async () => {
    await directory.updateUser('carol', { assistants: null })

    expect(user('carol').record).not.toHaveProperty('configManagerAssistant')
    expect(user('alice').record).not.toHaveProperty('configManagerAssistant')
    expect(directory.userEntry(user('carol'))).not.toHaveProperty('assistants')
    expect(await stored('alice')).toEqual(user('alice'))
    expect(sink.events.map((event) => [event.eventName, event.loginName])).toEqual([
      ['OnUserInfoChanged', 'carol'],
      ['OnUserInfoChanged', 'alice'],
    ])
  })

  it("refreshes a manager's copy of its assistant when the assistant's identity changes", async () => {
    await directory.updateUser('alice', { companyPhone: '1011', lastName: 'Bernard' })

    expect(user('carol').record.configManagerAssistant?.assistants?.[0]).toMatchObject({
      id: { loginName: 'alice', phoneNumber: '1011' },
      lastName: 'Bernard',
      displayName: 'Alice Bernard',
      key: 1,
    })
    expect(await stored('carol')).toEqual(user('carol'))
    expect(sink.events).toEqual([
      { eventName: 'OnUserInfoChanged', loginName: 'alice', user: view('alice') },
      { eventName: 'OnUserInfoChanged', loginName: 'carol', user: view('carol') },
    ])
  })

  it.each<[string, string, unknown, RestErrorType, string | RegExp]>([
    ['an unknown user', 'zed', { firstName: 'Z' }, 'NOT_FOUND', "No user 'zed'"],
    ['an administrator', 'admin', { firstName: 'A' }, 'NOT_FOUND', "No user 'admin'"],
    [
      'a patch that is not a mapping',
      'bob',
      'Robert',
      'BAD_PARAMETER',
      'user: must be a mapping of fields (key: value)',
    ],
    [
      'a new login name',
      'bob',
      { loginName: 'robert' },
      'BAD_PARAMETER',
      'loginName: cannot change (it is "bob"); delete the user and create it again',
    ],
    [
      'a required field removed',
      'bob',
      { lastName: null, type: null },
      'BAD_PARAMETER',
      'The user has 2 problems:\n  lastName: is required: it cannot be removed\n  type: is required: it cannot be removed',
    ],
    [
      'an unknown field',
      'bob',
      { nickname: 'Bobby' },
      'BAD_PARAMETER',
      /^nickname: is not a known field/,
    ],
    [
      "another user's companyPhone",
      'bob',
      { companyPhone: '1003' },
      'NOT_EXPECTED',
      'companyPhone: "1003" is already the companyPhone of user carol',
    ],
    [
      "another user's device id",
      'bob',
      { devices: [{ type: 'DESKPHONE', id: '1001' }] },
      'NOT_EXPECTED',
      'devices[0].id: "1001" is already the id of a device of user alice',
    ],
    [
      'a type its stored preferences do not allow',
      'carol',
      { type: 'STANDARD' },
      'BAD_PARAMETER',
      'preferences.professionalMobile: only MULTIMEDIA users have a professional mobile, and this user is STANDARD',
    ],
    [
      'a language the directory does not offer',
      'bob',
      { preferences: { tuiLanguage: 'fr' } },
      'BAD_PARAMETER',
      'preferences.tuiLanguage: fr is not one of languages.tui (en)',
    ],
    [
      'both password and passwordHash',
      'bob',
      { password: 'x', passwordHash: WELL_FORMED_HASH },
      'BAD_PARAMETER',
      'user: has both password and passwordHash; give only one',
    ],
    [
      'an assistant who is not a user',
      'bob',
      { assistants: ['zed'] },
      'BAD_PARAMETER',
      'assistants[0]: "zed" is not the login name of a user',
    ],
  ])('refuses %s, changing nothing', async (_case, login, patch, type, message) => {
    await expectRefused(() => directory.updateUser(login, patch), type, message)
  })
})

describe('Directory.deleteUser', () => {
  it('forgets the user everywhere and publishes OnUserDeleted', async () => {
    await directory.deleteUser('bob')

    expect(directory.findUser('bob')).toBeUndefined()
    expect(directory.findAccount('bob')).toBeUndefined()
    expect(directory.findUserBy('companyPhone', '1002')).toBeUndefined()
    expect(directory.listUserLogins()).toEqual(['alice', 'carol'])
    expect(await stored('bob')).toBeUndefined()
    expect(await directory.verifyPassword('bob', 'demo-bob')).toBeUndefined()
    expect(sink.events).toEqual([{ eventName: 'OnUserDeleted', loginName: 'bob' }])
    expectWireEvents()
  })

  it("removes a deleted assistant from its manager's record, then publishes the manager's change", async () => {
    await directory.deleteUser('alice')

    expect(user('carol').record).not.toHaveProperty('configManagerAssistant')
    expect(await stored('carol')).toEqual(user('carol'))
    expect(sink.events).toEqual([
      { eventName: 'OnUserDeleted', loginName: 'alice' },
      { eventName: 'OnUserInfoChanged', loginName: 'carol', user: view('carol') },
    ])
  })

  it("removes a deleted manager from its assistants' records", async () => {
    await directory.deleteUser('carol')

    expect(user('alice').record).not.toHaveProperty('configManagerAssistant')
    expect(sink.events.map((event) => [event.eventName, event.loginName])).toEqual([
      ['OnUserDeleted', 'carol'],
      ['OnUserInfoChanged', 'alice'],
    ])
  })

  it("leaves a number it shared with another user's device to that user", async () => {
    // A company phone and another user's device id may be equal; the company phone wins the lookup.
    await directory.addDevice('bob', { type: 'DECT', id: '1005' })
    await directory.createUser({ ...erin(), devices: [] })
    expect(directory.findUserBy('companyPhone', '1005')?.loginName).toBe('erin')

    await directory.deleteUser('erin')

    expect(directory.findUserBy('companyPhone', '1005')?.loginName).toBe('bob')
  })

  it('lets the login name be created again, afresh', async () => {
    await directory.createUser(erin())
    await directory.deleteUser('erin')

    const again = await directory.createUser({ ...erin(), preferences: undefined })

    expect(again.preferences).toEqual({})
    expect(await stored('erin')).toEqual(again)
  })

  it.each([
    ['an unknown user', 'zed'],
    ['an administrator', 'admin'],
  ])('refuses %s with NOT_FOUND, changing nothing', async (_case, login) => {
    await expectRefused(() => directory.deleteUser(login), 'NOT_FOUND', `No user '${login}'`)
  })
})

describe('Directory devices', () => {
  it('adds a device at the end and publishes OnUserInfoChanged', async () => {
    const added = await directory.addDevice('bob', { type: 'SOFTPHONE', id: '1202', label: 'PC' })

    expect(added).toEqual({ type: 'SOFTPHONE', id: '1202', label: 'PC' })
    expect(user('bob').record.devices).toEqual([
      { type: 'DESKPHONE', id: '1002' },
      { type: 'SOFTPHONE', id: '1202', label: 'PC' },
    ])
    expect(directory.findUserBy('companyPhone', '1202')?.loginName).toBe('bob')
    expect(await stored('bob')).toEqual(user('bob'))
    expect(sink.events).toEqual([
      { eventName: 'OnUserInfoChanged', loginName: 'bob', user: view('bob') },
    ])
    expectWireEvents()
  })

  it('changes a device: fields given replace, null removes; publishes OnUserInfoChanged', async () => {
    const updated = await directory.updateDevice('carol', '1103', {
      label: 'Work mobile',
      associatedNumber: null,
      role: 'SECONDARY',
    })

    expect(updated).toEqual({ type: 'MOBILE', id: '1103', label: 'Work mobile', role: 'SECONDARY' })
    expect(user('carol').record.devices).toEqual([
      { type: 'SOFTPHONE', id: '1003', role: 'MAIN' },
      { type: 'MOBILE', id: '1103', label: 'Work mobile', role: 'SECONDARY' },
    ])
    expect(await stored('carol')).toEqual(user('carol'))
    expect(sink.events).toEqual([
      { eventName: 'OnUserInfoChanged', loginName: 'carol', user: view('carol') },
    ])
  })

  it('stores and publishes nothing for a device change that changes nothing', async () => {
    const before = await loaded()

    await directory.updateDevice('carol', '1103', { id: '1103', type: 'MOBILE' })

    expect(await loaded()).toStrictEqual(before)
    expect(sink.events).toEqual([])
  })

  it('removes a device and its index entry; publishes OnUserInfoChanged', async () => {
    await directory.removeDevice('carol', '1103')

    expect(user('carol').record.devices).toEqual([{ type: 'SOFTPHONE', id: '1003', role: 'MAIN' }])
    expect(directory.findUserBy('companyPhone', '1103')).toBeUndefined()
    expect(await stored('carol')).toEqual(user('carol'))
    expect(sink.events).toEqual([
      { eventName: 'OnUserInfoChanged', loginName: 'carol', user: view('carol') },
    ])
  })

  it.each<[string, () => Promise<unknown>, RestErrorType, string | RegExp]>([
    [
      'adding to an unknown user',
      () => directory.addDevice('zed', { type: 'DECT', id: '1999' }),
      'NOT_FOUND',
      "No user 'zed'",
    ],
    [
      'adding a device that is not a mapping',
      () => directory.addDevice('bob', '1999'),
      'BAD_PARAMETER',
      'device: must be a mapping of fields (key: value)',
    ],
    [
      'adding a device without a type',
      () => directory.addDevice('bob', { id: '1999' }),
      'BAD_PARAMETER',
      'type: is required',
    ],
    [
      'adding a device with an unknown field',
      () => directory.addDevice('bob', { type: 'DECT', id: '1999', colour: 'red' }),
      'BAD_PARAMETER',
      /^colour: is not a known field/,
    ],
    [
      'adding a device id that is not a number',
      () => directory.addDevice('bob', { type: 'DECT', id: 'x' }),
      'BAD_PARAMETER',
      'id: "x" must be made of digits: a device id is its phone number',
    ],
    [
      "adding another user's device id",
      () => directory.addDevice('bob', { type: 'DECT', id: '1103' }),
      'NOT_EXPECTED',
      'id: "1103" is already the id of a device of user carol',
    ],
    [
      "adding the user's own device id again",
      () => directory.addDevice('bob', { type: 'DECT', id: '1002' }),
      'NOT_EXPECTED',
      'id: "1002" is already the id of devices[0]',
    ],
    [
      'adding a second MAIN device',
      () => directory.addDevice('carol', { type: 'DECT', id: '1203', role: 'MAIN' }),
      'BAD_PARAMETER',
      'role: a user has at most one MAIN device, and devices[0] is MAIN already',
    ],
    [
      'changing an unknown device',
      () => directory.updateDevice('carol', '1999', { label: 'x' }),
      'NOT_FOUND',
      "User 'carol' has no device '1999'",
    ],
    [
      'changing a device id',
      () => directory.updateDevice('carol', '1103', { id: '1104' }),
      'BAD_PARAMETER',
      'id: cannot change (it is "1103"); remove the device and add it again',
    ],
    [
      'removing the type of a device',
      () => directory.updateDevice('carol', '1103', { type: null }),
      'BAD_PARAMETER',
      'type: is required: it cannot be removed',
    ],
    [
      'changing a device to a second MAIN',
      () => directory.updateDevice('carol', '1103', { role: 'MAIN' }),
      'BAD_PARAMETER',
      'role: a user has at most one MAIN device, and devices[0] is MAIN already',
    ],
    [
      'changing a device type to an unknown one',
      () => directory.updateDevice('carol', '1103', { type: 'PAGER' }),
      'BAD_PARAMETER',
      /^type: must be one of DECT, /,
    ],
    [
      'removing an unknown device',
      () => directory.removeDevice('carol', '1999'),
      'NOT_FOUND',
      "User 'carol' has no device '1999'",
    ],
    [
      'removing a device of an unknown user',
      () => directory.removeDevice('zed', '1001'),
      'NOT_FOUND',
      "No user 'zed'",
    ],
  ])('refuses %s, changing nothing', async (_case, change, type, message) => {
    await expectRefused(change, type, message)
  })
})

describe('Directory.userViewJson', () => {
  /** JSON.stringify, counting its calls. */
  function countingSerializer() {
    const serializer = (view: object) => {
      serializer.calls++
      return JSON.stringify(view)
    }
    serializer.calls = 0
    return serializer
  }

  it("is the serializer's text of the view, made once per account and view kind", () => {
    const serialize = countingSerializer()
    const full = directory.userViewJson(user('alice'), true, serialize)
    const partial = directory.userViewJson(user('alice'), false, serialize)

    expect(JSON.parse(full)).toEqual(directory.userView(user('alice'), true))
    expect(JSON.parse(partial)).toEqual(directory.userView(user('alice'), false))
    expect(full).not.toBe(partial)
    expect(directory.userViewJson(user('alice'), true, serialize)).toBe(full)
    expect(directory.userViewJson(user('alice'), false, serialize)).toBe(partial)
    expect(JSON.parse(directory.userViewJson(user('bob'), true, serialize)).loginName).toBe('bob')
    expect(serialize.calls).toBe(3)
  })

  it('follows a change of the account', async () => {
    const serialize = countingSerializer()
    directory.userViewJson(user('bob'), true, serialize)
    await directory.updateUser('bob', { firstName: 'Robert' })

    const json = directory.userViewJson(user('bob'), true, serialize)

    expect(JSON.parse(json)).toEqual(view('bob'))
    expect(JSON.parse(json).firstName).toBe('Robert')
    expect(serialize.calls).toBe(2)
  })

  it('follows a change of the settings, the accounts unchanged', async () => {
    const serialize = countingSerializer()
    const before = JSON.parse(directory.userViewJson(user('alice'), true, serialize))
    const account = user('alice')
    const snapshot = await loaded()
    const { numberingPlan } = snapshot.settings
    await store.replace({
      ...snapshot,
      settings: { ...snapshot.settings, numberingPlan: { ...numberingPlan, countryCode: 'DE' } },
    })
    await directory.restored({ accounts: [], settings: true })

    const after = JSON.parse(directory.userViewJson(user('alice'), true, serialize))

    // The same account: only the settings (the plan's dialing rule) made the text change.
    expect(user('alice')).toBe(account)
    expect(before.dialingRule).toMatchObject({ countryCode: 'FR' })
    expect(after.dialingRule).toMatchObject({ countryCode: 'DE' })
    expect(after).toEqual(view('alice'))
    expect(serialize.calls).toBe(2)
  })
})

describe('the change schemas', () => {
  it('name the same fields as the records they change', () => {
    expect(Object.keys(DirectoryUserPatch.properties).sort()).toEqual(
      Object.keys(DirectoryUser.properties).sort(),
    )
    expect(Object.keys(DirectoryDevicePatch.properties).sort()).toEqual(
      Object.keys(DirectoryDevice.properties).sort(),
    )
  })
})
