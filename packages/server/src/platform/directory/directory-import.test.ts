import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { parse } from 'yaml'
import type { ContactCenterDefinition, OperatorDefinition } from '../acd/contact-center.js'
import { PasswordHasher } from '../auth/password-hasher.js'
import type { DirectorySettings, StoredAccount, UserRecord } from './account.js'
import { validateDirectoryDocument } from './directory-document.js'
import type { DirectoryDocument } from './directory-file-schema.js'
import { importDirectory } from './directory-import.js'
import type { DirectorySnapshot } from './directory-store.js'

const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 })

const DEMO_FILE = new URL('../../../directory/demo-directory.yaml', import.meta.url)

function demoDocument(): DirectoryDocument {
  const result = validateDirectoryDocument(parse(readFileSync(DEMO_FILE, 'utf8')))
  if (!('document' in result)) throw new Error(result.errors.join('\n'))
  return result.document
}

/** A small document: a STANDARD user, a MULTIMEDIA user who is her manager, two administrators. */
function smallDocument(): DirectoryDocument {
  return {
    company: { name: 'Test Corp' },
    numberingPlan: {
      countryCode: 'FR',
      areaCode: '1',
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
        apiRights: ['TELEPHONY_BASIC'],
        devices: [{ type: 'DESKPHONE', id: '1001', role: 'MAIN' }],
        preferences: { guiLanguage: 'fr' },
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
        instantMessagingId: 'carol@im.example.com',
        sipUri: 'sip:1003@example.com',
        site: 'Paris',
        department: 'Marketing',
        apiRights: ['TELEPHONY_BASIC', 'MESSAGING'],
        applicationRights: ['NOMADIC'],
        devices: [
          { type: 'SOFTPHONE', id: '1003', role: 'MAIN' },
          { type: 'MOBILE', id: '1103', associatedNumber: '+33612345603', role: 'SECONDARY' },
        ],
        voicemail: { number: '8000', type: 'VM_UM' },
        dialingRule: {
          countryCode: 'FR',
          areaCode: '4',
          externalPrefix: '0',
          addPfxForNbLength: 4,
        },
        customAttributes: { global: { costCenter: 'CC-100' } },
        assistants: ['alice'],
        clirMode: 'ACTIVE',
      },
    ],
    administrators: [
      { loginName: 'admin', password: 'demo-admin', firstName: 'Ada', supervisor: true },
      { loginName: 'operator', password: 'demo-operator' },
    ],
  }
}

function account(snapshot: DirectorySnapshot, loginName: string): StoredAccount {
  const found = snapshot.accounts.find((candidate) => candidate.loginName === loginName)
  if (found === undefined) throw new Error(`no account ${loginName}`)
  return found
}

function userRecord(snapshot: DirectorySnapshot, loginName: string): UserRecord {
  const found = account(snapshot, loginName)
  if (found.kind !== 'USER') throw new Error(`${loginName} is not a user`)
  return found.record
}

/** The stored account of `loginName` after an API change of its password. */
async function withChangedPassword(
  snapshot: DirectorySnapshot,
  loginName: string,
  newPassword: string,
): Promise<DirectorySnapshot> {
  const passwordHash = await hasher.hash(newPassword)
  return {
    ...snapshot,
    accounts: snapshot.accounts.map((stored) =>
      stored.loginName === loginName
        ? { ...stored, passwordHash, passwordChangedAt: '2025-01-02T03:04:05.000Z' }
        : stored,
    ),
  }
}

