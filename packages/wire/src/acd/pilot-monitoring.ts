/**
 * Pilot monitoring (`acdpilotmonitoring`; client census 2, 5c): POST and DELETE <acdpilotmonitoring>/{pilotNumber}
 * start and stop it (no body, no answer read), and the events of package `pilot` follow the calls of the
 * monitored pilots. The Node and Java SDKs parse them alike; the C# and browser SDKs do not know them.
 */
import { type Static, Type } from 'typebox'
import { CallCause } from '../telephony/call.js'
import { TrunkIdentification } from './call-data.js'

/** `callData` of OnPilotCallCreated. */
export const CallDataPilot = Type.Object(
  {
    initialCalled: Type.Optional(
      Type.String({ description: 'the number first called (a string, not a PartyInfo)' }),
    ),
    anonymous: Type.Optional(Type.Boolean()),
    associatedData: Type.Optional(Type.String({ description: 'associated data, as text' })),
    hexaBinaryAssociatedData: Type.Optional(
      Type.String({
        description: 'associated data in hexadecimal; read when associatedData is absent',
      }),
    ),
    trunkIdentification: Type.Optional(TrunkIdentification),
    networkRerouted: Type.Optional(Type.Boolean()),
  },
  { title: 'CallDataPilot' },
)
export type CallDataPilot = Static<typeof CallDataPilot>

/** Event OnPilotCallCreated (package `pilot`): a call arrived on a monitored pilot. */
export const OnPilotCallCreated = Type.Object(
  {
    eventName: Type.Literal('OnPilotCallCreated'),
    pilot: Type.String({ description: 'the pilot number' }),
    caller: Type.String({ description: "the caller's number" }),
    callRef: Type.String(),
    cause: CallCause,
    callData: Type.Optional(CallDataPilot),
  },
  { title: 'OnPilotCallCreated' },
)
export type OnPilotCallCreated = Static<typeof OnPilotCallCreated>

/** Event OnPilotCallQueued (package `pilot`): a call of a monitored pilot put in a queue. */
export const OnPilotCallQueued = Type.Object(
  {
    eventName: Type.Literal('OnPilotCallQueued'),
    pilot: Type.String(),
    caller: Type.String(),
    queue: Type.String({ description: 'the queue number' }),
    callRef: Type.String(),
    cause: CallCause,
    numberOfQueued: Type.Integer({ description: 'the number of calls in the queue' }),
  },
  { title: 'OnPilotCallQueued' },
)
export type OnPilotCallQueued = Static<typeof OnPilotCallQueued>

/** Event OnPilotCallRemoved (package `pilot`): a call left a monitored pilot (distributed, abandoned...). */
export const OnPilotCallRemoved = Type.Object(
  {
    eventName: Type.Literal('OnPilotCallRemoved'),
    pilot: Type.String(),
    releasingDevice: Type.String({ description: 'the device that released the call' }),
    newDestination: Type.Optional(
      Type.String({
        description:
          'where the call went (the agent, for DISTRIBUTED); absent when it went nowhere',
      }),
    ),
    callRef: Type.String(),
    cause: CallCause,
  },
  { title: 'OnPilotCallRemoved' },
)
export type OnPilotCallRemoved = Static<typeof OnPilotCallRemoved>
