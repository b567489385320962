/**
 * The contact-center agent service (`acdagent`; client census 2, 5c): a CCD operator, agent or supervisor,
 * its configuration and state, the requests that change them, and the events of package `agent`. Read from
 * what the Node, Java, C# and browser SDKs send and parse; where they disagree, the answers carry every
 * spelling and the requests accept every spelling (ACD-WIRE-NOTES.md lists each case).
 */
import { type Static, Type } from 'typebox'
import { enumeration } from '../enumeration.js'

const closed = { additionalProperties: false } as const
const text = (description?: string) =>
  Type.String({ minLength: 1, ...(description !== undefined && { description }) })

export const OPERATOR_TYPES = ['AGENT', 'SUPERVISOR'] as const
export const OperatorType = enumeration(OPERATOR_TYPES, { title: 'OperatorType' })
export type OperatorType = (typeof OPERATOR_TYPES)[number]

export const OPERATOR_MAIN_STATES = ['UNKNOWN', 'LOG_ON', 'LOG_OFF', 'ERROR'] as const
export const OperatorMainState = enumeration(OPERATOR_MAIN_STATES, {
  title: 'OperatorMainState',
  description: 'the static state: logged on the pro-ACD set or not',
})
export type OperatorMainState = (typeof OPERATOR_MAIN_STATES)[number]

/** The SDKs call it OperatorDynamicState; `subState` on the wire. */
export const OPERATOR_SUB_STATES = [
  'READY',
  'OUT_OF_PG',
  'BUSY',
  'TRANSACTION_CODE_INPUT',
  'WRAPUP',
  'PAUSE',
  'WITHDRAW',
  'WRAPUP_IM',
  'WRAPUP_EMAIL',
  'WRAPUP_EMAIL_INTERRUPTIBLE',
  'WRAPUP_OUTBOUND',
  'WRAPUP_CALLBACK',
  'UNKNOWN',
] as const
export const OperatorSubState = enumeration(OPERATOR_SUB_STATES, {
  title: 'OperatorSubState',
  description:
    'the dynamic state of a logged-on operator (OUT_OF_PG: a supervisor out of any agent group; the WRAPUP_* values: wrap-up after an IM, e-mail, outbound or callback interaction). The browser SDK has no UNKNOWN; the others map a value they do not know to UNKNOWN',
})
export type OperatorSubState = (typeof OPERATOR_SUB_STATES)[number]

/**
 * The intrusion modes. STOP is the Node SDK's own value (its IntrusionMode enum; the Java, C# and browser SDKs
 * have the first three only): accepted on requests, never sent.
 */
export const INTRUSION_MODES = ['NORMAL', 'RESTRICTED', 'DISCRETE', 'STOP'] as const
export const IntrusionMode = enumeration(INTRUSION_MODES, {
  title: 'IntrusionMode',
  description:
    'NORMAL: the supervisor talks to both parties; RESTRICTED: to the agent only; DISCRETE: listens only; STOP (Node SDK only): ends the intrusion. The SDKs document that PUT with the current mode ends it too',
})
export type IntrusionMode = (typeof INTRUSION_MODES)[number]

/** A skill of an agent. */
export const AgentSkill = Type.Object(
  {
    number: Type.Integer({ description: 'the skill number; the SDKs key the skill set by it' }),
    level: Type.Integer({ description: "the agent's level in this skill" }),
    active: Type.Boolean(),
    domain: Type.Optional(
      Type.Integer({
        description:
          'the domain of the skill (read by the Node and Java SDKs, which index skills by domain and name)',
      }),
    ),
    name: Type.Optional(Type.String({ description: 'read by the Node and Java SDKs' })),
    abvName: Type.Optional(
      Type.String({ description: 'abbreviated name; read by the Node and Java SDKs' }),
    ),
  },
  { title: 'AgentSkill' },
)
export type AgentSkill = Static<typeof AgentSkill>

/** The skills wrapped in an object: `skills` of OperatorConfig, and of OnAgentSkillChanged for Java. */
export const AgentSkillList = Type.Object(
  { skills: Type.Array(AgentSkill) },
  { title: 'AgentSkillList' },
)
export type AgentSkillList = Static<typeof AgentSkillList>

/** The agent groups (processing groups) of an operator. */
export const AgentGroups = Type.Object(
  {
    preferred: Type.Optional(Type.String({ description: 'the preferred agent group number' })),
    groups: Type.Array(Type.String(), {
      description: 'the agent group numbers the operator belongs to (Node, Java and browser SDKs)',
    }),
    processingGroups: Type.Array(Type.String(), {
      description:
        'the same list, for the C# SDK, whose AgentGroups reads this name only ([JsonPropertyName("processingGroups")])',
    }),
  },
  { title: 'AgentGroups' },
)
export type AgentGroups = Static<typeof AgentGroups>