describe('importDirectory, first import', () => {
  it('builds the settings, with the defaults of what the file omits', async () => {
    const snapshot = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    expect(snapshot.sourceDigest).toBe('digest-1')
    expect(snapshot.settings).toStrictEqual({
      companyName: 'Test Corp',
      nodeId: '1',
      numberingPlan: {
        countryCode: 'FR',
        areaCode: '1',
        externalPrefix: '0',
        addPfxForNbLength: 4,
        exceptionRules: [],
        extensionLength: 4,
      },
      licenses: { TELEPHONY_BASIC: 10, TELEPHONY_ADVANCED: 5, MESSAGING: 5, CONFERENCING: 1 },
      languages: { gui: ['en', 'fr'], tui: ['en'] },
    } satisfies DirectorySettings)
  })

  it('builds every account in the order of the file, users first', async () => {
    const snapshot = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    expect(snapshot.accounts.map((stored) => `${stored.kind} ${stored.loginName}`)).toEqual([
      'USER alice',
      'USER carol',
      'ADMINISTRATOR admin',
      'ADMINISTRATOR operator',
    ])
  })

  it('builds a user record with the defaults, and the manager side of manager/assistant', async () => {
    const snapshot = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const carol = account(snapshot, 'carol')
    expect(carol).toStrictEqual({
      kind: 'USER',
      loginName: 'carol',
      record: {
        loginName: 'carol',
        salutation: 'MRS',
        firstName: 'Carol',
        lastName: 'Lefebvre',
        type: 'MULTIMEDIA',
        companyPhone: '1003',
        companyEmail: 'carol@example.com',
        instantMessagingId: 'carol@im.example.com',
        sipUri: 'sip:1003@example.com',
        site: 'Paris',
        department: 'Marketing',
        apiRights: ['TELEPHONY_BASIC', 'MESSAGING'],
        applicationRights: ['NOMADIC'],
        devices: [
          { type: 'SOFTPHONE', id: '1003', role: 'MAIN' },
          { type: 'MOBILE', id: '1103', associatedNumber: '+33612345603', role: 'SECONDARY' },
        ],
        voicemail: { number: '8000', type: 'VM_UM' },
        dialingRule: {
          countryCode: 'FR',
          areaCode: '4',
          externalPrefix: '0',
          addPfxForNbLength: 4,
        },
        customAttributes: { global: { costCenter: 'CC-100' } },
        configManagerAssistant: {
          assistants: [
            {
              id: { loginName: 'alice', phoneNumber: '1001' },
              firstName: 'Alice',
              lastName: 'Martin',
              displayName: 'Alice Martin',
              key: 1,
            },
          ],
          filters: [],
        },
        clirMode: 'ACTIVE',
        nodeId: '1',
      },
      passwordHash: expect.stringMatching(/^scrypt\$1024\$8\$1\$/),
      preferences: {},
    })
    if (carol.passwordHash === undefined) throw new Error('no hash')
    expect(await hasher.verify('demo-carol', carol.passwordHash)).toBe(true)
  })

  it('gives a user without a dialing rule none, the INACTIVE clirMode and the assistant side', async () => {
    const snapshot = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const alice = account(snapshot, 'alice')
    expect(alice).toStrictEqual({
      kind: 'USER',
      loginName: 'alice',
      record: {
        loginName: 'alice',
        salutation: 'MRS',
        firstName: 'Alice',
        lastName: 'Martin',
        type: 'STANDARD',
        companyPhone: '1001',
        apiRights: ['TELEPHONY_BASIC'],
        devices: [{ type: 'DESKPHONE', id: '1001', role: 'MAIN' }],
        configManagerAssistant: {
          managers: [
            {
              id: {
                loginName: 'carol',
                phoneNumber: '1003',
                instantMessagingId: 'carol@im.example.com',
                companyEmail: 'carol@example.com',
              },
              firstName: 'Carol',
              lastName: 'Lefebvre',
              displayName: 'Carol Lefebvre',
              key: 1,
              supervisedFilters: [],
            },
          ],
        },
        clirMode: 'INACTIVE',
        nodeId: '1',
      },
      passwordHash: expect.stringMatching(/^scrypt\$1024\$8\$1\$/),
      preferences: { guiLanguage: 'fr' },
    })
    expect('dialingRule' in alice.record).toBe(false)
  })

  it('builds administrator records, supervisor false by default', async () => {
    const snapshot = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    expect(account(snapshot, 'admin')).toStrictEqual({
      kind: 'ADMINISTRATOR',
      loginName: 'admin',
      record: { loginName: 'admin', firstName: 'Ada', supervisor: true },
      passwordHash: expect.stringMatching(/^scrypt\$1024\$8\$1\$/),
      preferences: {},
    })
    expect(account(snapshot, 'operator')).toStrictEqual({
      kind: 'ADMINISTRATOR',
      loginName: 'operator',
      record: { loginName: 'operator', supervisor: false },
      passwordHash: expect.stringMatching(/^scrypt\$1024\$8\$1\$/),
      preferences: {},
    })
  })

  it('uses the passwordHash of the file as it is', async () => {
    const passwordHash = await hasher.hash('from-a-hash')
    const document = smallDocument()
    document.administrators = [{ loginName: 'admin', passwordHash }]
    const snapshot = await importDirectory(document, 'digest-1', undefined, hasher)
    expect(account(snapshot, 'admin')).toStrictEqual({
      kind: 'ADMINISTRATOR',
      loginName: 'admin',
      record: { loginName: 'admin', supervisor: false },
      passwordHash,
      preferences: {},
    })
  })

  it('gives an account without a password in the file no hash', async () => {
    const document = smallDocument()
    document.administrators = [{ loginName: 'admin' }]
    const snapshot = await importDirectory(document, 'digest-1', undefined, hasher)
    expect(account(snapshot, 'admin')).toStrictEqual({
      kind: 'ADMINISTRATOR',
      loginName: 'admin',
      record: { loginName: 'admin', supervisor: false },
      preferences: {},
    })
  })

  it('takes the company node id of the file into the settings and every user record', async () => {
    const document = smallDocument()
    document.company.nodeId = '7'
    const snapshot = await importDirectory(document, 'digest-1', undefined, hasher)
    expect(snapshot.settings.nodeId).toBe('7')
    expect(
      snapshot.accounts.flatMap((stored) => (stored.kind === 'USER' ? [stored.record.nodeId] : [])),
    ).toEqual(['7', '7'])
  })

  it('does not share objects with the document', async () => {
    const document = smallDocument()
    const snapshot = await importDirectory(document, 'digest-1', undefined, hasher)
    document.users[0]?.devices?.push({ type: 'DECT', id: '1999' })
    document.numberingPlan.exceptionRules = [{ lengthException: 6, beginPatternException: '39' }]
    ;(document.users[0]?.preferences ?? {}).guiLanguage = 'en'
    expect(userRecord(snapshot, 'alice').devices).toEqual([
      { type: 'DESKPHONE', id: '1001', role: 'MAIN' },
    ])
    expect(account(snapshot, 'alice').preferences).toEqual({ guiLanguage: 'fr' })
    expect(snapshot.settings.numberingPlan.exceptionRules).toEqual([])
  })

  it('hashes one password at a time, in the order of the file', async () => {
    const slow = new PasswordHasher({ N: 1024, r: 8, p: 1 })
    let inFlight = 0
    const order: string[] = []
    vi.spyOn(slow, 'hash').mockImplementation(async (password) => {
      inFlight += 1
      order.push(password)
      expect(inFlight).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight -= 1
      return `hash of ${password}`
    })
    const snapshot = await importDirectory(smallDocument(), 'digest-1', undefined, slow)
    expect(order).toEqual(['demo-alice', 'demo-carol', 'demo-admin', 'demo-operator'])
    expect(snapshot.accounts.map((stored) => stored.passwordHash)).toEqual([
      'hash of demo-alice',
      'hash of demo-carol',
      'hash of demo-admin',
      'hash of demo-operator',
    ])
  })
})

