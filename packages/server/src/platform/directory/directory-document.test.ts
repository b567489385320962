import { readFileSync } from 'node:fs'
import { Settings } from 'typebox/system'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { findDirectoryProblems, validateDirectoryDocument } from './directory-document.js'
import type { DirectoryDocument } from './directory-file-schema.js'
import { type DirectoryPath, formatDirectoryPath } from './directory-problem.js'

const DEMO_FILE = new URL('../../../directory/demo-directory.yaml', import.meta.url)

const WELL_FORMED_HASH = 'scrypt$1024$8$1$c2FsdA==$a2V5'

/** A small valid document: two users and an administrator. */
function baseDocument(): DirectoryDocument {
  return {
    company: { name: 'Test Corp' },
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
        loginName: 'carol',
        passwordHash: WELL_FORMED_HASH,
        salutation: 'MRS',
        firstName: 'Carol',
        lastName: 'Lefebvre',
        type: 'MULTIMEDIA',
        companyPhone: '1003',
        companyEmail: 'carol@example.com',
        instantMessagingId: 'carol@im.example.com',
        apiRights: ['TELEPHONY_BASIC', 'MESSAGING'],
        devices: [
          { type: 'SOFTPHONE', id: '1003', role: 'MAIN' },
          { type: 'MOBILE', id: '1103', associatedNumber: '+33612345603' },
        ],
      },
    ],
    administrators: [{ loginName: 'admin', password: 'demo-admin', supervisor: true }],
  }
}

/** Sets (or with `undefined`, deletes) the value at `path` in a document being broken on purpose. */
function edit(document: unknown, path: DirectoryPath, value: unknown): unknown {
  if (path.length === 0) return value
  let node = document as Record<string | number, unknown>
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  if (value === undefined) delete node[last]
  else node[last] = value
  return document
}

interface BrokenCase {
  name: string
  edits: [DirectoryPath, unknown][]
  errors: string[]
}

const schemaCases: BrokenCase[] = [
  {
    name: 'a device type outside the enumeration',
    edits: [[['users', 0, 'devices', 0, 'type'], 'PHONE']],
    errors: [
      'users[0].devices[0].type: must be one of DECT, DESKPHONE, MOBILE, NOMADIC, SOFTPHONE',
    ],
  },
  {
    name: 'a missing required field',
    edits: [[['users', 0, 'lastName'], undefined]],
    errors: ['users[0].lastName: is required'],
  },
  {
    name: 'a device without type nor id',
    edits: [[['users', 1, 'devices', 1], { label: 'Mobile' }]],
    errors: ['users[1].devices[1].type: is required', 'users[1].devices[1].id: is required'],
  },
  {
    name: 'a misspelt field',
    edits: [
      [['users', 0, 'password'], undefined],
      [['users', 0, 'pasword'], 'demo-alice'],
    ],
    errors: ['users[0].pasword: is not a known field; did you mean password?'],
  },
  {
    name: 'an abbreviated field',
    edits: [[['users', 0, 'preferences'], { guiLang: 'en' }]],
    errors: ['users[0].preferences.guiLang: is not a known field; did you mean guiLanguage?'],
  },
  {
    name: 'an unknown top-level field',
    edits: [[['colour'], 'blue']],
    errors: [
      'colour: is not a known field (known fields: company, numberingPlan, licenses, languages, users, administrators, outsideParties, huntingGroups, supervisionGroups, deskSharingSets, contactCenter)',
    ],
  },
  {
    name: 'an unknown device field',
    edits: [[['users', 0, 'devices', 0, 'number'], '1001']],
    errors: [
      'users[0].devices[0].number: is not a known field (known fields: type, id, label, subType, associatedNumber, configId, role)',
    ],
  },
  {
    name: 'an unquoted phone number',
    edits: [[['users', 0, 'companyPhone'], 1001]],
    errors: ['users[0].companyPhone: must be a string; write it in quotes: "1001"'],
  },
  {
    name: 'a number in custom attributes',
    edits: [[['users', 0, 'customAttributes'], { global: { badge: 4711 } }]],
    errors: [
      'users[0].customAttributes.global.badge: must be a string; write it in quotes: "4711"',
    ],
  },
  {
    name: 'a custom attribute whose name is not an identifier',
    edits: [[['users', 0, 'customAttributes'], { user: { 'cost center': true } }]],
    errors: [
      'users[0].customAttributes.user["cost center"]: must be a string; write it in quotes: "true"',
    ],
  },
  {
    name: 'negative and fractional license counts',
    edits: [
      [['licenses', 'MESSAGING'], -1],
      [['licenses', 'CONFERENCING'], 2.5],
    ],
    errors: [
      'licenses.MESSAGING: must be at least 0',
      'licenses.CONFERENCING: must be a whole number',
    ],
  },
  {
    name: 'a missing license count',
    edits: [[['licenses', 'CONFERENCING'], undefined]],
    errors: ['licenses.CONFERENCING: is required'],
  },
  {
    name: 'a country code in small letters',
    edits: [[['numberingPlan', 'countryCode'], 'fr']],
    errors: [
      'numberingPlan.countryCode: must be an ISO 3166 alpha-2 country code in capitals, such as FR',
    ],
  },
  {
    name: 'a language that is not an ISO 639-1 code',
    edits: [[['languages', 'gui', 1], 'french']],
    errors: [
      'languages.gui[1]: must be an ISO 639-1 language code, optionally with a country: en, fr_CA',
    ],
  },
  {
    name: 'an empty language list',
    edits: [[['languages', 'tui'], []]],
    errors: ['languages.tui: must list at least 1 item'],
  },
  {
    name: 'a right listed twice',
    edits: [
      [
        ['users', 1, 'apiRights'],
        ['MESSAGING', 'TELEPHONY_BASIC', 'MESSAGING'],
      ],
    ],
    errors: ['users[1].apiRights[2]: MESSAGING is listed twice'],
  },
  {
    name: 'users that are not a list',
    edits: [[['users'], { alice: {} }]],
    errors: ['users: must be a list'],
  },
  {
    name: 'a document that is not a mapping',
    edits: [[[], ['users']]],
    errors: ['(document): must be a mapping of fields (key: value)'],
  },
  {
    name: 'an empty password',
    edits: [[['users', 0, 'password'], '']],
    errors: ['users[0].password: must not be empty'],
  },
  {
    name: 'a supervisor flag that is not a boolean',
    edits: [[['administrators', 0, 'supervisor'], 'yes']],
    errors: ['administrators[0].supervisor: must be true or false'],
  },
  {
    name: 'an unknown voicemail type',
    edits: [[['users', 0, 'voicemail'], { number: '8000', type: 'VM_9999' }]],
    errors: [
      'users[0].voicemail.type: must be one of VM_4635, VM_4645, VM_UM, VM_LOCAL_STORAGE, EXTERNAL',
    ],
  },
  {
    name: 'a misspelt field in a dialing rule override',
    edits: [
      [
        ['users', 0, 'dialingRule'],
        { countryCode: 'FR', externalPrefix: '0', addPfxForNbLength: 4, areacode: '4' },
      ],
    ],
    errors: ['users[0].dialingRule.areacode: is not a known field; did you mean areaCode?'],
  },
]

