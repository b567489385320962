/**
 * Call features that send a ringing call elsewhere: redirect (to a number, to VOICEMAIL, to DVA), overflow
 * to voice mail, and pickup of a call ringing on another user's device. Transition rules and decisions in
 * docs/call-model.md, "Call features".
 */
import { PlatformError } from '../../platform-error.js'
import type { EngineContext, Operation } from '../engine-operation.js'
import { newConnection } from '../media-state-machine.js'
import type { CallRecord, Connection, Endpoint, EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { reachPilot } from './acd-distribution.js'
import { serviceReached } from './destinations.js'
import {
  addNewDestination,
  forgetIfNoUser,
  requireDestination,
  requireOwnDevice,
  requireVoicemail,
} from './feature-support.js'
import {
  connectCallers,
  requireCall,
  requireConnection,
  requireNotActiveElsewhere,
  requireNotAmong,
} from './guards.js'
import { isOffered, reachGroup, requireNotHunting } from './hunting.js'
import { ring, stopRinging, voicemailAnswers } from './ringing.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

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
  stopRinging(transaction, call, ringing)
  call.lastRedirecting = ringing.endpoint
  const from = transaction.events.length
  if (destination.service === 'HUNTING_GROUP' || destination.service === 'ACD_PILOT') {
    // The redirecting user sees where the call went; the group or pilot then distributes it.
    transaction.commit(cause)
    addNewDestination(transaction, from, call.callRef, destination.number)
    if (destination.service === 'HUNTING_GROUP')
      reachGroup(transaction, call, destination.number, context)
    else reachPilot(transaction, call, destination.number, context)
    return
  }
  const voicemail = destination.service === 'VOICEMAIL'
  // The voice mail answers at once (below): it rings with no ringing timeout.
  ring(transaction, call, destination, context, { ringingTimeout: !voicemail })
  transaction.commit(cause)
  addNewDestination(transaction, from, call.callRef, destination.number)
  if (forgetIfNoUser(transaction, call)) return
  if (voicemail) voicemailAnswers(transaction, call)
}

const redirect: Operation<Command<'redirect'>> = (transaction, command, context) => {
  const call = requireCall(transaction, command.callRef)
  const ringing = requireConnection(call, command.loginName, ['RINGING_INCOMING'])
  if (isOffered(ringing)) requireNotHunting(call, 'redirect it')
  if (call.pendingCallee !== undefined)
    throw new PlatformError(
      'NOT_EXPECTED',
      'The call rings on the calling device: answer or drop it',
    )
  // VOICEMAIL, DVA and the voice-mail number all reach the redirecting user's voice mail.
  const destination: Endpoint =
    command.redirectTo === 'VOICEMAIL' || command.redirectTo === 'DVA'
      ? requireVoicemail(context, command.loginName)
      : (serviceReached(transaction.state, command.redirectTo) ??
        requireDestination(context, command.loginName, command.redirectTo, 'redirectTo'))
  if (destination.service === undefined) {
    // The ringing user may send the call to another of their own devices, not to the one ringing.
    if (destination.number === ringing.endpoint.number)
      throw new PlatformError('BAD_PARAMETER', `redirectTo: '${command.redirectTo}' is in the call`)
    requireNotAmong(
      call.connections.filter((connection) => connection !== ringing),
      destination,
      'redirectTo',
    )
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
      connection.endpoint.loginName !== command.loginName &&
      !isOffered(connection),
  )
  requireNotHunting(call, 'overflow to voice mail')
  const calleeLogin = callee?.endpoint.loginName
  if (callee === undefined || calleeLogin === undefined)
    throw new PlatformError('NOT_EXPECTED', 'The call does not ring a user of the platform')
  divert(transaction, call, callee, requireVoicemail(context, calleeLogin), 'OVERFLOWN', context)
  return undefined
}

/**
 * A directed pickup stays within a pickup group (docs/call-model.md, "Pickup groups"): the picking user and
 * the user whose device rings are in the same one, unless they are the same user (taking one's own call on
 * another device). Refused NOT_ALLOWED, as the other features a user is not given.
 */
function requireSamePickupGroup(
  context: EngineContext,
  loginName: string,
  ringingUser: string,
  otherPhoneNumber: string,
): void {
  if (ringingUser === loginName) return
  const group = context.directory.featuresOf?.(loginName).pickupGroup
  if (group === undefined)
    throw new PlatformError(
      'NOT_ALLOWED',
      `User '${loginName}' is in no pickup group: they may pick up their own calls only`,
    )
  if (context.directory.featuresOf?.(ringingUser).pickupGroup !== group)
    throw new PlatformError(
      'NOT_ALLOWED',
      `otherPhoneNumber: ${otherPhoneNumber} is not in pickup group '${group}' of user '${loginName}'`,
    )
}

const pickup: Operation<Command<'pickup'>> = (transaction, command, context) => {
  const picker = requireOwnDevice(transaction, context, command.loginName, command.deviceId)
  // The group first, from the directory: a user outside the group learns nothing of the calls there.
  const owner = context.directory.ownerOfDevice(command.otherPhoneNumber)?.loginName
  if (owner !== undefined)
    requireSamePickupGroup(context, command.loginName, owner, command.otherPhoneNumber)
  const call = requireCall(transaction, command.otherCallRef)
  const target = call.connections.find(
    (connection) =>
      connection.endpoint.number === command.otherPhoneNumber &&
      connection.endpoint.loginName !== undefined,
  )
  const ringingUser = target?.endpoint.loginName
  if (target === undefined || ringingUser === undefined)
    throw new PlatformError(
      'NOT_FOUND',
      `otherPhoneNumber: ${command.otherPhoneNumber} is not in call ${command.otherCallRef}`,
    )
  // Again on the call's party: a device the directory no longer lists may still ring in a call.
  requireSamePickupGroup(context, command.loginName, ringingUser, command.otherPhoneNumber)
  if (isOffered(target)) requireNotHunting(call, 'pick it up')
  if (target.state !== 'RINGING_INCOMING' || call.pendingCallee !== undefined)
    throw new PlatformError('NOT_EXPECTED', `${command.otherPhoneNumber} is not ringing`)
  if (call.connections.some((connection) => connection.endpoint.deviceId === command.deviceId))
    throw new PlatformError('BAD_PARAMETER', `deviceId: ${command.deviceId} is in the call`)
  requireNotAmong(
    call.connections.filter((connection) => connection !== target),
    picker,
    'deviceId',
  )
  if (command.autoAnswer) requireNotActiveElsewhere(transaction, command.deviceId, call.callRef)
  stopRinging(transaction, call, target)
  if (command.autoAnswer) {
    call.connections.push(newConnection(picker, 'ACTIVE'))
    connectCallers(transaction.lookup(), call)
  } else ring(transaction, call, picker, context)
  transaction.commit('PICKED_UP')
  return undefined
}

export const redirectOperations = { redirect, overflowToVoiceMail, pickup }
