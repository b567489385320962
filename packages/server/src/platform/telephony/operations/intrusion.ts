/**
 * Intrusion (O2G 2.4; a PBX's intrusion, or barge-in): a user whose device calls a busy user joins the call
 * that user talks in, which becomes a three-party call (docs/call-model.md, "Call features"). The SDKs name
 * only the device: "the current device must be in releasing state while calling a user which is in a busy
 * call with another user"; the engine has no busy tone for a user (a busy user is rung, as a call waiting),
 * so the device is the one calling out, the callee ringing while it talks elsewhere.
 */
import { PlatformError } from '../../platform-error.js'
import type { CallLookup } from '../call-index.js'
import { isUsers } from '../call-view.js'
import type { Operation } from '../engine-operation.js'
import { busyCallOf, intrusionRefusal, ringingUserOf } from '../intrusion-target.js'
import { moveConnection } from '../media-state-machine.js'
import type { CallRecord, Connection, EngineCommand } from '../telephony-state.js'
import { connectionsOnDevice } from './consultation.js'
import { requireFeature, requireOwnDevice } from './feature-support.js'
import { cancelPartyTimers } from './ringing.js'
import { joinCalls } from './transfer.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** A call the device makes to a ringing user of the platform, that user's connection and its busy call. */
interface Target {
  call: CallRecord
  callee: Connection
  busy: CallRecord
}

/**
 * The first call, in the order they were made, that `deviceId` calls out on to a ringing user who talks in
 * another call; NOT_EXPECTED, saying which is missing, when there is none.
 */
function requireTarget(calls: CallLookup, loginName: string, deviceId: string): Target {
  const calling = connectionsOnDevice(calls, loginName, deviceId, 'RINGING_OUTGOING').flatMap(
    ({ call }) => {
      const callee = ringingUserOf(call)
      return callee === undefined ? [] : [{ call, callee }]
    },
  )
  for (const { call, callee } of calling) {
    const busy = busyCallOf(calls, callee, call.callRef)
    if (busy !== undefined) return { call, callee, busy }
  }
  throw new PlatformError(
    'NOT_EXPECTED',
    calling[0] === undefined
      ? `Device ${deviceId} is calling no user of the platform: intrusion needs a call ringing at a busy user`
      : `'${calling[0].callee.endpoint.loginName}' talks in no other call: there is no call to intrude into`,
  )
}

/**
 * Checks everything first: the user's device (NOT_FOUND / NOT_ALLOWED), the `intrusion` feature
 * (NOT_ALLOWED), a call of the device ringing at a user who talks in another call (NOT_EXPECTED), and what
 * `intrusionRefusal` refuses. Then the callee's ringing stops and the caller joins the busy call, ACTIVE:
 * its own call is replaced by that one (`joinCalls`), cause CONFERENCED.
 */
const intrusion: Operation<Command<'intrusion'>> = (transaction, command, context) => {
  const { loginName, deviceId } = command
  requireOwnDevice(transaction, context, loginName, deviceId)
  requireFeature(context, loginName, 'intrusion')
  const calls = transaction.lookup()
  const { call, callee, busy } = requireTarget(calls, loginName, deviceId)
  const refusal = intrusionRefusal(context.directory, calls, busy, {
    loginName,
    deviceId,
    callRef: call.callRef,
  })
  if (refusal !== undefined) throw refusal
  cancelPartyTimers(transaction, call.callRef, callee.endpoint.number)
  const pair = { active: call, held: busy, deviceId, others: [] }
  // The callee's ringing connection stays behind in the caller's call, which goes: the callee is "the user
  // who leaves" of joinCalls; the caller moves into the busy call.
  const calleeLogin = callee.endpoint.loginName ?? ''
  joinCalls(transaction, context, pair, calleeLogin, 'CONFERENCED', (survivor) => {
    const joined = survivor.connections.find(
      (connection) => isUsers(connection, loginName) && connection.endpoint.deviceId === deviceId,
    )
    if (joined !== undefined) moveConnection(survivor, joined, 'ACTIVE')
  })
  return undefined
}

export const intrusionOperations = { intrusion }
