/**
 * The contact center as the API shows it (docs/contact-center.md; client census 2, 5c): an operator's
 * configuration and state, a group's withdraw reasons, pilots with their condition and rules, their calendars,
 * and a pilot's transfer information. Read from the engine's ACD state, never changing it.
 */
import type {
  NumberedPilotTransition,
  OperatorConfig,
  OperatorState,
  Pilot,
  PilotCalendar,
  PilotInfo,
  WithdrawReasons,
} from '@openness/wire'
import type { AcdState } from '../acd/acd-state.js'
import { operatorStateOf } from '../acd/agent-state.js'
import { type Transition, WEEK_DAYS } from '../acd/contact-center.js'
import { ownEntry } from '../own-entry.js'
import { PlatformError } from '../platform-error.js'
import { expectedWait, hasSkills, pilotCondition } from './operations/acd-distribution.js'

/** The contact center: NOT_FOUND when the platform has none. */
export function requireContactCenter(acd: AcdState | undefined): AcdState {
  if (acd === undefined) throw new PlatformError('NOT_FOUND', 'This platform has no contact center')
  return acd
}

/** Whether the user is an operator (agent or supervisor) of the contact center, and which. */
export function operatorType(
  acd: AcdState | undefined,
  loginName: string,
): 'AGENT' | 'SUPERVISOR' | undefined {
  return ownEntry(acd?.definition.operators, loginName)?.type
}

/** GET <acdagent>/config. */
export function operatorConfig(acd: AcdState, loginName: string): OperatorConfig {
  const operator = ownEntry(acd.definition.operators, loginName)
  if (operator === undefined)
    throw new PlatformError(
      'NOT_ALLOWED',
      `'${loginName}' is no agent or supervisor of the contact center`,
    )
  const agent = acd.agents.get(loginName)
  const groups = [...operator.processingGroups]
  const skills = (agent?.skills ?? operator.skills).map((skill) => {
    const known = acd.definition.skills.find((one) => one.number === skill.number)
    return {
      number: skill.number,
      level: skill.level,
      active: skill.active,
      ...(known?.name !== undefined && { name: known.name }),
      ...(known?.abvName !== undefined && { abvName: known.abvName }),
      ...(known?.domain !== undefined && { domain: known.domain }),
    }
  })
  return {
    type: operator.type,
    ...(agent?.proAcdDeviceNumber !== undefined && { proacd: agent.proAcdDeviceNumber }),
    processingGroups: {
      ...(groups[0] !== undefined && { preferred: groups[0] }),
      groups,
      processingGroups: groups,
    },
    skills: { skills },
    selfAssign: operator.selfAssign,
    headset: agent?.headset ?? operator.headset,
    help: operator.help,
    multiline: operator.multiline,
  }
}

/** GET <acdagent>/state: logged off for an operator who never logged on. */
export function operatorState(acd: AcdState, loginName: string): OperatorState {
  if (ownEntry(acd.definition.operators, loginName) === undefined)
    throw new PlatformError(
      'NOT_ALLOWED',
      `'${loginName}' is no agent or supervisor of the contact center`,
    )
  const agent = acd.agents.get(loginName)
  return agent === undefined
    ? { mainState: 'LOG_OFF', withdraw: false, withdrawn: false }
    : operatorStateOf(agent)
}

/** GET <acdagent>/withdrawReasons?pgNumber=. */
export function withdrawReasons(acd: AcdState, pg: string): WithdrawReasons {
  const group = ownEntry(acd.definition.processingGroups, pg)
  if (group === undefined)
    throw new PlatformError('NOT_FOUND', `pgNumber: no processing group '${pg}'`)
  const reasons = group.withdrawReasons.map((reason) => ({ ...reason }))
  return { reasons, number: reasons.length }
}

/** The pilot with this number: NOT_FOUND when there is none. */
function requirePilotIn(acd: AcdState, number: string) {
  const pilot = ownEntry(acd.definition.pilots, number)
  const runtime = ownEntry(acd.pilots, number)
  if (pilot === undefined || runtime === undefined)
    throw new PlatformError('NOT_FOUND', `No pilot '${number}'`)
  return { pilot, runtime }
}

