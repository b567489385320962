/**
 * Alternate, transfer (active to held) and blind transfer, with the call replacement that transfer and merge
 * share (CSTA semantics where the specification is silent; docs/call-model.md, "Consultation, transfer and
 * conference"). The consultation call itself is a make call (consultation.ts).
 */
import type { Call, CallCause } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import type { EngineContext, Operation } from '../call-engine.js'
import { callEvent } from '../call-events.js'
import { callView, isUsers } from '../call-view.js'
import { type CallRecord, type Connection, callOf, type EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { connectionsOnDevice } from './consultation.js'
import { requireConnection } from './guards.js'
import { ring } from './ringing.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The call as it is, not copied (for checks before any change); NOT_FOUND when unknown. */
export function peekCall(transaction: Transaction, callRef: string): CallRecord {
  const call = callOf(transaction.state, callRef)
  if (call === undefined) throw new PlatformError('NOT_FOUND', `No call '${callRef}'`)
  return call
}

/** The call copied for change, with the copy of `connection` (a connection of the uncopied call). */
export function touch(
  transaction: Transaction,
  call: CallRecord,
  connection?: Connection,
): { call: CallRecord; connection: Connection | undefined } {
  const index = connection === undefined ? -1 : call.connections.indexOf(connection)
  const copy = transaction.call(call.callRef)
  if (copy === undefined) throw new PlatformError('NOT_FOUND', `No call '${call.callRef}'`)
  return { call: copy, connection: index < 0 ? undefined : copy.connections[index] }
}

/** The login names of the directory users among the connections. */
function usersAmong(connections: readonly Connection[]): Set<string> {
  const users = new Set<string>()
  for (const connection of connections)
    if (connection.endpoint.loginName !== undefined) users.add(connection.endpoint.loginName)
  return users
}

/** The call that survives a transfer or merge: the one with more parties, the held (first) call on a tie. */
export function survivorOf(active: CallRecord, held: CallRecord): [CallRecord, CallRecord] {
  return active.connections.length > held.connections.length ? [active, held] : [held, active]
}

/**
 * Joins `absorbed` into `survivor` (both uncopied, as checked): the connections of `absorbed` except the
 * user's move into `survivor`, `absorbed` is removed, its timers follow the survivor. Then commits with
 * `cause`; every user whose call was absorbed and who was not already in the survivor receives, instead of
 * OnCallRemoved + OnCallCreated, one OnCallModified on the survivor with `previousCallRef` (wire facts 6:
 * "callRef replaces previousCallRef; no OnCallRemoved for the old one"), its deltas taken from the call it
 * was in. Answers the copied survivor, for the caller to set states before the commit (`prepare`).
 */
export function joinCalls(
  transaction: Transaction,
  context: EngineContext,
  survivor: CallRecord,
  absorbed: CallRecord,
  loginName: string,
  cause: CallCause,
  prepare: (survivor: CallRecord) => void,
): CallRecord {
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
  const target = touch(transaction, survivor).call
  const source = touch(transaction, absorbed).call
  target.connections.push(...source.connections.filter((c) => !isUsers(c, loginName)))
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
  return target
}

const alternate: Operation<Command<'alternate'>> = (transaction, command) => {
  const held = peekCall(transaction, command.callRef)
  const heldConnection = requireConnection(held, command.loginName, ['HELD'], command.deviceId)
  const active = connectionsOnDevice(
    transaction.lookup(),
    command.loginName,
    heldConnection.endpoint.deviceId,
    'ACTIVE',
    held.callRef,
  )[0]
  if (active === undefined)
    throw new PlatformError(
      'NOT_EXPECTED',
      `No active call on device ${heldConnection.endpoint.deviceId} to alternate with: retrieve the call`,
    )
  // The active call goes on hold first, then the held one is retrieved (events in that order).
  const holding = touch(transaction, active.call, active.connection).connection
  const retrieving = touch(transaction, held, heldConnection).connection
  if (holding) holding.state = 'HELD'
  if (retrieving) retrieving.state = 'ACTIVE'
  return undefined
}

const transfer: Operation<Command<'transfer'>> = (transaction, command, context) => {
  if (command.callRef === command.heldCallRef)
    throw new PlatformError('BAD_PARAMETER', 'heldCallRef: the held call must be another call')
  const active = peekCall(transaction, command.callRef)
  const held = peekCall(transaction, command.heldCallRef)
  // Transfer on ringing: the consultation call may still ring at the consulted party.
  const activeConnection = requireConnection(active, command.loginName, [
    'ACTIVE',
    'RINGING_OUTGOING',
  ])
  requireConnection(held, command.loginName, ['HELD'], activeConnection.endpoint.deviceId)
  const activeOthers = active.connections.filter((c) => !isUsers(c, command.loginName))
  const heldOthers = held.connections.filter((c) => !isUsers(c, command.loginName))
  if (activeOthers.length === 0 || heldOthers.length === 0)
    throw new PlatformError('NOT_EXPECTED', 'Both calls need another party to transfer')
  if (usersAmong([...activeOthers, ...heldOthers]).size === 0)
    throw new PlatformError(
      'NOT_ALLOWED',
      'Transferring two outside parties together is not allowed',
    )
  const [survivor, absorbed] = survivorOf(active, held)
  // The user leaves both calls: touch the command's call first (events in that order).
  touch(transaction, active)
  touch(transaction, held)
  joinCalls(transaction, context, survivor, absorbed, command.loginName, 'TRANSFERRED', (call) => {
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
  const target = context.directory.resolve(command.transferTo)
  if (target === undefined)
    throw new PlatformError('NOT_FOUND', `transferTo: '${command.transferTo}' reaches nobody`)
  if (target.loginName === command.loginName)
    throw new PlatformError(
      'BAD_PARAMETER',
      'transferTo: one of your own devices (move the call with deviceLegs instead)',
    )
  if (call.connections.some((c) => c.endpoint.number === target.number))
    throw new PlatformError('BAD_PARAMETER', `transferTo: ${target.number} is already in the call`)
  if (target.loginName === undefined && usersAmong(others).size === 0)
    throw new PlatformError('NOT_ALLOWED', 'Transferring an outside party outside is not allowed')
  const copy = touch(transaction, call).call
  copy.connections = copy.connections.filter((c) => !isUsers(c, command.loginName))
  copy.lastRedirecting = { ...own.endpoint }
  ring(transaction, copy, target, context)
  const start = transaction.events.length
  transaction.commit('TRANSFERRED')
  // The transferring user's OnCallRemoved tells where the call went (wire facts 6: newDestination).
  const events = transaction.events
  for (let index = start; index < events.length; index++) {
    const event = events[index]
    if (
      event?.eventName === 'OnCallRemoved' &&
      event.loginName === command.loginName &&
      event['callRef'] === command.callRef
    ) {
      const { deviceCapabilities, ...rest } = event
      events[index] = { ...rest, newDestination: target.number, deviceCapabilities }
    }
  }
  return undefined
}

export const transferOperations = { alternate, transfer, blindTransfer }