/** GET <acdagent>/config. */
export const OperatorConfig = Type.Object(
  {
    type: OperatorType,
    proacd: Type.Optional(
      Type.String({ description: 'the pro-ACD set the operator logs on by default' }),
    ),
    processingGroups: Type.Optional(AgentGroups),
    skills: Type.Object(
      { skills: Type.Array(AgentSkill) },
      {
        description:
          'always present, empty for none: the C# and browser SDKs read skills.skills without a null check and fail when `skills` is absent',
      },
    ),
    selfAssign: Type.Boolean({
      description: 'whether the operator may choose its agent group at log-on',
    }),
    headset: Type.Boolean({ description: 'whether the operator works with a headset' }),
    help: Type.Boolean({ description: 'whether the operator may ask for supervisor help' }),
    multiline: Type.Boolean({ description: 'whether the operator has a multi-line set' }),
  },
  { title: 'OperatorConfig' },
)
export type OperatorConfig = Static<typeof OperatorConfig>

/** GET <acdagent>/state; `state` of OnAgentStateChanged. */
export const OperatorState = Type.Object(
  {
    mainState: OperatorMainState,
    subState: Type.Optional(OperatorSubState),
    proAcdDeviceNumber: Type.Optional(
      Type.String({ description: 'the pro-ACD set the operator is logged on' }),
    ),
    pgNumber: Type.Optional(
      Type.String({
        description:
          'the agent group the operator is in; the SDKs read it to leave the group (POST exit / exitPG)',
      }),
    ),
    withdrawReason: Type.Optional(
      Type.Integer({ description: 'the index of the withdraw reason, when withdrawn' }),
    ),
    withdraw: Type.Boolean({
      description: 'whether the operator is withdrawn: read by the Node, C# and browser SDKs',
    }),
    withdrawn: Type.Boolean({
      description: 'the same: the spelling the Java SDK reads (its OperatorState field)',
    }),
  },
  { title: 'OperatorState' },
)
export type OperatorState = Static<typeof OperatorState>

/** A withdraw reason of an agent group. */
export const WithdrawReason = Type.Object(
  {
    index: Type.Integer({ description: 'the value to send as reasonIndex' }),
    label: Type.Optional(Type.String()),
  },
  { title: 'WithdrawReason' },
)
export type WithdrawReason = Static<typeof WithdrawReason>

/** GET <acdagent>/withdrawReasons?pgNumber=. */
export const WithdrawReasons = Type.Object(
  {
    reasons: Type.Array(WithdrawReason, {
      description: 'always present: the Java SDK wraps it without a null check',
    }),
    number: Type.Optional(
      Type.Integer({
        description: 'the number of reasons: declared by the C# SDK (unused); the others ignore it',
      }),
    ),
  },
  { title: 'WithdrawReasons' },
)
export type WithdrawReasons = Static<typeof WithdrawReasons>

/** The query of GET <acdagent>/withdrawReasons (besides loginName). */
export const WithdrawReasonsQuery = Type.Object(
  { pgNumber: text('the agent group whose reasons are listed') },
  { title: 'WithdrawReasonsQuery' },
)
export type WithdrawReasonsQuery = Static<typeof WithdrawReasonsQuery>

/**
 * The query of DELETE <acdagent>/supervisorHelp (besides loginName): the Node, C# and browser SDKs name the
 * other party; the Java SDK sends DELETE <acdagent>/intrusion with no number instead.
 */
export const CancelSupervisorHelpQuery = Type.Object(
  {
    other: text(
      "the other party's number: the supervisor's when an agent cancels its request, the agent's when a supervisor rejects it",
    ),
  },
  { title: 'CancelSupervisorHelpQuery' },
)
export type CancelSupervisorHelpQuery = Static<typeof CancelSupervisorHelpQuery>

/** POST <acdagent>/logon. */
export const OperatorLogonRequest = Type.Object(
  {
    proAcdDeviceNumber: text('the pro-ACD set to log on'),
    pgGroupNumber: Type.Optional(
      Type.String({
        description:
          'the agent group to enter; absent (or empty, as the Java and C# SDKs pass an empty string through) for a supervisor logging on out of any group',
      }),
    ),
    headset: Type.Optional(
      Type.Boolean({
        description:
          'headset mode; the Node and browser SDKs send it only when true, Java and C# always',
      }),
    ),
  },
  { title: 'OperatorLogonRequest', ...closed },
)
export type OperatorLogonRequest = Static<typeof OperatorLogonRequest>

