/**
 * The one way a party starts ringing in a call (docs/call-model.md, "Outside parties, incoming calls and
 * simulated devices"): the connection is added RINGING_INCOMING with the ringing timeout, and what the party
 * will do by itself is scheduled: a simulated device with `autoAnswer` answers after a short delay; an
 * outside number follows its rule in the directory (answers after a delay, is busy, rejects, never answers).
 * And how the ringing ends before its timeout: the party answers, or is taken out (redirected, picked up).
 */

import { PlatformError } from '../../platform-error.js'
import type { EngineContext } from '../engine-operation.js'
import { moveConnection, newConnection } from '../media-state-machine.js'
import type { CallRecord, Connection, Endpoint, EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { isLoggedOffNumber } from './desk-seats.js'
import { connectCallers } from './guards.js'

/** How long a device with autoAnswer rings before it answers, unless the settings say otherwise. */
export const DEFAULT_AUTO_ANSWER_DELAY_MS = 1_000

/** The cause of an outside party's REJECT (the CallCause list has no "rejected"; CSTA "destination not obtainable"). */
export const REJECT_CAUSE = 'DESTINATION_NOT_OBTAINABLE'

/** True for an outside number (neither a device of a user nor a service of the platform). */
export function isOutside(endpoint: Endpoint): boolean {
  return endpoint.deviceId === undefined && endpoint.service === undefined
}

/**
 * Makes the endpoint ring in the call: RINGING_INCOMING, with the ringing timeout unless `ringingTimeout`
 * is false (the calling device of a make call without autoAnswer rings with no timeout), and the timers of
 * what the party does by itself. NOT_EXPECTED for the number of a desk-sharing user logged on at no set (a
 * redirect, transfer or conference to it; a call made to it follows the user's routing first: routing.ts).
 */
export function ring(
  transaction: Transaction,
  call: CallRecord,
  endpoint: Endpoint,
  context: EngineContext,
  options: { ringingTimeout?: boolean } = {},
): void {
  if (isLoggedOffNumber(transaction, context, endpoint.deviceId, endpoint.loginName))
    throw new PlatformError(
      'NOT_EXPECTED',
      `${endpoint.number}: '${endpoint.loginName}' is logged on at no desk-sharing set`,
    )
  call.connections.push(newConnection(endpoint, 'RINGING_INCOMING'))
  const { callRef } = call
  const { number } = endpoint
  if (options.ringingTimeout !== false)
    transaction.schedule(context.settings.ringingTimeoutMs, {
      type: 'ringingTimeout',
      callRef,
      number,
    })
  if (endpoint.service !== undefined) return
  if (endpoint.deviceId !== undefined) {
    if (transaction.state.devices[endpoint.deviceId]?.autoAnswer === true)
      transaction.schedule(context.settings.autoAnswerDelayMs ?? DEFAULT_AUTO_ANSWER_DELAY_MS, {
        type: 'deviceAnswers',
        deviceId: endpoint.deviceId,
        callRef,
      })
    return
  }
  const behaviour = context.directory.outsideBehaviour?.(number)
  switch (behaviour?.kind) {
    case 'ANSWER':
      transaction.schedule(behaviour.afterMs ?? 0, { type: 'outsidePartyAnswers', number, callRef })
      break
    case 'BUSY':
      transaction.schedule(0, { type: 'outsidePartyRejects', number, callRef, cause: 'BUSY' })
      break
    case 'REJECT':
      transaction.schedule(behaviour.afterMs ?? 0, {
        type: 'outsidePartyRejects',
        number,
        callRef,
        cause: REJECT_CAUSE,
      })
      break
    default:
      // NO_ANSWER, or no rule: it rings until the ringing timeout.
      break
  }
}

/** The timers that only make sense while the party rings: the ringing timeout, auto answer, an outside rule. */
function ringingTimer(command: EngineCommand, callRef: string, number: string): boolean {
  switch (command.type) {
    case 'ringingTimeout':
    case 'huntNoAnswer':
    case 'acdNoAnswer':
    case 'outsidePartyAnswers':
    case 'outsidePartyRejects':
      return command.callRef === callRef && command.number === number
    case 'deviceAnswers':
      return command.callRef === callRef && command.deviceId === number
    default:
      return false
  }
}

/** Cancels what was scheduled for one party of the call while it rings (it answered, or left). */
export function cancelRinging(transaction: Transaction, callRef: string, number: string): void {
  transaction.cancelTimers((command) => ringingTimer(command, callRef, number))
}

/** Cancels every timer of one party of the call (it left): its ringing ones and an outside party's hang-up. */
export function cancelPartyTimers(transaction: Transaction, callRef: string, number: string): void {
  transaction.cancelTimers(
    (command) =>
      ringingTimer(command, callRef, number) ||
      (command.type === 'outsidePartyHangsUp' &&
        command.callRef === callRef &&
        command.number === number),
  )
}

/** The voice mail answers at once: the callers' ringing sides become ACTIVE (a commit of its own). */
export function voicemailAnswers(transaction: Transaction, call: CallRecord): void {
  for (const connection of call.connections)
    if (connection.endpoint.service === 'VOICEMAIL') moveConnection(call, connection, 'ACTIVE')
  connectCallers(transaction.lookup(), call)
  transaction.commit()
}

/** The ringing `connection` answers: ACTIVE, its ringing timers cancelled, and the calling sides connect. */
export function answerRinging(
  transaction: Transaction,
  call: CallRecord,
  connection: Connection,
): void {
  moveConnection(call, connection, 'ACTIVE')
  cancelRinging(transaction, call.callRef, connection.endpoint.number)
  connectCallers(transaction.lookup(), call)
}

/** The ringing `connection` leaves the call without answering (redirected, picked up): its timers go too. */
export function stopRinging(
  transaction: Transaction,
  call: CallRecord,
  connection: Connection,
): void {
  call.connections = call.connections.filter((other) => other !== connection)
  cancelRinging(transaction, call.callRef, connection.endpoint.number)
}
