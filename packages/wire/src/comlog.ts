/**
 * The communication log and the event summary (wire facts 8.1 and 8.2; the specification only names them):
 * ComRecord and its participants, the query answer in both spellings the SDKs read, the (un)acknowledge
 * body, and the EventSummary counters.
 */
import { type Static, Type } from 'typebox'
import { enumeration } from './enumeration.js'
import { PartyInfo } from './telephony/party.js'

export const COM_RECORD_ROLES = ['CALLER', 'CALLEE', 'UNKNOWN'] as const
export const ComRecordRole = enumeration(COM_RECORD_ROLES, { title: 'ComRecordRole' })
export type ComRecordRole = Static<typeof ComRecordRole>

/** Why a party's part of a call ended (wire facts 8.2); docs/comlog.md maps the engine's causes to them. */
export const COM_RECORD_REASONS = [
  'ALL_TRUNK_BUSY',
  'INVALID_NUMBER',
  'ABANDONED',
  'BUSY',
  'CONFERENCED',
  'PICKUP',
  'FORWARDED',
  'REDIRECTED',
  'RELEASED_ON_REDIRECT',
  'TRANSFERRED',
  'RELEASED_ON_TRANSFER',
  'VOICEMAIL',
  'NORMAL',
  'UNKNOWN',
] as const
export const ComRecordReason = enumeration(COM_RECORD_REASONS, { title: 'ComRecordReason' })
export type ComRecordReason = Static<typeof ComRecordReason>

export const ComRecordParticipant = Type.Object(
  {
    role: ComRecordRole,
    answered: Type.Boolean(),
    /** Required by the Node SDK, which dereferences `identity.id`. */
    identity: PartyInfo,
    anonymous: Type.Optional(Type.Boolean()),
    initialCalled: Type.Optional(PartyInfo),
    reason: ComRecordReason,
    /** The device the party took part from, when it is a user's device. */
    leg: Type.Optional(Type.String()),
  },
  { title: 'ComRecordParticipant' },
)
export type ComRecordParticipant = Static<typeof ComRecordParticipant>

export const ComRecord = Type.Object(
  {
    recordId: Type.Integer({ description: 'int64' }),
    comRef: Type.String({ description: 'the callRef of the call' }),
    acknowledged: Type.Boolean(),
    participants: Type.Array(ComRecordParticipant),
    beginDate: Type.String({ format: 'date-time' }),
    convDate: Type.Optional(Type.String({ format: 'date-time' })),
    endDate: Type.String({ format: 'date-time' }),
    holdDuration: Type.Optional(Type.Integer({ description: 'seconds on hold' })),
    transferredBy: Type.Optional(Type.String()),
    associatedData: Type.Optional(Type.String()),
  },
  { title: 'ComRecord' },
)
export type ComRecord = Static<typeof ComRecord>

/**
 * The answer of GET /comlog/records. The Node and browser SDKs read `comHistoryRecords` and `totalCount`,
 * the Java SDK `records` and `count` (wire facts 10.21): both are sent, with the same values.
 */
export const ComRecords = Type.Object(
  {
    offset: Type.Integer(),
    limit: Type.Integer(),
    totalCount: Type.Integer(),
    comHistoryRecords: Type.Array(ComRecord),
    count: Type.Integer(),
    records: Type.Array(ComRecord),
  },
  { title: 'ComRecords' },
)
export type ComRecords = Static<typeof ComRecords>

/** The body of PUT /comlog/records: numbers from the Java and C# SDKs, strings from the Node SDK. */
export const ComRecordIds = Type.Object(
  {
    recordIds: Type.Array(Type.Union([Type.Integer(), Type.String({ pattern: '^[0-9]+$' })])),
  },
  { title: 'ComRecordIds' },
)
export type ComRecordIds = Static<typeof ComRecordIds>

/** The counters of GET /eventSummary and OnEventSummaryUpdated (wire facts 8.1). */
export const EventSummary = Type.Object(
  {
    missedCallsNb: Type.Integer(),
    voiceMessagesNb: Type.Integer(),
    callBackRequestsNb: Type.Integer(),
    faxNb: Type.Integer(),
    newTextNb: Type.Integer(),
    oldTextNb: Type.Integer(),
    eventWaiting: Type.Boolean(),
  },
  { title: 'EventSummary' },
)
export type EventSummary = Static<typeof EventSummary>
