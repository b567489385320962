/**
 * The control plane's commands as the command line knows them (openness-control.ts): each command's words,
 * arguments and the request it makes, and the errors and exit codes the command line answers with.
 */

/** Exit codes: 0 done, 1 refused or failed, 2 a command line that cannot be run. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

/** One command: its arguments, the request it makes, and what it says when the answer has no body. */
export interface Command {
  args: readonly string[]
  /** Arguments that may follow `args`, absent from the record when not given. */
  optional?: readonly string[]
  /** `--name value` options read into the record as `name` (absent when not given). */
  options?: readonly string[]
  method: Method
  path(args: Readonly<Record<string, string>>): string
  done?(args: Readonly<Record<string, string>>): string
  /** The body made of the arguments (commands without a file); a CliError for a bad argument. */
  body?(args: Readonly<Record<string, string>>): unknown
  /** The answer is printed as it comes (a YAML file), not parsed as JSON. */
  raw?: true
}

const segment = encodeURIComponent
const userPath = (args: Readonly<Record<string, string>>) =>
  `/users/${segment(args['login'] ?? '')}`
const devicePath = (args: Readonly<Record<string, string>>) =>
  `${userPath(args)}/devices/${segment(args['deviceId'] ?? '')}`

export const COMMANDS: Readonly<Record<string, Command>> = {
  'users list': { args: [], method: 'GET', path: () => '/users' },
  'users show': { args: ['login'], method: 'GET', path: userPath },
  'users create': { args: ['file'], method: 'POST', path: () => '/users' },
  'users update': { args: ['login', 'file'], method: 'PATCH', path: userPath },
  'users delete': {
    args: ['login'],
    method: 'DELETE',
    path: userPath,
    done: (args) => `Deleted user ${args['login']}.`,
  },
  'devices add': {
    args: ['login', 'file'],
    method: 'POST',
    path: (args) => `${userPath(args)}/devices`,
  },
  'devices update': { args: ['login', 'deviceId', 'file'], method: 'PATCH', path: devicePath },
  'devices remove': {
    args: ['login', 'deviceId'],
    method: 'DELETE',
    path: devicePath,
    done: (args) => `Removed device ${args['deviceId']} of user ${args['login']}.`,
  },
  'routing show': { args: ['login'], method: 'GET', path: (args) => `${userPath(args)}/routing` },
  'routing set': {
    args: ['login', 'file'],
    method: 'PUT',
    path: (args) => `${userPath(args)}/routing`,
  },
  'hunting-groups list': { args: [], method: 'GET', path: () => '/huntingGroups' },
  'hunting-groups show': { args: ['number'], method: 'GET', path: huntingGroupPath },
  'hunting-groups set': { args: ['number', 'file'], method: 'PUT', path: huntingGroupPath },
  'hunting-groups delete': {
    args: ['number'],
    method: 'DELETE',
    path: huntingGroupPath,
    done: (args) => `Deleted hunting group ${args['number']}.`,
  },
  ...memberAction('logon', (args) => `${args['login']} is logged on in ${args['number']}.`),
  ...memberAction('logoff', (args) => `${args['login']} is logged off from ${args['number']}.`),
  'mini-messages list': {
    args: ['login'],
    method: 'GET',
    path: (args) => `${userPath(args)}/miniMessages`,
  },
  'mini-messages send': {
    args: ['login', 'from', 'text'],
    method: 'POST',
    path: (args) => `${userPath(args)}/miniMessages`,
    body: (args) => ({ from: args['from'], message: args['text'] }),
  },
  'desk-sharing list': { args: [], method: 'GET', path: () => '/deskSharing' },
  'desk-sharing logon': {
    args: ['number', 'login'],
    method: 'POST',
    path: (args) => `/deskSharing/${segment(args['number'] ?? '')}/logon`,
    body: (args) => ({ loginName: args['login'] }),
    done: (args) => `${args['login']} is logged on at ${args['number']}.`,
  },
  'desk-sharing logoff': {
    args: ['login'],
    method: 'POST',
    path: () => '/deskSharing/logoff',
    body: (args) => ({ loginName: args['login'] }),
    done: (args) => `${args['login']} is logged off.`,
  },
  'calls list': { args: [], method: 'GET', path: () => '/calls' },
  'calls make': {
    args: ['from', 'to'],
    method: 'POST',
    path: () => '/calls',
    body: (args) => ({ from: args['from'], to: args['to'] }),
  },
  ...deviceAction('answer', (id) => `Device ${id} answered.`),
  ...deviceAction('offhook', (id) => `Device ${id} went off-hook and answered.`),
  ...deviceAction('hangup', (id) => `Device ${id} hung up.`),
  'devices dtmf': {
    args: ['deviceId', 'digits'],
    method: 'POST',
    path: (args) => `${simulatedDevicePath(args)}/dtmf`,
    body: (args) => ({ digits: args['digits'] }),
    done: (args) => `Device ${args['deviceId']} sent ${args['digits']}.`,
  },
  'devices auto-answer': {
    args: ['deviceId', 'on|off'],
    method: 'PUT',
    path: simulatedDevicePath,
    body: (args) => ({ autoAnswer: choice(args['on|off'], { on: true, off: false }) }),
  },
  'devices service': {
    args: ['deviceId', 'in|out'],
    method: 'PUT',
    path: simulatedDevicePath,
    body: (args) => ({
      state: choice(args['in|out'], { in: 'IN_SERVICE', out: 'OUT_OF_SERVICE' }),
    }),
  },
  ...outsideAction('answer', 'answer', undefined, (n) => `Outside party ${n} answered.`),
  ...outsideAction('reject', 'reject', undefined, (n) => `Outside party ${n} rejected the call.`),
  ...outsideAction('busy', 'reject', { cause: 'BUSY' }, (n) => `Outside party ${n} was busy.`),
  ...outsideAction('hangup', 'hangup', undefined, (n) => `Outside party ${n} hung up.`),
  'clock show': { args: [], method: 'GET', path: () => '/clock' },
  'clock advance': {
    args: ['seconds'],
    method: 'POST',
    path: () => '/clock/advance',
    body: (args) => ({ seconds: seconds(args['seconds']) }),
  },
  'faults show': { args: [], method: 'GET', path: () => '/faults' },
  'scenarios list': { args: [], method: 'GET', path: () => '/scenarios' },
  'scenarios show': {
    args: ['name'],
    method: 'GET',
    path: (args) => `/scenarios/${segment(args['name'] ?? '')}`,
    raw: true,
  },
  // Run by runScenarioCommand: the file goes as YAML, and the answer is a report.
  'scenarios run': { args: ['file|-|name'], method: 'POST', path: () => '/scenarios/run' },
  'faults not-ready': {
    args: ['seconds'],
    method: 'POST',
    path: () => '/faults/not-ready',
    body: (args) => ({ seconds: seconds(args['seconds']) }),
  },
  'faults switch-over': {
    args: [],
    optional: ['seconds'],
    method: 'POST',
    path: () => '/faults/switch-over',
    body: (args) => (args['seconds'] === undefined ? {} : { seconds: seconds(args['seconds']) }),
  },
  'faults clear': {
    args: [],
    method: 'DELETE',
    path: () => '/faults',
    done: () => 'No fault is in force any more.',
  },
  reset: { args: [], method: 'POST', path: () => '/reset' },
  'snapshots list': { args: [], method: 'GET', path: () => '/snapshots' },
  'snapshots save': { args: ['name'], method: 'PUT', path: snapshotPath },
  'snapshots restore': {
    args: ['name'],
    method: 'POST',
    path: (args) => `${snapshotPath(args)}/restore`,
  },
  // Run by runJournalCommand: filters from the options, entries printed one a line.
  journal: { args: [], method: 'GET', path: () => '/journal' },
  'journal follow': { args: [], method: 'GET', path: () => '/journal/stream' },
  'journal clear': { args: [], method: 'DELETE', path: () => '/journal' },
  'journal verify': { args: ['file|-'], method: 'POST', path: () => '/journal/verify' },
  'snapshots delete': {
    args: ['name'],
    method: 'DELETE',
    path: snapshotPath,
    done: (args) => `Deleted snapshot ${args['name']}.`,
  },
}