describe('importDirectory over a previous snapshot', () => {
  it('answers the previous snapshot itself when the digest is the same, hashing nothing', async () => {
    const previous = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const spy = new PasswordHasher({ N: 1024, r: 8, p: 1 })
    const hash = vi.spyOn(spy, 'hash')
    const verify = vi.spyOn(spy, 'verify')
    const changed = smallDocument()
    changed.company.name = 'Renamed Corp'
    expect(await importDirectory(changed, 'digest-1', previous, spy)).toBe(previous)
    expect(hash).not.toHaveBeenCalled()
    expect(verify).not.toHaveBeenCalled()
  })

  it('keeps the hash when the file password still verifies against it, without rehashing', async () => {
    const previous = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const spy = new PasswordHasher({ N: 1024, r: 8, p: 1 })
    const hash = vi.spyOn(spy, 'hash')
    const document = smallDocument()
    document.company.name = 'Renamed Corp'
    const next = await importDirectory(document, 'digest-2', previous, spy)
    expect(next.sourceDigest).toBe('digest-2')
    expect(next.settings.companyName).toBe('Renamed Corp')
    expect(next.accounts).toStrictEqual(previous.accounts)
    expect(hash).not.toHaveBeenCalled()
  })

  it('hashes the new password when the file changes it', async () => {
    const previous = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const document = smallDocument()
    const alice = document.users[0]
    if (alice === undefined) throw new Error('no alice')
    alice.password = 'new-secret'
    const next = await importDirectory(document, 'digest-2', previous, hasher)
    const hash = account(next, 'alice').passwordHash
    expect(hash).not.toBe(account(previous, 'alice').passwordHash)
    expect(await hasher.verify('new-secret', hash)).toBe(true)
    expect(await hasher.verify('demo-alice', hash)).toBe(false)
  })

  it('uses a passwordHash the file now gives instead of the earlier hash', async () => {
    const previous = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const passwordHash = await hasher.hash('from-a-hash')
    const document = smallDocument()
    document.administrators = [{ loginName: 'admin', passwordHash, supervisor: true }]
    const next = await importDirectory(document, 'digest-2', previous, hasher)
    expect(account(next, 'admin')).toStrictEqual({
      kind: 'ADMINISTRATOR',
      loginName: 'admin',
      record: { loginName: 'admin', supervisor: true },
      passwordHash,
      preferences: {},
    })
  })

  it('drops the hash when the file no longer gives a password', async () => {
    const previous = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const document = smallDocument()
    document.administrators = [{ loginName: 'operator' }]
    const next = await importDirectory(document, 'digest-2', previous, hasher)
    expect(account(next, 'operator')).toStrictEqual({
      kind: 'ADMINISTRATOR',
      loginName: 'operator',
      record: { loginName: 'operator', supervisor: false },
      preferences: {},
    })
  })

  it('keeps a password changed through the API, whatever the file now says', async () => {
    const imported = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const previous = await withChangedPassword(imported, 'alice', 'changed-by-alice')
    const changedHash = account(previous, 'alice').passwordHash
    const fileHash = await hasher.hash('from-the-file')
    for (const filePassword of [
      { password: 'demo-alice' },
      { password: 'another' },
      { passwordHash: fileHash },
      {},
    ]) {
      const document = smallDocument()
      const alice = document.users[0]
      if (alice === undefined) throw new Error('no alice')
      delete alice.password
      Object.assign(alice, filePassword)
      const next = await importDirectory(document, 'digest-2', previous, hasher)
      expect(account(next, 'alice')).toStrictEqual({
        ...account(previous, 'alice'),
        passwordHash: changedHash,
        passwordChangedAt: '2025-01-02T03:04:05.000Z',
      })
    }
  })

  it('keeps the preferences changed through the API, not those of the file', async () => {
    const imported = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const previous: DirectorySnapshot = {
      ...imported,
      accounts: imported.accounts.map((stored) =>
        stored.loginName === 'alice' || stored.loginName === 'admin'
          ? { ...stored, preferences: { guiLanguage: 'en', personalMobile: '+33698765401' } }
          : stored,
      ),
    }
    const document = smallDocument()
    const alice = document.users[0]
    if (alice === undefined) throw new Error('no alice')
    alice.preferences = { guiLanguage: 'fr', tuiLanguage: 'en' }
    const next = await importDirectory(document, 'digest-2', previous, hasher)
    expect(account(next, 'alice').preferences).toStrictEqual({
      guiLanguage: 'en',
      personalMobile: '+33698765401',
    })
    expect(account(next, 'admin').preferences).toStrictEqual({
      guiLanguage: 'en',
      personalMobile: '+33698765401',
    })
  })

  it('updates the records from the file', async () => {
    const previous = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const document = smallDocument()
    const carol = document.users[1]
    if (carol === undefined) throw new Error('no carol')
    delete carol.dialingRule
    delete carol.assistants
    carol.devices = [{ type: 'DESKPHONE', id: '1203' }]
    const next = await importDirectory(document, 'digest-2', previous, hasher)
    const record = userRecord(next, 'carol')
    expect(record.devices).toStrictEqual([{ type: 'DESKPHONE', id: '1203' }])
    expect('dialingRule' in record).toBe(false)
    expect('configManagerAssistant' in record).toBe(false)
    expect('configManagerAssistant' in userRecord(next, 'alice')).toBe(false)
  })

  it("takes the users' pickup groups from the file: joined, moved and left", async () => {
    const first = smallDocument()
    for (const user of first.users) user.pickupGroup = 'office'
    const previous = await importDirectory(first, 'digest-1', undefined, hasher)
    expect(userRecord(previous, 'alice').pickupGroup).toBe('office')
    expect(userRecord(previous, 'carol').pickupGroup).toBe('office')
    const document = smallDocument()
    const [alice] = document.users
    if (alice === undefined) throw new Error('no alice')
    alice.pickupGroup = 'warehouse'
    const next = await importDirectory(document, 'digest-2', previous, hasher)
    expect(userRecord(next, 'alice').pickupGroup).toBe('warehouse')
    expect('pickupGroup' in userRecord(next, 'carol')).toBe(false)
  })

  it('takes the desk-sharing users and sets from the file, none by default', async () => {
    const document = smallDocument()
    const [alice, second] = document.users
    if (alice === undefined || second === undefined) throw new Error('no users')
    expect(
      (await importDirectory(document, 'digest-0', undefined, hasher)).settings,
    ).not.toHaveProperty('deskSharingSets')
    alice.deskSharing = true
    document.deskSharingSets = [{ number: '1900', label: 'desk 1' }, { number: '1901' }]
    const imported = await importDirectory(document, 'digest-1', undefined, hasher)
    expect(userRecord(imported, 'alice').deskSharing).toBe(true)
    expect('deskSharing' in userRecord(imported, second.loginName)).toBe(false)
    expect(imported.settings.deskSharingSets).toEqual([
      { number: '1900', label: 'desk 1' },
      { number: '1901' },
    ])
  })

  it('takes the intrusion right and the protection against it from the file, absent by default', async () => {
    const document = smallDocument()
    const [alice, second] = document.users
    if (alice === undefined || second === undefined) throw new Error('no users')
    alice.intrusion = true
    second.intrusionProtection = true
    const imported = await importDirectory(document, 'digest-1', undefined, hasher)
    expect(userRecord(imported, 'alice').intrusion).toBe(true)
    expect('intrusionProtection' in userRecord(imported, 'alice')).toBe(false)
    expect(userRecord(imported, second.loginName).intrusionProtection).toBe(true)
    expect('intrusion' in userRecord(imported, second.loginName)).toBe(false)
  })

  it('deletes the accounts gone from the file and creates the new ones', async () => {
    const imported = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const previous = await withChangedPassword(imported, 'operator', 'changed')
    const document = smallDocument()
    document.administrators = [
      { loginName: 'admin', password: 'demo-admin', firstName: 'Ada', supervisor: true },
      { loginName: 'auditor', password: 'demo-auditor' },
    ]
    document.users = document.users.filter((user) => user.loginName !== 'alice')
    const carol = document.users[0]
    if (carol === undefined) throw new Error('no carol')
    delete carol.assistants
    const next = await importDirectory(document, 'digest-2', previous, hasher)
    expect(next.accounts.map((stored) => `${stored.kind} ${stored.loginName}`)).toEqual([
      'USER carol',
      'ADMINISTRATOR admin',
      'ADMINISTRATOR auditor',
    ])
    expect(account(next, 'auditor')).toStrictEqual({
      kind: 'ADMINISTRATOR',
      loginName: 'auditor',
      record: { loginName: 'auditor', supervisor: false },
      passwordHash: expect.stringMatching(/^scrypt\$1024\$8\$1\$/),
      preferences: {},
    })
  })

  it('gives a new account the preferences of the file', async () => {
    const previous = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const document = smallDocument()
    document.users.push({
      loginName: 'dave',
      salutation: 'MR',
      firstName: 'Dave',
      lastName: 'Moreau',
      type: 'STANDARD',
      companyPhone: '1004',
      apiRights: ['TELEPHONY_BASIC'],
      devices: [{ type: 'DESKPHONE', id: '1004' }],
      preferences: { tuiLanguage: 'en' },
    })
    const next = await importDirectory(document, 'digest-2', previous, hasher)
    expect(account(next, 'dave')).toStrictEqual({
      kind: 'USER',
      loginName: 'dave',
      record: {
        loginName: 'dave',
        salutation: 'MR',
        firstName: 'Dave',
        lastName: 'Moreau',
        type: 'STANDARD',
        companyPhone: '1004',
        apiRights: ['TELEPHONY_BASIC'],
        devices: [{ type: 'DESKPHONE', id: '1004' }],
        clirMode: 'INACTIVE',
        nodeId: '1',
      },
      preferences: { tuiLanguage: 'en' },
    })
  })

  it('treats a login name that changes kind as a new account', async () => {
    const imported = await importDirectory(smallDocument(), 'digest-1', undefined, hasher)
    const previous = await withChangedPassword(imported, 'operator', 'changed')
    const document = smallDocument()
    document.administrators = [{ loginName: 'admin', password: 'demo-admin', supervisor: true }]
    document.users.push({
      loginName: 'operator',
      password: 'demo-operator',
      salutation: 'MR',
      firstName: 'Oscar',
      lastName: 'Operator',
      type: 'STANDARD',
      companyPhone: '1099',
      apiRights: [],
      devices: [],
    })
    const next = await importDirectory(document, 'digest-2', previous, hasher)
    const operator = account(next, 'operator')
    expect(operator.kind).toBe('USER')
    expect(operator.passwordChangedAt).toBeUndefined()
    expect(await hasher.verify('demo-operator', operator.passwordHash)).toBe(true)
  })
})

