/**
 * Request bodies of the call-control endpoints. The specification names few of them; the rest are what the
 * client SDKs send (wire facts 5.5 and 10.17). Every field an SDK sends is declared, so that a real client
 * is never refused for a field of its own; any other field is refused (400 BAD_PARAMETER), like everywhere.
 */
import { type Static, Type } from 'typebox'
import { AcrSkill } from '../acd/call-data.js'

const closed = { additionalProperties: false } as const
const text = (description?: string) =>
  Type.String({ minLength: 1, ...(description !== undefined && { description }) })

const digits = (description: string) => Type.String({ pattern: '^[0-9]+$', description })

/** Associated data (at most 256 bytes; one of the two fields): docs/telephony-api.md, "Associated data". */
const associatedData = (description: string) =>
  Type.String({ description: `associated data as ${description}; at most 256 bytes in UTF-8` })
const hexaBinaryAssociatedData = (restriction: string) =>
  Type.String({
    description: `associated data in hexadecimal (pairs of hex digits); anything else is taken as text, as the Java SDK sends it${restriction}; at most 256 bytes`,
  })

/** POST /telephony/basicCall. */
export const BasicMakeCallRequest = Type.Object(
  {
    deviceId: text('a device of the user: the calling device'),
    callee: text(
      'an extension, a login name, the voice-mail number, an outside number after the outside-line prefix, or a number in +E.164',
    ),
    autoAnswer: Type.Optional(
      Type.Boolean({ description: 'true (default): the calling device does not ring first' }),
    ),
  },
  { title: 'BasicMakeCallRequest', ...closed },
)
export type BasicMakeCallRequest = Static<typeof BasicMakeCallRequest>

/** The ACD part of a make call: to a pilot with a call profile, or to the agent's supervisor. */
export const AcdCallRequest = Type.Object(
  {
    supervisedTransfer: Type.Optional(
      Type.Boolean({
        description: 'to a pilot: a supervised transfer (the C# SDK always sends it)',
      }),
    ),
    skills: Type.Optional(
      Type.Object(
        { skills: Type.Array(AcrSkill) },
        { description: 'to a pilot: the skills the call needs', ...closed },
      ),
    ),
    callToSupervisor: Type.Optional(
      Type.Boolean({
        description: "true: call a supervisor of the agent's processing group (no callee)",
      }),
    ),
  },
  { title: 'AcdCallRequest', ...closed },
)
export type AcdCallRequest = Static<typeof AcdCallRequest>

/** POST /telephony/calls: the basic fields, plus what the specification and the SDKs add. */
export const MakeCallRequest = Type.Object(
  {
    deviceId: Type.Optional(text("the calling device; the user's main device when absent")),
    callee: text(
      "an extension, a login name, the voice-mail number, an outside number after the outside-line prefix, or a number in +E.164. The SDKs send none for a call to the supervisor (acdCall.callToSupervisor): the server takes the supervisor's number then",
    ),
    autoAnswer: Type.Optional(Type.Boolean()),
    inhibitProgressTone: Type.Optional(Type.Boolean()),
    associatedData: Type.Optional(associatedData('text; standard users only')),
    hexaBinaryAssociatedData: Type.Optional(hexaBinaryAssociatedData('; standard users only')),
    callingNumber: Type.Optional(Type.String()),
    pin: Type.Optional(digits('private call; standard users only')),
    secretCode: Type.Optional(digits('private call; standard users only')),
    businessCode: Type.Optional(digits('business call; standard users only')),
    bypass: Type.Optional(Type.Boolean()),
    acdCall: Type.Optional(AcdCallRequest),
  },
  { title: 'MakeCallRequest', ...closed },
)
export type MakeCallRequest = Static<typeof MakeCallRequest>

/** answer, hold, retrieve, alternate, POST /basicCall/answer: the device acted on (optional). */
export const DeviceRequest = Type.Object(
  { deviceId: Type.Optional(text('the device of the leg; any of the user when absent')) },
  { title: 'DeviceRequest', ...closed },
)
export type DeviceRequest = Static<typeof DeviceRequest>

/** transfer and merge: callRef is the active call, `heldCallRef` the held one. */
export const HeldCallRequest = Type.Object(
  { heldCallRef: text() },
  { title: 'HeldCallRequest', ...closed },
)
export type HeldCallRequest = Static<typeof HeldCallRequest>