function huntingGroupPath(args: Readonly<Record<string, string>>): string {
  return `/huntingGroups/${segment(args['number'] ?? '')}`
}

/** `hunting-groups <action> <number> <login>`: POST /huntingGroups/{number}/members/{login}/<action>. */
function memberAction(
  action: string,
  done: (args: Readonly<Record<string, string>>) => string,
): Record<string, Command> {
  return {
    [`hunting-groups ${action}`]: {
      args: ['number', 'login'],
      method: 'POST',
      path: (args) => `${huntingGroupPath(args)}/members/${segment(args['login'] ?? '')}/${action}`,
      done,
    },
  }
}

function snapshotPath(args: Readonly<Record<string, string>>): string {
  return `/snapshots/${segment(args['name'] ?? '')}`
}

function simulatedDevicePath(args: Readonly<Record<string, string>>): string {
  return `/devices/${segment(args['deviceId'] ?? '')}`
}

/** `devices <action> <deviceId>`: POST /devices/{deviceId}/<action>. */
function deviceAction(action: string, done: (deviceId: string) => string): Record<string, Command> {
  return {
    [`devices ${action}`]: {
      args: ['deviceId'],
      method: 'POST',
      path: (args) => `${simulatedDevicePath(args)}/${action}`,
      done: (args) => done(args['deviceId'] ?? ''),
    },
  }
}

/** `outside <name> <number>`: POST /outside/{number}/<action>. */
function outsideAction(
  name: string,
  action: string,
  body: unknown,
  done: (number: string) => string,
): Record<string, Command> {
  return {
    [`outside ${name}`]: {
      args: ['number'],
      method: 'POST',
      path: (args) => `/outside/${segment(args['number'] ?? '')}/${action}`,
      done: (args) => done(args['number'] ?? ''),
      ...(body !== undefined && { body: () => body }),
    },
  }
}

/** The value of one of the words a command argument may be. */
function choice<T>(given: string | undefined, values: Readonly<Record<string, T>>): T {
  const value = given === undefined ? undefined : values[given]
  if (value === undefined)
    throw new CliError(`'${given}' is not one of ${Object.keys(values).join(', ')}`, EXIT.usage)
  return value
}

/** A number of seconds as given on the command line (the control plane checks its range). */
function seconds(given: string | undefined): number {
  const value = given === undefined || given.trim() === '' ? Number.NaN : Number(given)
  if (!Number.isFinite(value))
    throw new CliError(`'${given}' is not a number of seconds`, EXIT.usage)
  return value
}

/** A command line that cannot be run, or a failure before any request; the message says why. */
export class CliError extends Error {
  override readonly name = 'CliError'

  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message)
  }
}