describe('importDirectory of the demo file', () => {
  it('imports the accounts the demo and the tests rely on', async () => {
    const snapshot = await importDirectory(demoDocument(), 'demo', undefined, hasher)
    expect(snapshot.accounts.length).toBeGreaterThanOrEqual(14)
    for (const stored of snapshot.accounts) {
      expect(await hasher.verify(`demo-${stored.loginName}`, stored.passwordHash)).toBe(true)
    }
    expect(userRecord(snapshot, 'alice')).toMatchObject({
      type: 'STANDARD',
      companyPhone: '1001',
      apiRights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'MESSAGING'],
      devices: [{ type: 'DESKPHONE', id: '1001', subType: 'SIP_8068', role: 'MAIN' }],
    })
    expect(userRecord(snapshot, 'bob')).toMatchObject({
      type: 'STANDARD',
      companyPhone: '1002',
      apiRights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'MESSAGING'],
      devices: [{ type: 'DESKPHONE', id: '1002', subType: 'SIP_8068', role: 'MAIN' }],
    })
    expect(userRecord(snapshot, 'carol')).toMatchObject({
      type: 'MULTIMEDIA',
      companyPhone: '1003',
      devices: [
        { type: 'SOFTPHONE', id: '1003', label: "Carol's softphone", role: 'MAIN' },
        {
          type: 'MOBILE',
          id: '1103',
          label: "Carol's mobile",
          subType: 'MOBILE_ANDROID',
          associatedNumber: '+33612345603',
          role: 'SECONDARY',
        },
      ],
    })
    expect(userRecord(snapshot, 'dave')).toMatchObject({
      type: 'STANDARD',
      companyPhone: '1004',
      apiRights: ['TELEPHONY_BASIC'],
      devices: [{ type: 'DESKPHONE', id: '1004', subType: 'VHE8088' }],
    })
    expect(account(snapshot, 'admin').record).toStrictEqual({
      loginName: 'admin',
      firstName: 'Ada',
      lastName: 'Admin',
      supervisor: true,
    })
    expect(account(snapshot, 'operator').record).toStrictEqual({
      loginName: 'operator',
      firstName: 'Oscar',
      lastName: 'Operator',
      supervisor: false,
    })
    expect(snapshot.settings).toStrictEqual({
      companyName: 'Example Corp',
      nodeId: '1',
      numberingPlan: {
        countryCode: 'FR',
        areaCode: '1',
        externalPrefix: '0',
        addPfxForNbLength: 4,
        exceptionRules: [{ lengthException: 6, beginPatternException: '39' }],
        extensionLength: 4,
        voicemailNumber: '8000',
        publicNumberPrefix: '+3315566',
      },
      licenses: { TELEPHONY_BASIC: 50, TELEPHONY_ADVANCED: 20, MESSAGING: 20, CONFERENCING: 5 },
      languages: { gui: ['en', 'fr', 'de', 'es', 'it'], tui: ['en', 'fr', 'de'] },
      outsideParties: [
        { number: '0155660003', behaviour: 'ANSWER', afterSeconds: 3 },
        { number: '0155660004', behaviour: 'ANSWER', afterSeconds: 2, hangUpAfterSeconds: 20 },
        { number: '0155660005', behaviour: 'BUSY' },
        { number: '0155660006', behaviour: 'NO_ANSWER' },
        { prefix: '0899', behaviour: 'REJECT', afterSeconds: 1 },
      ],
      huntingGroups: [
        {
          number: '2100',
          name: 'Sales',
          policy: 'CIRCULAR',
          members: ['alice', 'bob'],
          noAnswerMs: 15_000,
          whenBusy: 'QUEUE',
          queueSize: 5,
          queueTimeoutMs: 60_000,
          overflow: { voicemailOf: 'bob' },
          selfJoin: true,
        },
        {
          number: '2200',
          name: 'Warehouse',
          policy: 'PARALLEL',
          members: ['franck', 'gaelle'],
          noAnswerMs: 15_000,
          whenBusy: 'BUSY',
          queueSize: 10,
          selfJoin: false,
        },
      ],
      supervisionGroups: [
        { name: 'warehouse', supervisors: ['henri'], supervised: ['franck', 'gaelle'] },
      ],
      deskSharingSets: [
        { number: '1900', label: 'Paris open space, desk 1' },
        { number: '1901', label: 'Paris open space, desk 2' },
      ],
      contactCenter: DEMO_CONTACT_CENTER,
    })
  })
})

