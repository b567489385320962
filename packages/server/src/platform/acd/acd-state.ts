/**
 * The contact center as the call engine runs it (docs/contact-center.md): its definition, the pilots' rule and
 * mode of the moment with their calendars, the agents' states, the calls waiting in each queue, the tickets of
 * the calls whose agent wraps up, and the tickets closed and not yet stored. Data only, in the engine's state, so
 * that the ACD is as durable, deterministic and replayable as the calls; the operations are in
 * platform/telephony/operations/acd-*.ts.
 */
import { OrderedMap } from 'immutable'
import type { AcdTicket } from './acd-ticket.js'
import type { AgentRuntime } from './agent-state.js'
import type {
  ContactCenterDefinition,
  OperatorDefinition,
  PilotCalendar,
  PilotDefinition,
  ProcessingGroupDefinition,
  QueueDefinition,
  SkillDefinition,
  SkillNeed,
  TransitionMode,
} from './contact-center.js'

/** A pilot as it runs: the rule and mode in force, its calendar (acdmanagement changes it), who monitors it. */
export interface PilotRuntime {
  ruleNumber: number
  mode: TransitionMode
  calendar: PilotCalendar
  /** The login names that started monitoring the pilot (acdpilotmonitoring): its events flow while any does. */
  monitoredBy: string[]
  /** When acdmanagement last opened or closed the pilot: the calendar's transitions before then do not undo it. */
  modeSetAt?: number
}

/** What an ACD call carries from the moment it reaches a pilot until its ticket closes. */
export interface AcdCall {
  ticketId: string
  pilot: string
  ruleNumber: number
  queue?: string
  /** The skills the call needs (the rule's, or the make call's `acdCall.skills`). */
  skills?: SkillNeed[]
  arrivedAt: number
  /** Set while the call waits in its queue: when it started waiting this time. */
  queuedAt?: number
  /** When it first waited (the expected waiting time counts from it). */
  firstQueuedAt?: number
  /** The time the call spent waiting before the current wait. */
  queueWaitMs: number
  /** The agent whose set the call rings now. */
  offeredTo?: string
  offers: number
  refusals: number
  answeredAt?: number
  /** The agent who answered, and the processing group it answered in. */
  agent?: string
  pg?: string
  /** The waiting time expected when the call joined its queue, and whether the queue was full then. */
  expectedWaitMs?: number
  saturated?: boolean
  /** The transaction code the agent gave during the call (sendaccountinfo). */
  transactionCode?: string
  /** The make call or transferInfo asked for a supervised transfer. */
  supervisedTransfer?: boolean
}

/** The contact center's definition as the engine looks it up: by number, and operators by login name. */
export interface AcdDefinitions {
  timeZone?: string
  agentLicenses?: number
  pilots: Record<string, PilotDefinition>
  queues: Record<string, QueueDefinition>
  processingGroups: Record<string, ProcessingGroupDefinition>
  operators: Record<string, OperatorDefinition>
  skills: SkillDefinition[]
}

/** Everything the engine holds of the contact center. */
export interface AcdState {
  definition: AcdDefinitions
  /** The digest of the directory file's contact center the definition was provisioned from (engine-acd.ts). */
  provision?: string
  pilots: Record<string, PilotRuntime>
  /** The agents by login name: a persistent map, so that moving one agent copies none of the others. */
  agents: AgentMap
  /** The callRefs waiting in each queue, by queue number, oldest first. */
  queues: Record<string, string[]>
  /** The tickets of answered calls that ended, by the login name of the agent wrapping them up. */
  wrapping: Record<string, AcdTicket>
  /**
   * Each queue's mean handling time (a moving average over its served calls, ms): the expected waiting time of
   * a call is the calls ahead of it, plus one, times this, shared by the agents of the queue's group logged on.
   */
  handlingMs: Record<string, number>
  /** The tickets closed and not yet in the ticket store, oldest first (telephony/acd-ticket-recorder.ts). */
  outbox: AcdTicket[]
  /** How many tickets were dropped from a full outbox, the ticket store failing that long; absent: none. */
  droppedTickets?: number
}

/**
 * The agents as the engine holds them: a persistent map like the calls (`CallMap`), so that a command that
 * moves an agent makes a new map sharing all but that agent with the old one, instead of a copy of 500
 * entries. Ordered: the agents are listed in the order a plain object of them has (the order they are stored
 * and snapshotted in, `agentRecordOf`), so that the views, the searches and the JSON stay as they were.
 */
export type AgentMap = OrderedMap<string, AgentRuntime>

/** The agents of a record of login name → agent (the stored and portable forms), in its keys' order. */
export function agentMapOf(agents: Readonly<Record<string, AgentRuntime>> = {}): AgentMap {
  return OrderedMap(Object.entries(agents))
}

/** The agents as a plain record of login name → agent: the stored and portable form. */
export function agentRecordOf(agents: AgentMap): Record<string, AgentRuntime> {
  return Object.fromEntries(agents)
}

/** The contact center as plain JSON, as snapshots keep it and the `restoreState` command carries it. */
export type PortableAcdState = Omit<AcdState, 'agents'> & { agents: Record<string, AgentRuntime> }

/** The contact center in its plain form (its records shared with `acd`'s). */
export function portableAcd(acd: AcdState): PortableAcdState {
  return { ...acd, agents: agentRecordOf(acd.agents) }
}

/** The contact center of a plain form (its records shared with `portable`'s). */
export function acdOfPortable(portable: PortableAcdState): AcdState {
  return { ...portable, agents: agentMapOf(portable.agents) }
}

/** The definitions by number and login name. */
export function definitionsOf(contactCenter: ContactCenterDefinition): AcdDefinitions {
  const byKey = <T>(list: readonly T[], key: (item: T) => string): Record<string, T> =>
    Object.fromEntries(list.map((item) => [key(item), structuredClone(item)]))
  return {
    ...(contactCenter.timeZone !== undefined && { timeZone: contactCenter.timeZone }),
    ...(contactCenter.agentLicenses !== undefined && {
      agentLicenses: contactCenter.agentLicenses,
    }),
    pilots: byKey(contactCenter.pilots, (pilot) => pilot.number),
    queues: byKey(contactCenter.queues, (queue) => queue.number),
    processingGroups: byKey(contactCenter.processingGroups, (group) => group.number),
    operators: byKey(contactCenter.operators, (operator) => operator.loginName),
    skills: structuredClone(contactCenter.skills),
  }
}

/** The definition as the directory file and the control plane write it: lists. */
export function contactCenterOf(definition: AcdDefinitions): ContactCenterDefinition {
  return {
    ...(definition.timeZone !== undefined && { timeZone: definition.timeZone }),
    ...(definition.agentLicenses !== undefined && { agentLicenses: definition.agentLicenses }),
    pilots: Object.values(definition.pilots),
    queues: Object.values(definition.queues),
    processingGroups: Object.values(definition.processingGroups),
    operators: Object.values(definition.operators),
    skills: definition.skills,
  }
}

/** The skills a rule's calls need, or none. */
export function ruleSkills(pilot: PilotDefinition, ruleNumber: number): SkillNeed[] | undefined {
  return pilot.rules.find((rule) => rule.ruleNumber === ruleNumber)?.skills
}
