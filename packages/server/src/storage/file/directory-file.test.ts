import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DirectoryFileError, readDirectoryFile } from './directory-file.js'

const DEMO_FILE = fileURLToPath(new URL('../../../directory/demo-directory.yaml', import.meta.url))

const VALID = `company:
  name: Test Corp
numberingPlan:
  countryCode: FR
  externalPrefix: "0"
  addPfxForNbLength: 4
  extensionLength: 4
licenses:
  TELEPHONY_BASIC: 10
  TELEPHONY_ADVANCED: 5
  MESSAGING: 5
  CONFERENCING: 1
languages:
  gui: [en]
  tui: [en]
users:
  - loginName: alice
    password: demo-alice
    salutation: MRS
    firstName: Alice
    lastName: Martin
    type: STANDARD
    companyPhone: "1001"
    apiRights: [TELEPHONY_BASIC]
    devices:
      - type: DESKPHONE
        id: "1001"
`

let directory: string

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'directory-file-'))
})

afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

async function fileWith(name: string, text: string): Promise<string> {
  const path = join(directory, name)
  await writeFile(path, text)
  return path
}

async function failure(path: string): Promise<DirectoryFileError> {
  const error = await readDirectoryFile(path).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  if (!(error instanceof DirectoryFileError)) throw new Error(`expected a DirectoryFileError`)
  return error
}

