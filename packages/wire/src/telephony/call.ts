/** Call records (wire facts 5.2 and 5.3): Call, CallData, Leg, Participant and their capabilities. */
import { type Static, Type } from 'typebox'
import { AcdData, TrunkIdentification } from '../acd/call-data.js'
import { enumeration } from '../enumeration.js'
import { PartyInfo } from './party.js'

export const MEDIA_STATES = [
  'UNKNOWN',
  'OFF_HOOK',
  'IDLE',
  'RELEASING',
  'DIALING',
  'HELD',
  'RINGING_INCOMING',
  'RINGING_OUTGOING',
  'ACTIVE',
] as const
export const MediaState = enumeration(MEDIA_STATES, { title: 'MediaState' })
export type MediaState = (typeof MEDIA_STATES)[number]

export const CALL_CAUSES = [
  'ABANDONED',
  'ALL_TRUNK_BUSY',
  'BUSY',
  'CLEARED',
  'PARTICIPANT_LEFT',
  'CONFERENCED',
  'INVALID_NUMBER',
  'DESTINATION_NOT_OBTAINABLE',
  'DO_NOT_DISTURB',
  'FORWARDED',
  'NOT_ANSWERED',
  'PICKED_UP',
  'PARKED',
  'REDIRECTED',
  'OVERFLOWN',
  'TRANSFERRED',
  'CAMP_ON',
  'UNKNOWN',
  'PICKED_UP_TANDEM',
  'CALL_BACK',
  'RECALL',
  'DISTRIBUTED',
  'ACD_ENTER_DISTRIBUTION',
  'RESOURCES_NOT_AVAILABLE',
  'SUPERVISOR_LISTENING',
  'SUPERVISOR_INTRUSION',
  'SUPERVISOR_RESTRICT_INTRUSION',
  'NO_AVAILABLE_AGENT',
  'LOCKOUT',
] as const
export const CallCause = enumeration(CALL_CAUSES, { title: 'CallCause' })
export type CallCause = (typeof CALL_CAUSES)[number]

export const RECORD_STATES = ['PAUSED', 'RECORDING'] as const
export const RecordState = enumeration(RECORD_STATES, { title: 'RecordState' })

const flag = () => Type.Optional(Type.Boolean())

export const CALL_CAPABILITIES = [
  'addDevice',
  'addParticipant',
  'intruded',
  'intrusion',
  'transfer',
  'blindTransfer',
  'merge',
  'redirect',
  'pickedUp',
  'redirectToVoiceMail',
  'overflowToVoiceMail',
  'dropMe',
  'terminate',
  'reject',
  'callBack',
  'park',
  'startRecord',
  'stopRecord',
  'pauseRecord',
  'resumeRecord',
  'dropParticipant',
  'muteParticipant',
  'holdParticipant',
] as const
export type CallCapability = (typeof CALL_CAPABILITIES)[number]
export const CallCapabilities = Type.Object(
  Object.fromEntries(CALL_CAPABILITIES.map((name) => [name, flag()])) as Record<
    CallCapability,
    ReturnType<typeof flag>
  >,
  { title: 'CallCapabilities' },
)
export type CallCapabilities = Static<typeof CallCapabilities>

export const LEG_CAPABILITIES = [
  'answer',
  'drop',
  'hold',
  'retrieve',
  'reconnect',
  'mute',
  'unMute',
  'sendDtmf',
  'switchDevice',
] as const
export type LegCapability = (typeof LEG_CAPABILITIES)[number]
export const LegCapabilities = Type.Object(
  Object.fromEntries(LEG_CAPABILITIES.map((name) => [name, flag()])) as Record<
    LegCapability,
    ReturnType<typeof flag>
  >,
  { title: 'LegCapabilities' },
)
export type LegCapabilities = Static<typeof LegCapabilities>

export const Tag = Type.Object(
  {
    name: Type.String(),
    value: Type.Optional(Type.String()),
    visibilities: Type.Optional(Type.Array(Type.String())),
  },
  { title: 'Tag' },
)

export const CallData = Type.Object(
  {
    initialCalled: Type.Optional(PartyInfo),
    lastRedirecting: Type.Optional(PartyInfo),
    deviceCall: flag(),
    anonymous: flag(),
    callUUID: Type.Optional(Type.String()),
    state: Type.Optional(MediaState),
    recordState: Type.Optional(RecordState),
    tags: Type.Optional(Type.Array(Tag)),
    capabilities: Type.Optional(CallCapabilities),
    associatedData: Type.Optional(Type.String()),
    associateData: Type.Optional(
      Type.String({
        description:
          'same as associatedData: the spelling the Java SDK reads (not in the specification)',
      }),
    ),
    hexaBinaryAssociatedData: Type.Optional(Type.String()),
    accountInfo: Type.Optional(
      Type.String({
        description: 'the transaction code an agent sent for the call (sendaccountinfo)',
      }),
    ),
    acdCallData: Type.Optional(AcdData),
    trunkIdentification: Type.Optional(TrunkIdentification),
  },
  { title: 'CallData' },
)
export type CallData = Static<typeof CallData>

export const Leg = Type.Object(
  {
    deviceId: Type.String(),
    state: MediaState,
    ringingRemote: flag(),
    capabilities: Type.Optional(LegCapabilities),
  },
  { title: 'Leg' },
)
export type Leg = Static<typeof Leg>

export const Participant = Type.Object(
  {
    participantId: Type.String(),
    identity: Type.Optional(PartyInfo),
    anonymous: flag(),
    undroppable: flag(),
    state: Type.Optional(MediaState),
  },
  { title: 'Participant' },
)
export type Participant = Static<typeof Participant>

export const Call = Type.Object(
  {
    callRef: Type.String(),
    callData: Type.Optional(CallData),
    legs: Type.Optional(Type.Array(Leg)),
    participants: Type.Optional(Type.Array(Participant)),
  },
  { title: 'Call' },
)
export type Call = Static<typeof Call>
