/**
 * openness-control: the control plane from the command line (docs/control-plane.md, "Command line"),
 * run as `npm run control -- users list`. `run(argv, io)` does the work, so that tests call it without
 * spawning a process.
 */
import { realpathSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { parse, stringify } from 'yaml'
import { DEFAULT_CONTROL_URL } from '../control/control-address.js'
import { CONTACT_CENTER_COMMANDS, CONTACT_CENTER_OPTIONS } from './contact-center-commands.js'
import {
  CliError,
  COMMANDS as CONTROL_COMMANDS,
  type Command,
  EXIT,
  type Method,
} from './control-commands.js'
import { JOURNAL_FILTER_OPTIONS, runJournalCommand } from './journal-commands.js'
import { runScenarioCommand } from './scenario-commands.js'

const CONTROL_PATH = '/control/v1'

/** Every command the command line knows, by its words. */
const COMMANDS: Readonly<Record<string, Command>> = {
  ...CONTROL_COMMANDS,
  ...CONTACT_CENTER_COMMANDS,
}

/** What the command line reads and writes. */
export interface CliIo {
  /** Writes to standard output. */
  out(text: string): void
  /** Writes to standard error. */
  err(text: string): void
  /** Reads the whole standard input (for a file named `-`). */
  stdin(): Promise<string>
  /** CONTROL_URL and CONTROL_TOKEN are read from here. */
  env: Readonly<Record<string, string | undefined>>
}

const USAGE = `Usage: npm run control -- [options] <command>

Commands:
  users list                                   list every user
  users show <login>                           show a user in the directory file format
  users create <file|->                        create a user from a YAML or JSON file (- reads stdin)
  users update <login> <file|->                change a user: fields given replace, null removes
  users delete <login>                         delete a user
  devices add <login> <file|->                 add a device to a user
  devices update <login> <deviceId> <file|->   change a device
  devices remove <login> <deviceId>            remove a device
  routing show <login>                         show a user's routing (DND, forward, overflow routes)
  routing set <login> <file|->                 replace a user's routing with a RoutingState file
  hunting-groups list                          the hunting groups, their members and waiting calls
  hunting-groups show <number>                 one hunting group
  hunting-groups set <number> <file|->         create or change a group (a directory file entry, YAML
                                               or JSON, without its number)
  hunting-groups delete <number>               delete a group: members logged off, its calls ended
  hunting-groups logon <number> <login>        log a member on
  hunting-groups logoff <number> <login>       log a member off
  desk-sharing list                            the desk-sharing sets and who is logged on at each
  desk-sharing logon <number> <login>          log a desk-sharing user on at the set
  desk-sharing logoff <login>                  log a desk-sharing user off its set
  mini-messages list <login>                   the user's unread mini messages, most recent first

Contact center (docs/contact-center-control.md):
  contact-center show                          pilots, queues and their waiting calls, groups, agents
  contact-center definition                    the definition (the directory file's contactCenter)
  contact-center define <file|->               replaces the definition (YAML or JSON)
  contact-center agent log-on <login> [set]    logs an operator on (default: its main device)
                                               [--group <pg>]
  contact-center agent ready|pause|log-off <login>
  contact-center agent withdraw <login> <reason>
  contact-center pilot open|close <number>     opens or closes a pilot
  contact-center traffic list                  the traffic generators
  contact-center traffic start <pilot> <callsPerMinute>
                                               callers dial the pilot at that rate [--patience s]
                                               [--talk s] [--from prefix] [--seed n]; again: changes it
  contact-center traffic stop <pilot>          no more callers on the pilot
  contact-center simulated-agents              the simulated agents
  contact-center simulate-agent <login> <answerAfterSeconds> <talkSeconds>
                                               the operator answers and talks by itself [--wrap-up s]
  contact-center unsimulate-agent <login>      the operator is a person again
  contact-center tickets                       the tickets stored [--pilot] [--agent] [--since]
                                               [--until] [--limit] [--after]

Simulation:
  calls list                                   list the calls in progress with their parties
  calls make <from> <to>                       an extension's device, or an outside number, calls <to>
  devices answer <deviceId>                    the device answers the call ringing on it
  devices offhook <deviceId>                   the device goes off-hook (answers what rings)
  devices hangup <deviceId>                    the device hangs up: it leaves all its calls
  devices dtmf <deviceId> <digits>             the device sends DTMF digits in the call it is active in
  devices auto-answer <deviceId> <on|off>      the device answers by itself, or no longer
  devices service <deviceId> <in|out>          puts the device in or out of service
  outside answer <number>                      the outside party answers the call ringing there
  outside reject <number>                      the outside party rejects it
  outside busy <number>                        the outside party is busy
  outside hangup <number>                      the outside party hangs up: it leaves all its calls
  mini-messages send <login> <from> <text>     <from> (a user's number or login name) sends the user
                                               a mini message (quote the text)

Time and faults:
  clock show                                   the service's time
  clock advance <seconds>                      sets the service's clock forward: what falls due happens
  faults show                                  the fault in force, if any
  faults not-ready <seconds>                   the API answers 503 NOT_READY for that long
  faults switch-over [seconds]                 drops every session; NOT_READY meanwhile (default 5 s)
  faults clear                                 ends the fault in force

State (docs/sandbox.md):
  reset                                        back to the directory file's state: sessions, calls,
                                               routing, logs and messages gone, the clock not ahead
  snapshots list                               the snapshots kept
  snapshots save <name>                        keeps the platform's state under a name
  snapshots restore <name>                     puts it back (every session is closed)
  snapshots delete <name>                      deletes the snapshot

Scenarios (docs/scenarios.md):
  scenarios list                               the scenario library: the common CTI cases
  scenarios show <name>                        a scenario of the library, as its YAML file
  scenarios run <file|-|name> [--reset]        runs a scenario file (- reads stdin) or the library's <name>:
                                               prints the timeline and the verdict; exit code 1 if it failed

Journal (docs/journal.md):
  journal [filters] [--limit n] [--order o]    the newest entries (100), one line each, oldest first
  journal follow [filters] [--count n]         each entry as it is recorded (until Ctrl-C, or n entries)
  journal clear                                empties the journal
  journal verify <file|->                      checks that entries matching the patterns file (YAML or
                                               JSON: a list of partial entries) happened in that order;
                                               exit code 1 if not
  filters: --kind <k> (repeatable; request, event, control, near-miss), --user, --call,
           --subscription, --session, --operation, --event, --method, --path, --error,
           --status <404|4xx>, --since/--until <ISO time>, --after/--before <id>

Options:
  --url <url>       the control plane (default: $CONTROL_URL, else ${DEFAULT_CONTROL_URL})
  --token <token>   the operator token (default: $CONTROL_TOKEN; the service prints it at start)
  --json            print JSON instead of YAML (scenarios run: the whole result)
  --reset           scenarios run: return the service to the directory file's state first
  -h, --help        print this help
`

/** Runs one command line (without `node` and the script) and answers its exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await execute(argv, io)
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    io.err(`openness-control: ${error.message}\n`)
    if (error.exitCode === EXIT.usage) io.err('Run with --help for the commands.\n')
    return error.exitCode
  }
}

async function execute(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(argv)
  if (values.help) {
    io.out(USAGE)
    return EXIT.ok
  }
  // Commands are three words (`contact-center agent ready`), two (`users list`), or one (`reset`).
  const threeWords = positionals.slice(0, 3).join(' ')
  const twoWords = positionals.slice(0, 2).join(' ')
  const name = [threeWords, twoWords, positionals[0] ?? ''].find(
    (words) => COMMANDS[words] !== undefined,
  )
  const command = name === undefined ? undefined : COMMANDS[name]
  if (name === undefined || command === undefined) {
    const asked = Object.keys(COMMANDS).some((known) => known.startsWith(`${twoWords} `))
      ? threeWords
      : twoWords
    throw new CliError(asked === '' ? 'no command given' : `unknown command '${asked}'`, EXIT.usage)
  }
  const given = positionals.slice(name.split(' ').length)
  const optional = command.optional ?? []
  if (given.length < command.args.length || given.length > command.args.length + optional.length)
    throw new CliError(
      `usage: ${[name, ...command.args.map((arg) => `<${arg}>`), ...optional.map((arg) => `[${arg}]`)].join(' ')}`,
      EXIT.usage,
    )
  const names = [...command.args, ...optional]
  const args: Record<string, string> = Object.fromEntries(
    given.map((value, index) => [names[index] ?? '', value]),
  )
  for (const option of command.options ?? []) {
    const value = values[option as keyof typeof values]
    if (typeof value === 'string') args[option] = value
  }

  const token = values.token ?? io.env['CONTROL_TOKEN']
  if (token === undefined || token === '')
    throw new CliError(
      'no operator token: pass --token or set CONTROL_TOKEN (the service prints it at start)',
      EXIT.usage,
    )
  const base = controlUrl(values.url ?? io.env['CONTROL_URL'] ?? DEFAULT_CONTROL_URL)
  if (name === 'scenarios run')
    return runScenarioCommand(args['file|-|name'] ?? '', {
      base,
      token,
      reset: values.reset === true,
      json: values.json === true,
      out: io.out,
      err: io.err,
      stdin: io.stdin,
    })
  if (name === 'journal' || name.startsWith('journal '))
    return runJournalCommand(name, args['file|-'], {
      base,
      token,
      options: values,
      json: values.json === true,
      out: io.out,
      err: io.err,
      stdin: io.stdin,
      readFile: (file) => readFile(file, 'utf8'),
    })
  const body =
    args['file'] !== undefined ? await readDocument(args['file'], io) : command.body?.(args)

  const response = await send(`${base}${command.path(args)}`, command.method, token, body)
  return report(response, command, args, values.json === true, io)
}

function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        json: { type: 'boolean' },
        reset: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(
          JOURNAL_FILTER_OPTIONS.map((name) => [
            name,
            name === 'kind' ? { type: 'string', multiple: true } : { type: 'string' },
          ]),
        ),
        limit: { type: 'string' },
        order: { type: 'string' },
        count: { type: 'string' },
        ...Object.fromEntries(CONTACT_CENTER_OPTIONS.map((name) => [name, { type: 'string' }])),
      },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage)
  }
}

/** The base URL of the routes: `http://host:port` or the same ending in /control/v1. */
function controlUrl(given: string): string {
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new CliError(`--url ${given}: not a URL such as ${DEFAULT_CONTROL_URL}`, EXIT.usage)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`--url ${given}: must be an http or https URL`, EXIT.usage)
  const path = url.pathname.replace(/\/+$/, '')
  return `${url.origin}${path.endsWith(CONTROL_PATH) ? path : `${path}${CONTROL_PATH}`}`
}

