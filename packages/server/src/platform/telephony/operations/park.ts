/**
 * Park and unpark (CSTA park/retrieve, specification "ParkRequestDTO" / "UnParkRequest"): a parked call
 * waits in a park slot, a SERVICE party named by the device it is parked on, while the other party stays
 * connected (listening to music); unparking from the parking or the target device connects that device;
 * the park timeout recalls the call to the device it was parked from. docs/call-model.md, "Call features".
 */
import { PlatformError } from '../../platform-error.js'
import type { Operation } from '../engine-operation.js'
import { newConnection } from '../media-state-machine.js'
import type { EngineCommand } from '../telephony-state.js'
import { requireFeature, requireOwnDevice } from './feature-support.js'
import {
  requireCall,
  requireConnection,
  requireNotActiveElsewhere,
  requireNotAmong,
} from './guards.js'
import { ring } from './ringing.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** How long a parked call waits before it is recalled, unless the settings say otherwise. */
export const DEFAULT_PARK_TIMEOUT_MS = 60_000

const park: Operation<Command<'park'>> = (transaction, command, context) => {
  const call = requireCall(transaction, command.callRef)
  const parking = requireConnection(call, command.loginName, ['ACTIVE', 'HELD'])
  const fromDeviceId = parking.endpoint.deviceId ?? parking.endpoint.number
  const onDeviceId =
    command.parkTo === undefined || command.parkTo === '' ? fromDeviceId : command.parkTo
  if (
    transaction.state.devices[onDeviceId] === undefined &&
    context.directory.ownerOfDevice(onDeviceId) === undefined
  )
    throw new PlatformError('NOT_FOUND', `parkTo: no device '${onDeviceId}'`)
  const others = call.connections.filter(
    (connection) => connection.endpoint.loginName !== command.loginName,
  )
  if (others.length !== 1 || call.connections.length !== 2)
    throw new PlatformError('NOT_EXPECTED', 'Only a two-party call can be parked')
  if (others.some((connection) => connection.endpoint.service !== undefined))
    throw new PlatformError(
      'NOT_EXPECTED',
      'Only a call with a person on the other side can be parked',
    )
  // Not on a device of the party who would wait there: the slot is for somebody else to unpark it.
  const target = context.directory.ownerOfDevice(onDeviceId)
  requireNotAmong(
    others,
    { number: onDeviceId, ...(target && { loginName: target.loginName }) },
    'parkTo',
  )
  requireFeature(context, command.loginName, 'park')
  call.connections = [...others, newConnection({ number: onDeviceId, service: 'PARK' }, 'HELD')]
  call.parked = { loginName: command.loginName, fromDeviceId, onDeviceId }
  transaction.schedule(context.settings.parkTimeoutMs ?? DEFAULT_PARK_TIMEOUT_MS, {
    type: 'parkTimeout',
    callRef: call.callRef,
  })
  transaction.commit('PARKED')
  return undefined
}

const unpark: Operation<Command<'unpark'>> = (transaction, command, context) => {
  const device = requireOwnDevice(transaction, context, command.loginName, command.deviceId)
  const call = requireCall(transaction, command.heldCallRef)
  const slot = call.parked
  if (slot === undefined)
    throw new PlatformError('NOT_EXPECTED', `Call ${command.heldCallRef} is not parked`)
  if (command.deviceId !== slot.onDeviceId && command.deviceId !== slot.fromDeviceId)
    throw new PlatformError(
      'NOT_ALLOWED',
      `Call ${command.heldCallRef} is not parked on device ${command.deviceId}`,
    )
  requireNotActiveElsewhere(transaction, command.deviceId, call.callRef)
  call.connections = [
    ...call.connections.filter((connection) => connection.endpoint.service !== 'PARK'),
    newConnection(device, 'ACTIVE'),
  ]
  delete call.parked
  transaction.cancelTimers(
    (timer) => timer.type === 'parkTimeout' && timer.callRef === call.callRef,
  )
  return undefined
}

/** The park timeout: the call rings back on the device it was parked from (cause RECALL). */
const parkTimeout: Operation<Command<'parkTimeout'>> = (transaction, command, context) => {
  const call = transaction.call(command.callRef)
  const slot = call?.parked
  if (call === undefined || slot === undefined) return undefined
  call.connections = call.connections.filter((connection) => connection.endpoint.service !== 'PARK')
  delete call.parked
  const parkedFrom = {
    number: slot.fromDeviceId,
    deviceId: slot.fromDeviceId,
    loginName: slot.loginName,
  }
  // The parking device may be in the call again (the parked party called it meanwhile): no second leg.
  if (!call.connections.some((connection) => connection.endpoint.number === parkedFrom.number))
    ring(transaction, call, parkedFrom, context)
  transaction.commit('RECALL')
  return undefined
}

export const parkOperations = { park, unpark, parkTimeout }
