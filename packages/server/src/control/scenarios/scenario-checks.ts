/**
 * The checks of a scenario file that its schema cannot express (docs/scenarios.md, "Checks"): each step's
 * action and arguments, times that never go back, calls named before they are used, conditions, the world's
 * rules, and expected events that exist. Every problem is named by its path in the file, as the directory
 * file's are.
 */
import { PACKAGE_OF_EVENT } from '@openness/wire'
import type { DirectoryPath, DirectoryProblem } from '../../platform/directory/directory-problem.js'
import {
  editDistance,
  findSchemaProblems,
  isRecord,
} from '../../platform/directory/schema-problems.js'
import { ACTION_NAMES, actionOf } from './scenario-actions.js'
import {
  CALL_CONDITION_STATES,
  type Condition,
  DURATION_MESSAGE,
  DURATION_PATTERN,
  type Expectations,
  type ScenarioDocument,
  STEP_FIELDS,
  type Step,
  type World,
} from './scenario-document.js'
import { isCallRefKey } from './scenario-matching.js'
import { durationMs, formatTime } from './scenario-time.js'

/** The longest a scenario may last on the service's clock: an hour (a run steps through every timer). */
export const MAX_SCENARIO_MS = 3_600_000

/**
 * Every problem the schema cannot see; none when the document can be run. The parts of the value that do not
 * have their schema's basic form are left out (the schema names those), so that every other problem is told
 * at the same time.
 */
export function findScenarioProblems(value: unknown): DirectoryProblem[] {
  const document = usable(value)
  const problems: DirectoryProblem[] = []
  const named = namedCalls(document.script)
  const lastAt = checkScript(document.script, problems)
  if (document.end !== undefined) {
    const end = durationMs(document.end) ?? 0
    if (end < lastAt)
      problems.push({
        path: ['end'],
        message: `is before the last step (${formatTime(lastAt)})`,
      })
    if (end > MAX_SCENARIO_MS) problems.push({ path: ['end'], message: TOO_LONG })
  }
  if (document.world) checkWorld(document.world, problems)
  if (document.expect) checkExpectations(document.expect, new Set(named.keys()), problems)
  return problems
}

/** What of `value` has the basic form of a scenario: enough for the checks below to read it safely. */
function usable(value: unknown): ScenarioDocument {
  const document = isRecord(value) ? value : {}
  const script = (Array.isArray(document['script']) ? document['script'] : [])
    .filter(isRecord)
    .filter((step) => typeof step['do'] === 'string')
    .map((step) => {
      const kept: Record<string, unknown> = { ...step }
      for (const key of ['as', 'call']) if (typeof kept[key] !== 'string') delete kept[key]
      for (const key of ['if', 'unless']) {
        const condition = kept[key]
        if (
          !isRecord(condition) ||
          typeof condition['call'] !== 'string' ||
          typeof condition['state'] !== 'string' ||
          (condition['party'] !== undefined && typeof condition['party'] !== 'string')
        )
          delete kept[key]
      }
      return kept
    })
  const world = isRecord(document['world']) ? { ...document['world'] } : undefined
  if (world !== undefined) {
    world['outside'] = Array.isArray(world['outside']) ? world['outside'].filter(isRecord) : []
    world['devices'] = Object.fromEntries(
      Object.entries(isRecord(world['devices']) ? world['devices'] : {}).filter(([, device]) =>
        isRecord(device),
      ),
    )
  }
  const expect = isRecord(document['expect']) ? document['expect'] : undefined
  const lists = (field: string) =>
    Object.fromEntries(
      Object.entries(isRecord(expect?.[field]) ? expect[field] : {}).filter(([, items]) =>
        Array.isArray(items),
      ),
    )
  return {
    ...(document as object),
    script,
    ...(world !== undefined && { world }),
    ...(expect !== undefined && { expect: { events: lists('events'), comlog: lists('comlog') } }),
  } as unknown as ScenarioDocument
}

/** The calls the script names, with the step that names each first. */
function namedCalls(script: readonly Step[]): Map<string, number> {
  const named = new Map<string, number>()
  script.forEach((step, index) => {
    if (step.call !== undefined && actionOf(step.do)?.call === 'creates' && !named.has(step.call))
      named.set(step.call, index)
  })
  return named
}

