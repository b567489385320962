/**
 * An operator's state in the contact center and the table of its transitions (docs/contact-center.md, "The
 * agent's states"): the main state (logged on or off) and, logged on, the sub-state the SDKs name. The table
 * is the one place that says which action moves an agent from which sub-state to which; the engine's
 * operations (operations/acd-agents.ts, acd-distribution.ts) ask it, and refuse what it refuses.
 */
import type { OperatorSkill } from './contact-center.js'

/** The sub-states the platform uses, of the SDKs' OperatorSubState. */
export const AGENT_SUB_STATES = [
  'READY',
  'OUT_OF_PG',
  'BUSY',
  'TRANSACTION_CODE_INPUT',
  'WRAPUP',
  'PAUSE',
  'WITHDRAW',
] as const
export type AgentSubState = (typeof AGENT_SUB_STATES)[number]

/** Where an agent is: logged off, or logged on in a sub-state. */
export type AgentPlace = 'LOG_OFF' | AgentSubState

/** An operator as the engine runs it. */
export interface AgentRuntime {
  loginName: string
  place: AgentPlace
  /** Logged on: the set the ACD rings. */
  proAcdDeviceNumber?: string
  /** The processing group the agent is in (absent: OUT_OF_PG or logged off). */
  pg?: string
  /** WITHDRAW: the reason's index. */
  withdrawReason?: number
  headset?: boolean
  /** When the agent last became READY: the one ready longest is offered the next call. */
  readySince?: number
  /** The operator's skills, with the activation the operator chose. */
  skills: OperatorSkill[]
  /** The ACD call offered to or taken by the agent, until its wrap-up ends. */
  acdCall?: string
  /** The agent asked for a wrap-up while busy: it follows the call, ACD or not. */
  wrapUpAfterCall?: boolean
  /** The supervisor listening to the agent's calls (permanent listening), by login name. */
  listenedBy?: string
  /** A help request the agent made, waiting: the supervisors it went to. */
  helpRequested?: string[]
}

/** What moves an agent: the agent's requests, and what the calls do. */
export type AgentAction =
  | 'logon'
  | 'logoff'
  | 'enter'
  | 'exit'
  | 'ready'
  | 'pause'
  | 'withdraw'
  | 'wrapUp'
  | 'offered'
  | 'offerCancelled'
  | 'noAnswer'
  | 'acdCallEnded'
  | 'privateCallStarted'
  | 'privateCallEnded'
  | 'wrapUpEnded'
  | 'transactionCode'

/**
 * Where each action takes an agent, by where it is. `logon` from LOG_OFF goes to READY with a processing group,
 * to OUT_OF_PG without; an action with no entry for a place is refused there, with the reason `refusalOf` gives.
 * Where the table names one place and the settings call for another, the operation chooses among these: `logon`
 * READY or OUT_OF_PG; `acdCallEnded` and `transactionCode` the first of TRANSACTION_CODE_INPUT, WRAPUP and READY
 * that the processing group's settings call for (`afterAcdCall`); `privateCallEnded` WRAPUP when the agent asked
 * for one during the call.
 */
export const AGENT_TRANSITIONS: Readonly<
  Record<AgentAction, Partial<Record<AgentPlace, AgentPlace>>>
