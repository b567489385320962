/**
 * The parties the platform does not have users for, and the phones it simulates (docs/call-model.md,
 * "Outside parties, incoming calls and simulated devices"): calls coming in from outside, outside parties
 * that answer, reject or hang up (by their directory rule's timers or told by the control plane), and
 * simulated devices that answer, hang up, go in or out of service or answer by themselves.
 *
 * A command with `callRef` is a timer: it acts on that call only, and does nothing when nothing there
 * matches any more. Without it (the control plane) it acts on the first call that matches (`answer`,
 * `reject`) or on every one (`hang up`), and is refused when none does.
 */
import { PlatformError } from '../../platform-error.js'
import { allCalls } from '../call-index.js'
import type { EngineContext, Operation } from '../engine-operation.js'
import { newConnection } from '../media-state-machine.js'
import {
  type CallRecord,
  type Connection,
  callOf,
  type Endpoint,
  type EngineCommand,
} from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { basicOperations, leave } from './basic.js'
import { reachDestination, serviceReached } from './destinations.js'
import { changeDevice } from './feature-support.js'
import { touchConnection } from './guards.js'
import { answerRinging, isOutside, REJECT_CAUSE } from './ringing.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** What an outside party's number may be: digits, optionally after a `+`. */
const OUTSIDE_NUMBER = /^\+?[0-9]+$/

/** A matching connection and its call (neither copied). */
interface Found {
  call: CallRecord
  connection: Connection
}

/**
 * The connections that `match` in `callRef`, or in every call, in the calls' order; with `states`, only
 * those in one of them. Refusals for the control plane (no `callRef`): an outside party in no call is
 * NOT_FOUND (nothing knows it), a device in no call NOT_EXPECTED (it exists); in none of `states`,
 * NOT_EXPECTED.
 */
function find(
  transaction: Transaction,
  match: (endpoint: Endpoint) => boolean,
  callRef: string | undefined,
  states: readonly Connection['state'][] | undefined,
  describe: () => { party: string; wanted: string; known?: boolean },
): Found[] {
  const calls =
    callRef === undefined
      ? allCalls(transaction.state)
      : [callOf(transaction.state, callRef)].filter((call) => call !== undefined)
  const inCalls: Found[] = []
  for (const call of calls)
    for (const connection of call.connections)
      if (match(connection.endpoint)) inCalls.push({ call, connection })
  const found = inCalls.filter(
    ({ connection }) => states === undefined || states.includes(connection.state),
  )
  if (callRef === undefined && found.length === 0) {
    const { party, wanted, known } = describe()
    if (inCalls.length === 0)
      throw new PlatformError(known ? 'NOT_EXPECTED' : 'NOT_FOUND', `${party} is in no call`)
    throw new PlatformError('NOT_EXPECTED', `${party} ${wanted}`)
  }
  return found
}

/** The first connection that `match` and rings (RINGING_INCOMING), in `callRef` or else in any call. */
function firstRinging(
  transaction: Transaction,
  match: (endpoint: Endpoint) => boolean,
  callRef: string | undefined,
  party: string,
  known = false,
): Found | undefined {
  const describe = () => ({ party, wanted: 'is not ringing', known })
  return find(transaction, match, callRef, ['RINGING_INCOMING'], describe)[0]
}

const outside = (number: string) => (endpoint: Endpoint) =>
  isOutside(endpoint) && endpoint.number === number

/** The copy for change of the outside party's first ringing connection (in `callRef`, or in any call). */
function ringingOutside(
  transaction: Transaction,
  number: string,
  callRef: string | undefined,
): { call: CallRecord; connection: Connection } | undefined {
  const first = firstRinging(transaction, outside(number), callRef, `Outside party ${number}`)
  return first && touchConnection(transaction, first.call, first.connection)
}
const onDevice = (deviceId: string) => (endpoint: Endpoint) => endpoint.deviceId === deviceId