/** Checks every step; answers the time of the last one, in ms. */
function checkScript(script: readonly Step[], problems: DirectoryProblem[]): number {
  let time = 0
  const named = new Map<string, number>()
  script.forEach((step, index) => {
    const path: DirectoryPath = ['script', index]
    time = checkStepTime(step, path, time, problems)
    const action = actionOf(step.do)
    if (action === undefined) {
      problems.push({ path: [...path, 'do'], message: unknownActionMessage(step.do) })
      return
    }
    const args = Object.fromEntries(
      Object.entries(step).filter(([key]) => !(STEP_FIELDS as readonly string[]).includes(key)),
    )
    const own = Object.keys(action.args.properties)
    for (const key of Object.keys(args).filter((key) => !own.includes(key)))
      problems.push({ path: [...path, key], message: unknownArgumentMessage(key, step.do, own) })
    const known = Object.fromEntries(Object.entries(args).filter(([key]) => own.includes(key)))
    for (const problem of findSchemaProblems(action.args, known))
      problems.push({ path: [...path, ...problem.path], message: problem.message })
    if (action.kind === 'app' && step.as === undefined)
      problems.push({
        path: [...path, 'as'],
        message: `is required: ${step.do} is done by a user's application (as: <login name>)`,
      })
    if (action.kind === 'control' && step.as !== undefined)
      problems.push({
        path: [...path, 'as'],
        message: `${step.do} is the control plane's (the operator's): no user acts`,
      })
    checkCallUse(step, action.call, path, named, problems)
    if (step.if !== undefined && step.unless !== undefined)
      problems.push({ path: [...path, 'unless'], message: 'give if or unless, not both' })
    for (const key of ['if', 'unless'] as const) {
      const condition = step[key]
      if (condition !== undefined) checkCondition(condition, [...path, key], named, problems)
    }
    checkCallRefs(args, path, new Set(named.keys()), problems)
    if (step.do === 'request')
      checkPathNames(String(step['path'] ?? ''), [...path, 'path'], named, problems)
    if (step.call !== undefined && action.call === 'creates' && !named.has(step.call))
      named.set(step.call, index)
  })
  return time
}

/** The step's time (`at`, or `after` the previous step's), in ms; problems when it goes back. */
function checkStepTime(
  step: Step,
  path: DirectoryPath,
  previous: number,
  problems: DirectoryProblem[],
): number {
  if (step.at !== undefined && step.after !== undefined) {
    problems.push({ path: [...path, 'after'], message: 'give at or after, not both' })
    return previous
  }
  const at =
    step.at === undefined
      ? previous + (durationMs(step.after ?? 0) ?? 0)
      : (durationMs(step.at) ?? previous)
  if (at > MAX_SCENARIO_MS && previous <= MAX_SCENARIO_MS)
    problems.push({ path: [...path, step.at === undefined ? 'after' : 'at'], message: TOO_LONG })
  if (step.at === undefined) return at
  if (at < previous)
    problems.push({
      path: [...path, 'at'],
      message: `is before the previous step (${formatTime(previous)}): steps run in time order`,
    })
  return Math.max(at, previous)
}

function checkCallUse(
  step: Step,
  use: string,
  path: DirectoryPath,
  named: ReadonlyMap<string, number>,
  problems: DirectoryProblem[],
): void {
  const { call } = step
  if (use === 'creates') {
    const first = call === undefined ? undefined : named.get(call)
    if (first !== undefined)
      problems.push({
        path: [...path, 'call'],
        message: `${call} already names the call of script[${first}]: give each call its own name`,
      })
    return
  }
  if (use === 'none' && call !== undefined) {
    problems.push({ path: [...path, 'call'], message: `${step.do} acts on no call` })
    return
  }
  if (use === 'requires' && call === undefined) {
    problems.push({
      path: [...path, 'call'],
      message: `is required: the name of the call ${step.do} acts on`,
    })
    return
  }
  if (call !== undefined && !named.has(call))
    problems.push({ path: [...path, 'call'], message: unnamedCallMessage(call, named) })
}

function checkCondition(
  condition: Condition,
  path: DirectoryPath,
  named: ReadonlyMap<string, number>,
  problems: DirectoryProblem[],
): void {
  if (!named.has(condition.call))
    problems.push({ path: [...path, 'call'], message: unnamedCallMessage(condition.call, named) })
  const ofCall = (CALL_CONDITION_STATES as readonly string[]).includes(condition.state)
  if (ofCall && condition.party !== undefined)
    problems.push({
      path: [...path, 'state'],
      message: `${condition.state} is a state of the whole call: with party, give a party's state (RINGING_INCOMING, RINGING_OUTGOING, ACTIVE, HELD, GONE)`,
    })
  if (!ofCall && condition.party === undefined)
    problems.push({
      path: [...path, 'party'],
      message: `is required: ${condition.state} is the state of one party (or give RINGING, CONNECTED, ENDED)`,
    })
}

/** Call names in fields that carry a callRef (`heldCallRef`, `otherCallRef`...) must be names of calls. */
function checkCallRefs(
  value: unknown,
  path: DirectoryPath,
  names: ReadonlySet<string>,
  problems: DirectoryProblem[],
): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries())
      checkCallRefs(item, [...path, index], names, problems)
    return
  }
  if (!isRecord(value)) return
  for (const [key, item] of Object.entries(value)) {
    if (isCallRefKey(key) && typeof item === 'string' && !names.has(item))
      problems.push({
        path: [...path, key],
        message: `${item} is not the name of a call of the script (callRefs differ from run to run: name the call where it is placed, call: <name>)`,
      })
    else checkCallRefs(item, [...path, key], names, problems)
  }
}

function checkPathNames(
  path: string,
  at: DirectoryPath,
  named: ReadonlyMap<string, number>,
  problems: DirectoryProblem[],
): void {
  for (const [, name = ''] of path.matchAll(/\{([^}]*)\}/g))
    if (!named.has(name))
      problems.push({ path: at, message: `{${name}}: ${unnamedCallMessage(name, named)}` })
}