> = {
  logon: { LOG_OFF: 'READY' },
  logoff: {
    LOG_OFF: 'LOG_OFF',
    READY: 'LOG_OFF',
    OUT_OF_PG: 'LOG_OFF',
    BUSY: 'LOG_OFF',
    TRANSACTION_CODE_INPUT: 'LOG_OFF',
    WRAPUP: 'LOG_OFF',
    PAUSE: 'LOG_OFF',
    WITHDRAW: 'LOG_OFF',
  },
  enter: { OUT_OF_PG: 'READY', READY: 'READY', PAUSE: 'READY', WITHDRAW: 'READY' },
  exit: { READY: 'OUT_OF_PG', PAUSE: 'OUT_OF_PG', WITHDRAW: 'OUT_OF_PG', WRAPUP: 'OUT_OF_PG' },
  ready: {
    READY: 'READY',
    PAUSE: 'READY',
    WITHDRAW: 'READY',
    WRAPUP: 'READY',
    TRANSACTION_CODE_INPUT: 'READY',
  },
  pause: {
    READY: 'PAUSE',
    PAUSE: 'PAUSE',
    WITHDRAW: 'PAUSE',
    WRAPUP: 'PAUSE',
    TRANSACTION_CODE_INPUT: 'PAUSE',
  },
  withdraw: {
    READY: 'WITHDRAW',
    PAUSE: 'WITHDRAW',
    WITHDRAW: 'WITHDRAW',
    WRAPUP: 'WITHDRAW',
    TRANSACTION_CODE_INPUT: 'WITHDRAW',
  },
  wrapUp: {
    READY: 'WRAPUP',
    PAUSE: 'WRAPUP',
    WITHDRAW: 'WRAPUP',
    WRAPUP: 'WRAPUP',
    TRANSACTION_CODE_INPUT: 'WRAPUP',
    BUSY: 'BUSY',
  },
  offered: { READY: 'BUSY' },
  offerCancelled: { BUSY: 'READY' },
  noAnswer: { BUSY: 'PAUSE' },
  acdCallEnded: { BUSY: 'WRAPUP' },
  privateCallStarted: { READY: 'BUSY' },
  privateCallEnded: { BUSY: 'READY' },
  wrapUpEnded: { WRAPUP: 'READY' },
  transactionCode: { TRANSACTION_CODE_INPUT: 'WRAPUP' },
}

/** Where `action` takes an agent at `place`; undefined when the action is refused there. */
export function nextPlace(place: AgentPlace, action: AgentAction): AgentPlace | undefined {
  return AGENT_TRANSITIONS[action][place]
}

/** Why an agent at `place` may not do `action`, in words for a RestErrorInfo. */
export function refusalOf(place: AgentPlace, action: AgentAction): string {
  if (place === 'LOG_OFF') return `the agent is logged off: log on first (${action})`
  if (action === 'logon') return 'the agent is logged on already: log off first'
  if (place === 'OUT_OF_PG')
    return `the agent is in no processing group: enter one first (${action})`
  if (place === 'BUSY') return `the agent is busy in a call (${action} once it ends)`
  return `${action} is not possible in ${place}`
}

/**
 * Where an ACD call's end (or the transaction code that follows it) leaves an agent, by its processing group's
 * settings: TRANSACTION_CODE_INPUT first when the group asks for codes and none was given, then WRAPUP when the
 * group has a wrap-up time or the agent asked for one, else READY.
 */
export function afterAcdCall(settings: {
  transactionCode: boolean
  codeGiven: boolean
  wrapUpMs: number
  wrapUpAsked: boolean
}): AgentSubState {
  if (settings.transactionCode && !settings.codeGiven) return 'TRANSACTION_CODE_INPUT'
  if (settings.wrapUpMs > 0 || settings.wrapUpAsked) return 'WRAPUP'
  return 'READY'
}

/** An operator who has never logged on: logged off, with its skills as defined. */
export function newAgent(loginName: string, skills: readonly OperatorSkill[]): AgentRuntime {
  return { loginName, place: 'LOG_OFF', skills: skills.map((skill) => ({ ...skill })) }
}

/**
 * The agent's state as the SDKs read it (OperatorState): the Node and C# SDKs read `withdraw`, the Java SDK
 * `withdrawn`; both are given.
 */
export interface OperatorStateView {
  mainState: 'LOG_ON' | 'LOG_OFF'
  subState?: AgentSubState
  proAcdDeviceNumber?: string
  pgNumber?: string
  withdrawReason?: number
  withdraw: boolean
  withdrawn: boolean
}

export function operatorStateOf(agent: AgentRuntime): OperatorStateView {
  if (agent.place === 'LOG_OFF') return { mainState: 'LOG_OFF', withdraw: false, withdrawn: false }
  const withdrawn = agent.place === 'WITHDRAW'
  return {
    mainState: 'LOG_ON',
    subState: agent.place,
    ...(agent.proAcdDeviceNumber !== undefined && { proAcdDeviceNumber: agent.proAcdDeviceNumber }),
    ...(agent.pg !== undefined && { pgNumber: agent.pg }),
    ...(withdrawn &&
      agent.withdrawReason !== undefined && { withdrawReason: agent.withdrawReason }),
    withdraw: withdrawn,
    withdrawn,
  }
}
