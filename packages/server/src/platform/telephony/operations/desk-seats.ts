/**
 * Who sits at which desk-sharing set, as the rest of the engine reads it (operations/desk-sharing.ts changes
 * it): the set a user is logged on at, and whether a number is a desk-sharing user's, logged on nowhere.
 */
import type { EngineContext } from '../engine-operation.js'
import type { TelephonyState } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'

/** The set the user is logged on at; undefined when none. */
export function seatOf(state: Pick<TelephonyState, 'deskSharing'>, loginName: string) {
  const seats = state.deskSharing
  if (seats === undefined) return undefined
  for (const set in seats) if (seats[set] === loginName) return set
  return undefined
}

/**
 * True for a device of a desk-sharing user that is out of service, the user logged on nowhere: a call to it
 * follows the user's routing as for a busy user, else is refused (operations/routing.ts); nothing else
 * may ring it (operations/ringing.ts).
 */
export function isLoggedOffNumber(
  transaction: Transaction,
  context: EngineContext,
  deviceId: string | undefined,
  loginName: string | undefined,
): boolean {
  if (deviceId === undefined || loginName === undefined) return false
  if (context.directory.isDeskSharingUser?.(loginName) !== true) return false
  return transaction.state.devices[deviceId]?.state !== 'IN_SERVICE'
}