/**
 * reconnect (O2G; every SDK sends both fields): callRef is the held call, taken back; the enquiry call is left.
 */
export const ReconnectRequest = Type.Object(
  {
    deviceId: text('the device that holds the one call and calls on the other'),
    enquiryCallRef: text('the enquiry (consultation) call to leave'),
  },
  { title: 'ReconnectRequest', ...closed },
)
export type ReconnectRequest = Static<typeof ReconnectRequest>

/** POST /telephony/deskSharing (docs/telephony-api.md, "Desk sharing"): the set the user logs on at. */
export const DeskSharingLogOnRequest = Type.Object(
  { dssDeviceNumber: digits('the number of the desk-sharing set to log on at') },
  { title: 'DeskSharingLogOnRequest', ...closed },
)
export type DeskSharingLogOnRequest = Static<typeof DeskSharingLogOnRequest>

export const BlindTransferRequest = Type.Object(
  {
    transferTo: text(
      'a login name, an extension, the voice-mail number, an outside number or a number in +E.164',
    ),
    anonymous: Type.Optional(Type.Boolean()),
  },
  { title: 'BlindTransferRequest', ...closed },
)
export type BlindTransferRequest = Static<typeof BlindTransferRequest>

export const RedirectRequest = Type.Object(
  {
    redirectTo: text(
      'VOICEMAIL, DVA, the voice-mail number, a login name, an extension, an outside number or a number in +E.164',
    ),
    anonymous: Type.Optional(Type.Boolean()),
  },
  { title: 'RedirectRequest', ...closed },
)
export type RedirectRequest = Static<typeof RedirectRequest>

export const SendDtmfRequest = Type.Object(
  {
    deviceId: Type.Optional(text()),
    number: Type.String({ pattern: '^[0-9*#A-Da-d]+$', description: 'the DTMF digits' }),
  },
  { title: 'SendDtmfRequest', ...closed },
)
export type SendDtmfRequest = Static<typeof SendDtmfRequest>

export const AttachDataRequest = Type.Object(
  {
    deviceId: Type.Optional(text()),
    associatedData: Type.Optional(associatedData('text')),
    hexaBinaryAssociatedData: Type.Optional(hexaBinaryAssociatedData('')),
  },
  { title: 'AttachDataRequest', ...closed },
)
export type AttachDataRequest = Static<typeof AttachDataRequest>

/** ParkRequestDTO: the target device; the call is parked on the current device when absent. */
export const ParkRequest = Type.Object(
  { parkTo: Type.Optional(text()) },
  { title: 'ParkRequest', ...closed },
)
export type ParkRequest = Static<typeof ParkRequest>

/** UnParkRequest. */
export const UnParkRequest = Type.Object(
  { heldCallRef: text('the parked call') },
  { title: 'UnParkRequest', ...closed },
)
export type UnParkRequest = Static<typeof UnParkRequest>

export const PickupRequest = Type.Object(
  {
    otherCallRef: text('the call ringing on the other device'),
    otherPhoneNumber: text('the device it rings on'),
    autoAnswer: Type.Optional(Type.Boolean()),
  },
  { title: 'PickupRequest', ...closed },
)
export type PickupRequest = Static<typeof PickupRequest>

/** POST /calls/{callRef}/participants (multimedia users): whom to add (not shown; like a make call). */
export const AddParticipantRequest = Type.Object(
  { participantId: text('the number or login name of the party to add') },
  { title: 'AddParticipantRequest', ...closed },
)
export type AddParticipantRequest = Static<typeof AddParticipantRequest>

/** POST /calls/{callRef}/deviceLegs/{legId}: the device of the user the leg moves to (not shown). */
export const MoveLegRequest = Type.Object(
  { deviceId: text('another device of the user') },
  { title: 'MoveLegRequest', ...closed },
)
export type MoveLegRequest = Static<typeof MoveLegRequest>

/** POST /telephony/outgoingCallbacks. */
export const OutgoingCallbackRequest = Type.Object(
  { callee: text() },
  { title: 'OutgoingCallbackRequest', ...closed },
)
export type OutgoingCallbackRequest = Static<typeof OutgoingCallbackRequest>
