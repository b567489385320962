/**
 * The devices of the engine follow the directory while it runs (docs/call-model.md, "Devices follow the
 * directory"): `userDevices` says which devices the directory now gives a user (none: the user is deleted or
 * has no device). A device new to the engine is added in service; a device the user no longer has leaves every
 * call it is in, as a phone unplugged from a real PBX does (its party is released, the call goes on for the
 * others when two or more parties are left, one a user), and is forgotten; a device another user had is
 * released from that user's calls first, then is the user's. The command is idempotent: given the devices the
 * engine has already, it changes nothing and tells nobody.
 */
import type { Operation } from '../engine-operation.js'
import type { DeviceRecord, EngineCommand } from '../telephony-state.js'
import { seatOf } from './desk-seats.js'
import { forgetMember } from './hunting-membership.js'
import { hangUpDevice } from './simulation.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/**
 * The record of a device new to the engine: in service, mutable, not muted (as at the engine's first start);
 * out of service with `outOfService` (a desk-sharing user's number while the user is logged on at no set).
 */
export function newDevice(deviceId: string, loginName: string, outOfService = false): DeviceRecord {
  return {
    deviceId,
    loginName,
    state: outOfService ? 'OUT_OF_SERVICE' : 'IN_SERVICE',
    mutable: true,
    muted: false,
  }
}

/**
 * One scan of the engine's devices and, when something changes, one copy of them: a command costs two passes
 * over 10,000 devices, as a `setDevice` costs one copy.
 */
const userDevices: Operation<Command<'userDevices'>> = (transaction, command, context) => {
  const { loginName } = command
  const wanted = new Set(command.deviceIds)
  const devices = transaction.state.devices
  const removed: string[] = []
  for (const deviceId in devices)
    if (devices[deviceId]?.loginName === loginName && !wanted.has(deviceId)) removed.push(deviceId)
  const added: string[] = []
  for (const deviceId of wanted) {
    const device = Object.hasOwn(devices, deviceId) ? devices[deviceId] : undefined
    if (device?.loginName === loginName) continue
    // Another user's device (moved to this user): released from that user's calls first.
    if (device !== undefined) removed.push(deviceId)
    added.push(deviceId)
  }
  // A user the directory no longer has leaves its hunting group.
  if (context.directory.ownerOfDevice(command.deviceIds[0] ?? '') === undefined)
    forgetMember(transaction, loginName, context)
  // A desk-sharing user the directory no longer has, or no longer as such, frees its set.
  const seat = seatOf(transaction.state, loginName)
  if (seat !== undefined && context.directory.isDeskSharingUser?.(loginName) !== true) {
    const seats = { ...transaction.state.deskSharing }
    delete seats[seat]
    if (Object.keys(seats).length === 0) delete transaction.state.deskSharing
    else transaction.state.deskSharing = seats
  }
  if (removed.length === 0 && added.length === 0) return undefined
  for (const deviceId of removed) hangUpDevice(transaction, deviceId, false, context)
  const next = { ...transaction.state.devices }
  for (const deviceId of removed) delete next[deviceId]
  const loggedOff =
    context.directory.isDeskSharingUser?.(loginName) === true &&
    seatOf(transaction.state, loginName) === undefined
  for (const deviceId of added) next[deviceId] = newDevice(deviceId, loginName, loggedOff)
  transaction.state.devices = next
  return undefined
}

export const directoryDeviceOperations = { userDevices }