/** The device's record; NOT_FOUND when the engine does not know it. */
function requireDevice(transaction: Transaction, deviceId: string) {
  const device = transaction.state.devices[deviceId]
  if (device === undefined) throw new PlatformError('NOT_FOUND', `No device '${deviceId}'`)
  return device
}

/** The device an incoming call to `dialed` rings: the directory's public numbers, else a device. */
function incomingTarget(context: EngineContext, dialed: string): Endpoint | undefined {
  const { directory } = context
  const target = directory.resolveIncoming ? directory.resolveIncoming(dialed) : undefined
  if (target !== undefined) return target
  const resolved = directory.resolve(dialed)
  return resolved?.deviceId !== undefined && resolved.deviceId === dialed ? resolved : undefined
}

/**
 * A call from an outside number to a public number of the platform (or an extension): the mapped device
 * rings, with the outside party as participant (EXTERNAL), RINGING_OUTGOING on its side.
 */
const incomingCall: Operation<Command<'incomingCall'>> = (transaction, command, context) => {
  if (!OUTSIDE_NUMBER.test(command.from))
    throw new PlatformError(
      'BAD_PARAMETER',
      `from: '${command.from}' is not a phone number (digits, optionally after +)`,
    )
  if (
    transaction.state.devices[command.from] !== undefined ||
    context.directory.ownerOfDevice(command.from) !== undefined
  )
    throw new PlatformError(
      'BAD_PARAMETER',
      `from: ${command.from} is a device of the platform, not an outside number: make a call from it instead`,
    )
  const target =
    serviceReached(transaction.state, context.directory.extensionOf?.(command.to) ?? command.to) ??
    incomingTarget(context, command.to)
  if (target === undefined || (target.deviceId === undefined && target.service === undefined))
    throw new PlatformError('NOT_FOUND', `to: '${command.to}' reaches no device of the platform`)
  const device =
    target.deviceId === undefined ? undefined : transaction.state.devices[target.deviceId]
  // A desk-sharing user's number logged on nowhere follows its routing (operations/routing.ts).
  if (
    device !== undefined &&
    device.state !== 'IN_SERVICE' &&
    context.directory.isDeskSharingUser?.(device.loginName) !== true
  )
    throw new PlatformError('NOT_EXPECTED', `Device ${target.deviceId} is out of service`)
  const { callRef, serial } = transaction.nextCall()
  const call: CallRecord = {
    callRef,
    serial,
    callUUID: `${callRef}-${transaction.now.toString(16)}`,
    connections: [newConnection({ number: command.from }, 'RINGING_OUTGOING')],
    initialCalled: { number: command.to },
    createdAt: transaction.now,
  }
  transaction.addCall(call)
  reachDestination(transaction, call, target, context)
  return callRef
}

/** An outside party answers where it rings (the first such call without `callRef`). */
const outsidePartyAnswers: Operation<Command<'outsidePartyAnswers'>> = (
  transaction,
  command,
  context,
) => {
  const ringing = ringingOutside(transaction, command.number, command.callRef)
  if (ringing === undefined) return undefined
  const { call, connection } = ringing
  answerRinging(transaction, call, connection)
  const hangUpAfterMs = context.directory.outsideBehaviour?.(command.number)?.hangUpAfterMs
  if (hangUpAfterMs !== undefined)
    transaction.schedule(hangUpAfterMs, {
      type: 'outsidePartyHangsUp',
      number: command.number,
      callRef: call.callRef,
    })
  return undefined
}

/** An outside party refuses a call ringing there: it leaves with BUSY or DESTINATION_NOT_OBTAINABLE. */
const outsidePartyRejects: Operation<Command<'outsidePartyRejects'>> = (
  transaction,
  command,
  context,
) => {
  const cause = command.cause ?? REJECT_CAUSE
  if (cause !== 'BUSY' && cause !== REJECT_CAUSE)
    throw new PlatformError('BAD_PARAMETER', `cause: must be BUSY or ${REJECT_CAUSE}`)
  const ringing = ringingOutside(transaction, command.number, command.callRef)
  if (ringing === undefined) return undefined
  const { call, connection } = ringing
  leave(transaction, call, [connection], context, cause)
  return undefined
}

