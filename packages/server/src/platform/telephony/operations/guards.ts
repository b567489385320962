/** Checks shared by operations: the call and the user's connection must exist and be in the right state. */
import type { CallCause, MediaState } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import type { CallLookup } from '../call-index.js'
import type { CallRecord, Connection } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'

/** The call, copied for change; NOT_FOUND when unknown. */
export function requireCall(transaction: Transaction, callRef: string): CallRecord {
  const call = transaction.call(callRef)
  if (call === undefined) throw new PlatformError('NOT_FOUND', `No call '${callRef}'`)
  return call
}

/** The user's connection in the call (on `deviceId` when given), in one of `states`. */
export function requireConnection(
  call: CallRecord,
  loginName: string,
  states: readonly MediaState[],
  deviceId?: string,
): Connection {
  const own = call.connections.filter(
    (connection) =>
      connection.endpoint.loginName === loginName &&
      (deviceId === undefined || connection.endpoint.deviceId === deviceId),
  )
  if (own.length === 0)
    throw new PlatformError(
      'NOT_FOUND',
      deviceId === undefined
        ? `'${loginName}' is not in call ${call.callRef}`
        : `No leg on device ${deviceId} in call ${call.callRef}`,
    )
  const found = own.find((connection) => states.includes(connection.state))
  if (found === undefined)
    throw new PlatformError(
      'NOT_EXPECTED',
      `The leg is ${own[0]?.state}; this needs ${states.join(' or ')}`,
    )
  return found
}

/** True when the device is ACTIVE in a call other than `exceptCallRef`. */
export function activeElsewhere(
  calls: CallLookup,
  deviceId: string | undefined,
  exceptCallRef?: string,
): boolean {
  if (deviceId === undefined) return false
  return calls
    .onDevice(deviceId)
    .some(
      (call) =>
        call.callRef !== exceptCallRef &&
        call.connections.some(
          (connection) =>
            connection.endpoint.deviceId === deviceId && connection.state === 'ACTIVE',
        ),
    )
}

/** True when the connection's device is ACTIVE in a call other than `callRef`. */
export function talksElsewhere(
  calls: CallLookup,
  callRef: string,
  connection: Connection,
): boolean {
  return activeElsewhere(calls, connection.endpoint.deviceId, callRef)
}

/**
 * The calling sides connect once the called side answers: ACTIVE, or HELD when the calling device went on
 * to talk in another call meanwhile (a device talks in one call at a time; docs/call-model.md).
 */
export function connectCallers(calls: CallLookup, call: CallRecord): void {
  for (const connection of call.connections)
    if (connection.state === 'RINGING_OUTGOING')
      connection.state = talksElsewhere(calls, call.callRef, connection) ? 'HELD' : 'ACTIVE'
}

/** Releases the whole call: every party RELEASING, then the call removed, both steps with `cause`. */
export function releaseCall(transaction: Transaction, call: CallRecord, cause?: CallCause): void {
  for (const connection of call.connections) connection.state = 'RELEASING'
  transaction.commit(cause)
  transaction.cancelTimers((command) => 'callRef' in command && command.callRef === call.callRef)
  transaction.removeCall(call.callRef)
  transaction.commit(cause)
}
