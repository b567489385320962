/**
 * The directory file's `contactCenter` section (docs/directory-file.md, `contactCenter`): its schema and its checks,
 * one broken file per rule with the path and message it reports, and a good section imported to the definition
 * the engine takes (milliseconds, defaults filled in).
 */
import { describe, expect, it } from 'vitest'
import type { ContactCenterDefinition } from '../acd/contact-center.js'
import type { DirectoryContactCenter } from './contact-center-file-schema.js'
import { validateDirectoryDocument } from './directory-document.js'
import type { DirectoryDocument } from './directory-file-schema.js'
import { contactCenterOfFile, planImport } from './directory-import.js'
import type { DirectoryPath } from './directory-problem.js'

/** Users with devices (alice, bob, carol), one with a company phone only (dave); a hunting group, a set, voice mail. */
function baseDocument(contactCenter: DirectoryContactCenter = goodSection()): DirectoryDocument {
  const user = (loginName: string, phone: string | undefined) => ({
    loginName,
    salutation: 'MR' as const,
    firstName: loginName,
    lastName: 'Test',
    type: 'STANDARD' as const,
    apiRights: ['TELEPHONY_BASIC' as const],
    ...(phone !== undefined && {
      companyPhone: phone,
      devices: [{ type: 'DESKPHONE' as const, id: phone }],
    }),
  })
  return {
    company: { name: 'Test Corp' },
    numberingPlan: {
      countryCode: 'FR',
      externalPrefix: '0',
      addPfxForNbLength: 4,
      extensionLength: 4,
      voicemailNumber: '8000',
    },
    licenses: { TELEPHONY_BASIC: 10, TELEPHONY_ADVANCED: 5, MESSAGING: 5, CONFERENCING: 1 },
    languages: { gui: ['en'], tui: ['en'] },
    users: [
      user('alice', '1001'),
      user('bob', '1002'),
      user('carol', '1003'),
      { ...user('dave', undefined), companyPhone: '1004' },
    ],
    huntingGroups: [{ number: '2100', name: 'Sales', policy: 'PARALLEL', members: ['alice'] }],
    deskSharingSets: [{ number: '1900' }],
    contactCenter,
  }
}

/** A valid section that gives every field. */
function goodSection(): DirectoryContactCenter {
  return {
    timeZone: 'Europe/Paris',
    pilots: [
      {
        number: '3000',
        name: 'Sales',
        rules: [
          { ruleNumber: 1, name: 'Day', queue: '3100' },
          { ruleNumber: 2, name: 'Night', queue: '3100', skills: [{ number: 1, level: 2 }] },
        ],
        ruleNumber: 2,
        open: false,
        forwardTo: '00155660003',
        overflowTo: '1001',
        overflowAfterSeconds: 60,
        possibleTransfer: false,
        supervisedTransfer: true,
        calendar: {
          normal: {
            monday: [
              { time: '08:00', ruleNumber: 1, mode: 'normal' },
              { time: '18:00', ruleNumber: 2, mode: 'closed' },
            ],
            saturday: [{ time: '09:30', ruleNumber: 1, mode: 'forward' }],
          },
          exceptions: { '20261225': [{ time: '00:00', ruleNumber: 2 }] },
        },
      },
      { number: '3001', name: 'Support', rules: [{ ruleNumber: 5, name: 'All', queue: '3101' }] },
    ],
    queues: [
      { number: '3100', name: 'Sales queue', processingGroup: '3200', size: 5 },
      { number: '3101', name: 'Support queue', processingGroup: '3200' },
    ],
    processingGroups: [
      {
        number: '3200',
        name: 'Agents',
        noAnswerSeconds: 12.5,
        wrapUpSeconds: 0,
        transactionCode: true,
        withdrawReasons: [
          { index: 0, label: 'Lunch' },
          { index: 1, label: 'Training' },
        ],
      },
      { number: '3201', name: 'Backup' },
    ],
    operators: [
      {
        loginName: 'alice',
        type: 'AGENT',
        processingGroups: ['3200', '3201'],
        skills: [
          { number: 1, level: 3 },
          { number: 2, level: 10, active: false },
        ],
        selfAssign: true,
        headset: true,
        help: false,
        multiline: true,
      },
      { loginName: 'bob', type: 'AGENT' },
      { loginName: 'carol', type: 'SUPERVISOR', processingGroups: ['3200'] },
    ],
    skills: [
      { number: 1, name: 'English', abvName: 'EN', domain: 1 },
      { number: 2, name: 'French' },
    ],
  }
}

