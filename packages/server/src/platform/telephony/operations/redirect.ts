/**
 * Call features that send a ringing call elsewhere: redirect (to a number, to VOICEMAIL, to DVA), overflow
 * to voice mail, and pickup of a call ringing on another user's device. Transition rules and decisions in
 * docs/call-model.md, "Call features".
 */
import { PlatformError } from '../../platform-error.js'
import type { EngineContext, Operation } from '../call-engine.js'
import type { CallRecord, Connection, Endpoint, EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import {
  addNewDestination,
  forgetIfNoUser,
  requireOwnDevice,
  requireVoicemail,
} from './feature-support.js'
import { activeElsewhere, connectCallers, requireCall, requireConnection } from './guards.js'
import { cancelRinging, ring } from './ringing.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The voice mail answers at once: the callers' ringing sides become ACTIVE. */
function voicemailAnswers(transaction: Transaction, call: CallRecord): void {
  for (const connection of call.connections)
    if (connection.endpoint.service === 'VOICEMAIL') connection.state = 'ACTIVE'
  connectCallers(transaction.lookup(), call)
  transaction.commit()
}

/**
 * Takes the ringing connection out and sends the call to `destination` (ringing, or answered at once by a
 * voice mail), with `cause` and `newDestination` on the OnCallRemoved of the redirecting user.
 */
function divert(
  transaction: Transaction,
  call: CallRecord,
  ringing: Connection,
  destination: Endpoint,
  cause: 'REDIRECTED' | 'OVERFLOWN',
  context: EngineContext,
): void {
  call.connections = call.connections.filter((connection) => connection !== ringing)
  cancelRinging(transaction, call.callRef, ringing.endpoint.number)
  call.lastRedirecting = ringing.endpoint
  const from = transaction.events.length
  if (destination.service === 'VOICEMAIL')
    call.connections.push({ endpoint: destination, state: 'RINGING_INCOMING' })
  else ring(transaction, call, destination, context)
  transaction.commit(cause)
  addNewDestination(transaction, from, call.callRef, destination.number)
  if (forgetIfNoUser(transaction, call)) return
  if (destination.service === 'VOICEMAIL') voicemailAnswers(transaction, call)
}

const redirect: Operation<Command<'redirect'>> = (transaction, command, context) => {
  const call = requireCall(transaction, command.callRef)
  const ringing = requireConnection(call, command.loginName, ['RINGING_INCOMING'])
  if (call.pendingCallee !== undefined)
    throw new PlatformError(
      'NOT_EXPECTED',
      'The call rings on the calling device: answer or drop it',
    )
  let destination: Endpoint
  if (command.redirectTo === 'VOICEMAIL' || command.redirectTo === 'DVA')
    destination = requireVoicemail(context, command.loginName)
  else {
    const resolved = context.directory.resolve(command.redirectTo)
    if (resolved === undefined)
      throw new PlatformError('NOT_FOUND', `redirectTo: '${command.redirectTo}' reaches nobody`)
    if (call.connections.some((connection) => connection.endpoint.number === resolved.number))
      throw new PlatformError('BAD_PARAMETER', `redirectTo: '${command.redirectTo}' is in the call`)
    destination = resolved
  }
  divert(transaction, call, ringing, destination, 'REDIRECTED', context)
  return undefined
}

const overflowToVoiceMail: Operation<Command<'overflowToVoiceMail'>> = (
  transaction,
  command,
  context,
) => {
  const call = requireCall(transaction, command.callRef)
  requireConnection(call, command.loginName, ['RINGING_OUTGOING'])
  const callee = call.connections.find(
    (connection) =>
      connection.state === 'RINGING_INCOMING' &&
      connection.endpoint.loginName !== undefined &&
      connection.endpoint.loginName !== command.loginName,
  )
  const calleeLogin = callee?.endpoint.loginName
  if (callee === undefined || calleeLogin === undefined)
    throw new PlatformError('NOT_EXPECTED', 'The call does not ring a user of the platform')
  divert(transaction, call, callee, requireVoicemail(context, calleeLogin), 'OVERFLOWN', context)
  return undefined
}

const pickup: Operation<Command<'pickup'>> = (transaction, command, context) => {
  const picker = requireOwnDevice(transaction, context, command.loginName, command.deviceId)
  const call = requireCall(transaction, command.otherCallRef)
  const target = call.connections.find(
    (connection) =>
      connection.endpoint.number === command.otherPhoneNumber &&
      connection.endpoint.loginName !== undefined,
  )
  if (target === undefined)
    throw new PlatformError(
      'NOT_FOUND',
      `otherPhoneNumber: ${command.otherPhoneNumber} is not in call ${command.otherCallRef}`,
    )
  if (target.state !== 'RINGING_INCOMING' || call.pendingCallee !== undefined)
    throw new PlatformError('NOT_EXPECTED', `${command.otherPhoneNumber} is not ringing`)
  if (call.connections.some((connection) => connection.endpoint.deviceId === command.deviceId))
    throw new PlatformError('BAD_PARAMETER', `deviceId: ${command.deviceId} is in the call`)
  if (command.autoAnswer && activeElsewhere(transaction.lookup(), command.deviceId, call.callRef))
    throw new PlatformError('NOT_EXPECTED', `Device ${command.deviceId} is in another active call`)
  call.connections = call.connections.filter((connection) => connection !== target)
  cancelRinging(transaction, call.callRef, target.endpoint.number)
  if (command.autoAnswer) {
    call.connections.push({ endpoint: picker, state: 'ACTIVE' })
    connectCallers(transaction.lookup(), call)
  } else ring(transaction, call, picker, context)
  transaction.commit('PICKED_UP')
  return undefined
}

export const redirectOperations = { redirect, overflowToVoiceMail, pickup }
