/**
 * Desk sharing (docs/call-model.md, "Desk sharing"): a desk-sharing user has a number but no phone of its own;
 * its number is in service only while the user is logged on at a desk-sharing set (DSS set) of the directory
 * file, and a set serves one user at a time. Logging on puts the number in service (the user is told with
 * OnDeviceStateModified), logging off takes it out again. Every refusal changes nothing.
 */
import { PlatformError } from '../../platform-error.js'
import { allCalls } from '../call-index.js'
import type { EngineContext, Operation } from '../engine-operation.js'
import type { DeskSharingSeats, EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { seatOf } from './desk-seats.js'
import { changeDevice } from './feature-support.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The user's number (the one device a desk-sharing user has); NOT_ALLOWED when not a desk-sharing user. */
function requireDeskSharingUser(context: EngineContext, loginName: string): string {
  if (context.directory.isDeskSharingUser?.(loginName) !== true)
    throw new PlatformError('NOT_ALLOWED', `'${loginName}' is not a desk-sharing user`)
  const number = context.directory.resolve(loginName)?.deviceId
  if (number === undefined)
    throw new PlatformError('NOT_EXPECTED', `'${loginName}' has no number to log on with`)
  return number
}

/**
 * NOT_EXPECTED while the number is in a call (ringing, talking or holding), or has a call parked that the park
 * timeout would ring back there.
 */
function requireIdle(transaction: Transaction, loginName: string, number: string): void {
  if (transaction.lookup().onDevice(number).length > 0)
    throw new PlatformError(
      'NOT_EXPECTED',
      `'${loginName}' is in a call on ${number}: log off or move once the calls end`,
    )
  if (allCalls(transaction.state).some((call) => call.parked?.fromDeviceId === number))
    throw new PlatformError(
      'NOT_EXPECTED',
      `'${loginName}' has a call parked from ${number}: log off or move once it is taken back`,
    )
}

function putSeats(transaction: Transaction, seats: DeskSharingSeats): void {
  if (Object.keys(seats).length === 0) delete transaction.state.deskSharing
  else transaction.state.deskSharing = seats
}

/**
 * The user logs on at `set`: its number goes in service there, and the set serves nobody else. Already there:
 * nothing changes. Logged on at another set: moves to this one (idle only), its number staying in service.
 */
const deskSharingLogOn: Operation<Command<'deskSharingLogOn'>> = (
  transaction,
  command,
  context,
) => {
  const { loginName, set } = command
  const number = requireDeskSharingUser(context, loginName)
  if (context.directory.isDeskSharingSet?.(set) !== true)
    throw new PlatformError('NOT_FOUND', `dssDeviceNumber: no desk-sharing set '${set}'`)
  const seats = transaction.state.deskSharing ?? {}
  const holder = seats[set]
  if (holder === loginName) return undefined
  if (holder !== undefined)
    throw new PlatformError('NOT_EXPECTED', `Desk-sharing set ${set} is in use by another user`)
  const current = seatOf(transaction.state, loginName)
  const next = { ...seats, [set]: loginName }
  if (current !== undefined) {
    requireIdle(transaction, loginName, number)
    delete next[current]
  }
  putSeats(transaction, next)
  changeDevice(transaction, number, { state: 'IN_SERVICE' })
  return undefined
}

/** The user logs off its set: its number goes out of service. Logged on nowhere: nothing changes. */
const deskSharingLogOff: Operation<Command<'deskSharingLogOff'>> = (
  transaction,
  command,
  context,
) => {
  const { loginName } = command
  const number = requireDeskSharingUser(context, loginName)
  const current = seatOf(transaction.state, loginName)
  if (current === undefined) return undefined
  requireIdle(transaction, loginName, number)
  const next = { ...transaction.state.deskSharing }
  delete next[current]
  putSeats(transaction, next)
  changeDevice(transaction, number, { state: 'OUT_OF_SERVICE' })
  return undefined
}

export const deskSharingOperations = { deskSharingLogOn, deskSharingLogOff }
