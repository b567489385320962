/**
 * Alternate, transfer (active to held) and blind transfer, with the call replacement that transfer and merge
 * share (CSTA semantics where the specification is silent; docs/call-model.md, "Consultation, transfer and
 * conference"). The consultation call itself is a make call (consultation.ts).
 */
import type { Call, CallCause, MediaState } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import { callEvent } from '../call-events.js'
import { callView, isUsers } from '../call-view.js'
import type { EngineContext, Operation } from '../engine-operation.js'
import { moveConnection, newConnection } from '../media-state-machine.js'
import type { CallRecord, Connection, EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { reachPilot } from './acd-distribution.js'
import { connectionsOnDevice } from './consultation.js'
import { isDistributor, serviceReached } from './destinations.js'
import { addNewDestination, forgetIfNoUser, requireDestination } from './feature-support.js'
import {
  hasUser,
  peekCall,
  requireCall,
  requireConnection,
  requireNotAmong,
  touchConnection,
} from './guards.js'
import { reachGroup, requireNotHunting } from './hunting.js'
import { isOutside, ring, voicemailAnswers } from './ringing.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The login names of the directory users among the connections. */
function usersAmong(connections: readonly Connection[]): Set<string> {
  const users = new Set<string>()
  for (const connection of connections)
    if (connection.endpoint.loginName !== undefined) users.add(connection.endpoint.loginName)
  return users
}

/** The two calls of a transfer or merge (uncopied, as checked), and the parties other than the user in them. */
export interface CallPair {
  active: CallRecord
  held: CallRecord
  /** The device the user has both calls on. */
  deviceId: string | undefined
  others: Connection[]
}

/**
 * The calls of a transfer or merge, checked before any change: two calls (BAD_PARAMETER), the user in one of
 * `activeStates` in the active call (NOT_FOUND / NOT_EXPECTED) and HELD on the same device in the held call,
 * another party in each (NOT_EXPECTED).
 */
export function requireCallPair(
  transaction: Transaction,
  command: { loginName: string; callRef: string; heldCallRef: string },
  activeStates: readonly MediaState[],
  action: 'transfer' | 'merge',
): CallPair {
  if (command.callRef === command.heldCallRef)
    throw new PlatformError('BAD_PARAMETER', 'heldCallRef: the held call must be another call')
  const active = peekCall(transaction, command.callRef)
  const held = peekCall(transaction, command.heldCallRef)
  requireNotHunting(active, action)
  requireNotHunting(held, action)
  const { deviceId } = requireConnection(active, command.loginName, activeStates).endpoint
  requireConnection(held, command.loginName, ['HELD'], deviceId)
  const activeOthers = active.connections.filter((c) => !isUsers(c, command.loginName))
  const heldOthers = held.connections.filter((c) => !isUsers(c, command.loginName))
  if (activeOthers.length === 0 || heldOthers.length === 0)
    throw new PlatformError('NOT_EXPECTED', `Both calls need another party to ${action}`)
  return { active, held, deviceId, others: [...activeOthers, ...heldOthers] }
}

/** The call that survives a transfer or merge: the one with more parties, the held (first) call on a tie. */
function survivorOf(active: CallRecord, held: CallRecord): [CallRecord, CallRecord] {
  return active.connections.length > held.connections.length ? [active, held] : [held, active]
}

/**
 * Joins the calls of `pair` (uncopied, as checked) into the survivor (`survivorOf`): the connections of the
 * absorbed call except the user's move into the survivor, the absorbed call is removed, its timers follow the
 * survivor. Both calls are copied first, the command's (active) call first, for the order of the events. Then
 * commits with `cause`; every user whose call was absorbed and who was not already in the survivor receives,
 * instead of OnCallRemoved + OnCallCreated, one OnCallModified on the survivor with `previousCallRef` (wire
 * facts 6: "callRef replaces previousCallRef; no OnCallRemoved for the old one"), its deltas taken from the
 * call it was in. `prepare` sets states in the copied survivor before the commit.
 */
export function joinCalls(
  transaction: Transaction,
  context: EngineContext,
  pair: CallPair,
  loginName: string,
  cause: CallCause,
  prepare: (survivor: CallRecord) => void,
): void {
  const [survivor, absorbed] = survivorOf(pair.active, pair.held)
  requireCall(transaction, pair.active.callRef)
  requireCall(transaction, pair.held.callRef)
  if (survivor.parked || absorbed.parked)
    throw new PlatformError('NOT_EXPECTED', 'A parked call cannot be transferred or merged')
  // A party in both calls (the same device called twice) cannot be joined to itself.
  const numbers = new Set(
    survivor.connections.filter((c) => !isUsers(c, loginName)).map((c) => c.endpoint.number),
  )
  if (absorbed.connections.some((c) => !isUsers(c, loginName) && numbers.has(c.endpoint.number)))
    throw new PlatformError(
      'NOT_EXPECTED',
      'The two calls reach the same party: they cannot be joined',
    )
  const stay = usersAmong(survivor.connections)
  const moving = new Map<string, Call>()
  for (const user of usersAmong(absorbed.connections)) {
    if (user === loginName || stay.has(user)) continue
    const view = callView(absorbed, user, context.directory, transaction.lookup())
    if (view !== undefined) moving.set(user, view)
  }
  const target = requireCall(transaction, survivor.callRef)
  const source = requireCall(transaction, absorbed.callRef)
  // The parties join the survivor in their states: new connections there (docs/call-model.md, `(new)` rows).
  for (const joining of source.connections)
    if (!isUsers(joining, loginName))
      target.connections.push(newConnection(joining.endpoint, joining.state))
  transaction.removeCall(source.callRef)
  transaction.state.timers = transaction.state.timers.map((timer) =>
    'callRef' in timer.command && timer.command.callRef === source.callRef
      ? { ...timer, command: { ...timer.command, callRef: target.callRef } }
      : timer,
  )
  prepare(target)
  const start = transaction.events.length
  transaction.commit(cause)
  const events = transaction.events
  for (const [user, before] of moving) {
    const at = (eventName: string, callRef: string) =>
      events.findIndex(
        (event, index) =>
          index >= start &&
          event.eventName === eventName &&
          event.loginName === user &&
          event['callRef'] === callRef,
      )
    const removedAt = at('OnCallRemoved', source.callRef)
    const createdAt = at('OnCallCreated', target.callRef)
    if (removedAt < 0 || createdAt < 0) continue
    const after = callView(target, user, context.directory, transaction.lookup())
    const modified = callEvent(user, { ...before, callRef: target.callRef }, after, cause)
    if (modified === undefined) continue
    const { eventName, loginName, callRef, ...rest } = modified
    events[createdAt] = { eventName, loginName, callRef, previousCallRef: source.callRef, ...rest }
    events.splice(removedAt, 1)
  }
}

/**
 * Alternate takes either call of the pair (issue 11, item 5): the specification's `callRef` is the held
 * call; the Node SDK documents the active one. Given the held call, the device's active call is the other;
 * given the active call, the device's one held call is (none or several: NOT_EXPECTED, nothing changes).
 * Either way the active call goes on hold first, then the held one is retrieved (events in that order).
 */
const alternate: Operation<Command<'alternate'>> = (transaction, command) => {
  const given = peekCall(transaction, command.callRef)
  const connection = requireConnection(
    given,
    command.loginName,
    ['HELD', 'ACTIVE'],
    command.deviceId,
  )
  const { deviceId } = connection.endpoint
  const givenIsHeld = connection.state === 'HELD'
  const others = connectionsOnDevice(
    transaction.lookup(),
    command.loginName,
    deviceId,
    givenIsHeld ? 'ACTIVE' : 'HELD',
    given.callRef,
  )
  const [other] = others
  if (other === undefined || others.length > 1)
    throw new PlatformError(
      'NOT_EXPECTED',
      alternateRefusal(given.callRef, givenIsHeld, deviceId, others.length),
    )
  const mine = { call: given, connection }
  const [active, held] = givenIsHeld ? [other, mine] : [mine, other]
  const holding = touchConnection(transaction, active.call, active.connection)
  const retrieving = touchConnection(transaction, held.call, held.connection)
  moveConnection(holding.call, holding.connection, 'HELD')
  moveConnection(retrieving.call, retrieving.connection, 'ACTIVE')
  return undefined
}

/** Why alternate cannot pair the given call with another on its device. */
function alternateRefusal(
  callRef: string,
  givenIsHeld: boolean,
  deviceId: string | undefined,
  found: number,
): string {
  if (givenIsHeld)
    return `No active call on device ${deviceId} to alternate with: retrieve the call`
  return found === 0
    ? `Call ${callRef} is active and device ${deviceId} has no held call to alternate with`
    : `Call ${callRef} is active and device ${deviceId} has ${found} held calls: name the held one to alternate with`
}

const transfer: Operation<Command<'transfer'>> = (transaction, command, context) => {
  // Transfer on ringing: the consultation call may still ring at the consulted party.
  const pair = requireCallPair(transaction, command, ['ACTIVE', 'RINGING_OUTGOING'], 'transfer')
  if (!hasUser(pair.others))
    throw new PlatformError(
      'NOT_ALLOWED',
      'Transferring two outside parties together is not allowed',
    )
  // The user leaves both calls.
  joinCalls(transaction, context, pair, command.loginName, 'TRANSFERRED', (call) => {
    call.connections = call.connections.filter((c) => !isUsers(c, command.loginName))
  })
  return undefined
}

const blindTransfer: Operation<Command<'blindTransfer'>> = (transaction, command, context) => {
  const call = peekCall(transaction, command.callRef)
  const own = requireConnection(call, command.loginName, ['ACTIVE'])
  if (call.parked) throw new PlatformError('NOT_EXPECTED', 'A parked call cannot be transferred')
  const others = call.connections.filter((c) => !isUsers(c, command.loginName))
  if (others.length === 0) throw new PlatformError('NOT_EXPECTED', 'No other party to transfer')
  // The voice-mail number reaches the transferring user's voice mail (as redirect's does).
  const target =
    serviceReached(transaction.state, command.transferTo) ??
    requireDestination(context, command.loginName, command.transferTo, 'transferTo')
  if (target.loginName === command.loginName)
    throw new PlatformError(
      'BAD_PARAMETER',
      'transferTo: one of your own devices (move the call with deviceLegs instead)',
    )
  requireNotAmong(call.connections, target, 'transferTo')
  if (isOutside(target) && !hasUser(others))
    throw new PlatformError('NOT_ALLOWED', 'Transferring an outside party outside is not allowed')
  const copy = requireCall(transaction, call.callRef)
  copy.connections = copy.connections.filter((c) => !isUsers(c, command.loginName))
  if (isDistributor(target) && others.every((c) => c.endpoint.service !== undefined))
    throw new PlatformError(
      'NOT_ALLOWED',
      `transferTo: only a person can wait for ${target.number}, and the other party is a service`,
    )
  copy.lastRedirecting = { ...own.endpoint }
  if (isDistributor(target)) {
    // The transferring user sees where the call went; the group or pilot then distributes it.
    const from = transaction.events.length
    transaction.commit('TRANSFERRED')
    addNewDestination(transaction, from, call.callRef, target.number)
    if (target.service === 'HUNTING_GROUP') reachGroup(transaction, copy, target.number, context)
    else reachPilot(transaction, copy, target.number, context)
    return undefined
  }
  const voicemail = target.service === 'VOICEMAIL'
  ring(transaction, copy, target, context, { ringingTimeout: !voicemail })
  const start = transaction.events.length
  transaction.commit('TRANSFERRED')
  // The transferring user's OnCallRemoved (the only one: everybody else stays in the call) tells where the
  // call went (wire facts 6: newDestination).
  addNewDestination(transaction, start, call.callRef, target.number)
  // An outside party sent to the voice mail stays there to leave a message, with no user in the call (as on
  // redirect: forgetIfNoUser).
  if (voicemail && !forgetIfNoUser(transaction, copy)) voicemailAnswers(transaction, copy)
  return undefined
}

export const transferOperations = { alternate, transfer, blindTransfer }
