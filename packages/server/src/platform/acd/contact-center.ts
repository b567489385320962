/**
 * The contact center as it is defined (docs/contact-center.md, "The model"): pilots, their rules and calendars,
 * the queues the rules send calls to, the processing groups of agents that serve the queues, the operators
 * (agents and supervisors) with their skills, and the skills themselves. Data only: the directory file and the
 * control plane give it, the call engine provisions its state from it (engine-acd.ts) and runs it.
 */

/** A pilot's state as acdmanagement shows it (the SDKs' PilotState). */
export const PILOT_STATES = ['Opened', 'Closed', 'Blocked'] as const
export type PilotState = (typeof PILOT_STATES)[number]

/** What a calendar transition makes of the pilot: served by the rule, closed, or forwarded. */
export const TRANSITION_MODES = ['normal', 'closed', 'forward'] as const
export type TransitionMode = (typeof TRANSITION_MODES)[number]

/** The days of a normal calendar, as the SDKs name them. */
export const WEEK_DAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const
export type WeekDay = (typeof WEEK_DAYS)[number]

/** A calendar transition: from `time` (HH:mm, the contact center's time zone) the pilot runs `ruleNumber` in `mode`. */
export interface Transition {
  time: string
  ruleNumber: number
  mode: TransitionMode
}

/** A pilot's calendar: transitions for each day of the week, and exception days (yyyyMMdd) that replace them. */
export interface PilotCalendar {
  normal: Partial<Record<WeekDay, Transition[]>>
  exceptions: Record<string, Transition[]>
}

/** A skill a call may need, at a level at least. */
export interface SkillNeed {
  number: number
  level: number
}

/** A rule of a pilot: the queue its calls wait in, and the skills they need. */
export interface PilotRule {
  ruleNumber: number
  name: string
  /** The queue's number. */
  queue: string
  /** The skills a call needs from the agent who takes it (none: any agent of the queue's group). */
  skills?: SkillNeed[]
}

/** A pilot: a number of the plan whose calls the contact center distributes. */
export interface PilotDefinition {
  number: string
  name: string
  rules: PilotRule[]
  /** The rule in force when no calendar transition says otherwise. */
  ruleNumber: number
  /** Whether the pilot is open when no calendar transition says otherwise. */
  open: boolean
  /** Where a forwarded pilot (calendar mode `forward`) sends its calls; without it, forward acts as closed. */
  forwardTo?: string
  /** Where a call goes when it waited `overflowAfterMs`, or when the queue is saturated or blocked. */
  overflowTo?: string
  /** How long a call waits before its overflow (no limit when absent). */
  overflowAfterMs?: number
  /** Whether a call may be transferred to the pilot (transferInfo). */
  possibleTransfer: boolean
  /** Whether a transfer to the pilot is supervised (the transferring agent stays until an agent answers). */
  supervisedTransfer: boolean
  calendar: PilotCalendar
}

/** A queue: where the calls of a pilot's rule wait for an agent of its processing group. */
export interface QueueDefinition {
  number: string
  name: string
  processingGroup: string
  /** The calls that may wait at once: beyond it the queue is saturated and calls are dissuaded or overflow. */
  size: number
}

/** A reason an agent gives when withdrawing. */
export interface WithdrawReason {
  index: number
  label: string
}

/** A processing group: agents who serve its queues, with the timers that apply to them. */
export interface ProcessingGroupDefinition {
  number: string
  name: string
  /** How long an agent rings before the call goes back to the queue and the agent to PAUSE. */
  noAnswerMs: number
  /** How long the wrap-up after an ACD call lasts (0: none, the agent is ready at once). */
  wrapUpMs: number
  /** Whether an agent enters a transaction code (sendaccountinfo) after each ACD call. */
  transactionCode: boolean
  withdrawReasons: WithdrawReason[]
}

/** A skill of the contact center. */
export interface SkillDefinition {
  number: number
  name: string
  abvName?: string
  /** The domain the skill belongs to (a number, as the SDKs read it). */
  domain?: number
}

/** An operator's skill: its level and whether the operator has it active. */
export interface OperatorSkill {
  number: number
  level: number
  active: boolean
}

export const OPERATOR_TYPES = ['AGENT', 'SUPERVISOR'] as const
export type OperatorType = (typeof OPERATOR_TYPES)[number]

/** An operator: a user who works in the contact center, as an agent or as a supervisor. */
export interface OperatorDefinition {
  loginName: string
  type: OperatorType
  /** The processing groups the operator belongs to, the preferred one first. */
  processingGroups: string[]
  skills: OperatorSkill[]
  /** Whether the operator may enter a processing group it does not belong to. */
  selfAssign: boolean
  headset: boolean
  /** Whether the operator may ask a supervisor for help. */
  help: boolean
  multiline: boolean
}

/** The whole contact center. */
export interface ContactCenterDefinition {
  /** The IANA time zone the calendars' times are in (UTC when absent). */
  timeZone?: string
  /**
   * The CONTACTCENTER_AGENT licenses installed (the directory file's `licenses`): at most this many operators are
   * logged on at once; no bound when absent.
   */
  agentLicenses?: number
  pilots: PilotDefinition[]
  queues: QueueDefinition[]
  processingGroups: ProcessingGroupDefinition[]
  operators: OperatorDefinition[]
  skills: SkillDefinition[]
}

/** The defaults of a processing group's timers. */
export const DEFAULT_NO_ANSWER_MS = 15_000
export const DEFAULT_WRAP_UP_MS = 10_000
/** The default number of calls a queue holds. */
export const DEFAULT_QUEUE_SIZE = 20
/** The most transitions a calendar day has (the SDKs' documentation: 10). */
export const MAX_DAY_TRANSITIONS = 10
/** Bounds of a contact center: its state is stored with the engine's. */
export const MAX_PILOTS = 200
export const MAX_QUEUES = 400
export const MAX_PROCESSING_GROUPS = 200
export const MAX_OPERATORS = 2000
export const MAX_SKILLS = 200
