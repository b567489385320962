/**
 * The devices of the engine follow the directory while it runs (docs/call-model.md, "Devices follow the
 * directory"): `userDevices` says which devices the directory now gives a user (none: the user is deleted or
 * has no device). A device new to the engine is added in service; a device the user no longer has leaves every
 * call it is in, as a phone unplugged from a real PBX does (its party is released, the call goes on for the
 * others when two or more parties are left, one a user), and is forgotten; a device another user had is
 * released from that user's calls first, then is the user's. The command is idempotent: given the devices the
 * engine has already, it changes nothing and tells nobody.
 */
import type { Operation } from '../call-engine.js'
import type { DeviceRecord, EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { hangUpDevice } from './simulation.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The record of a device new to the engine: in service, mutable, not muted (as at the engine's first start). */
export function newDevice(deviceId: string, loginName: string): DeviceRecord {
  return { deviceId, loginName, state: 'IN_SERVICE', mutable: true, muted: false }
}

/** Releases the device from every call it is in, then forgets it. */
function removeDevice(transaction: Transaction, deviceId: string): void {
  hangUpDevice(transaction, deviceId, false)
  const { [deviceId]: _, ...rest } = transaction.state.devices
  transaction.state.devices = rest
}

const userDevices: Operation<Command<'userDevices'>> = (transaction, command) => {
  const { loginName } = command
  const wanted = new Set(command.deviceIds)
  for (const device of Object.values(transaction.state.devices))
    if (device.loginName === loginName && !wanted.has(device.deviceId))
      removeDevice(transaction, device.deviceId)
  for (const deviceId of wanted) {
    const device = transaction.state.devices[deviceId]
    if (device?.loginName === loginName) continue
    if (device !== undefined) removeDevice(transaction, deviceId)
    transaction.state.devices = {
      ...transaction.state.devices,
      [deviceId]: newDevice(deviceId, loginName),
    }
  }
  return undefined
}

export const directoryDeviceOperations = { userDevices }
