/**
 * The contact center's definition as the control plane reads and writes it (docs/contact-center-control.md,
 * "The definition"): the fields of the directory file's `contactCenter` section (times in seconds, what is left
 * out taking the defaults of platform/acd/contact-center.ts), checked as a whole with every problem named by its
 * path, and turned into the engine's ContactCenterDefinition and back.
 */
import { enumeration } from '@openness/wire'
import { type Static, Type } from 'typebox'
import type { AcdDefinitions } from '../../platform/acd/acd-state.js'
import {
  type ContactCenterDefinition,
  DEFAULT_NO_ANSWER_MS,
  DEFAULT_QUEUE_SIZE,
  DEFAULT_WRAP_UP_MS,
  MAX_DAY_TRANSITIONS,
  MAX_OPERATORS,
  MAX_PILOTS,
  MAX_PROCESSING_GROUPS,
  MAX_QUEUES,
  MAX_SKILLS,
  OPERATOR_TYPES,
  type PilotCalendar,
  TRANSITION_MODES,
  type Transition,
  type WeekDay,
} from '../../platform/acd/contact-center.js'
import { isCalendarDate, isKnownTimeZone, isTimeOfDay } from '../../platform/acd/pilot-calendar.js'
import {
  type DirectoryPath,
  type DirectoryProblem,
  describeDirectoryProblem,
} from '../../platform/directory/directory-problem.js'
import { findSchemaProblems } from '../../platform/directory/schema-problems.js'

const closed = { additionalProperties: false } as const
const Digits = (description: string) => Type.String({ description })
const Whole = (description: string) => Type.Integer({ minimum: 0, description })
const Level = Type.Integer({ minimum: 1, maximum: 10, description: '1 to 10' })
const TransitionSchema = Type.Object(
  {
    time: Type.String({ description: "HH:mm, in the contact center's time zone" }),
    ruleNumber: Whole('a rule of the pilot'),
    mode: Type.Optional(enumeration(TRANSITION_MODES, { description: 'normal when omitted' })),
  },
  closed,
)
const Transitions = Type.Array(TransitionSchema)
const Calendar = Type.Object(
  {
    normal: Type.Optional(
      Type.Object(
        {
          monday: Type.Optional(Transitions),
          tuesday: Type.Optional(Transitions),
          wednesday: Type.Optional(Transitions),
          thursday: Type.Optional(Transitions),
          friday: Type.Optional(Transitions),
          saturday: Type.Optional(Transitions),
          sunday: Type.Optional(Transitions),
        } satisfies Record<WeekDay, unknown>,
        { ...closed, description: 'by day of the week' },
      ),
    ),
    exceptions: Type.Optional(
      Type.Record(Type.String(), Transitions, { description: 'by date yyyyMMdd' }),
    ),
  },
  closed,
)
const Pilot = Type.Object(
  {
    number: Digits("the pilot's number: digits"),
    name: Type.String({ minLength: 1 }),
    rules: Type.Array(
      Type.Object(
        {
          ruleNumber: Whole('unique among the rules of the pilot'),
          name: Type.String({ minLength: 1 }),
          queue: Type.String({ description: 'the number of a queue' }),
          skills: Type.Optional(
            Type.Array(Type.Object({ number: Whole('a skill'), level: Level }, closed)),
          ),
        },
        closed,
      ),
      { minItems: 1 },
    ),
    ruleNumber: Type.Optional(Whole('the rule in force without a calendar (the first rule)')),
    open: Type.Optional(Type.Boolean({ description: 'open without a calendar (true)' })),
    forwardTo: Type.Optional(Type.String({ minLength: 1 })),
    overflowTo: Type.Optional(Type.String({ minLength: 1 })),
    overflowAfterSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    possibleTransfer: Type.Optional(Type.Boolean({ description: 'true when omitted' })),
    supervisedTransfer: Type.Optional(Type.Boolean({ description: 'false when omitted' })),
    calendar: Type.Optional(Calendar),
  },
  closed,
)
const Queue = Type.Object(
  {
    number: Digits('digits'),
    name: Type.String({ minLength: 1 }),
    processingGroup: Type.String({ description: 'the number of a processing group' }),
    size: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `how many calls wait at most (${DEFAULT_QUEUE_SIZE})`,
      }),
    ),
  },
  closed,
)
const Group = Type.Object(
  {
    number: Digits('digits'),
    name: Type.String({ minLength: 1 }),
    noAnswerSeconds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        description: `how long an agent rings (${DEFAULT_NO_ANSWER_MS / 1000})`,
      }),
    ),
    wrapUpSeconds: Type.Optional(
      Type.Number({
        minimum: 0,
        description: `the wrap-up after an ACD call (${DEFAULT_WRAP_UP_MS / 1000}; 0: none)`,
      }),
    ),
    transactionCode: Type.Optional(Type.Boolean({ description: 'false when omitted' })),
    withdrawReasons: Type.Optional(
      Type.Array(
        Type.Object(
          { index: Whole('unique in the group'), label: Type.String({ minLength: 1 }) },
          closed,
        ),
      ),
    ),
  },
  closed,
)
const Operator = Type.Object(
  {
    loginName: Type.String({ description: 'a user of the directory' }),
    type: enumeration(OPERATOR_TYPES),
    processingGroups: Type.Optional(
      Type.Array(Type.String(), { uniqueItems: true, description: 'the preferred one first' }),
    ),
    skills: Type.Optional(
      Type.Array(
        Type.Object(
          {
            number: Whole('a skill'),
            level: Level,
            active: Type.Optional(Type.Boolean({ description: 'true when omitted' })),
          },
          closed,
        ),
      ),
    ),
    selfAssign: Type.Optional(Type.Boolean({ description: 'false when omitted' })),
    headset: Type.Optional(Type.Boolean({ description: 'false when omitted' })),
    help: Type.Optional(Type.Boolean({ description: 'true when omitted' })),
    multiline: Type.Optional(Type.Boolean({ description: 'false when omitted' })),
  },
  closed,
)
const Skill = Type.Object(
  {
    number: Whole('unique among skills'),
    name: Type.String({ minLength: 1 }),
    abvName: Type.Optional(Type.String({ minLength: 1 })),
    domain: Type.Optional(Whole('a number, as the SDKs read it')),
  },
  closed,
)

