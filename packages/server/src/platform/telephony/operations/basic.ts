/**
 * The basic operations of a two-party call (CSTA semantics where the specification is silent; see
 * docs/call-model.md): make call, answer, release, drop me, hold, retrieve, and the ringing timeout.
 */
import type { CallCause } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import type { Operation } from '../call-engine.js'
import type { CallRecord, Connection, Endpoint, EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { holdForConsultation } from './consultation.js'
import {
  activeElsewhere,
  connectCallers,
  releaseCall,
  requireCall,
  requireConnection,
} from './guards.js'
import { cancelPartyTimers, cancelRinging, ring } from './ringing.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/**
 * Takes `leaving` out of the call. With two or more parties left, one of them a user, the call goes on
 * (cause `cause`, else PARTICIPANT_LEFT); otherwise the last party sees the call releasing, then removed,
 * both with `cause` (none for a hang-up: wire facts 6, remote hang-up; NOT_ANSWERED, BUSY, ...).
 */
export function leave(
  transaction: Transaction,
  call: CallRecord,
  leaving: readonly Connection[],
  cause?: CallCause,
): void {
  call.connections = call.connections.filter((connection) => !leaving.includes(connection))
  for (const connection of leaving)
    cancelPartyTimers(transaction, call.callRef, connection.endpoint.number)
  const users = call.connections.filter((connection) => connection.endpoint.loginName !== undefined)
  if (call.connections.length >= 2 && users.length > 0) {
    transaction.commit(cause ?? 'PARTICIPANT_LEFT')
    return
  }
  releaseCall(transaction, call, cause)
}

const makeCall: Operation<Command<'makeCall'>> = (transaction, command, context) => {
  const owner = context.directory.ownerOfDevice(command.deviceId)
  if (owner === undefined) throw new PlatformError('NOT_FOUND', `No device '${command.deviceId}'`)
  if (owner.loginName !== command.loginName)
    throw new PlatformError(
      'NOT_ALLOWED',
      `Device ${command.deviceId} is not a device of '${command.loginName}'`,
    )
  const device = transaction.state.devices[command.deviceId]
  if (device !== undefined && device.state !== 'IN_SERVICE')
    throw new PlatformError('NOT_EXPECTED', `Device ${command.deviceId} is out of service`)
  const callee = context.directory.resolve(command.callee)
  if (callee === undefined)
    throw new PlatformError('NOT_FOUND', `callee: '${command.callee}' reaches nobody`)
  if (callee.deviceId === command.deviceId)
    throw new PlatformError('BAD_PARAMETER', 'callee: a device cannot call itself')
  // A consultation call when the device has an active call: that call is held first (consultation.ts).
  const consultation = holdForConsultation(transaction, command.loginName, command.deviceId)
  const callRef = transaction.nextId()
  const caller: Endpoint = {
    number: command.deviceId,
    deviceId: command.deviceId,
    loginName: command.loginName,
  }
  const call: CallRecord = {
    callRef,
    callUUID: `${callRef}-${transaction.now.toString(16)}`,
    connections: [],
    initialCalled: callee,
    ...(command.associatedData !== undefined && { associatedData: command.associatedData }),
    createdAt: transaction.now,
  }
  transaction.addCall(call)
  if (command.autoAnswer || consultation) {
    call.connections.push({ endpoint: caller, state: 'RINGING_OUTGOING' })
    ring(transaction, call, callee, context)
  } else {
    // CSTA make call without auto answer: the calling device rings first (no ringing timeout); answering
    // it calls the callee.
    ring(transaction, call, caller, context, { ringingTimeout: false })
    call.pendingCallee = callee
  }
  return callRef
}

const answer: Operation<Command<'answer'>> = (transaction, command, context) => {
  const call = requireCall(transaction, command.callRef)
  const connection = requireConnection(
    call,
    command.loginName,
    ['RINGING_INCOMING'],
    command.deviceId,
  )
  // Answering a call waiting puts the device's active call on hold first (CSTA; docs/call-model.md).
  holdForConsultation(
    transaction,
    command.loginName,
    connection.endpoint.deviceId ?? connection.endpoint.number,
  )
  if (call.pendingCallee !== undefined && call.connections.length === 1) {
    connection.state = 'RINGING_OUTGOING'
    const callee = call.pendingCallee
    delete call.pendingCallee
    cancelRinging(transaction, call.callRef, connection.endpoint.number)
    ring(transaction, call, callee, context)
    return undefined
  }
  connection.state = 'ACTIVE'
  cancelRinging(transaction, call.callRef, connection.endpoint.number)
  connectCallers(transaction.lookup(), call)
  return undefined
}

const release: Operation<Command<'release'>> = (transaction, command) => {
  const call = requireCall(transaction, command.callRef)
  const own = call.connections.filter(
    (connection) => connection.endpoint.loginName === command.loginName,
  )
  if (own.length === 0)
    throw new PlatformError('NOT_FOUND', `'${command.loginName}' is not in call ${command.callRef}`)
  call.connections = call.connections.filter((connection) => !own.includes(connection))
  releaseCall(transaction, call)
  return undefined
}

const dropMe: Operation<Command<'dropMe'>> = (transaction, command) => {
  const call = requireCall(transaction, command.callRef)
  const own = call.connections.filter(
    (connection) => connection.endpoint.loginName === command.loginName,
  )
  if (own.length === 0)
    throw new PlatformError('NOT_FOUND', `'${command.loginName}' is not in call ${command.callRef}`)
  leave(transaction, call, own)
  return undefined
}

const hold: Operation<Command<'hold'>> = (transaction, command) => {
  const call = requireCall(transaction, command.callRef)
  requireConnection(call, command.loginName, ['ACTIVE'], command.deviceId).state = 'HELD'
  return undefined
}

const retrieve: Operation<Command<'retrieve'>> = (transaction, command) => {
  const call = requireCall(transaction, command.callRef)
  const connection = requireConnection(call, command.loginName, ['HELD'], command.deviceId)
  const active = activeElsewhere(transaction.lookup(), connection.endpoint.deviceId, call.callRef)
  if (active)
    throw new PlatformError(
      'NOT_EXPECTED',
      'Another call is active on this device: hold it first, or alternate',
    )
  connection.state = 'ACTIVE'
  return undefined
}

const ringingTimeout: Operation<Command<'ringingTimeout'>> = (transaction, command) => {
  const call = transaction.call(command.callRef)
  if (call === undefined) return undefined
  const ringing = call.connections.filter(
    (connection) =>
      connection.endpoint.number === command.number && connection.state === 'RINGING_INCOMING',
  )
  if (ringing.length > 0) leave(transaction, call, ringing, 'NOT_ANSWERED')
  return undefined
}

export const basicOperations = { makeCall, answer, release, dropMe, hold, retrieve, ringingTimeout }