/**
 * A pilot as acdmanagement shows it: its condition, the waiting time a new call can expect and whether its
 * queue is full, its rules with the one in force active. `javaRules`: the rules as the Java SDK reads them
 * (`{ruleList}`); every other client reads the list itself.
 */
export function pilotView(acd: AcdState, number: string, javaRules = false): Pilot {
  const { pilot, runtime } = requirePilotIn(acd, number)
  const condition = pilotCondition(acd, pilot, runtime)
  const queue = condition.queue === undefined ? undefined : acd.definition.queues[condition.queue]
  const waiting = queue === undefined ? 0 : (acd.queues[queue.number]?.length ?? 0)
  const rules = pilot.rules.map((rule) => ({
    ruleNumber: rule.ruleNumber,
    name: rule.name,
    active: rule.ruleNumber === runtime.ruleNumber,
  }))
  return {
    number: pilot.number,
    name: pilot.name,
    state: condition.state,
    detailedState: condition.status,
    waitingTime:
      queue === undefined ? 0 : Math.round(expectedWait(acd, queue.number, waiting + 1) / 1000),
    saturation: queue !== undefined && waiting >= queue.size,
    rules: javaRules ? { ruleList: rules } : rules,
    possibleTransfer: pilot.possibleTransfer,
    supervisedTransfer: pilot.supervisedTransfer,
  }
}

/** A day's transitions numbered 1..n in the order they are kept (the index the SDKs send back). */
function numbered(list: readonly Transition[] | undefined): NumberedPilotTransition[] {
  return (list ?? []).map((transition, index) => ({
    number: index + 1,
    transition: { ...transition },
  }))
}

/** GET …/pilots/{p}/calendar: the week, every day listed, and the exception days in date order. */
export function pilotCalendar(acd: AcdState, number: string): Required<PilotCalendar> {
  const { runtime } = requirePilotIn(acd, number)
  const { calendar } = runtime
  return {
    normalDays: {
      calendar: WEEK_DAYS.map((day) => ({ day, list: numbered(calendar.normal[day]) })),
    },
    exceptionDays: {
      calendar: Object.keys(calendar.exceptions)
        .sort()
        .map((date) => ({ date, list: numbered(calendar.exceptions[date]) })),
    },
  }
}

/** What a transfer to a pilot would find (the telephony transferInfo, acdmanagement's pilot with criteria). */
export interface TransferQuery {
  agentNumber?: string
  skills?: { number: number; level: number }[]
  supervisedTransfer?: boolean
}

/**
 * POST /telephony/pilots/{node}/{pilot}/transferInfo: the pilot's waiting time and saturation, and whether a call
 * can be transferred there now: the pilot takes transfers, is open (not blocked, closed or forwarding), and an
 * agent of the queue's group logged on has the skills asked for.
 */
export function pilotInfo(acd: AcdState, number: string, query: TransferQuery): PilotInfo {
  const view = pilotView(acd, number)
  const { pilot, runtime } = requirePilotIn(acd, number)
  const condition = pilotCondition(acd, pilot, runtime)
  const group =
    condition.queue === undefined
      ? undefined
      : acd.definition.queues[condition.queue]?.processingGroup
  const needs = query.skills
  const skilled =
    needs === undefined ||
    acd.agents.some(
      (agent) => agent.pg === group && agent.place !== 'LOG_OFF' && hasSkills(agent, needs),
    )
  return {
    number: pilot.number,
    waitingTime: view.waitingTime ?? 0,
    saturation: view.saturation ?? false,
    supervisedTransfer: pilot.supervisedTransfer,
    pilotTransferInfo: {
      transferPossible:
        pilot.possibleTransfer &&
        condition.status === 'OPEN' &&
        skilled &&
        view.saturation !== true,
      pilotStatus: condition.status,
    },
  }
}