const OFFICE_HOURS = [
  { time: '08:00', ruleNumber: 1, mode: 'normal' },
  { time: '18:00', ruleNumber: 2, mode: 'closed' },
] as const

/** The demo's contact center as the engine takes it. */
const DEMO_CONTACT_CENTER: ContactCenterDefinition = {
  timeZone: 'Europe/Paris',
  pilots: [
    {
      number: '3000',
      name: 'Sales',
      rules: [
        { ruleNumber: 1, name: 'Day', queue: '3100' },
        { ruleNumber: 2, name: 'Night', queue: '3100' },
      ],
      ruleNumber: 1,
      open: true,
      overflowTo: '1001',
      overflowAfterMs: 60_000,
      possibleTransfer: true,
      supervisedTransfer: false,
      calendar: {
        normal: {
          monday: [...OFFICE_HOURS],
          tuesday: [...OFFICE_HOURS],
          wednesday: [...OFFICE_HOURS],
          thursday: [...OFFICE_HOURS],
          friday: [...OFFICE_HOURS],
        },
        exceptions: { '20261225': [{ time: '00:00', ruleNumber: 2, mode: 'closed' }] },
      },
    },
    {
      number: '3001',
      name: 'Support',
      rules: [{ ruleNumber: 1, name: 'Support', queue: '3101', skills: [{ number: 1, level: 2 }] }],
      ruleNumber: 1,
      open: true,
      possibleTransfer: true,
      supervisedTransfer: false,
      calendar: { normal: {}, exceptions: {} },
    },
  ],
  queues: [
    { number: '3100', name: 'Sales queue', processingGroup: '3200', size: 10 },
    { number: '3101', name: 'Support queue', processingGroup: '3201', size: 20 },
  ],
  processingGroups: [
    {
      number: '3200',
      name: 'Sales agents',
      noAnswerMs: 15_000,
      wrapUpMs: 10_000,
      transactionCode: false,
      withdrawReasons: [
        { index: 1, label: 'Lunch' },
        { index: 2, label: 'Training' },
      ],
    },
    {
      number: '3201',
      name: 'Support agents',
      noAnswerMs: 15_000,
      wrapUpMs: 30_000,
      transactionCode: true,
      withdrawReasons: [],
    },
  ],
  operators: [
    operator('olivia', 'AGENT', ['3200'], [{ number: 2, level: 3, active: true }]),
    operator('paul', 'AGENT', ['3200', '3201'], [{ number: 1, level: 2, active: true }]),
    {
      ...operator('quentin', 'AGENT', ['3201'], [{ number: 1, level: 4, active: true }]),
      headset: true,
    },
    {
      ...operator(
        'rose',
        'AGENT',
        ['3201'],
        [
          { number: 1, level: 1, active: true },
          { number: 2, level: 5, active: true },
        ],
      ),
      selfAssign: true,
    },
    operator('sophie', 'SUPERVISOR', ['3200', '3201'], []),
  ],
  skills: [
    { number: 1, name: 'English', abvName: 'EN' },
    { number: 2, name: 'French', abvName: 'FR' },
  ],
}

/** An operator with the defaults of the file. */
function operator(
  loginName: string,
  type: OperatorDefinition['type'],
  processingGroups: string[],
  skills: OperatorDefinition['skills'],
): OperatorDefinition {
  return {
    loginName,
    type,
    processingGroups,
    skills,
    selfAssign: false,
    headset: false,
    help: true,
    multiline: false,
  }
}
