/** The list wrappers of the call-control answers (wire facts 5.3 and 5.4: exact keys). */
import { type Static, Type } from 'typebox'
import { Call, Leg, Participant } from './call.js'
import { Callback } from './callback.js'
import { DeviceCapabilities, DeviceState, UserState } from './device.js'

export const Calls = Type.Object({ calls: Type.Array(Call) }, { title: 'Calls' })
export type Calls = Static<typeof Calls>

export const Legs = Type.Object({ legs: Type.Array(Leg) }, { title: 'Legs' })
export type Legs = Static<typeof Legs>

export const Participants = Type.Object(
  { participants: Type.Array(Participant) },
  { title: 'Participants' },
)
export type Participants = Static<typeof Participants>

export const DeviceStates = Type.Object(
  { deviceStates: Type.Array(DeviceState) },
  { title: 'DeviceStates' },
)
export type DeviceStates = Static<typeof DeviceStates>

export const Callbacks = Type.Object({ callbacks: Type.Array(Callback) }, { title: 'Callbacks' })
export type Callbacks = Static<typeof Callbacks>

/** GET /telephony/state: note the nested `deviceStates.deviceStates` (wire facts 5.4). */
export const TelephonicState = Type.Object(
  {
    calls: Type.Optional(Type.Array(Call)),
    deviceCapabilities: Type.Optional(Type.Array(DeviceCapabilities)),
    userState: Type.Optional(UserState),
    deviceStates: Type.Optional(DeviceStates),
  },
  { title: 'TelephonicState' },
)
export type TelephonicState = Static<typeof TelephonicState>
