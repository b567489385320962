/**
 * Features on an established call and on devices: recording (start, stop, pause, resume), DTMF, associated
 * data, moving the user's leg to another of its devices, mute and unmute of a device; and the user's
 * telephonic state (GET /telephony/state, wire facts 5.4). docs/call-model.md, "Call features".
 */
import type { Call, DeviceCapabilities, DeviceState, UserState } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import { lookupOf } from '../call-index.js'
import { callView } from '../call-view.js'
import type { Operation } from '../engine-operation.js'
import type { TelephonyDirectory } from '../telephony-directory.js'
import type { CallRecord, EngineCommand, TelephonyState } from '../telephony-state.js'
import { userState } from '../transaction.js'
import {
  changeDevice,
  deviceState,
  devicesOf,
  requireDeviceOf,
  requireFeature,
  requireOwnDevice,
} from './feature-support.js'
import {
  activeElsewhere,
  requireCall,
  requireConnection,
  requireNotActiveElsewhere,
} from './guards.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The digits a DTMF string may hold. */
const DTMF = /^[0-9*#ABCD]+$/

const recording: Operation<Command<'recording'>> = (transaction, command, context) => {
  const call = requireCall(transaction, command.callRef)
  requireConnection(
    call,
    command.loginName,
    command.action === 'start' ? ['ACTIVE'] : ['ACTIVE', 'HELD'],
  )
  const expected: Record<typeof command.action, CallRecord['recordState'] | 'ANY'> = {
    start: undefined,
    stop: 'ANY',
    pause: 'RECORDING',
    resume: 'PAUSED',
  }
  const wanted = expected[command.action]
  const ok = wanted === 'ANY' ? call.recordState !== undefined : call.recordState === wanted
  if (!ok)
    throw new PlatformError(
      'NOT_EXPECTED',
      `Cannot ${command.action} recording: the call is ${call.recordState ?? 'not recorded'}`,
    )
  requireFeature(context, command.loginName, 'recording')
  if (command.action === 'stop') delete call.recordState
  else call.recordState = command.action === 'pause' ? 'PAUSED' : 'RECORDING'
  return undefined
}

const sendDtmf: Operation<Command<'sendDtmf'>> = (transaction, command) => {
  if (!DTMF.test(command.digits))
    throw new PlatformError('BAD_PARAMETER', 'number: DTMF digits are 0-9, *, #, A, B, C, D')
  const call = requireCall(transaction, command.callRef)
  requireConnection(call, command.loginName, ['ACTIVE'], command.deviceId)
  return undefined
}

/** True when the user placed the call by a make call: its connection is the call's first, and not the called one. */
function madeBy(call: CallRecord, loginName: string): boolean {
  return (
    call.connections[0]?.endpoint.loginName === loginName &&
    call.initialCalled.loginName !== loginName
  )
}

const attachData: Operation<Command<'attachData'>> = (transaction, command) => {
  const call = requireCall(transaction, command.callRef)
  requireConnection(
    call,
    command.loginName,
    ['DIALING', 'RINGING_OUTGOING', 'ACTIVE', 'HELD'],
    command.deviceId,
  )
  if (!madeBy(call, command.loginName))
    throw new PlatformError('NOT_EXPECTED', 'Data can only be attached to a call the user made')
  delete call.associatedData
  delete call.hexaBinaryAssociatedData
  if ('associatedData' in command) call.associatedData = command.associatedData
  else call.hexaBinaryAssociatedData = command.hexaBinaryAssociatedData
  return undefined
}

const moveLeg: Operation<Command<'moveLeg'>> = (transaction, command, context) => {
  const call = requireCall(transaction, command.callRef)
  const leg = requireConnection(call, command.loginName, ['ACTIVE', 'HELD'], command.legId)
  const target = requireOwnDevice(transaction, context, command.loginName, command.deviceId)
  if (call.connections.some((connection) => connection.endpoint.deviceId === command.deviceId))
    throw new PlatformError('BAD_PARAMETER', `deviceId: device ${command.deviceId} is in the call`)
  if (leg.state === 'ACTIVE') requireNotActiveElsewhere(transaction, command.deviceId, call.callRef)
  leg.endpoint = target
  return undefined
}

const mute: Operation<Command<'mute'>> = (transaction, command, context) => {
  const device = transaction.state.devices[command.deviceId]
  if (device === undefined) throw new PlatformError('NOT_FOUND', `No device '${command.deviceId}'`)
  requireDeviceOf(context, command.loginName, command.deviceId)
  const inActiveCall = activeElsewhere(transaction.lookup(), command.deviceId)
  const possible =
    device.mutable && device.state === 'IN_SERVICE' && (!command.mute || inActiveCall)
  transaction.events.push({
    eventName: possible ? 'OnDeviceMuteSuccess' : 'OnDeviceMuteFailed',
    loginName: command.loginName,
    deviceId: command.deviceId,
  })
  // Then, when it changed, the device's new state (OnDeviceStateModified).
  if (possible && device.muted !== command.mute)
    changeDevice(transaction, command.deviceId, { muted: command.mute })
  return undefined
}

export const mediaOperations = { recording, sendDtmf, attachData, moveLeg, mute }

/** GET /telephony/state (wire facts 5.4): note the nested `deviceStates.deviceStates`. */
export interface TelephonicState {
  calls: Call[]
  deviceCapabilities: DeviceCapabilities[]
  userState: UserState
  deviceStates: { deviceStates: DeviceState[] }
}

/** The user's telephonic state: its calls as it sees them, its devices with their states and capabilities. */
export function telephonicState(
  state: TelephonyState,
  loginName: string,
  directory: TelephonyDirectory,
): TelephonicState {
  const calls: Call[] = []
  const lookup = lookupOf(state)
  for (const call of lookup.ofUser(loginName)) {
    const view = callView(call, loginName, directory, lookup)
    if (view !== undefined) calls.push(view)
  }
  const devices = devicesOf(state.devices, loginName)
  return {
    calls,
    deviceCapabilities: devices.map((device) => {
      const usable = device.state === 'IN_SERVICE'
      return {
        deviceId: device.deviceId,
        makeCall: usable,
        makeBusinessCall: usable,
        unParkCall: usable,
      }
    }),
    userState: userState(state, loginName),
    deviceStates: { deviceStates: devices.map(deviceState) },
  }
}
