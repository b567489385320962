/**
 * The contact center's commands of the command line (docs/contact-center-control.md, "Command line"): the floor
 * and the definition, an agent's actions, pilots opened and closed, traffic generators, simulated agents and the
 * tickets, each the request of one route of `/contactCenter`. Words after `--` options (`--patience 30`) are
 * read from `options`.
 */
import { CliError, type Command, EXIT } from './control-commands.js'

/** The options these commands read (besides the journal's `--limit`, `--after`, `--since`, `--until`). */
export const CONTACT_CENTER_OPTIONS = [
  'group',
  'patience',
  'talk',
  'from',
  'seed',
  'wrap-up',
  'pilot',
  'agent',
] as const

type Args = Readonly<Record<string, string>>

const segment = encodeURIComponent
const PATH = '/contactCenter'

/** A number as given on the command line (the control plane checks its range); `what` words it. */
function number(given: string | undefined, what: string): number {
  const value = given === undefined || given.trim() === '' ? Number.NaN : Number(given)
  if (!Number.isFinite(value)) throw new CliError(`'${given}' is not ${what}`, EXIT.usage)
  return value
}

/** The contact center's commands, by their words. */
export const CONTACT_CENTER_COMMANDS: Readonly<Record<string, Command>> = contactCenterCommands()

function contactCenterCommands(): Record<string, Command> {
  const agentPath = (action: string) => (args: Args) =>
    `${PATH}/agents/${segment(args['login'] ?? '')}/${action}`
  const agentAction = (
    words: string,
    action: string,
    done: (args: Args) => string,
  ): Record<string, Command> => ({
    [`contact-center agent ${words}`]: {
      args: ['login'],
      method: 'POST',
      path: agentPath(action),
      done,
    },
  })
  const seconds = (args: Args, option: string, field: string) =>
    args[option] === undefined ? {} : { [field]: number(args[option], 'a number of seconds') }
  return {
    'contact-center show': { args: [], method: 'GET', path: () => PATH },
    'contact-center definition': { args: [], method: 'GET', path: () => `${PATH}/definition` },
    'contact-center define': { args: ['file'], method: 'PUT', path: () => `${PATH}/definition` },
    'contact-center agent log-on': {
      args: ['login'],
      optional: ['set'],
      options: ['group'],
      method: 'POST',
      path: agentPath('logon'),
      body: (args) => ({
        ...(args['set'] !== undefined && { set: args['set'] }),
        ...(args['group'] !== undefined && { processingGroup: args['group'] }),
      }),
      done: (args) =>
        `${args['login']} is logged on${args['set'] === undefined ? '' : ` at ${args['set']}`}.`,
    },
    ...agentAction('ready', 'ready', (args) => `${args['login']} is ready.`),
    ...agentAction('pause', 'pause', (args) => `${args['login']} pauses.`),
    ...agentAction('log-off', 'logoff', (args) => `${args['login']} is logged off.`),
    'contact-center agent withdraw': {
      args: ['login', 'reason'],
      method: 'POST',
      path: agentPath('withdraw'),
      body: (args) => ({ reason: number(args['reason'], 'a withdraw reason index') }),
      done: (args) => `${args['login']} is withdrawn (reason ${args['reason']}).`,
    },
    'contact-center pilot open': {
      args: ['pilot'],
      method: 'POST',
      path: (args) => `${PATH}/pilots/${segment(args['pilot'] ?? '')}/open`,
      done: (args) => `Pilot ${args['pilot']} is open.`,
    },
    'contact-center pilot close': {
      args: ['pilot'],
      method: 'POST',
      path: (args) => `${PATH}/pilots/${segment(args['pilot'] ?? '')}/close`,
      done: (args) => `Pilot ${args['pilot']} is closed.`,
    },
    'contact-center traffic list': { args: [], method: 'GET', path: () => `${PATH}/traffic` },
    'contact-center traffic start': {
      args: ['pilot', 'callsPerMinute'],
      options: ['patience', 'talk', 'from', 'seed'],
      method: 'PUT',
      path: (args) => `${PATH}/traffic/${segment(args['pilot'] ?? '')}`,
      body: (args) => ({
        callsPerMinute: number(args['callsPerMinute'], 'a number of calls a minute'),
        ...seconds(args, 'patience', 'patienceSeconds'),
        ...seconds(args, 'talk', 'talkSeconds'),
        ...(args['from'] !== undefined && { from: args['from'] }),
        ...(args['seed'] !== undefined && { seed: number(args['seed'], 'a seed') }),
      }),
    },
    'contact-center traffic stop': {
      args: ['pilot'],
      method: 'DELETE',
      path: (args) => `${PATH}/traffic/${segment(args['pilot'] ?? '')}`,
      done: (args) => `No more traffic on pilot ${args['pilot']}.`,
    },
    'contact-center simulated-agents': {
      args: [],
      method: 'GET',
      path: () => `${PATH}/simulatedAgents`,
    },
    'contact-center simulate-agent': {
      args: ['login', 'answerAfterSeconds', 'talkSeconds'],
      options: ['wrap-up'],
      method: 'PUT',
      path: (args) => `${PATH}/simulatedAgents/${segment(args['login'] ?? '')}`,
      body: (args) => ({
        answerAfterSeconds: number(args['answerAfterSeconds'], 'a number of seconds'),
        talkSeconds: number(args['talkSeconds'], 'a number of seconds'),
        ...seconds(args, 'wrap-up', 'wrapUpSeconds'),
      }),
    },
    'contact-center unsimulate-agent': {
      args: ['login'],
      method: 'DELETE',
      path: (args) => `${PATH}/simulatedAgents/${segment(args['login'] ?? '')}`,
      done: (args) => `${args['login']} is no simulated agent any more.`,
    },
    'contact-center tickets': {
      args: [],
      options: ['pilot', 'agent', 'since', 'until', 'limit', 'after'],
      method: 'GET',
      path: (args) => {
        const query = new URLSearchParams()
        for (const [option, parameter] of [
          ['pilot', 'pilot'],
          ['agent', 'agent'],
          ['since', 'from'],
          ['until', 'to'],
          ['limit', 'limit'],
          ['after', 'after'],
        ] as const)
          if (args[option] !== undefined) query.append(parameter, args[option])
        const text = query.toString()
        return `${PATH}/tickets${text === '' ? '' : `?${text}`}`
      },
    },
  }
}