/** What goodSection imports to. */
const GOOD_DEFINITION: ContactCenterDefinition = {
  timeZone: 'Europe/Paris',
  pilots: [
    {
      number: '3000',
      name: 'Sales',
      rules: [
        { ruleNumber: 1, name: 'Day', queue: '3100' },
        { ruleNumber: 2, name: 'Night', queue: '3100', skills: [{ number: 1, level: 2 }] },
      ],
      ruleNumber: 2,
      open: false,
      forwardTo: '00155660003',
      overflowTo: '1001',
      overflowAfterMs: 60_000,
      possibleTransfer: false,
      supervisedTransfer: true,
      calendar: {
        normal: {
          monday: [
            { time: '08:00', ruleNumber: 1, mode: 'normal' },
            { time: '18:00', ruleNumber: 2, mode: 'closed' },
          ],
          saturday: [{ time: '09:30', ruleNumber: 1, mode: 'forward' }],
        },
        exceptions: { '20261225': [{ time: '00:00', ruleNumber: 2, mode: 'normal' }] },
      },
    },
    {
      number: '3001',
      name: 'Support',
      rules: [{ ruleNumber: 5, name: 'All', queue: '3101' }],
      ruleNumber: 5,
      open: true,
      possibleTransfer: true,
      supervisedTransfer: false,
      calendar: { normal: {}, exceptions: {} },
    },
  ],
  queues: [
    { number: '3100', name: 'Sales queue', processingGroup: '3200', size: 5 },
    { number: '3101', name: 'Support queue', processingGroup: '3200', size: 20 },
  ],
  processingGroups: [
    {
      number: '3200',
      name: 'Agents',
      noAnswerMs: 12_500,
      wrapUpMs: 0,
      transactionCode: true,
      withdrawReasons: [
        { index: 0, label: 'Lunch' },
        { index: 1, label: 'Training' },
      ],
    },
    {
      number: '3201',
      name: 'Backup',
      noAnswerMs: 15_000,
      wrapUpMs: 10_000,
      transactionCode: false,
      withdrawReasons: [],
    },
  ],
  operators: [
    {
      loginName: 'alice',
      type: 'AGENT',
      processingGroups: ['3200', '3201'],
      skills: [
        { number: 1, level: 3, active: true },
        { number: 2, level: 10, active: false },
      ],
      selfAssign: true,
      headset: true,
      help: false,
      multiline: true,
    },
    {
      loginName: 'bob',
      type: 'AGENT',
      processingGroups: [],
      skills: [],
      selfAssign: false,
      headset: false,
      help: true,
      multiline: false,
    },
    {
      loginName: 'carol',
      type: 'SUPERVISOR',
      processingGroups: ['3200'],
      skills: [],
      selfAssign: false,
      headset: false,
      help: true,
      multiline: false,
    },
  ],
  skills: [
    { number: 1, name: 'English', abvName: 'EN', domain: 1 },
    { number: 2, name: 'French' },
  ],
}

/** Sets (or with `undefined`, deletes) the value at `path` of the section. */
function edit(section: unknown, path: DirectoryPath, value: unknown): void {
  let node = section as Record<string | number, unknown>
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  if (value === undefined) delete node[last]
  else node[last] = value
}

interface BrokenCase {
  name: string
  /** Edits of goodSection, paths from the section. */
  edits: [DirectoryPath, unknown][]
  errors: string[]
}

