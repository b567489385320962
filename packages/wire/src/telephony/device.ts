/** Device and user states (wire facts 5.3, 5.4). */
import { type Static, Type } from 'typebox'
import { enumeration } from '../enumeration.js'

export const OPERATIONAL_STATES = ['IN_SERVICE', 'OUT_OF_SERVICE', 'UNKNOWN'] as const
export const OperationalState = enumeration(OPERATIONAL_STATES, { title: 'OperationalState' })
export type OperationalState = (typeof OPERATIONAL_STATES)[number]

export const USER_STATES = ['FREE', 'BUSY', 'UNKNOWN'] as const
export const UserState = enumeration(USER_STATES, { title: 'UserState' })
export type UserState = (typeof USER_STATES)[number]

export const DeviceState = Type.Object(
  {
    deviceId: Type.String(),
    state: OperationalState,
    mutable: Type.Optional(Type.Boolean()),
    muted: Type.Optional(Type.Boolean()),
  },
  { title: 'DeviceState' },
)
export type DeviceState = Static<typeof DeviceState>

export const DeviceCapabilities = Type.Object(
  {
    deviceId: Type.String(),
    makeCall: Type.Optional(Type.Boolean()),
    makeBusinessCall: Type.Optional(Type.Boolean()),
    makePrivateCall: Type.Optional(Type.Boolean()),
    unParkCall: Type.Optional(Type.Boolean()),
  },
  { title: 'DeviceCapabilities' },
)
export type DeviceCapabilities = Static<typeof DeviceCapabilities>