const semanticCases: BrokenCase[] = [
  {
    name: 'an outside party rule with neither number nor prefix',
    edits: [[['outsideParties'], [{ behaviour: 'BUSY' }]]],
    errors: [
      'outsideParties[0]: needs number (one outside number) or prefix (every number starting with it)',
    ],
  },
  {
    name: 'an outside party rule with both number and prefix',
    edits: [[['outsideParties'], [{ number: '0612', prefix: '06', behaviour: 'BUSY' }]]],
    errors: ['outsideParties[0]: has both number and prefix; give only one'],
  },
  {
    name: 'outside party rules with a bad number, a second rule for a prefix, misplaced delays',
    edits: [
      [
        ['outsideParties'],
        [
          { number: '06 12', behaviour: 'ANSWER' },
          { prefix: '08', behaviour: 'REJECT' },
          { prefix: '08', behaviour: 'BUSY', afterSeconds: 2 },
          { number: '+33612', behaviour: 'REJECT', hangUpAfterSeconds: 5 },
        ],
      ],
      [['numberingPlan', 'publicNumberPrefix'], '33-155'],
    ],
    errors: [
      'numberingPlan.publicNumberPrefix: "33-155" must be digits, optionally after +',
      'outsideParties[0].number: "06 12" must be digits, optionally after +: the outside number as dialed after the outside-line prefix',
      'outsideParties[2].prefix: "08" already has a rule: outsideParties[1]',
      'outsideParties[2].afterSeconds: is for ANSWER and REJECT only, and this rule is BUSY',
      'outsideParties[3].hangUpAfterSeconds: is for ANSWER only, and this rule is REJECT',
    ],
  },
  {
    name: 'a login name that is not URL-safe',
    edits: [[['users', 0, 'loginName'], 'alice martin']],
    errors: [
      'users[0].loginName: "alice martin" may contain only letters, digits, ".", "_" and "-"',
    ],
  },
  {
    name: 'pickup group names that cannot be in a URL or are too long',
    edits: [
      [['users', 0, 'pickupGroup'], 'front office'],
      [['users', 1, 'pickupGroup'], 'g'.repeat(65)],
    ],
    errors: [
      'users[0].pickupGroup: "front office" may contain only letters, digits, ".", "_" and "-"',
      `users[1].pickupGroup: "${'g'.repeat(65)}" is longer than 64 characters`,
    ],
  },
  {
    name: 'a login name with a slash',
    edits: [[['administrators', 0, 'loginName'], 'ops/admin']],
    errors: [
      'administrators[0].loginName: "ops/admin" may contain only letters, digits, ".", "_" and "-"',
    ],
  },
  {
    name: 'an administrator with the login name of a user',
    edits: [[['administrators', 0, 'loginName'], 'alice']],
    errors: ['administrators[0].loginName: "alice" is already the login name of users[0]'],
  },
  {
    name: 'two users whose login names differ only in case',
    edits: [[['users', 1, 'loginName'], 'Alice']],
    errors: [
      'users[1].loginName: "Alice" is already the login name of users[0] as "alice" (case does not matter)',
    ],
  },
  {
    name: 'a device id used twice',
    edits: [[['users', 1, 'devices', 1, 'id'], '1001']],
    errors: ['users[1].devices[1].id: "1001" is already the id of users[0].devices[0]'],
  },
  {
    name: 'a device id that is not digits',
    edits: [[['users', 0, 'devices', 0, 'id'], '10a1']],
    errors: [
      'users[0].devices[0].id: "10a1" must be made of digits: a device id is its phone number',
    ],
  },
  {
    name: 'a companyPhone used twice',
    edits: [[['users', 1, 'companyPhone'], '1001']],
    errors: ['users[1].companyPhone: "1001" is already the companyPhone of users[0]'],
  },
  {
    name: 'a companyEmail used twice, in another case',
    edits: [[['users', 1, 'companyEmail'], 'Alice@Example.com']],
    errors: [
      'users[1].companyEmail: "Alice@Example.com" is already the companyEmail of users[0] as "alice@example.com" (case does not matter)',
    ],
  },
  {
    name: 'an instantMessagingId used twice',
    edits: [[['users', 1, 'instantMessagingId'], 'alice@im.example.com']],
    errors: [
      'users[1].instantMessagingId: "alice@im.example.com" is already the instantMessagingId of users[0]',
    ],
  },
  {
    name: 'two MAIN devices',
    edits: [[['users', 1, 'devices', 1, 'role'], 'MAIN']],
    errors: [
      'users[1].devices[1].role: a user has at most one MAIN device, and users[1].devices[0] is MAIN already',
    ],
  },
  {
    name: 'a professional mobile for a STANDARD user',
    edits: [[['users', 0, 'preferences'], { professionalMobile: '+33612345601' }]],
    errors: [
      'users[0].preferences.professionalMobile: only MULTIMEDIA users have a professional mobile, and this user is STANDARD',
    ],
  },
  {
    name: 'NOMADIC_SIP and NOMADIC_GSM for a MULTIMEDIA user',
    edits: [
      [
        ['users', 1, 'applicationRights'],
        ['MOBILE', 'NOMADIC_SIP', 'NOMADIC_GSM'],
      ],
    ],
    errors: [
      'users[1].applicationRights[1]: NOMADIC_SIP is for STANDARD users only, and this user is MULTIMEDIA',
      'users[1].applicationRights[2]: NOMADIC_GSM is for STANDARD users only, and this user is MULTIMEDIA',
    ],
  },
  {
    name: 'NOMADIC for a STANDARD user',
    edits: [[['users', 0, 'applicationRights'], ['NOMADIC']]],
    errors: [
      'users[0].applicationRights[0]: NOMADIC is for MULTIMEDIA users only, and this user is STANDARD',
    ],
  },
  {
    name: 'both a password and a password hash',
    edits: [[['users', 0, 'passwordHash'], WELL_FORMED_HASH]],
    errors: ['users[0]: has both password and passwordHash; give only one'],
  },
  {
    name: 'a malformed password hash',
    edits: [
      [['administrators', 0, 'password'], undefined],
      [['administrators', 0, 'passwordHash'], 'bcrypt$2b$10$abc'],
    ],
    errors: [
      'administrators[0].passwordHash: is not a password hash of the form scrypt$N$r$p$salt$key (salt and key in base64)',
    ],
  },
  {
    name: 'an assistant who is not a user',
    edits: [
      [
        ['users', 1, 'assistants'],
        ['alice', 'admin'],
      ],
    ],
    errors: ['users[1].assistants[1]: "admin" is not the login name of a user'],
  },
  {
    name: 'desk-sharing sets that are not digits, a device, or twice; a desk-sharing user with two devices',
    edits: [
      [['users', 1, 'deskSharing'], true],
      [
        ['deskSharingSets'],
        [{ number: '19a' }, { number: '1001' }, { number: '1900' }, { number: '1900' }],
      ],
    ],
    errors: [
      'users[1].deskSharing: a desk-sharing user has exactly one device, its number (carol has 2)',
      'deskSharingSets[0].number: "19a" must be digits',
      'deskSharingSets[1].number: 1001 is already a device',
      'deskSharingSets[3].number: 1900 is already a desk-sharing set',
    ],
  },
  {
    name: 'a user who is their own assistant',
    edits: [[['users', 0, 'assistants'], ['alice']]],
    errors: ['users[0].assistants[0]: a user cannot be its own assistant'],
  },
  {
    name: 'a preferred language the platform does not offer',
    edits: [[['users', 0, 'preferences'], { guiLanguage: 'de', tuiLanguage: 'fr' }]],
    errors: [
      'users[0].preferences.guiLanguage: de is not one of languages.gui (en, fr)',
      'users[0].preferences.tuiLanguage: fr is not one of languages.tui (en)',
    ],
  },
]