const PILOT = ['pilots', 0]
const CALENDAR = [...PILOT, 'calendar']

const schemaCases: BrokenCase[] = [
  {
    name: 'an unknown field of a pilot, with a suggestion',
    edits: [[[...PILOT, 'overflowAfter'], 60]],
    errors: [
      'contactCenter.pilots[0].overflowAfter: is not a known field; did you mean overflowAfterSeconds?',
    ],
  },
  {
    name: 'a day of the week misspelt',
    edits: [[[...CALENDAR, 'normal', 'mondai'], []]],
    errors: [
      'contactCenter.pilots[0].calendar.normal.mondai: is not a known field; did you mean monday?',
    ],
  },
  {
    name: 'a pilot without rules',
    edits: [[[...PILOT, 'rules'], []]],
    errors: ['contactCenter.pilots[0].rules: must list at least 1 item'],
  },
  {
    name: 'an unquoted pilot number',
    edits: [[[...PILOT, 'number'], 3000]],
    errors: ['contactCenter.pilots[0].number: must be a string; write it in quotes: "3000"'],
  },
  {
    name: 'a skill level above 10 and one below 1',
    edits: [
      [['operators', 0, 'skills', 0, 'level'], 11],
      [[...PILOT, 'rules', 1, 'skills', 0, 'level'], 0],
    ],
    errors: [
      'contactCenter.pilots[0].rules[1].skills[0].level: must be at least 1',
      'contactCenter.operators[0].skills[0].level: must be at most 10',
    ],
  },
  {
    name: 'a transition mode outside the enumeration',
    edits: [[[...CALENDAR, 'normal', 'monday', 0, 'mode'], 'open']],
    errors: [
      'contactCenter.pilots[0].calendar.normal.monday[0].mode: must be one of normal, closed, forward',
    ],
  },
  {
    name: 'an operator type outside the enumeration',
    edits: [[['operators', 1, 'type'], 'MANAGER']],
    errors: ['contactCenter.operators[1].type: must be one of AGENT, SUPERVISOR'],
  },
  {
    name: 'a queue of no call',
    edits: [[['queues', 0, 'size'], 0]],
    errors: ['contactCenter.queues[0].size: must be at least 1'],
  },
  {
    name: 'a processing group listed twice by an operator',
    edits: [
      [
        ['operators', 0, 'processingGroups'],
        ['3200', '3200'],
      ],
    ],
    errors: ['contactCenter.operators[0].processingGroups[1]: 3200 is listed twice'],
  },
]