/** The YAML or JSON document of a file, or of standard input for `-`. */
async function readDocument(file: string, io: CliIo): Promise<unknown> {
  const where = file === '-' ? 'standard input' : file
  let text: string
  try {
    text = file === '-' ? await io.stdin() : await readFile(file, 'utf8')
  } catch (error) {
    throw new CliError(`cannot read ${where}: ${(error as Error).message}`, EXIT.failed)
  }
  if (text.trim() === '') throw new CliError(`${where} is empty`, EXIT.failed)
  try {
    // JSON is YAML too, so one parser reads both.
    return parse(text)
  } catch (error) {
    throw new CliError(`${where}: ${(error as Error).message}`, EXIT.failed)
  }
}

async function send(url: string, method: Method, token: string, body: unknown): Promise<Response> {
  try {
    return await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  } catch (error) {
    const cause = (error as Error & { cause?: { message?: string } }).cause?.message
    throw new CliError(
      `cannot reach the control plane at ${url}: ${cause ?? (error as Error).message}`,
      EXIT.failed,
    )
  }
}

/** Prints the answer (YAML, or JSON with --json) or its RestErrorInfo's helpMessage. */
async function report(
  response: Response,
  command: Command,
  args: Readonly<Record<string, string>>,
  json: boolean,
  io: CliIo,
): Promise<number> {
  const text = await response.text()
  if (response.ok && command.raw) {
    io.out(text.endsWith('\n') ? text : `${text}\n`)
    return EXIT.ok
  }
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  if (!response.ok) {
    const help = (body as { helpMessage?: unknown } | undefined)?.helpMessage
    const message =
      typeof help === 'string' ? help : `HTTP ${response.status} ${response.statusText}`.trim()
    io.err(`${message}\n`)
    return EXIT.failed
  }
  if (body === undefined) {
    if (command.done) io.out(`${command.done(args)}\n`)
    return EXIT.ok
  }
  io.out(json ? `${JSON.stringify(body, null, 2)}\n` : stringify(body))
  return EXIT.ok
}

/** The process's own input and output. */
function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    stdin: async () => {
      const chunks: Buffer[] = []
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    },
    env: process.env,
  }
}

/**
 * Whether this module runs as the program, not imported: Node gives it its real path, but the script's path as
 * it was typed, through any symbolic link (a checkout reached through a link, macOS's /tmp): compare real ones.
 */
function isProgram(): boolean {
  const script = process.argv[1]
  if (script === undefined) return false
  try {
    return realpathSync(resolve(script)) === fileURLToPath(import.meta.url)
  } catch {
    return false
  }
}

if (isProgram()) {
  run(process.argv.slice(2), processIo()).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      process.stderr.write(`openness-control: ${(error as Error).stack ?? String(error)}\n`)
      process.exitCode = EXIT.failed
    },
  )
}
