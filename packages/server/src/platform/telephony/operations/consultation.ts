/**
 * Consultation call (CSTA): a make call from a device that has an ACTIVE call puts that call on hold first
 * (docs/call-model.md, "Consultation, transfer and conference"). Kept apart from transfer.ts so that
 * basic.ts can use it without an import cycle.
 */
import { PlatformError } from '../../platform-error.js'
import type { CallLookup } from '../call-index.js'
import { moveConnection } from '../media-state-machine.js'
import type { CallRecord, Connection } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { touchConnection } from './guards.js'

/** The user's connections on `deviceId` among `calls`, in every call except `exceptCallRef`. */
export function connectionsOnDevice(
  calls: CallLookup,
  loginName: string,
  deviceId: string | undefined,
  mediaState: Connection['state'],
  exceptCallRef?: string,
): { call: CallRecord; connection: Connection }[] {
  const found: { call: CallRecord; connection: Connection }[] = []
  if (deviceId === undefined) return found
  for (const call of calls.onDevice(deviceId)) {
    if (call.callRef === exceptCallRef) continue
    for (const connection of call.connections)
      if (
        connection.endpoint.deviceId === deviceId &&
        connection.endpoint.loginName === loginName &&
        connection.state === mediaState
      )
        found.push({ call, connection })
  }
  return found
}

/**
 * Before a make call from `deviceId`: when the device has an ACTIVE call, puts it on hold and answers true
 * (the new call is then a consultation call, placed at once: the device is already off-hook). Refuses with
 * NOT_EXPECTED, before changing anything, when the device already has a held call besides the active one
 * (one consultation at a time: transfer, merge or alternate first).
 */
export function holdForConsultation(
  transaction: Transaction,
  loginName: string,
  deviceId: string,
): boolean {
  const active = connectionsOnDevice(transaction.lookup(), loginName, deviceId, 'ACTIVE')
  const first = active[0]
  if (first === undefined) return false
  if (connectionsOnDevice(transaction.lookup(), loginName, deviceId, 'HELD').length > 0)
    throw new PlatformError(
      'NOT_EXPECTED',
      `Device ${deviceId} already has an active and a held call: transfer, merge or alternate first`,
    )
  const { call, connection } = touchConnection(transaction, first.call, first.connection)
  moveConnection(call, connection, 'HELD')
  return true
}