describe('readDirectoryFile', () => {
  it('reads the demo file, with the sha256 of its bytes', async () => {
    const { document, sourceDigest } = await readDirectoryFile(DEMO_FILE)
    expect(sourceDigest).toBe(
      createHash('sha256')
        .update(await readFile(DEMO_FILE))
        .digest('hex'),
    )
    expect(sourceDigest).toMatch(/^[0-9a-f]{64}$/)
    expect(document.company).toEqual({ name: 'Example Corp', nodeId: '1' })
    expect(document.users.map((user) => user.loginName)).toEqual([
      'alice',
      'bob',
      'carol',
      'dave',
      'erin',
      'franck',
      'gaelle',
      'henri',
      'ines',
      'julien',
      'karim',
      'lea',
      'nora',
      'olivia',
      'paul',
      'quentin',
      'rose',
      'sophie',
    ])
    expect(document.users[0]).toEqual({
      loginName: 'alice',
      password: 'demo-alice',
      salutation: 'MRS',
      firstName: 'Alice',
      lastName: 'Martin',
      type: 'STANDARD',
      companyPhone: '1001',
      companyEmail: 'alice.martin@example.com',
      instantMessagingId: 'alice.martin@im.example.com',
      site: 'Paris',
      department: 'Sales',
      pickupGroup: 'paris-front-office',
      apiRights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'MESSAGING'],
      applicationRights: ['BUSINESS_COMMUNICATIONS', 'VOICE_MAIL'],
      devices: [{ type: 'DESKPHONE', id: '1001', subType: 'SIP_8068', role: 'MAIN' }],
      voicemail: { number: '8000', type: 'VM_4635' },
      preferences: { guiLanguage: 'en', tuiLanguage: 'en' },
    })
    expect(document.administrators).toEqual([
      {
        loginName: 'admin',
        password: 'demo-admin',
        firstName: 'Ada',
        lastName: 'Admin',
        supervisor: true,
      },
      {
        loginName: 'operator',
        password: 'demo-operator',
        firstName: 'Oscar',
        lastName: 'Operator',
        supervisor: false,
      },
    ])
  })

  it('gives every demo device a subType, as the real clients and the samples show it', async () => {
    const { document } = await readDirectoryFile(DEMO_FILE)
    const devices = document.users.flatMap((user) =>
      (user.devices ?? []).map((device) => ({ loginName: user.loginName, ...device })),
    )
    expect(devices.length).toBeGreaterThan(document.users.length)
    for (const device of devices)
      expect(device.subType, `${device.loginName} ${device.id}`).toMatch(/^[A-Z0-9_]+$/)
    // Each type has the kind of sub-type the specification's examples give it.
    const SUB_TYPES: Record<string, RegExp> = {
      DESKPHONE: /^(SIP_80\d\d|VHE80\d\d|ANALOG)$/,
      DECT: /^VHE80\d\d$/,
      MOBILE: /^MOBILE(_ANDROID)?$/,
      NOMADIC: /^NOMADIC_(HOME|OTHER)$/,
      SOFTPHONE: /^(OTC_TABLET|THIRD_PARTY_VIDEO)$/,
    }
    for (const device of devices)
      expect(device.subType, `${device.loginName} ${device.id}`).toMatch(
        SUB_TYPES[device.type] ?? /^$/,
      )
  })

  it('gives the same digest to the same bytes and another to other bytes', async () => {
    const first = await readDirectoryFile(await fileWith('same-1.yaml', VALID))
    const second = await readDirectoryFile(await fileWith('same-2.yaml', VALID))
    const third = await readDirectoryFile(await fileWith('other.yaml', `${VALID}# a comment\n`))
    expect(second.sourceDigest).toBe(first.sourceDigest)
    expect(third.sourceDigest).not.toBe(first.sourceDigest)
    expect(third.document).toEqual(first.document)
  })

  it('reports YAML syntax errors with their lines', async () => {
    const path = await fileWith(
      'syntax.yaml',
      VALID.replace('  name: Test Corp\n', '  name: Test Corp\n  name: Again\n').replace(
        '  gui: [en]',
        '  gui: [en',
      ),
    )
    const error = await failure(path)
    expect(error.name).toBe('DirectoryFileError')
    expect(error.path).toBe(path)
    expect(error.message).toBe(
      `The directory file ${path} cannot be used (2 problems):\n` +
        '  line 3, column 3: YAML syntax: Map keys must be unique\n' +
        '  line 16, column 3: YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]',
    )
  })

  it('reports validation errors with their paths and lines, in the order of the file', async () => {
    const path = await fileWith(
      'invalid.yaml',
      VALID.replace('countryCode: FR', 'countryCode: fr')
        .replace('companyPhone: "1001"', 'companyPhone: 1001')
        .replace('type: DESKPHONE', 'type: PHONE')
        .replace('    lastName: Martin\n', '')
        .replace('  MESSAGING: 5\n', '  MESAGING: 5\n'),
    )
    const error = await failure(path)
    expect(error.problems).toEqual([
      'line 4: numberingPlan.countryCode: must be an ISO 3166 alpha-2 country code in capitals, such as FR',
      'line 8: licenses.MESSAGING: is required',
      'line 11: licenses.MESAGING: is not a known field; did you mean MESSAGING?',
      'line 17: users[0].lastName: is required',
      'line 22: users[0].companyPhone: must be a string; write it in quotes: "1001"',
      'line 25: users[0].devices[0].type: must be one of DECT, DESKPHONE, MOBILE, NOMADIC, SOFTPHONE',
    ])
    expect(error.message).toBe(
      `The directory file ${path} cannot be used (6 problems):\n${error.problems.map((problem) => `  ${problem}`).join('\n')}`,
    )
  })

  it('reports semantic problems with their lines', async () => {
    const path = await fileWith(
      'semantic.yaml',
      `${VALID}administrators:\n  - loginName: alice\n    password: demo-admin\n`,
    )
    expect((await failure(path)).message).toBe(
      `The directory file ${path} cannot be used (1 problem):\n` +
        '  line 29: administrators[0].loginName: "alice" is already the login name of users[0]',
    )
  })

  it('reports an empty file', async () => {
    const path = await fileWith('empty.yaml', '# nothing but a comment\n')
    expect((await failure(path)).message).toBe(
      `The directory file ${path} cannot be used (1 problem):\n  the file is empty`,
    )
  })

  it('reports a file that is not a mapping', async () => {
    const path = await fileWith('list.yaml', '- alice\n- bob\n')
    expect((await failure(path)).problems).toEqual([
      'line 1: (document): must be a mapping of fields (key: value)',
    ])
  })

  it('reports a file it cannot read', async () => {
    const path = join(directory, 'missing.yaml')
    expect((await failure(path)).message).toBe(
      `The directory file ${path} cannot be used (1 problem):\n` +
        `  cannot be read: ENOENT: no such file or directory, open '${path}'`,
    )
  })
})
