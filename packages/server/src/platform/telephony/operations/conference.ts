/**
 * Conference: merge of an active and a held call, participants added (MULTIMEDIA users) and dropped, and the
 * participants query (CSTA semantics where the specification is silent; docs/call-model.md, "Consultation,
 * transfer and conference"). A call with three parties or more is a conference; a party leaving it leaves
 * the call going (PARTICIPANT_LEFT, basic.ts `leave`), and down to two parties it is a plain call again.
 */
import type { Participant } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import { lookupOf } from '../call-index.js'
import { callView, isUsers } from '../call-view.js'
import type { Operation } from '../engine-operation.js'
import { moveConnection } from '../media-state-machine.js'
import type { TelephonyDirectory } from '../telephony-directory.js'
import { callOf, type EngineCommand, type TelephonyState } from '../telephony-state.js'
import { leave } from './basic.js'
import { serviceReached } from './destinations.js'
import {
  peekCall,
  requireCall,
  requireConnection,
  requireNotAmong,
  requireReachable,
} from './guards.js'
import { ring } from './ringing.js'
import { joinCalls, requireCallPair } from './transfer.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

const merge: Operation<Command<'merge'>> = (transaction, command, context) => {
  const pair = requireCallPair(transaction, command, ['ACTIVE'], 'merge')
  joinCalls(transaction, context, pair, command.loginName, 'CONFERENCED', (call) => {
    for (const connection of call.connections)
      if (
        isUsers(connection, command.loginName) &&
        connection.endpoint.deviceId === pair.deviceId &&
        connection.state === 'HELD'
      )
        moveConnection(call, connection, 'ACTIVE')
  })
  return undefined
}

const addParticipant: Operation<Command<'addParticipant'>> = (transaction, command, context) => {
  const call = peekCall(transaction, command.callRef)
  const own = requireConnection(call, command.loginName, ['ACTIVE'])
  const person =
    own.endpoint.deviceId === undefined
      ? undefined
      : context.directory.ownerOfDevice(own.endpoint.deviceId)
  if (person?.multimedia !== true)
    throw new PlatformError('NOT_ALLOWED', 'Only MULTIMEDIA users may add participants to a call')
  if (serviceReached(transaction.state, command.callee) !== undefined)
    throw new PlatformError(
      'BAD_PARAMETER',
      `callee: ${command.callee} is a hunting group or a pilot, which cannot join a conference`,
    )
  const target = requireReachable(context.directory, command.callee, 'callee')
  requireNotAmong(call.connections, target, 'callee')
  ring(transaction, requireCall(transaction, call.callRef), target, context)
  return undefined
}

const dropParticipant: Operation<Command<'dropParticipant'>> = (transaction, command, context) => {
  const call = peekCall(transaction, command.callRef)
  requireConnection(call, command.loginName, ['ACTIVE', 'HELD'])
  const dropped = call.connections.filter(
    (c) => !isUsers(c, command.loginName) && c.endpoint.number === command.participantId,
  )
  if (dropped.length === 0)
    throw new PlatformError(
      'NOT_FOUND',
      `No participant '${command.participantId}' in call ${command.callRef}`,
    )
  const indexes = dropped.map((c) => call.connections.indexOf(c))
  const copy = requireCall(transaction, call.callRef)
  leave(
    transaction,
    copy,
    copy.connections.filter((_, index) => indexes.includes(index)),
    context,
  )
  return undefined
}

export const conferenceOperations = { merge, addParticipant, dropParticipant }

/**
 * The participants of a call as `loginName` sees them (GET /calls/{callRef}/participants): NOT_FOUND when
 * the call is unknown or the user is not in it.
 */
export function listParticipants(
  state: TelephonyState,
  callRef: string,
  loginName: string,
  directory: TelephonyDirectory,
): Participant[] {
  const call = callOf(state, callRef)
  const view =
    call === undefined ? undefined : callView(call, loginName, directory, lookupOf(state))
  if (view === undefined) throw new PlatformError('NOT_FOUND', `No call '${callRef}'`)
  return view.participants ?? []
}

/** One participant of a call as `loginName` sees it (GET .../participants/{participantId}); NOT_FOUND otherwise. */
export function getParticipant(
  state: TelephonyState,
  callRef: string,
  participantId: string,
  loginName: string,
  directory: TelephonyDirectory,
): Participant {
  const participant = listParticipants(state, callRef, loginName, directory).find(
    (candidate) => candidate.participantId === participantId,
  )
  if (participant === undefined)
    throw new PlatformError('NOT_FOUND', `No participant '${participantId}' in call ${callRef}`)
  return participant
}