/** POST <acdagent>/enter or /enterPG, /exit or /exitPG (supervisors). */
export const AgentGroupRequest = Type.Object(
  {
    pgGroupNumber: text(
      'the agent group to enter, or to leave (the SDKs send the pgNumber of GET state for exit)',
    ),
  },
  { title: 'AgentGroupRequest', ...closed },
)
export type AgentGroupRequest = Static<typeof AgentGroupRequest>

/** POST <acdagent>/withdraw. */
export const WithdrawRequest = Type.Object(
  { reasonIndex: Type.Integer({ description: 'the index of a reason of GET withdrawReasons' }) },
  { title: 'WithdrawRequest', ...closed },
)
export type WithdrawRequest = Static<typeof WithdrawRequest>

/** POST <acdagent>/permanentListening (supervisors). */
export const PermanentListeningRequest = Type.Object(
  { agentNumber: text('the number of the agent to listen to') },
  { title: 'PermanentListeningRequest', ...closed },
)
export type PermanentListeningRequest = Static<typeof PermanentListeningRequest>

/** POST <acdagent>/intrusion (supervisors). */
export const IntrusionRequest = Type.Object(
  {
    agentNumber: text('the number of the agent in the ACD call to intrude into'),
    mode: Type.Optional(
      enumeration(INTRUSION_MODES, {
        description:
          'an IntrusionMode; every SDK sends it (Node defaults to NORMAL); absent only when a Java caller passes null: NORMAL',
      }),
    ),
  },
  { title: 'IntrusionRequest', ...closed },
)
export type IntrusionRequest = Static<typeof IntrusionRequest>

/** PUT <acdagent>/intrusion (supervisors): the new mode; the current mode ends the intrusion. */
export const IntrusionModeRequest = Type.Object(
  { mode: IntrusionMode },
  { title: 'IntrusionModeRequest', ...closed },
)
export type IntrusionModeRequest = Static<typeof IntrusionModeRequest>

/** POST <acdagent>/config/skills/activate and /deactivate. */
export const SkillsActivationRequest = Type.Object(
  {
    skills: Type.Array(Type.Integer(), {
      description: "skill numbers; a number that is not one of the operator's skills is ignored",
    }),
  },
  { title: 'SkillsActivationRequest', ...closed },
)
export type SkillsActivationRequest = Static<typeof SkillsActivationRequest>

/** Event OnAgentStateChanged (package `agent`); also the answer to POST <acdagent>/state/snapshot. */
export const OnAgentStateChanged = Type.Object(
  {
    eventName: Type.Literal('OnAgentStateChanged'),
    loginName: Type.String(),
    state: OperatorState,
  },
  { title: 'OnAgentStateChanged' },
)
export type OnAgentStateChanged = Static<typeof OnAgentStateChanged>

/**
 * Event OnAgentSkillChanged (package `agent`). No one shape serves both SDKs that parse it: the Node SDK
 * iterates `skills` as an array (an object throws, and its reader drops that event), the Java SDK's Gson
 * reads `{skills: [..]}` (an array throws out of its chunk reader and ends its event thread). The C# and
 * browser SDKs do not know the event. The server sends the array, and the object to Java clients.
 */
export const OnAgentSkillChanged = Type.Object(
  {
    eventName: Type.Literal('OnAgentSkillChanged'),
    loginName: Type.String(),
    skills: Type.Union([Type.Array(AgentSkill), AgentSkillList], {
      description:
        'the Node SDK reads an array of skills, the Java SDK an object {skills: [..]}: one or the other, by client',
    }),
  },
  { title: 'OnAgentSkillChanged' },
)
export type OnAgentSkillChanged = Static<typeof OnAgentSkillChanged>

const otherParty = () =>
  Type.String({
    description:
      "the other party's number: the agent's in the supervisor's event, the supervisor's in the agent's",
  })

/** Event OnSupervisorHelpRequested (package `agent`). */
export const OnSupervisorHelpRequested = Type.Object(
  {
    eventName: Type.Literal('OnSupervisorHelpRequested'),
    loginName: Type.String(),
    agentNumber: otherParty(),
  },
  { title: 'OnSupervisorHelpRequested' },
)
export type OnSupervisorHelpRequested = Static<typeof OnSupervisorHelpRequested>

/** Event OnSupervisorHelpCancelled (package `agent`): a help request cancelled, rejected or a listening ended. */
export const OnSupervisorHelpCancelled = Type.Object(
  {
    eventName: Type.Literal('OnSupervisorHelpCancelled'),
    loginName: Type.String(),
    agentNumber: otherParty(),
  },
  { title: 'OnSupervisorHelpCancelled' },
)
export type OnSupervisorHelpCancelled = Static<typeof OnSupervisorHelpCancelled>