const checkCases: BrokenCase[] = [
  {
    name: 'an unknown time zone',
    edits: [[['timeZone'], 'Europe/Pariss']],
    errors: [
      'contactCenter.timeZone: "Europe/Pariss" is not a time zone this platform knows (an IANA name such as Europe/Paris)',
    ],
  },
  {
    name: 'pilot numbers that are not digits, or taken by a device, a company phone, the voice mail, a group, a set, a pilot',
    edits: [
      [
        ['pilots'],
        [
          { number: '30a0', name: 'A', rules: [{ ruleNumber: 1, name: 'R', queue: '3100' }] },
          { number: '1002', name: 'B', rules: [{ ruleNumber: 1, name: 'R', queue: '3100' }] },
          { number: '1004', name: 'H', rules: [{ ruleNumber: 1, name: 'R', queue: '3100' }] },
          { number: '8000', name: 'C', rules: [{ ruleNumber: 1, name: 'R', queue: '3100' }] },
          { number: '2100', name: 'D', rules: [{ ruleNumber: 1, name: 'R', queue: '3100' }] },
          { number: '1900', name: 'E', rules: [{ ruleNumber: 1, name: 'R', queue: '3100' }] },
          { number: '3000', name: 'F', rules: [{ ruleNumber: 1, name: 'R', queue: '3100' }] },
          { number: '3000', name: 'G', rules: [{ ruleNumber: 1, name: 'R', queue: '3100' }] },
        ],
      ],
    ],
    errors: [
      'contactCenter.pilots[0].number: "30a0" must be digits',
      'contactCenter.pilots[1].number: 1002 is already a device of bob',
      'contactCenter.pilots[2].number: 1004 is already the company phone of dave',
      'contactCenter.pilots[3].number: 8000 is already the voice-mail number',
      'contactCenter.pilots[4].number: 2100 is already a hunting group',
      'contactCenter.pilots[5].number: 1900 is already a desk-sharing set',
      'contactCenter.pilots[7].number: 3000 is already the number of contactCenter.pilots[6]',
    ],
  },
  {
    name: 'rule numbers twice in a pilot, a queue that does not exist, a need of an unknown skill or twice',
    edits: [
      [[...PILOT, 'rules', 1, 'ruleNumber'], 1],
      [[...PILOT, 'rules', 1, 'queue'], '3109'],
      [
        [...PILOT, 'rules', 1, 'skills'],
        [
          { number: 7, level: 1 },
          { number: 2, level: 1 },
          { number: 2, level: 3 },
        ],
      ],
      [[...PILOT, 'ruleNumber'], undefined],
      [[...PILOT, 'calendar'], undefined],
    ],
    errors: [
      'contactCenter.pilots[0].rules[1].ruleNumber: 1 is already the number of contactCenter.pilots[0].rules[0]',
      "contactCenter.pilots[0].rules[1].queue: no queue '3109' in contactCenter.queues",
      'contactCenter.pilots[0].rules[1].skills[0].number: no skill 7 in contactCenter.skills',
      'contactCenter.pilots[0].rules[1].skills[2].number: skill 2 is listed twice',
    ],
  },
  {
    name: "a ruleNumber that is none of the pilot's rules",
    edits: [[[...PILOT, 'ruleNumber'], 3]],
    errors: ['contactCenter.pilots[0].ruleNumber: pilot 3000 has no rule 3'],
  },
  {
    name: 'forwarding and overflowing to the pilot itself, or to no number',
    edits: [
      [[...PILOT, 'forwardTo'], '3000'],
      [[...PILOT, 'overflowTo'], 'alice'],
    ],
    errors: [
      'contactCenter.pilots[0].forwardTo: is the pilot itself',
      'contactCenter.pilots[0].overflowTo: "alice" must be digits, optionally after +: a number as dialed',
    ],
  },
  {
    name: 'overflowAfterSeconds without overflowTo',
    edits: [[[...PILOT, 'overflowTo'], undefined]],
    errors: [
      'contactCenter.pilots[0].overflowAfterSeconds: needs overflowTo: where the call goes once it waited that long',
    ],
  },
  {
    name: 'calendar times not HH:mm or twice in a day, rules the pilot lacks, a date that does not exist',
    edits: [
      [[...CALENDAR, 'normal', 'monday', 0, 'time'], '8:00'],
      [[...CALENDAR, 'normal', 'monday', 1, 'time'], '24:00'],
      [
        [...CALENDAR, 'normal', 'saturday'],
        [
          { time: '09:30', ruleNumber: 1 },
          { time: '09:30', ruleNumber: 4 },
        ],
      ],
      [[...CALENDAR, 'exceptions'], { '20260230': [{ time: '00:00', ruleNumber: 9 }] }],
    ],
    errors: [
      'contactCenter.pilots[0].calendar.normal.monday[0].time: "8:00" must be a time of day HH:mm, from 00:00 to 23:59',
      'contactCenter.pilots[0].calendar.normal.monday[1].time: "24:00" must be a time of day HH:mm, from 00:00 to 23:59',
      'contactCenter.pilots[0].calendar.normal.saturday[1].time: 09:30 is already the time of contactCenter.pilots[0].calendar.normal.saturday[0]',
      'contactCenter.pilots[0].calendar.normal.saturday[1].ruleNumber: pilot 3000 has no rule 4',
      'contactCenter.pilots[0].calendar.exceptions["20260230"]: "20260230" is not a date written yyyyMMdd',
      'contactCenter.pilots[0].calendar.exceptions["20260230"][0].ruleNumber: pilot 3000 has no rule 9',
    ],
  },
  {
    name: 'more transitions in a day than a day holds',
    edits: [
      [
        [...CALENDAR, 'normal', 'sunday'],
        Array.from({ length: 11 }, (_, hour) => ({
          time: `${String(hour + 8).padStart(2, '0')}:00`,
          ruleNumber: 1,
        })),
      ],
    ],
    errors: [
      'contactCenter.pilots[0].calendar.normal.sunday: a day holds 10 transitions at most, and this one has 11',
    ],
  },
  {
    name: 'queue numbers not digits or twice, a processing group that does not exist',
    edits: [
      [
        ['queues'],
        [
          { number: '3100', name: 'A', processingGroup: '3200' },
          { number: '3101', name: 'B', processingGroup: '3209' },
          { number: '3100', name: 'C', processingGroup: '3200' },
          { number: 'Q1', name: 'D', processingGroup: '3200' },
        ],
      ],
    ],
    errors: [
      "contactCenter.queues[1].processingGroup: no processing group '3209' in contactCenter.processingGroups",
      'contactCenter.queues[2].number: 3100 is already the number of contactCenter.queues[0]',
      'contactCenter.queues[3].number: "Q1" must be digits',
    ],
  },
  {
    name: 'processing group numbers twice, withdraw reason indexes twice in a group',
    edits: [
      [['processingGroups', 1, 'number'], '3200'],
      [['processingGroups', 0, 'withdrawReasons', 1, 'index'], 0],
      [['operators', 0, 'processingGroups'], ['3200']],
    ],
    errors: [
      'contactCenter.processingGroups[0].withdrawReasons[1].index: 0 is already the index of contactCenter.processingGroups[0].withdrawReasons[0]',
      'contactCenter.processingGroups[1].number: 3200 is already the number of contactCenter.processingGroups[0]',
    ],
  },
  {
    name: 'operators who are no user, have no device, are listed twice, in unknown groups, with unknown skills',
    edits: [
      [
        ['operators'],
        [
          { loginName: 'zed', type: 'AGENT' },
          { loginName: 'dave', type: 'AGENT' },
          { loginName: 'alice', type: 'AGENT', processingGroups: ['3200', '3299'] },
          {
            loginName: 'alice',
            type: 'SUPERVISOR',
            skills: [
              { number: 9, level: 1 },
              { number: 1, level: 1 },
              { number: 1, level: 2 },
            ],
          },
        ],
      ],
    ],
    errors: [
      "contactCenter.operators[0].loginName: no user 'zed'",
      "contactCenter.operators[1].loginName: 'dave' has no device to log on at",
      "contactCenter.operators[2].processingGroups[1]: no processing group '3299' in contactCenter.processingGroups",
      "contactCenter.operators[3].loginName: 'alice' is already contactCenter.operators[2]",
      'contactCenter.operators[3].skills[0].number: no skill 9 in contactCenter.skills',
      'contactCenter.operators[3].skills[2].number: skill 1 is listed twice',
    ],
  },
  {
    name: 'skill numbers twice, and a name twice in a domain',
    edits: [
      [
        ['skills'],
        [
          { number: 1, name: 'English', domain: 1 },
          { number: 2, name: 'French' },
          { number: 1, name: 'German' },
          { number: 3, name: 'English', domain: 1 },
          { number: 4, name: 'English' },
          { number: 5, name: 'French' },
        ],
      ],
    ],
    errors: [
      'contactCenter.skills[2].number: 1 is already the number of contactCenter.skills[0]',
      'contactCenter.skills[3].name: "English" is already the name of contactCenter.skills[0] in domain 1',
      'contactCenter.skills[5].name: "French" is already the name of contactCenter.skills[1]',
    ],
  },
]