/** The body of PUT /contactCenter/definition, and the answer of GET: the directory file's section. */
export const ControlContactCenterDefinition = Type.Object(
  {
    timeZone: Type.Optional(Type.String({ description: "the calendars' IANA time zone (UTC)" })),
    pilots: Type.Optional(Type.Array(Pilot, { maxItems: MAX_PILOTS })),
    queues: Type.Optional(Type.Array(Queue, { maxItems: MAX_QUEUES })),
    processingGroups: Type.Optional(Type.Array(Group, { maxItems: MAX_PROCESSING_GROUPS })),
    operators: Type.Optional(Type.Array(Operator, { maxItems: MAX_OPERATORS })),
    skills: Type.Optional(Type.Array(Skill, { maxItems: MAX_SKILLS })),
  },
  { ...closed, title: 'ControlContactCenterDefinition' },
)
export type ControlContactCenterDefinition = Static<typeof ControlContactCenterDefinition>

/** What the checks ask of the platform: users, and the numbers others have. */
export interface DefinitionContext {
  /** Whether the login name is a user of the directory. */
  isUser(loginName: string): boolean
  /** What else has this number (a user's device, a hunting group), in words; undefined when nothing. */
  numberTakenBy(number: string): string | undefined
}

const DIGITS = /^[0-9]+$/

/** Every problem of `value` as a definition, each as `path: what is wrong`; none for a good one. */
export function findDefinitionProblems(value: unknown, context: DefinitionContext): string[] {
  const schemaProblems = findSchemaProblems(ControlContactCenterDefinition, value)
  const problems =
    schemaProblems.length > 0
      ? schemaProblems
      : crossProblems(value as ControlContactCenterDefinition, context)
  return problems.map(describeDirectoryProblem)
}

