/**
 * Pilots in the engine (docs/contact-center.md, "Pilots" and "Calendars"): opened and closed by acdmanagement,
 * switched by their calendars' transitions on the platform clock (one timer, at the next transition of any
 * pilot), their calendars changed, monitored; and the contact center provisioned from its definition.
 */
import type { AcdState, PilotRuntime } from '../../acd/acd-state.js'
import { agentMapOf, definitionsOf } from '../../acd/acd-state.js'
import { newAgent } from '../../acd/agent-state.js'
import {
  type ContactCenterDefinition,
  MAX_DAY_TRANSITIONS,
  type PilotCalendar,
  type Transition,
  WEEK_DAYS,
  type WeekDay,
} from '../../acd/contact-center.js'
import {
  isCalendarDate,
  isTimeOfDay,
  nextTransition,
  transitionInForce,
} from '../../acd/pilot-calendar.js'
import { PlatformError } from '../../platform-error.js'
import type { Operation } from '../engine-operation.js'
import type { EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import {
  acdNoAnswer,
  acdOverflow,
  dissuadeStranded,
  endContactCenterCalls,
} from './acd-distribution.js'
import { changeAcd, requireAcd, requirePilot } from './acd-support.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The most logins that monitor one pilot at once. */
export const MAX_MONITORS = 100

/** The rule and mode the pilot's calendar puts in force now, or the pilot's own when its calendar has none. */
function inForce(
  acd: AcdState,
  number: string,
  calendar: PilotCalendar,
  now: number,
): Pick<PilotRuntime, 'ruleNumber' | 'mode'> {
  const pilot = acd.definition.pilots[number]
  const found = transitionInForce(calendar, now, acd.definition.timeZone)
  if (found !== undefined)
    return { ruleNumber: found.transition.ruleNumber, mode: found.transition.mode }
  return { ruleNumber: pilot?.ruleNumber ?? 1, mode: pilot?.open === false ? 'closed' : 'normal' }
}

/** Schedules the one calendar timer at the next transition of any pilot (none when no calendar has one). */
function armCalendar(transaction: Transaction): void {
  transaction.cancelTimers((command) => command.type === 'acdCalendar')
  const acd = transaction.state.acd
  if (acd === undefined) return
  let next: number | undefined
  for (const number in acd.pilots) {
    const runtime = acd.pilots[number]
    if (runtime === undefined) continue
    const coming = nextTransition(runtime.calendar, transaction.now, acd.definition.timeZone)
    if (coming !== undefined && (next === undefined || coming.at < next)) next = coming.at
  }
  if (next !== undefined) transaction.schedule(next - transaction.now, { type: 'acdCalendar' })
}

/**
 * The calendar timer: every pilot takes the rule and mode its calendar has in force now, but one acdmanagement
 * opened or closed since that transition began (the timer may be another pilot's).
 */
const acdCalendar: Operation<Command<'acdCalendar'>> = (transaction) => {
  const acd = transaction.state.acd
  if (acd === undefined) return undefined
  const pilots: Record<string, PilotRuntime> = { ...acd.pilots }
  for (const number in pilots) {
    const { modeSetAt, ...runtime } = pilots[number] as PilotRuntime
    const found = transitionInForce(runtime.calendar, transaction.now, acd.definition.timeZone)
    if (found !== undefined && (modeSetAt === undefined || found.since > modeSetAt))
      pilots[number] = {
        ...runtime,
        ruleNumber: found.transition.ruleNumber,
        mode: found.transition.mode,
      }
  }
  changeAcd(transaction, { pilots })
  armCalendar(transaction)
  return undefined
}

/** Opens (mode normal, the rule in force kept) or closes a pilot, until its calendar's next transition. */
const acdPilotMode: Operation<Command<'acdPilotMode'>> = (transaction, command) => {
  requirePilot(transaction, command.pilot)
  const acd = requireAcd(transaction)
  const runtime = acd.pilots[command.pilot] as PilotRuntime
  changeAcd(transaction, {
    pilots: {
      ...acd.pilots,
      [command.pilot]: {
        ...runtime,
        mode: command.open ? 'normal' : 'closed',
        modeSetAt: transaction.now,
      },
    },
  })
  return undefined
}

/** Whether `day` names a normal day (monday...) or an exception day (yyyyMMdd). */
function calendarDay(
  day: string,
): { kind: 'normal'; day: WeekDay } | { kind: 'exception'; date: string } {
  if ((WEEK_DAYS as readonly string[]).includes(day)) return { kind: 'normal', day: day as WeekDay }
  if (isCalendarDate(day)) return { kind: 'exception', date: day }
  throw new PlatformError(
    'BAD_PARAMETER',
    `day: '${day}' is neither a week day (monday...) nor a date yyyyMMdd`,
  )
}

/**
 * Adds, replaces (1-based `index`) or removes a transition of one day of a pilot's calendar; the rule and mode in
 * force follow at once, and the calendar timer moves to the next transition. A day holds at most 10 transitions,
 * of the pilot's own rules.
 */
const acdCalendarChange: Operation<Command<'acdCalendarChange'>> = (transaction, command) => {
  const pilot = requirePilot(transaction, command.pilot)
  const acd = requireAcd(transaction)
  const runtime = acd.pilots[command.pilot] as PilotRuntime
  const where = calendarDay(command.day)
  const calendar = structuredClone(runtime.calendar)
  const list: Transition[] =
    where.kind === 'normal'
      ? (calendar.normal[where.day] ?? [])
      : (calendar.exceptions[where.date] ?? [])
  const transition = command.transition
  if (transition !== undefined && !isTimeOfDay(transition.time))
    throw new PlatformError(
      'BAD_PARAMETER',
      `time: '${transition.time}' is not a time of day HH:mm`,
    )
  if (
    transition !== undefined &&
    !pilot.rules.some((rule) => rule.ruleNumber === transition.ruleNumber)
  )
    throw new PlatformError(
      'BAD_PARAMETER',
      `ruleNumber: pilot ${pilot.number} has no rule ${transition.ruleNumber}`,
    )
  if (command.change === 'add') {
    if (transition === undefined) throw new PlatformError('BAD_PARAMETER', 'A transition is needed')
    if (list.length >= MAX_DAY_TRANSITIONS)
      throw new PlatformError(
        'BAD_PARAMETER',
        `${command.day}: a day holds ${MAX_DAY_TRANSITIONS} transitions at most`,
      )
    list.push(transition)
  } else {
    const index = (command.index ?? 0) - 1
    if (index < 0 || index >= list.length)
      throw new PlatformError(
        'NOT_FOUND',
        `${command.day}: no transition ${command.index} (the day has ${list.length})`,
      )
    if (command.change === 'delete') list.splice(index, 1)
    else {
      if (transition === undefined)
        throw new PlatformError('BAD_PARAMETER', 'A transition is needed')
      list[index] = transition
    }
  }
  if (where.kind === 'normal') calendar.normal[where.day] = list
  else if (list.length === 0) delete calendar.exceptions[where.date]
  else calendar.exceptions[where.date] = list
  const current = inForce(acd, command.pilot, calendar, transaction.now)
  const { modeSetAt: _, ...kept } = runtime
  changeAcd(transaction, {
    pilots: { ...acd.pilots, [command.pilot]: { ...kept, calendar, ...current } },
  })
  armCalendar(transaction)
  return undefined
}

/** A login starts or stops monitoring a pilot: the pilot's events flow while any login does. */
const acdMonitor: Operation<Command<'acdMonitor'>> = (transaction, command) => {
  requirePilot(transaction, command.pilot)
  const acd = requireAcd(transaction)
  const runtime = acd.pilots[command.pilot] as PilotRuntime
  const others = runtime.monitoredBy.filter((login) => login !== command.loginName)
  if (command.start && others.length >= MAX_MONITORS)
    throw new PlatformError(
      'NOT_EXPECTED',
      `Pilot ${command.pilot} is monitored by ${MAX_MONITORS} logins already`,
    )
  const monitoredBy = command.start ? [...others, command.loginName].sort() : others
  changeAcd(transaction, {
    pilots: { ...acd.pilots, [command.pilot]: { ...runtime, monitoredBy } },
  })
  return undefined
}

/** The timers of the contact center's own commands. */
const ACD_TIMERS: ReadonlySet<EngineCommand['type']> = new Set([
  'acdCalendar',
  'acdNoAnswer',
  'acdOverflow',
  'acdWrapUpEnd',
])

/** Whether a definition defines nothing: no pilot, queue, processing group, operator nor skill. */
function isEmptyDefinition(definition: ContactCenterDefinition): boolean {
  return (
    definition.pilots.length === 0 &&
    definition.queues.length === 0 &&
    definition.processingGroups.length === 0 &&
    definition.operators.length === 0 &&
    definition.skills.length === 0
  )
}

/** Whether the engine's contact center was removed and only keeps tickets the store does not have yet. */
function isRemoved(acd: AcdState): boolean {
  const { definition } = acd
  return (
    Object.keys(definition.pilots).length === 0 &&
    Object.keys(definition.queues).length === 0 &&
    Object.keys(definition.processingGroups).length === 0 &&
    Object.keys(definition.operators).length === 0 &&
    definition.skills.length === 0
  )
}

/**
 * The contact center goes: its calls dissuaded or going on as plain calls, its wrap-ups ended, its timers
 * cancelled (acd-distribution.ts `endContactCenterCalls`). The tickets the ticket store does not have yet stay,
 * alone under an empty definition, until it has them (acdTicketsStored); with none left, the engine has no
 * contact center at all.
 */
function removeContactCenter(transaction: Transaction): void {
  endContactCenterCalls(transaction)
  transaction.cancelTimers((command) => ACD_TIMERS.has(command.type))
  const before = transaction.state.acd
  if (before === undefined || before.outbox.length === 0) {
    delete transaction.state.acd
    return
  }
  transaction.state.acd = {
    definition: definitionsOf({
      pilots: [],
      queues: [],
      processingGroups: [],
      operators: [],
      skills: [],
    }),
    pilots: {},
    agents: agentMapOf(),
    queues: {},
    wrapping: {},
    handlingMs: {},
    outbox: before.outbox,
    ...(before.droppedTickets !== undefined && { droppedTickets: before.droppedTickets }),
  }
}

/**
 * The contact center takes a definition (the directory file's, the control plane's): pilots keep their calendars'
 * rule and mode of now and start with the definition's calendar; operators keep their state when they stay
 * operators and their group still exists (else they are logged off); waiting calls of queues that stay keep
 * waiting, those of pilots and queues it drops are dissuaded (dissuadeStranded). An empty definition removes the contact center (removeContactCenter), and does nothing where there is
 * none.
 */
const provisionContactCenter: Operation<Command<'provisionContactCenter'>> = (
  transaction,
  command,
) => {
  if (isEmptyDefinition(command.definition)) {
    if (transaction.state.acd !== undefined) removeContactCenter(transaction)
    return undefined
  }
  const definition = definitionsOf(command.definition)
  dissuadeStranded(transaction, definition)
  const before = transaction.state.acd
  const draft: AcdState = {
    definition,
    ...(command.digest !== undefined && { provision: command.digest }),
    pilots: {},
    agents: agentMapOf(),
    queues: {},
    wrapping: before?.wrapping ?? {},
    outbox: before?.outbox ?? [],
    handlingMs: {},
    ...(before?.droppedTickets !== undefined && { droppedTickets: before.droppedTickets }),
  }
  for (const number in definition.pilots) {
    const calendar = structuredClone(
      definition.pilots[number]?.calendar ?? { normal: {}, exceptions: {} },
    )
    const current = inForce(draft, number, calendar, transaction.now)
    draft.pilots[number] = {
      ...current,
      calendar,
      monitoredBy: before?.pilots[number]?.monitoredBy ?? [],
    }
  }
  // Built in place (the draft's own map), in the definition's order of operators.
  const agents = agentMapOf().asMutable()
  for (const loginName in definition.operators) {
    const operator = definition.operators[loginName]
    const kept = before?.agents.get(loginName)
    if (operator === undefined) continue
    const groupGone = kept?.pg !== undefined && definition.processingGroups[kept.pg] === undefined
    agents.set(
      loginName,
      kept === undefined || groupGone
        ? newAgent(loginName, operator.skills)
        : { ...kept, skills: operator.skills.map((skill) => ({ ...skill })) },
    )
  }
  draft.agents = agents.asImmutable()
  for (const number in before?.queues ?? {})
    if (definition.queues[number] !== undefined) draft.queues[number] = before?.queues[number] ?? []
  for (const number in before?.handlingMs ?? {})
    if (definition.queues[number] !== undefined)
      draft.handlingMs[number] = before?.handlingMs[number] ?? 0
  transaction.state.acd = draft
  armCalendar(transaction)
  return undefined
}

/** The ticket store holds these tickets: the outbox lets them go (acd-ticket-recorder.ts). */
const acdTicketsStored: Operation<Command<'acdTicketsStored'>> = (transaction, command) => {
  const acd = transaction.state.acd
  if (acd === undefined) return undefined
  const stored = new Set(command.ticketIds)
  const outbox = acd.outbox.filter((ticket) => !stored.has(ticket.ticketId))
  // A contact center removed (provisionContactCenter) was kept for these tickets only.
  if (outbox.length === 0 && isRemoved(acd)) delete transaction.state.acd
  else if (outbox.length !== acd.outbox.length) changeAcd(transaction, { outbox })
  return undefined
}

const acdNoAnswerOperation: Operation<Command<'acdNoAnswer'>> = (transaction, command) => {
  acdNoAnswer(transaction, command.callRef, command.number)
  return undefined
}

const acdOverflowOperation: Operation<Command<'acdOverflow'>> = (transaction, command, context) => {
  acdOverflow(transaction, command.callRef, context)
  return undefined
}

export const acdPilotOperations = {
  acdCalendar,
  acdPilotMode,
  acdCalendarChange,
  acdMonitor,
  provisionContactCenter,
  acdTicketsStored,
  acdNoAnswer: acdNoAnswerOperation,
  acdOverflow: acdOverflowOperation,
}