/** An outside party hangs up: it leaves every call it is in (or `callRef`), whatever its state. */
const outsidePartyHangsUp: Operation<Command<'outsidePartyHangsUp'>> = (
  transaction,
  command,
  context,
) => {
  const found = find(transaction, outside(command.number), command.callRef, undefined, () => ({
    party: `Outside party ${command.number}`,
    wanted: '',
  }))
  for (const each of found) {
    const { call, connection } = touchConnection(transaction, each.call, each.connection)
    leave(transaction, call, [connection], context)
  }
  return undefined
}

/** A simulated device answers what rings on it (the first such call without `callRef`), as its user would. */
const deviceAnswers: Operation<Command<'deviceAnswers'>> = (transaction, command, context) => {
  const device = requireDevice(transaction, command.deviceId)
  const first = firstRinging(
    transaction,
    onDevice(command.deviceId),
    command.callRef,
    `Device ${command.deviceId}`,
    true,
  )
  if (first === undefined) return undefined
  return basicOperations.answer(
    transaction,
    {
      type: 'answer',
      loginName: device.loginName,
      callRef: first.call.callRef,
      deviceId: command.deviceId,
    },
    context,
  )
}

/** Takes the device out of every call it is in; with `strict`, NOT_EXPECTED when it is in none. */
export function hangUpDevice(
  transaction: Transaction,
  deviceId: string,
  strict: boolean,
  context: EngineContext,
): void {
  const callRefs = transaction
    .lookup()
    .onDevice(deviceId)
    .map((call) => call.callRef)
  if (strict && callRefs.length === 0)
    throw new PlatformError('NOT_EXPECTED', `Device ${deviceId} is in no call`)
  for (const callRef of callRefs) {
    const call = transaction.call(callRef)
    if (call === undefined) continue
    leave(
      transaction,
      call,
      call.connections.filter((connection) => onDevice(deviceId)(connection.endpoint)),
      context,
    )
  }
}

/** A simulated device hangs up: it leaves every call it is in (drop me for that device only). */
const deviceHangsUp: Operation<Command<'deviceHangsUp'>> = (transaction, command, context) => {
  requireDevice(transaction, command.deviceId)
  hangUpDevice(transaction, command.deviceId, true, context)
  return undefined
}

/**
 * Sets a simulated device: `autoAnswer` (for the calls that ring it from now on) and its operational state;
 * a device put out of service leaves every call it is in, as if hung up. A desk-sharing user's number changes
 * state only by the user's log-on and log-off (operations/desk-sharing.ts).
 */
const setDevice: Operation<Command<'setDevice'>> = (transaction, command, context) => {
  const device = requireDevice(transaction, command.deviceId)
  if (
    command.state !== undefined &&
    command.state !== 'IN_SERVICE' &&
    command.state !== 'OUT_OF_SERVICE'
  )
    throw new PlatformError('BAD_PARAMETER', 'state: must be IN_SERVICE or OUT_OF_SERVICE')
  if (
    command.state !== undefined &&
    command.state !== device.state &&
    context.directory.isDeskSharingUser?.(device.loginName) === true
  )
    throw new PlatformError(
      'NOT_EXPECTED',
      `Device ${command.deviceId} is the number of desk-sharing user '${device.loginName}': it is in service while the user is logged on at a set (log the user on or off instead)`,
    )
  changeDevice(transaction, command.deviceId, {
    ...(command.autoAnswer !== undefined && { autoAnswer: command.autoAnswer }),
    ...(command.state !== undefined && { state: command.state }),
  })
  if (command.state === 'OUT_OF_SERVICE' && device.state !== 'OUT_OF_SERVICE')
    hangUpDevice(transaction, command.deviceId, false, context)
  return undefined
}

export const simulationOperations = {
  incomingCall,
  outsidePartyAnswers,
  outsidePartyRejects,
  outsidePartyHangsUp,
  deviceAnswers,
  deviceHangsUp,
  setDevice,
}