function checkWorld(world: World, problems: DirectoryProblem[]): void {
  world.outside?.forEach((rule, index) => {
    const path: DirectoryPath = ['world', 'outside', index]
    if ((rule.number === undefined) === (rule.prefix === undefined))
      problems.push({ path, message: 'give one of number and prefix' })
    if (
      rule.afterSeconds !== undefined &&
      rule.behaviour !== 'ANSWER' &&
      rule.behaviour !== 'REJECT'
    )
      problems.push({
        path: [...path, 'afterSeconds'],
        message: 'is for the ANSWER and REJECT behaviours only',
      })
  })
  for (const [deviceId, device] of Object.entries(world.devices ?? {})) {
    const answers = [
      device.autoAnswer === true && 'autoAnswer',
      device.answerAfterRings !== undefined && 'answerAfterRings',
      device.answerAfterSeconds !== undefined && 'answerAfterSeconds',
    ].filter((given) => given !== false)
    if (answers.length > 1)
      problems.push({
        path: ['world', 'devices', deviceId],
        message: `give one way of answering: ${answers.join(', ')}`,
      })
  }
}

function checkExpectations(
  expect: Expectations,
  names: ReadonlySet<string>,
  problems: DirectoryProblem[],
): void {
  for (const [user, items] of Object.entries(expect.events ?? {}))
    for (const [index, item] of items.entries())
      checkExpectedEvent(item, ['expect', 'events', user, index], names, problems)
  for (const [user, records] of Object.entries(expect.comlog ?? {}))
    checkCallRefs(records, ['expect', 'comlog', user], names, problems)
}

function checkExpectedEvent(
  item: unknown,
  path: DirectoryPath,
  names: ReadonlySet<string>,
  problems: DirectoryProblem[],
): void {
  if (typeof item === 'string') {
    if (!PACKAGE_OF_EVENT.has(item)) problems.push({ path, message: unknownEventMessage(item) })
    return
  }
  if (!isRecord(item)) return
  const eventNames = Object.keys(item).filter((key) => key !== 'at')
  const [name] = eventNames
  if (name === undefined || eventNames.length > 1) {
    problems.push({
      path,
      message: `must name one event: {OnName: {fields}}, and at most an at (it names ${eventNames.join(', ') || 'none'})`,
    })
    return
  }
  if (!PACKAGE_OF_EVENT.has(name))
    problems.push({ path: [...path, name], message: unknownEventMessage(name) })
  const fields = item[name]
  if (fields !== null && !isRecord(fields))
    problems.push({
      path: [...path, name],
      message: 'must be a mapping of the fields the event must have (or nothing)',
    })
  if (item['at'] !== undefined && durationMs(item['at']) === undefined)
    problems.push({ path: [...path, 'at'], message: DURATION_MESSAGE })
  checkCallRefs(fields, [...path, name], names, problems)
}

function unnamedCallMessage(call: string, named: ReadonlyMap<string, number>): string {
  const known = [...named.keys()]
  return `${call} is not the name of a call placed by an earlier step (${known.length === 0 ? 'none is named yet' : `named: ${known.join(', ')}`})`
}

function unknownActionMessage(name: string): string {
  const close = closest(name, ACTION_NAMES)
  return close === undefined
    ? `${name} is not an action (actions: ${ACTION_NAMES.join(', ')})`
    : `${name} is not an action; did you mean ${close}?`
}

function unknownArgumentMessage(key: string, action: string, own: readonly string[]): string {
  const close = closest(key, [...own, ...STEP_FIELDS])
  const fields = own.length === 0 ? 'it has none of its own' : `its own: ${own.join(', ')}`
  return `is not a field of ${action} (${fields}; every step may have ${STEP_FIELDS.join(', ')})${close === undefined ? '' : `; did you mean ${close}?`}`
}

function unknownEventMessage(name: string): string {
  const close = closest(name, [...PACKAGE_OF_EVENT.keys()])
  return `${name} is not an event of the API${close === undefined ? '' : `; did you mean ${close}?`}`
}

/** The known name closest to `name`, or the names it begins (`devices`: `devices answer or devices hangup`). */
function closest(name: string, known: readonly string[]): string | undefined {
  const typed = name.toLowerCase()
  const begun = known.filter(
    (candidate) => typed.length >= 3 && candidate.toLowerCase().startsWith(typed),
  )
  if (begun.length > 0) return begun.join(' or ')
  return known
    .map((candidate) => ({ candidate, distance: editDistance(typed, candidate.toLowerCase()) }))
    .filter(({ distance }) => distance <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.distance - b.distance)[0]?.candidate
}

const TOO_LONG = `is past an hour (${formatTime(MAX_SCENARIO_MS)}): a scenario tells a short story`

/** How a failed duration pattern is told (findSchemaProblems' pattern messages). */
export const SCENARIO_PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [DURATION_PATTERN]: DURATION_MESSAGE,
  '^[A-Za-z][A-Za-z0-9_-]{0,63}$':
    'must be a call name: letters, digits, - and _, a letter first, at most 64',
}
