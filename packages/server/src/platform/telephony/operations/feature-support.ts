import type { DeviceState } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import type { EngineContext } from '../engine-operation.js'
import type { CallFeatures } from '../telephony-directory.js'
import type { CallRecord, DeviceRecord, Endpoint } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { hasUser, isOutsideCallerAtVoicemail, requireReachable } from './guards.js'

/** NOT_ALLOWED unless the directory offers the feature to the user. */
export function requireFeature(
  context: EngineContext,
  loginName: string,
  feature: Exclude<keyof CallFeatures, 'voicemail'>,
): void {
  if (context.directory.featuresOf?.(loginName)?.[feature] !== true)
    throw new PlatformError('NOT_ALLOWED', `'${loginName}' has no ${feature} feature`)
}

/** The voice mail of the user, as a service endpoint; NOT_ALLOWED when the user has none. */
export function requireVoicemail(context: EngineContext, loginName: string): Endpoint {
  const number = context.directory.featuresOf?.(loginName)?.voicemail
  if (number === undefined)
    throw new PlatformError('NOT_ALLOWED', `'${loginName}' has no voice mail`)
  return { number, service: 'VOICEMAIL' }
}

/**
 * What a number dialed by `loginName` reaches (make call, redirect, blind transfer), the voice mail included
 * (issue 11, item 4): the user's own voice-mail number, or any number the directory resolves to the voice-mail
 * service (the numbering plan's, or a +E.164 form the plan dials as it), reaches the user's own voice mail,
 * as `VOICEMAIL` does on redirect (NOT_ALLOWED when the user has none). Anything else as `requireReachable`.
 */
export function requireDestination(
  context: EngineContext,
  loginName: string,
  dialed: string,
  field: string,
): Endpoint {
  const own = context.directory.featuresOf?.(loginName)?.voicemail
  if (own !== undefined && dialed === own) return { number: own, service: 'VOICEMAIL' }
  const endpoint = requireReachable(context.directory, dialed, field)
  return endpoint.service === 'VOICEMAIL' ? requireVoicemail(context, loginName) : endpoint
}

/** NOT_FOUND when the directory does not know the device, NOT_ALLOWED when it is another user's. */
export function requireDeviceOf(context: EngineContext, loginName: string, deviceId: string): void {
  const owner = context.directory.ownerOfDevice(deviceId)
  if (owner === undefined) throw new PlatformError('NOT_FOUND', `No device '${deviceId}'`)
  if (owner.loginName !== loginName)
    throw new PlatformError('NOT_ALLOWED', `Device ${deviceId} is not a device of '${loginName}'`)
}

/** The user's device, in service: NOT_FOUND unknown, NOT_ALLOWED another user's, NOT_EXPECTED out of service. */
export function requireOwnDevice(
  transaction: Transaction,
  context: EngineContext,
  loginName: string,
  deviceId: string,
): Endpoint {
  requireDeviceOf(context, loginName, deviceId)
  const device = transaction.state.devices[deviceId]
  if (device !== undefined && device.state !== 'IN_SERVICE')
    throw new PlatformError('NOT_EXPECTED', `Device ${deviceId} is out of service`)
  return { number: deviceId, deviceId, loginName }
}

/**
 * After a diversion (routing, redirect, blind transfer): a call no directory user is in any more is of no
 * one's concern on the platform (outside parties only, e.g. an outside caller forwarded to an outside
 * number): it is removed at once. Returns true when it was. An outside caller with the voice mail it was
 * sent to stays (`isOutsideCallerAtVoicemail`): it leaves a message, and the call ends when the caller hangs
 * up or the voice mail does (docs/call-model.md, "Service parties"); so does a call a hunting group
 * distributes, and one waiting at a pilot: the caller waits for a member or an agent (operations/hunting.ts,
 * acd-distribution.ts).
 */
export function forgetIfNoUser(transaction: Transaction, call: CallRecord): boolean {
  if (
    hasUser(call.connections) ||
    isOutsideCallerAtVoicemail(call.connections) ||
    call.hunt !== undefined ||
    (call.acd?.answeredAt === undefined && call.acd !== undefined)
  )
    return false
  transaction.cancelTimers((command) => 'callRef' in command && command.callRef === call.callRef)
  transaction.removeCall(call.callRef)
  transaction.commit()
  return true
}

/** Adds `newDestination` to the OnCallRemoved events of the call emitted since `from` (wire facts 6). */
export function addNewDestination(
  transaction: Transaction,
  from: number,
  callRef: string,
  newDestination: string,
): void {
  for (const event of transaction.events.slice(from))
    if (event.eventName === 'OnCallRemoved' && event['callRef'] === callRef) {
      const { deviceCapabilities, ...rest } = event
      // Keeps the wire order: newDestination before deviceCapabilities.
      for (const key of Object.keys(event)) delete event[key]
      Object.assign(event, rest, { newDestination, deviceCapabilities })
    }
}

/**
 * The device record, copied for change into the transaction's state. When what a user sees of the device
 * changes (its operational state, muted), the owner is told with OnDeviceStateModified carrying the states
 * of all its devices (wire facts 6: `deviceStates` is a list).
 */
export function changeDevice(
  transaction: Transaction,
  deviceId: string,
  change: Partial<DeviceRecord>,
): DeviceRecord | undefined {
  const device = transaction.state.devices[deviceId]
  if (device === undefined) return undefined
  const changed = { ...device, ...change }
  transaction.state.devices = { ...transaction.state.devices, [deviceId]: changed }
  if (changed.state !== device.state || changed.muted !== device.muted)
    transaction.events.push({
      eventName: 'OnDeviceStateModified',
      loginName: changed.loginName,
      deviceStates: devicesOf(transaction.state.devices, changed.loginName).map(deviceState),
    })
  return changed
}

/** The devices of a user, in the state's order. */
export function devicesOf(
  devices: Readonly<Record<string, DeviceRecord>>,
  loginName: string,
): DeviceRecord[] {
  return Object.values(devices).filter((device) => device.loginName === loginName)
}

/** The DeviceState of a device (GET /telephony/devices, OnDeviceStateModified). */
export function deviceState(device: DeviceRecord): DeviceState {
  return {
    deviceId: device.deviceId,
    state: device.state,
    mutable: device.mutable,
    muted: device.muted,
  }
}
