/**
 * The state of the call engine: calls with their connections, devices, pending timers. Plain JSON data,
 * so that it can be stored, compared and replayed; only the engine changes it (design section 2).
 */
import type { CallCause, MediaState, OperationalState } from '@openness/wire'

/** A party of a call: a device of a directory user, or an outside number. */
export interface Endpoint {
  /** The dialable number: the device number of a user's device, the outside number otherwise. */
  number: string
  /** Set for a device of a directory user. */
  deviceId?: string
  loginName?: string
}

/** One party's connection to a call, in the state that party sees its own side in. */
export interface Connection {
  endpoint: Endpoint
  state: MediaState
}

/** A call. */
export interface CallRecord {
  callRef: string
  callUUID: string
  connections: Connection[]
  /** Whom the call was first placed to. */
  initialCalled: Endpoint
  lastRedirecting?: Endpoint
  recordState?: 'RECORDING' | 'PAUSED'
  associatedData?: string
  /** A make call without autoAnswer: whom to call once the calling device answers. */
  pendingCallee?: Endpoint
  createdAt: number
}

/** A device of a directory user, as the engine knows it. */
export interface DeviceRecord {
  deviceId: string
  loginName: string
  state: OperationalState
  mutable: boolean
  muted: boolean
}

/** A command the engine will run at a time, such as a ringing timeout. */
export interface PendingTimer {
  timerId: string
  at: number
  command: EngineCommand
}

/** Everything the engine holds. */
export interface TelephonyState {
  /** Source of deterministic identifiers. */
  sequence: number
  calls: Record<string, CallRecord>
  devices: Record<string, DeviceRecord>
  timers: PendingTimer[]
}

/** Commands the engine runs (one per operation of the telephony API, plus timers and simulation). */
export type EngineCommand =
  | { type: 'makeCall'; loginName: string; deviceId: string; callee: string; autoAnswer: boolean }
  | { type: 'answer'; loginName: string; callRef: string; deviceId?: string }
  | { type: 'release'; loginName: string; callRef: string }
  | { type: 'dropMe'; loginName: string; callRef: string }
  | { type: 'hold'; loginName: string; callRef: string; deviceId?: string }
  | { type: 'retrieve'; loginName: string; callRef: string; deviceId?: string }
  | { type: 'ringingTimeout'; callRef: string; number: string }

/** The empty state for a directory's devices. */
export function initialState(devices: readonly DeviceRecord[]): TelephonyState {
  return {
    sequence: 0,
    calls: {},
    devices: Object.fromEntries(devices.map((device) => [device.deviceId, device])),
    timers: [],
  }
}

/** A cause attached to a step of a command. */
export type StepCause = CallCause | undefined