function broken(edits: [DirectoryPath, unknown][]): unknown {
  let document: unknown = baseDocument()
  for (const [path, value] of edits) document = edit(document, path, value)
  return document
}

describe('validateDirectoryDocument', () => {
  it('accepts the demo directory file', () => {
    const value: unknown = parse(readFileSync(DEMO_FILE, 'utf8'))
    expect(validateDirectoryDocument(value)).toEqual({ document: value })
  })

  it('answers the document itself when it is valid', () => {
    const document = baseDocument()
    const result = validateDirectoryDocument(document)
    expect(result).toEqual({ document })
    expect('document' in result && result.document).toBe(document)
  })

  it('accepts a user without companyPhone and devices (both optional in the specification)', () => {
    const document = baseDocument()
    const {
      companyPhone: _phone,
      devices: _devices,
      ...phoneless
    } = document.users[0] as object & DirectoryDocument['users'][number]
    document.users[0] = phoneless
    expect(validateDirectoryDocument(document)).toEqual({ document })
  })

  it.each(schemaCases)('reports $name', ({ edits, errors }) => {
    expect(validateDirectoryDocument(broken(edits))).toEqual({ errors })
  })

  it.each(semanticCases)('reports $name', ({ edits, errors }) => {
    expect(validateDirectoryDocument(broken(edits))).toEqual({ errors })
  })

  it('reports every schema problem, beyond the 8 TypeBox stops at, and restores its setting', () => {
    const document = baseDocument()
    document.users = Array.from({ length: 12 }, (_, index) => ({
      ...baseDocument().users[0],
      loginName: `user${index}`,
      devices: [{ type: 'PHONE' }],
    })) as unknown as DirectoryDocument['users']
    const result = validateDirectoryDocument(document)
    expect(result).toEqual({
      errors: Array.from({ length: 12 }, (_, index) => [
        `users[${index}].devices[0].id: is required`,
        `users[${index}].devices[0].type: must be one of DECT, DESKPHONE, MOBILE, NOMADIC, SOFTPHONE`,
      ]).flat(),
    })
    expect(Settings.Get().maxErrors).toBe(8)
  })

  it('checks the semantics only once the schema is satisfied', () => {
    const document = broken([
      [['users', 0, 'loginName'], 'alice martin'],
      [['users', 1, 'type'], 'VIDEO'],
    ])
    expect(validateDirectoryDocument(document)).toEqual({
      errors: ['users[1].type: must be one of STANDARD, MULTIMEDIA'],
    })
  })

  it('reports several semantic problems in the order of the document', () => {
    const document = broken([
      [['users', 1, 'companyPhone'], '1001'],
      [['users', 1, 'devices', 0, 'id'], '1001'],
      [['users', 0, 'assistants'], ['zed']],
      [['administrators', 0, 'loginName'], 'carol'],
    ])
    expect(validateDirectoryDocument(document)).toEqual({
      errors: [
        'users[1].companyPhone: "1001" is already the companyPhone of users[0]',
        'users[1].devices[0].id: "1001" is already the id of users[0].devices[0]',
        'administrators[0].loginName: "carol" is already the login name of users[1]',
        'users[0].assistants[0]: "zed" is not the login name of a user',
      ],
    })
  })
})

describe('findDirectoryProblems', () => {
  it('gives the path apart from the message', () => {
    expect(findDirectoryProblems(broken([[['users', 1, 'devices', 1, 'id'], 'x1']]))).toEqual([
      {
        path: ['users', 1, 'devices', 1, 'id'],
        message: '"x1" must be made of digits: a device id is its phone number',
      },
    ])
  })
})

describe('formatDirectoryPath', () => {
  it('writes indices in brackets and quotes names that are not identifiers', () => {
    expect(formatDirectoryPath([])).toBe('(document)')
    expect(formatDirectoryPath(['users', 3, 'devices', 0, 'type'])).toBe('users[3].devices[0].type')
    expect(formatDirectoryPath(['users', 0, 'customAttributes', 'user', 'a.b'])).toBe(
      'users[0].customAttributes.user["a.b"]',
    )
  })
})
