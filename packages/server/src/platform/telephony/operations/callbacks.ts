/**
 * Call back requests (CSTA call completion): a caller whose call rings unanswered (or finds the callee
 * busy) asks the callee to call back, or asks it from an idle device; the callee holds the request among
 * its incoming callbacks until it deletes it. docs/call-model.md, "Call features".
 */
import { PlatformError } from '../../platform-error.js'
import { partyInfo } from '../call-view.js'
import type { Operation } from '../engine-operation.js'
import type { TelephonyDirectory } from '../telephony-directory.js'
import type { Endpoint, EngineCommand, StoredCallback, TelephonyState } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { requireFeature } from './feature-support.js'
import { clearCall, requireCall, requireConnection, requireReachable } from './guards.js'
import { requireNotHunting } from './hunting.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The incoming callbacks of a user, oldest first (GET /telephony/incomingCallbacks). */
export function incomingCallbacks(state: TelephonyState, loginName: string): StoredCallback[] {
  return (state.callbacks?.[loginName] ?? []).map((callback) => ({ ...callback }))
}

/**
 * Stores a callback from `requester` for `callee` and tells the callee (OnCallbackRequestAdded); a
 * requester already waiting in the callee's list is not added twice.
 */
function addCallback(
  transaction: Transaction,
  callee: string,
  requester: Endpoint,
  directory: TelephonyDirectory,
): void {
  const callbacks = transaction.state.callbacks ?? {}
  const waiting = callbacks[callee] ?? []
  const info = partyInfo(requester, directory)
  if (waiting.some((callback) => callback.partyInfo.id.phoneNumber === requester.number)) return
  const callback: StoredCallback = { callbackId: transaction.nextId(), partyInfo: info }
  transaction.state.callbacks = { ...callbacks, [callee]: [...waiting, callback] }
  transaction.events.push({
    eventName: 'OnCallbackRequestAdded',
    loginName: callee,
    callback: { callbackId: callback.callbackId, partyInfo: info },
  })
}

const callbackRequest: Operation<Command<'callbackRequest'>> = (transaction, command, context) => {
  const call = requireCall(transaction, command.callRef)
  const requester = requireConnection(call, command.loginName, ['RINGING_OUTGOING', 'DIALING'])
  requireNotHunting(call, 'ask for a call back')
  const callee = call.connections.find(
    (connection) =>
      connection.endpoint.loginName !== undefined &&
      connection.endpoint.loginName !== command.loginName &&
      connection.state !== 'ACTIVE',
  )
  const calleeLogin = callee?.endpoint.loginName
  if (calleeLogin === undefined)
    throw new PlatformError('NOT_EXPECTED', 'Only a user of the platform can be asked to call back')
  requireFeature(context, command.loginName, 'callBack')
  clearCall(transaction, call, [requester], 'CALL_BACK')
  addCallback(transaction, calleeLogin, requester.endpoint, context.directory)
  return undefined
}

/** The first device of the user with no call: where an outgoing callback comes from. */
function idleDevice(transaction: Transaction, loginName: string): Endpoint {
  const devices = Object.values(transaction.state.devices).filter(
    (device) => device.loginName === loginName,
  )
  if (devices.length === 0) throw new PlatformError('NOT_FOUND', `'${loginName}' has no device`)
  const calls = transaction.lookup()
  const idle = devices.find(
    (device) => device.state === 'IN_SERVICE' && calls.onDevice(device.deviceId).length === 0,
  )
  if (idle === undefined)
    throw new PlatformError('NOT_EXPECTED', `'${loginName}' has no idle device`)
  return { number: idle.deviceId, deviceId: idle.deviceId, loginName }
}

const outgoingCallback: Operation<Command<'outgoingCallback'>> = (
  transaction,
  command,
  context,
) => {
  const callee = requireReachable(context.directory, command.callee, 'callee')
  if (callee.loginName === undefined)
    throw new PlatformError('BAD_PARAMETER', 'callee: only a user of the platform can call back')
  if (callee.loginName === command.loginName)
    throw new PlatformError('BAD_PARAMETER', 'callee: a user cannot ask itself to call back')
  const requester = idleDevice(transaction, command.loginName)
  requireFeature(context, command.loginName, 'callBack')
  addCallback(transaction, callee.loginName, requester, context.directory)
  return undefined
}

const deleteCallback: Operation<Command<'deleteCallback'>> = (transaction, command) => {
  const callbacks = transaction.state.callbacks ?? {}
  const waiting = callbacks[command.loginName] ?? []
  if (!waiting.some((callback) => callback.callbackId === command.callbackId))
    throw new PlatformError('NOT_FOUND', `No callback '${command.callbackId}'`)
  const left = waiting.filter((callback) => callback.callbackId !== command.callbackId)
  const { [command.loginName]: _removed, ...others } = callbacks
  transaction.state.callbacks = left.length > 0 ? { ...others, [command.loginName]: left } : others
  return undefined
}

const deleteCallbacks: Operation<Command<'deleteCallbacks'>> = (transaction, command) => {
  const callbacks = transaction.state.callbacks ?? {}
  if (callbacks[command.loginName] === undefined) return undefined
  const { [command.loginName]: _removed, ...others } = callbacks
  transaction.state.callbacks = others
  return undefined
}

export const callbackOperations = {
  callbackRequest,
  outgoingCallback,
  deleteCallback,
  deleteCallbacks,
}
