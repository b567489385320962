/** The command line's run() against a control plane listening on a free port of 127.0.0.1. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import {
  type CliRun,
  type ControlFixture,
  newUser,
  runCli,
  startControlFixture,
  TOKEN,
} from './control-fixture.js'

let control: ControlFixture
let url: string
let files: string

beforeAll(async () => {
  files = await mkdtemp(join(tmpdir(), 'openness-control-cli-'))
})
afterAll(() => rm(files, { recursive: true, force: true }))

beforeEach(async () => {
  control = await startControlFixture()
  await control.app.listen({ host: '127.0.0.1', port: 0 })
  url = `http://127.0.0.1:${(control.app.server.address() as AddressInfo).port}`
})
afterEach(() => control.close())

/** Runs the command line with the fixture's URL and token unless `env` says otherwise. */
function cli(
  argv: string[],
  options: { stdin?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliRun> {
  return runCli(url, argv, options)
}

async function file(name: string, content: string): Promise<string> {
  const path = join(files, name)
  await writeFile(path, content)
  return path
}

describe('openness-control', () => {
  it('prints its help with --help', async () => {
    const result = await cli(['--help'])

    expect(result).toMatchObject({ code: 0, err: '' })
    expect(result.out).toMatch(/^Usage: npm run control -- \[options\] <command>/)
    for (const command of ['users list', 'users create', 'devices update', 'devices remove'])
      expect(result.out).toContain(command)
  })

  it('lists the users as YAML', async () => {
    const result = await cli(['users', 'list'])

    expect(result.code).toBe(0)
    const users = (parse(result.out) as { users: { loginName: string }[] }).users
    expect(users.map((user) => user.loginName)).toEqual(control.directory.listUserLogins())
  })

  it('shows a user as YAML, or as JSON with --json', async () => {
    const yaml = await cli(['users', 'show', 'carol'])
    const json = await cli(['users', 'show', 'carol', '--json'])

    const entry = control.directory.userEntry(control.directory.findUser('carol') ?? fail())
    expect(parse(yaml.out)).toEqual(entry)
    expect(yaml.out).toContain('companyPhone: "1003"')
    expect(JSON.parse(json.out)).toEqual(entry)
  })

  it('creates a user from a YAML file and prints it', async () => {
    const path = await file('mona.yaml', stringify(newUser()))

    const result = await cli(['users', 'create', path])

    expect(result).toMatchObject({ code: 0, err: '' })
    expect(parse(result.out)).toMatchObject({ loginName: 'mona', companyPhone: '1013' })
    expect(control.directory.findUser('mona')).toBeDefined()
    expect(control.events).toMatchObject([{ eventName: 'OnUserCreated', loginName: 'mona' }])
  })

  it('creates a user from JSON on standard input with -', async () => {
    const result = await cli(['users', 'create', '-'], { stdin: JSON.stringify(newUser()) })

    expect(result.code).toBe(0)
    expect(control.directory.findUser('mona')).toBeDefined()
  })

  it('exits 1 with the helpMessage when the control plane refuses', async () => {
    const path = await file('unquoted.yaml', stringify(newUser()).replace('"1013"', '1013'))

    const result = await cli(['users', 'create', path])

    expect(result).toMatchObject({ code: 1, out: '' })
    expect(result.err).toBe('companyPhone: must be a string; write it in quotes: "1013"\n')
    expect(control.directory.findUser('mona')).toBeUndefined()
  })

  it('updates a user: fields given replace, null removes', async () => {
    const result = await cli(['users', 'update', 'bob', '-'], {
      stdin: 'department: Support\nsite: null\n',
    })

    expect(result.code).toBe(0)
    const entry = parse(result.out) as Record<string, unknown>
    expect(entry['department']).toBe('Support')
    expect(entry).not.toHaveProperty('site')
  })

  it('deletes a user, then says it is gone', async () => {
    const deleted = await cli(['users', 'delete', 'bob'])
    const again = await cli(['users', 'delete', 'bob'])

    expect(deleted).toEqual({ code: 0, out: 'Deleted user bob.\n', err: '' })
    expect(again).toEqual({ code: 1, out: '', err: "No user 'bob'\n" })
  })

  it('adds, changes and removes a device', async () => {
    const added = await cli(['devices', 'add', 'bob', '-'], {
      stdin: 'type: SOFTPHONE\nid: "1202"\n',
    })
    const updated = await cli(['devices', 'update', 'bob', '1202', '-'], {
      stdin: '{"label": "PC"}',
    })
    const removed = await cli(['devices', 'remove', 'bob', '1202'])

    expect(added.code).toBe(0)
    expect(parse(added.out)).toEqual({ type: 'SOFTPHONE', id: '1202' })
    expect(parse(updated.out)).toEqual({ type: 'SOFTPHONE', id: '1202', label: 'PC' })
    expect(removed).toEqual({ code: 0, out: 'Removed device 1202 of user bob.\n', err: '' })
    expect(control.directory.findUser('bob')?.record.devices?.map((device) => device.id)).toEqual([
      '1002',
    ])
  })

  it("replaces a user's routing from a YAML file and shows it", async () => {
    const routing = await file(
      'routing.yaml',
      stringify({
        dndState: { activate: true },
        forwardRoutes: [
          { forwardType: 'NO_ANSWER', destinations: [{ type: 'NUMBER', number: '1002' }] },
        ],
      }),
    )
    const set = await cli(['routing', 'set', 'alice', routing])
    expect(set.code, set.err).toBe(0)
    const shown = await cli(['routing', 'show', 'alice', '--json'])
    expect(shown.code, shown.err).toBe(0)
    expect(JSON.parse(shown.out)).toEqual({
      forwardRoutes: [
        { forwardType: 'NO_ANSWER', destinations: [{ type: 'NUMBER', number: '1002' }] },
      ],
      dndState: { activate: true },
    })
    expect(control.events.map((event) => event.eventName)).toContain('OnRoutingStateChanged')
  })

  it('takes --url and --token over the environment, with or without /control/v1', async () => {
    const env = { CONTROL_URL: 'http://127.0.0.1:9', CONTROL_TOKEN: 'wrong' }

    const plain = await cli(['--url', url, '--token', TOKEN, 'users', 'show', 'alice'], { env })
    const full = await cli(
      [`--url=${url}/control/v1/`, `--token=${TOKEN}`, 'users', 'show', 'alice'],
      {
        env,
      },
    )

    expect(plain.code).toBe(0)
    expect(full.code).toBe(0)
  })

  it('exits 1 with the helpMessage on a wrong token', async () => {
    const result = await cli(['--token', 'not-the-token', 'users', 'list'])

    expect(result).toEqual({ code: 1, out: '', err: 'The operator token is not valid\n' })
  })

  it('exits 1 when the control plane cannot be reached', async () => {
    await control.app.close()

    const result = await cli(['users', 'list'])

    expect(result.code).toBe(1)
    expect(result.err).toMatch(/^openness-control: cannot reach the control plane at http:\/\/127/)
  })

  it.each<[string, string[], Record<string, string | undefined> | undefined, RegExp]>([
    ['no command', [], undefined, /no command given/],
    ['an unknown command', ['users', 'frob'], undefined, /unknown command 'users frob'/],
    ['a missing argument', ['users', 'show'], undefined, /usage: users show <login>/],
    ['an extra argument', ['users', 'delete', 'a', 'b'], undefined, /usage: users delete <login>/],
    ['an unknown option', ['--colour', 'users', 'list'], undefined, /Unknown option '--colour'/],
    ['no token', ['users', 'list'], { CONTROL_URL: 'http://127.0.0.1:9' }, /no operator token/],
    ['a bad URL', ['--url', 'nowhere', 'users', 'list'], undefined, /--url nowhere: not a URL/],
  ])('exits 2 on %s, saying why', async (_case, argv, env, message) => {
    const result = await cli(argv, env === undefined ? {} : { env })

    expect(result.code).toBe(2)
    expect(result.out).toBe('')
    expect(result.err).toMatch(message)
    expect(result.err).toContain('Run with --help')
  })

  it.each([
    [
      'a file that does not exist',
      () => Promise.resolve(join(files, 'missing.yaml')),
      /cannot read/,
    ],
    ['an empty file', () => file('empty.yaml', '  \n'), /is empty/],
    ['YAML that does not parse', () => file('broken.yaml', 'loginName: [mona\n'), /broken\.yaml: /],
  ])('exits 1 on %s before any request', async (_case, path, message) => {
    const result = await cli(['users', 'create', await path()])

    expect(result.code).toBe(1)
    expect(result.err).toMatch(message)
    expect(control.events).toEqual([])
  })
})

function fail(): never {
  throw new Error('missing')
}