/** The checks across entries: unique keys, references, numbers, calendars, users. */
function crossProblems(
  definition: ControlContactCenterDefinition,
  context: DefinitionContext,
): DirectoryProblem[] {
  const problems: DirectoryProblem[] = []
  const problem = (path: DirectoryPath, message: string) => problems.push({ path, message })
  const unique = <T>(
    list: readonly T[] | undefined,
    field: string,
    key: (item: T) => string | number,
  ): Set<string | number> => {
    const seen = new Set<string | number>()
    for (const [index, item] of (list ?? []).entries()) {
      const value = key(item)
      if (seen.has(value)) problem([field, index], `${value} is defined twice`)
      seen.add(value)
    }
    return seen
  }
  const skills = unique(definition.skills, 'skills', (skill) => skill.number)
  const groups = unique(definition.processingGroups, 'processingGroups', (group) => group.number)
  const queues = unique(definition.queues, 'queues', (queue) => queue.number)
  unique(definition.pilots, 'pilots', (pilot) => pilot.number)
  unique(definition.operators, 'operators', (operator) => operator.loginName)
  const numbered = new Map<string, string>()
  const number = (path: DirectoryPath, value: string, what: string) => {
    if (!DIGITS.test(value)) problem([...path, 'number'], `'${value}' is not a number: digits only`)
    const other = numbered.get(value)
    if (other !== undefined) problem([...path, 'number'], `${value} is ${other} already`)
    else numbered.set(value, what)
  }
  if (definition.timeZone !== undefined && !isKnownTimeZone(definition.timeZone))
    problem(['timeZone'], `'${definition.timeZone}' is not an IANA time zone (Europe/Paris...)`)
  for (const [index, skill] of (definition.skills ?? []).entries())
    if (skill.number === 0) problem(['skills', index, 'number'], 'must be at least 1')
  for (const [index, group] of (definition.processingGroups ?? []).entries()) {
    number(['processingGroups', index], group.number, `processing group ${group.number}`)
    const reasons = new Set<number>()
    for (const [at, reason] of (group.withdrawReasons ?? []).entries()) {
      if (reasons.has(reason.index))
        problem(
          ['processingGroups', index, 'withdrawReasons', at, 'index'],
          `${reason.index} is listed twice`,
        )
      reasons.add(reason.index)
    }
  }
  for (const [index, queue] of (definition.queues ?? []).entries()) {
    number(['queues', index], queue.number, `queue ${queue.number}`)
    if (!groups.has(queue.processingGroup))
      problem(
        ['queues', index, 'processingGroup'],
        `no processing group '${queue.processingGroup}'`,
      )
  }
  const skillNeeds = (path: DirectoryPath, needs: readonly { number: number }[] | undefined) => {
    for (const [at, need] of (needs ?? []).entries())
      if (!skills.has(need.number)) problem([...path, at, 'number'], `no skill ${need.number}`)
  }
  for (const [index, pilot] of (definition.pilots ?? []).entries()) {
    const path = ['pilots', index]
    number(path, pilot.number, `pilot ${pilot.number}`)
    const taken = context.numberTakenBy(pilot.number)
    if (taken !== undefined) problem([...path, 'number'], `${pilot.number} is ${taken}`)
    const rules = new Set<number>()
    for (const [at, rule] of pilot.rules.entries()) {
      if (rules.has(rule.ruleNumber))
        problem([...path, 'rules', at, 'ruleNumber'], `${rule.ruleNumber} is defined twice`)
      rules.add(rule.ruleNumber)
      if (!queues.has(rule.queue))
        problem([...path, 'rules', at, 'queue'], `no queue '${rule.queue}'`)
      skillNeeds([...path, 'rules', at, 'skills'], rule.skills)
    }
    if (pilot.ruleNumber !== undefined && !rules.has(pilot.ruleNumber))
      problem([...path, 'ruleNumber'], `the pilot has no rule ${pilot.ruleNumber}`)
    const days: [DirectoryPath, string, readonly Static<typeof TransitionSchema>[]][] = [
      ...Object.entries(pilot.calendar?.normal ?? {}).map(
        ([day, list]) =>
          [[...path, 'calendar', 'normal', day], day, list ?? []] as [
            DirectoryPath,
            string,
            readonly Static<typeof TransitionSchema>[],
          ],
      ),
      ...Object.entries(pilot.calendar?.exceptions ?? {}).map(
        ([date, list]) =>
          [[...path, 'calendar', 'exceptions', date], date, list] as [
            DirectoryPath,
            string,
            readonly Static<typeof TransitionSchema>[],
          ],
      ),
    ]
    for (const [where, day, list] of days) {
      if (where.at(-2) === 'exceptions' && !isCalendarDate(day))
        problem(where, `'${day}' is not a date yyyyMMdd`)
      if (list.length > MAX_DAY_TRANSITIONS)
        problem(where, `a day holds ${MAX_DAY_TRANSITIONS} transitions at most`)
      for (const [at, transition] of list.entries()) {
        if (!isTimeOfDay(transition.time))
          problem([...where, at, 'time'], `'${transition.time}' is not a time HH:mm`)
        if (!rules.has(transition.ruleNumber))
          problem([...where, at, 'ruleNumber'], `the pilot has no rule ${transition.ruleNumber}`)
      }
    }
  }
  for (const [index, operator] of (definition.operators ?? []).entries()) {
    const path = ['operators', index]
    if (!context.isUser(operator.loginName))
      problem([...path, 'loginName'], `'${operator.loginName}' is no user of the directory`)
    for (const [at, group] of (operator.processingGroups ?? []).entries())
      if (!groups.has(group))
        problem([...path, 'processingGroups', at], `no processing group '${group}'`)
    skillNeeds([...path, 'skills'], operator.skills)
  }
  return problems
}

/** A transition with its mode. */
function transitionOf(transition: Static<typeof TransitionSchema>): Transition {
  return {
    time: transition.time,
    ruleNumber: transition.ruleNumber,
    mode: transition.mode ?? 'normal',
  }
}

