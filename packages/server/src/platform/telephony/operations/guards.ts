/** Checks shared by operations: the call and the user's connection must exist and be in the right state. */
import type { CallCause, MediaState } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import type { CallLookup } from '../call-index.js'
import { moveConnection } from '../media-state-machine.js'
import type { TelephonyDirectory } from '../telephony-directory.js'
import { type CallRecord, type Connection, callOf, type Endpoint } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'

/** The call, copied for change; NOT_FOUND when unknown. */
export function requireCall(transaction: Transaction, callRef: string): CallRecord {
  const call = transaction.call(callRef)
  if (call === undefined) throw new PlatformError('NOT_FOUND', `No call '${callRef}'`)
  return call
}

/** The call as it is, not copied (for checks before any change); NOT_FOUND when unknown. */
export function peekCall(transaction: Transaction, callRef: string): CallRecord {
  const call = callOf(transaction.state, callRef)
  if (call === undefined) throw new PlatformError('NOT_FOUND', `No call '${callRef}'`)
  return call
}

/**
 * The copy for change of `connection`, a connection of `call` as it was looked at (copied or not), with the
 * copied call; NOT_FOUND when the call is gone.
 */
export function touchConnection(
  transaction: Transaction,
  call: CallRecord,
  connection: Connection,
): { call: CallRecord; connection: Connection } {
  const index = call.connections.indexOf(connection)
  const copy = requireCall(transaction, call.callRef)
  const copied = copy.connections[index]
  if (copied === undefined) throw new Error(`The connection is not in call ${call.callRef}`)
  return { call: copy, connection: copied }
}

/** What `dialed` reaches; NOT_FOUND, naming the body's `field`, when it reaches nobody. */
export function requireReachable(
  directory: TelephonyDirectory,
  dialed: string,
  field: string,
): Endpoint {
  const endpoint = directory.resolve(dialed)
  if (endpoint === undefined)
    throw new PlatformError('NOT_FOUND', `${field}: '${dialed}' reaches nobody`)
  return endpoint
}

/**
 * BAD_PARAMETER, naming the body's `field`, when `target` is already among `connections`: its number, or, for
 * a user, any of that user's devices (a user is in a call once, whichever device holds it; ringing a second
 * one would give one person two connections to one call).
 */
export function requireNotAmong(
  connections: readonly Connection[],
  target: Endpoint,
  field: string,
): void {
  for (const { endpoint } of connections) {
    if (endpoint.number === target.number)
      throw new PlatformError('BAD_PARAMETER', `${field}: ${target.number} is already in the call`)
    if (target.loginName !== undefined && endpoint.loginName === target.loginName)
      throw new PlatformError(
        'BAD_PARAMETER',
        `${field}: ${target.number} is ${target.loginName}'s, who is already in the call on ${endpoint.number}`,
      )
  }
}

/** Every connection of the user in the call (on all its devices); NOT_FOUND when it has none. */
export function requireParty(call: CallRecord, loginName: string): Connection[] {
  const own = call.connections.filter((connection) => connection.endpoint.loginName === loginName)
  if (own.length === 0)
    throw new PlatformError('NOT_FOUND', `'${loginName}' is not in call ${call.callRef}`)
  return own
}

/**
 * True when a directory user (the owner of a device) is among the connections; a member a hunting group
 * only offers the call to is not a party yet (operations/hunting.ts).
 */
export function hasUser(connections: readonly Connection[]): boolean {
  return connections.some(
    (connection) =>
      connection.endpoint.loginName !== undefined && connection.endpoint.offeredBy === undefined,
  )
}

/**
 * True when the connections are exactly an outside party and a voice mail: an outside caller sent to a
 * user's voice mail (routing, redirect, blind transfer), who leaves a message there (docs/call-model.md,
 * "Service parties"). Such a call goes on with no user in it, until the caller hangs up or the voice mail
 * does at the maximum length.
 */
export function isOutsideCallerAtVoicemail(connections: readonly Connection[]): boolean {
  if (connections.length !== 2) return false
  const voicemail = connections.find((connection) => connection.endpoint.service === 'VOICEMAIL')
  const outside = connections.find(
    (connection) =>
      connection.endpoint.loginName === undefined && connection.endpoint.service === undefined,
  )
  return voicemail !== undefined && outside !== undefined
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

/** NOT_EXPECTED when the device is ACTIVE in a call other than `callRef` (it talks in one call at a time). */
export function requireNotActiveElsewhere(
  transaction: Transaction,
  deviceId: string,
  callRef: string,
): void {
  if (activeElsewhere(transaction.lookup(), deviceId, callRef))
    throw new PlatformError('NOT_EXPECTED', `Device ${deviceId} is in another active call`)
}

/**
 * The calling sides connect once the called side answers: ACTIVE, or HELD when the calling device went on
 * to talk in another call meanwhile (a device talks in one call at a time; docs/call-model.md).
 */
export function connectCallers(calls: CallLookup, call: CallRecord): void {
  for (const connection of call.connections)
    if (connection.state === 'RINGING_OUTGOING')
      moveConnection(
        call,
        connection,
        activeElsewhere(calls, connection.endpoint.deviceId, call.callRef) ? 'HELD' : 'ACTIVE',
      )
}

/**
 * Releases the whole call: every party left RELEASING (the Connection Cleared its last party sees, wire facts
 * 6), then the call removed, both steps with `cause`.
 */
export function releaseCall(transaction: Transaction, call: CallRecord, cause?: CallCause): void {
  for (const connection of call.connections) moveConnection(call, connection, 'RELEASING')
  transaction.commit(cause)
  transaction.cancelTimers((command) => 'callRef' in command && command.callRef === call.callRef)
  transaction.removeCall(call.callRef)
  transaction.commit(cause)
}

/**
 * Clear Call by `leaving`: those connections leave the call (no RELEASING for them), and the call is released
 * for every other party (releaseCall).
 */
export function clearCall(
  transaction: Transaction,
  call: CallRecord,
  leaving: readonly Connection[],
  cause?: CallCause,
): void {
  call.connections = call.connections.filter((connection) => !leaving.includes(connection))
  releaseCall(transaction, call, cause)
}