function broken(edits: [DirectoryPath, unknown][]): DirectoryDocument {
  const section = goodSection()
  for (const [path, value] of edits) edit(section, path, value)
  return baseDocument(section)
}

describe("the directory file's contactCenter", () => {
  it('accepts a section that gives every field', () => {
    const document = baseDocument()
    expect(validateDirectoryDocument(document)).toEqual({ document })
  })

  it('accepts an empty section and a file without one', () => {
    expect(validateDirectoryDocument(baseDocument({}))).toHaveProperty('document')
    const { contactCenter: _, ...without } = baseDocument()
    expect(validateDirectoryDocument(without)).toHaveProperty('document')
  })

  it.each(schemaCases)('the schema reports $name', ({ edits, errors }) => {
    expect(validateDirectoryDocument(broken(edits))).toEqual({ errors })
  })

  it.each(checkCases)('the checks report $name', ({ edits, errors }) => {
    expect(validateDirectoryDocument(broken(edits))).toEqual({ errors })
  })
})

describe("the directory file's contactCenter imported", () => {
  it('is the definition the engine takes: milliseconds, and every default filled in', () => {
    expect(contactCenterOfFile(goodSection())).toStrictEqual(GOOD_DEFINITION)
  })

  it('fills the defaults of a minimal section: the first rule, open, queue size 20, 15 s and 10 s', () => {
    expect(
      contactCenterOfFile({
        pilots: [
          {
            number: '3000',
            name: 'Sales',
            rules: [
              { ruleNumber: 4, name: 'Day', queue: '3100' },
              { ruleNumber: 2, name: 'Night', queue: '3100' },
            ],
          },
        ],
        queues: [{ number: '3100', name: 'Q', processingGroup: '3200' }],
        processingGroups: [{ number: '3200', name: 'G' }],
      }),
    ).toStrictEqual({
      pilots: [
        {
          number: '3000',
          name: 'Sales',
          rules: [
            { ruleNumber: 4, name: 'Day', queue: '3100' },
            { ruleNumber: 2, name: 'Night', queue: '3100' },
          ],
          ruleNumber: 4,
          open: true,
          possibleTransfer: true,
          supervisedTransfer: false,
          calendar: { normal: {}, exceptions: {} },
        },
      ],
      queues: [{ number: '3100', name: 'Q', processingGroup: '3200', size: 20 }],
      processingGroups: [
        {
          number: '3200',
          name: 'G',
          noAnswerMs: 15_000,
          wrapUpMs: 10_000,
          transactionCode: false,
          withdrawReasons: [],
        },
      ],
      operators: [],
      skills: [],
    } satisfies ContactCenterDefinition)
  })

  it("is in the directory's settings, and the contact center's licenses apart from the rights'", () => {
    const document = baseDocument()
    document.licenses = { ...document.licenses, CONTACTCENTER_AGENT: 4, CONTACTCENTER_SERVICE: 1 }
    const imported = planImport(document, 'digest', undefined)
    if (!('snapshot' in imported)) throw new Error('expected an import')
    const { settings } = imported.snapshot
    // The installed CONTACTCENTER_AGENT licenses go with the definition: the engine bounds the operators logged on.
    expect(settings.contactCenter).toStrictEqual({ ...GOOD_DEFINITION, agentLicenses: 4 })
    expect(settings.licenses).toStrictEqual({
      TELEPHONY_BASIC: 10,
      TELEPHONY_ADVANCED: 5,
      MESSAGING: 5,
      CONFERENCING: 1,
    })
    expect(settings.contactCenterLicenses).toStrictEqual({
      CONTACTCENTER_AGENT: 4,
      CONTACTCENTER_SERVICE: 1,
    })
  })

  it('leaves both out of the settings when the file has neither', () => {
    const { contactCenter: _, ...document } = baseDocument()
    const imported = planImport(document, 'digest', undefined)
    if (!('snapshot' in imported)) throw new Error('expected an import')
    expect(imported.snapshot.settings).not.toHaveProperty('contactCenter')
    expect(imported.snapshot.settings).not.toHaveProperty('contactCenterLicenses')
  })
})
