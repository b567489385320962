/**
 * The basic operations of a two-party call (CSTA semantics where the specification is silent; see
 * docs/call-model.md): make call, answer, release, drop me, hold, retrieve, and the ringing timeout.
 */
import type { CallCause } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import type { EngineContext, Operation } from '../engine-operation.js'
import { moveConnection, newConnection } from '../media-state-machine.js'
import type { CallRecord, Connection, EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { acdAnswered } from './acd-distribution.js'
import { holdForConsultation } from './consultation.js'
import { reachDestination, serviceReached } from './destinations.js'
import { requireDestination, requireOwnDevice } from './feature-support.js'
import {
  activeElsewhere,
  clearCall,
  hasUser,
  requireCall,
  requireConnection,
  requireParty,
} from './guards.js'
import { huntAnswered, huntGoesOn, isOffered } from './hunting.js'
import { answerRinging, cancelPartyTimers, cancelRinging, ring } from './ringing.js'
import { divertOnNoAnswer } from './routing.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/**
 * Takes `leaving` out of the call (Clear Connection). With two or more parties left, one of them a user, the
 * call goes on (cause `cause`, else PARTICIPANT_LEFT); otherwise the call is cleared: the last party sees it
 * releasing, then removed, both with `cause` (none for a hang-up: wire facts 6, remote hang-up; NOT_ANSWERED,
 * BUSY, ...). Members a hunting group offers the call to who leave it (they decline it) only end their
 * ringing: the hunt goes on (operations/hunting.ts); so do agents a pilot offers it to (acd-distribution.ts).
 */
export function leave(
  transaction: Transaction,
  call: CallRecord,
  leaving: readonly Connection[],
  context: EngineContext,
  cause?: CallCause,
): void {
  if ((call.hunt !== undefined || call.acd !== undefined) && leaving.some(isOffered)) {
    const declined = leaving.filter(isOffered)
    for (const connection of declined)
      cancelPartyTimers(transaction, call.callRef, connection.endpoint.number)
    call.connections = call.connections.filter((connection) => !declined.includes(connection))
    transaction.commit(cause)
    // An agent who declines an ACD call: the pass after the command puts it back in its queue.
    if (call.hunt !== undefined) huntGoesOn(transaction, call, context)
    const rest = leaving.filter((connection) => !isOffered(connection))
    if (rest.length > 0 && transaction.state.calls.has(call.callRef))
      leave(transaction, call, rest, context, cause)
    return
  }
  for (const connection of leaving)
    cancelPartyTimers(transaction, call.callRef, connection.endpoint.number)
  const left = call.connections.filter((connection) => !leaving.includes(connection))
  if (left.length < 2 || !hasUser(left)) {
    clearCall(transaction, call, leaving, cause)
    return
  }
  call.connections = left
  transaction.commit(cause ?? 'PARTICIPANT_LEFT')
}

const makeCall: Operation<Command<'makeCall'>> = (transaction, command, context) => {
  const caller = requireOwnDevice(transaction, context, command.loginName, command.deviceId)
  const callee =
    serviceReached(transaction.state, command.callee) ??
    requireDestination(context, command.loginName, command.callee, 'callee')
  if (callee.deviceId === command.deviceId)
    throw new PlatformError('BAD_PARAMETER', 'callee: a device cannot call itself')
  // A consultation call when the device has an active call: that call is held first (consultation.ts).
  const consultation = holdForConsultation(transaction, command.loginName, command.deviceId)
  const { callRef, serial } = transaction.nextCall()
  const call: CallRecord = {
    callRef,
    serial,
    callUUID: `${callRef}-${transaction.now.toString(16)}`,
    connections: [],
    initialCalled: callee,
    ...(command.associatedData !== undefined && { associatedData: command.associatedData }),
    ...(command.hexaBinaryAssociatedData !== undefined && {
      hexaBinaryAssociatedData: command.hexaBinaryAssociatedData,
    }),
    createdAt: transaction.now,
  }
  transaction.addCall(call)
  if (command.autoAnswer || consultation) {
    call.connections.push(newConnection(caller, 'RINGING_OUTGOING'))
    reachDestination(transaction, call, callee, context, command.acd)
  } else {
    // CSTA make call without auto answer: the calling device rings first (no ringing timeout); answering
    // it calls the callee.
    ring(transaction, call, caller, context, { ringingTimeout: false })
    call.pendingCallee = callee
    if (command.acd !== undefined) call.pendingAcd = command.acd
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
    moveConnection(call, connection, 'RINGING_OUTGOING')
    const callee = call.pendingCallee
    const acd = call.pendingAcd
    delete call.pendingCallee
    delete call.pendingAcd
    cancelRinging(transaction, call.callRef, connection.endpoint.number)
    reachDestination(transaction, call, callee, context, acd)
    return undefined
  }
  huntAnswered(transaction, call, connection)
  acdAnswered(transaction, call, connection)
  answerRinging(transaction, call, connection)
  return undefined
}

const release: Operation<Command<'release'>> = (transaction, command, context) => {
  const call = requireCall(transaction, command.callRef)
  const own = requireParty(call, command.loginName)
  // A member releasing a call a hunting group only offers it declines it: the hunt goes on.
  if (own.every(isOffered)) leave(transaction, call, own, context)
  else clearCall(transaction, call, own)
  return undefined
}

const dropMe: Operation<Command<'dropMe'>> = (transaction, command, context) => {
  const call = requireCall(transaction, command.callRef)
  leave(transaction, call, requireParty(call, command.loginName), context)
  return undefined
}

const hold: Operation<Command<'hold'>> = (transaction, command) => {
  const call = requireCall(transaction, command.callRef)
  const connection = requireConnection(call, command.loginName, ['ACTIVE'], command.deviceId)
  moveConnection(call, connection, 'HELD')
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
  moveConnection(call, connection, 'ACTIVE')
  return undefined
}

const ringingTimeout: Operation<Command<'ringingTimeout'>> = (transaction, command, context) => {
  const call = transaction.call(command.callRef)
  if (call === undefined) return undefined
  const ringing = call.connections.filter(
    (connection) =>
      connection.endpoint.number === command.number && connection.state === 'RINGING_INCOMING',
  )
  const [only] = ringing
  // A user's forward or overflow on no answer takes the call elsewhere (operations/routing.ts).
  if (ringing.length === 1 && only && divertOnNoAnswer(transaction, call, only, context))
    return undefined
  if (ringing.length > 0) leave(transaction, call, ringing, context, 'NOT_ANSWERED')
  return undefined
}

export const basicOperations = { makeCall, answer, release, dropMe, hold, retrieve, ringingTimeout }
