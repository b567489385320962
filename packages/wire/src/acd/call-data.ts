/**
 * The contact-center parts of the telephony service (client census 2, 5a and 5c; wire facts 5.1 and 5.2): the
 * ACD data of a call (`acdCallData` of CallData), a pilot's transfer information
 * (POST /telephony/pilots/{nodeId}/{pilotNumber}/transferInfo, whose query body the management service's
 * POST <acdmanagement>/{nodeId}/pilots/{pilotNumber} takes too), and the account info (transaction code) an
 * agent sends at the end of a call.
 */
import { type Static, Type } from 'typebox'
import { enumeration } from '../enumeration.js'

const closed = { additionalProperties: false } as const
const text = (description?: string) =>
  Type.String({ minLength: 1, ...(description !== undefined && { description }) })

/** The detailed state of a pilot, as to transfers. */
export const PILOT_STATUSES = [
  'OPEN',
  'BLOCKED',
  'BLOCKED_ON_RULE',
  'BLOCKED_ON_BLOCKED_RULE',
  'GENERAL_FORWARDING',
  'GENERAL_FORWARDING_ON_RULE',
  'BLOCKED_ON_GENERAL_FORWARDING_RULE',
  'OTHER',
] as const
export const PilotStatus = enumeration(PILOT_STATUSES, {
  title: 'PilotStatus',
  description: 'the Java and C# SDKs map a value they do not know to OTHER',
})
export type PilotStatus = (typeof PILOT_STATUSES)[number]

/** Whether a call can be transferred to a pilot, and why not. */
export const PilotTransferInfo = Type.Object(
  {
    transferPossible: Type.Boolean(),
    pilotStatus: PilotStatus,
  },
  { title: 'PilotTransferInfo' },
)
export type PilotTransferInfo = Static<typeof PilotTransferInfo>

/** `callInfo` of AcdData: about the ACD call. */
export const AcdCallInfo = Type.Object(
  {
    queueWaitingTime: Type.Optional(
      Type.Integer({ description: 'seconds waited in the queue the call was distributed from' }),
    ),
    globalWaitingTime: Type.Optional(
      Type.Integer({ description: 'seconds waited in the call center in all' }),
    ),
    agentGroup: Type.Optional(
      Type.String({
        description:
          "the agent group of the agent who answered. A string: the Java and C# SDKs read a string (C#'s System.Text.Json fails on a number); the Node SDK's type says number but it passes the value through",
      }),
    ),
    local: Type.Optional(Type.Boolean({ description: 'whether it is a local ACD call' })),
  },
  { title: 'AcdCallInfo' },
)
export type AcdCallInfo = Static<typeof AcdCallInfo>

/** `queueData` of AcdData: the queue that distributed the call. */
export const AcdQueueData = Type.Object(
  {
    waitingTime: Type.Optional(Type.Integer({ description: 'estimated waiting time, seconds' })),
    saturated: Type.Optional(Type.Boolean()),
  },
  { title: 'AcdQueueData' },
)
export type AcdQueueData = Static<typeof AcdQueueData>

/** `acdCallData` of CallData: present on ACD calls only. */
export const AcdData = Type.Object(
  {
    callInfo: Type.Optional(AcdCallInfo),
    queueData: Type.Optional(AcdQueueData),
    pilotNumber: Type.Optional(Type.String({ description: 'the pilot that distributed the call' })),
    rsiNumber: Type.Optional(Type.String({ description: 'the RSI point that distributed it' })),
    supervisedTransfer: Type.Optional(
      Type.Boolean({ description: 'whether the transfer to the pilot was supervised' }),
    ),
    pilotTransferInfo: Type.Optional(PilotTransferInfo),
  },
  { title: 'AcdData' },
)
export type AcdData = Static<typeof AcdData>

/** `trunkIdentification` of CallData and of a pilot call's data: external calls only. */
export const TrunkIdentification = Type.Object(
  {
    networkTimeslot: Type.Optional(Type.Integer()),
    trunkNeqt: Type.Optional(
      Type.Array(Type.Integer(), { description: 'the equipment numbers of the trunk' }),
    ),
  },
  { title: 'TrunkIdentification' },
)
export type TrunkIdentification = Static<typeof TrunkIdentification>

/**
 * A skill of a call profile. The Node and Java SDKs spell the number `skillNumber` (the only senders of a
 * pilot transfer query); the C# SDK's AcrSkill has no JsonPropertyName on it and sends `number` (in the
 * `acdCall` of a make call): either is accepted, one of them is expected.
 */
export const AcrSkill = Type.Object(
  {
    skillNumber: Type.Optional(Type.Integer({ description: 'the skill (Node, Java)' })),
    number: Type.Optional(Type.Integer({ description: 'the same, as the C# SDK spells it' })),
    acrStatus: Type.Optional(
      Type.Boolean({
        description: 'whether the skill is mandatory (Node always sends it, Java always)',
      }),
    ),
    expertEvalLevel: Type.Optional(Type.Integer({ description: 'the level required' })),
  },
  { title: 'AcrSkill', ...closed },
)
export type AcrSkill = Static<typeof AcrSkill>

/**
 * The body of POST /telephony/pilots/{nodeId}/{pilotNumber}/transferInfo and of
 * POST <acdmanagement>/{nodeId}/pilots/{pilotNumber} (Node): criteria of the transfer. Every field is optional:
 * the Node SDK leaves out what is falsy, the Java SDK what is null (it sends false), and both send no body at
 * all when called without criteria.
 */
export const PilotTransferQuery = Type.Object(
  {
    agentNumber: Type.Optional(text('the agent the call would be transferred by')),
    skills: Type.Optional(
      Type.Object(
        { skills: Type.Array(AcrSkill) },
        { description: 'the call profile: the skills the call needs', ...closed },
      ),
    ),
    priorityTransfer: Type.Optional(Type.Boolean()),
    supervisedTransfer: Type.Optional(Type.Boolean()),
  },
  { title: 'PilotTransferQuery', ...closed },
)
export type PilotTransferQuery = Static<typeof PilotTransferQuery>

/** The answer of POST /telephony/pilots/{nodeId}/{pilotNumber}/transferInfo. */
export const PilotInfo = Type.Object(
  {
    number: Type.String({ description: 'the pilot number' }),
    waitingTime: Type.Optional(
      Type.Integer({ description: 'estimated waiting time in its queue, seconds' }),
    ),
    saturation: Type.Optional(Type.Boolean({ description: 'whether its queue is saturated' })),
    supervisedTransfer: Type.Optional(
      Type.Boolean({ description: 'whether a transfer to it can be supervised' }),
    ),
    pilotTransferInfo: Type.Optional(PilotTransferInfo),
  },
  { title: 'PilotInfo' },
)
export type PilotInfo = Static<typeof PilotInfo>

/**
 * POST /telephony/calls/{callRef}/sendaccountinfo: an agent's transaction code for the call, at its end.
 * Every SDK sends both fields and no loginName.
 */
export const SendAccountInfoRequest = Type.Object(
  {
    deviceId: text('a device of the user (for a user session), in the call'),
    accountInfo: Type.String({
      pattern: '^[0-9]+$',
      description: 'the transaction code: digits only, as the communication server takes it',
    }),
  },
  { title: 'SendAccountInfoRequest', ...closed },
)
export type SendAccountInfoRequest = Static<typeof SendAccountInfoRequest>