/** The engine's definition of a checked one, with the defaults of what it leaves out. */
export function definitionOf(definition: ControlContactCenterDefinition): ContactCenterDefinition {
  return {
    ...(definition.timeZone !== undefined && { timeZone: definition.timeZone }),
    pilots: (definition.pilots ?? []).map((pilot) => {
      const calendar: PilotCalendar = { normal: {}, exceptions: {} }
      for (const [day, list] of Object.entries(pilot.calendar?.normal ?? {}))
        calendar.normal[day as WeekDay] = (list ?? []).map(transitionOf)
      for (const [date, list] of Object.entries(pilot.calendar?.exceptions ?? {}))
        calendar.exceptions[date] = list.map(transitionOf)
      return {
        number: pilot.number,
        name: pilot.name,
        rules: pilot.rules.map((rule) => ({
          ruleNumber: rule.ruleNumber,
          name: rule.name,
          queue: rule.queue,
          ...(rule.skills !== undefined && { skills: rule.skills.map((skill) => ({ ...skill })) }),
        })),
        ruleNumber: pilot.ruleNumber ?? pilot.rules[0]?.ruleNumber ?? 1,
        open: pilot.open ?? true,
        ...(pilot.forwardTo !== undefined && { forwardTo: pilot.forwardTo }),
        ...(pilot.overflowTo !== undefined && { overflowTo: pilot.overflowTo }),
        ...(pilot.overflowAfterSeconds !== undefined && {
          overflowAfterMs: Math.round(pilot.overflowAfterSeconds * 1000),
        }),
        possibleTransfer: pilot.possibleTransfer ?? true,
        supervisedTransfer: pilot.supervisedTransfer ?? false,
        calendar,
      }
    }),
    queues: (definition.queues ?? []).map((queue) => ({
      number: queue.number,
      name: queue.name,
      processingGroup: queue.processingGroup,
      size: queue.size ?? DEFAULT_QUEUE_SIZE,
    })),
    processingGroups: (definition.processingGroups ?? []).map((group) => ({
      number: group.number,
      name: group.name,
      noAnswerMs:
        group.noAnswerSeconds === undefined
          ? DEFAULT_NO_ANSWER_MS
          : Math.round(group.noAnswerSeconds * 1000),
      wrapUpMs:
        group.wrapUpSeconds === undefined
          ? DEFAULT_WRAP_UP_MS
          : Math.round(group.wrapUpSeconds * 1000),
      transactionCode: group.transactionCode ?? false,
      withdrawReasons: (group.withdrawReasons ?? []).map((reason) => ({ ...reason })),
    })),
    operators: (definition.operators ?? []).map((operator) => ({
      loginName: operator.loginName,
      type: operator.type,
      processingGroups: [...(operator.processingGroups ?? [])],
      skills: (operator.skills ?? []).map((skill) => ({
        number: skill.number,
        level: skill.level,
        active: skill.active ?? true,
      })),
      selfAssign: operator.selfAssign ?? false,
      headset: operator.headset ?? false,
      help: operator.help ?? true,
      multiline: operator.multiline ?? false,
    })),
    skills: (definition.skills ?? []).map((skill) => ({ ...skill })),
  }
}

/** The engine's definition as the control plane shows it: the directory file's section, every field given. */
export function shownDefinition(definition: AcdDefinitions): ControlContactCenterDefinition {
  return {
    ...(definition.timeZone !== undefined && { timeZone: definition.timeZone }),
    pilots: Object.values(definition.pilots).map((pilot) => ({
      number: pilot.number,
      name: pilot.name,
      rules: pilot.rules.map((rule) => ({ ...rule })),
      ruleNumber: pilot.ruleNumber,
      open: pilot.open,
      ...(pilot.forwardTo !== undefined && { forwardTo: pilot.forwardTo }),
      ...(pilot.overflowTo !== undefined && { overflowTo: pilot.overflowTo }),
      ...(pilot.overflowAfterMs !== undefined && {
        overflowAfterSeconds: pilot.overflowAfterMs / 1000,
      }),
      possibleTransfer: pilot.possibleTransfer,
      supervisedTransfer: pilot.supervisedTransfer,
      calendar: structuredClone(pilot.calendar),
    })),
    queues: Object.values(definition.queues).map((queue) => ({ ...queue })),
    processingGroups: Object.values(definition.processingGroups).map((group) => ({
      number: group.number,
      name: group.name,
      noAnswerSeconds: group.noAnswerMs / 1000,
      wrapUpSeconds: group.wrapUpMs / 1000,
      transactionCode: group.transactionCode,
      withdrawReasons: group.withdrawReasons.map((reason) => ({ ...reason })),
    })),
    operators: Object.values(definition.operators).map((operator) => structuredClone(operator)),
    skills: definition.skills.map((skill) => ({ ...skill })),
  }
}
