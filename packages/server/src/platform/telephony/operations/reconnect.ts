/**
 * Reconnect (O2G; CSTA Reconnect Call): the user cancels its consultation, leaving the enquiry call it placed
 * (answered or still ringing) and taking back the call it held, on one device (docs/call-model.md,
 * "Consultation, transfer and conference"). The nearest relative of alternate (transfer.ts), which keeps both.
 */
import { PlatformError } from '../../platform-error.js'
import type { Operation } from '../engine-operation.js'
import { moveConnection } from '../media-state-machine.js'
import type { EngineCommand } from '../telephony-state.js'
import { leave } from './basic.js'
import {
  peekCall,
  requireConnection,
  requireNotActiveElsewhere,
  touchConnection,
} from './guards.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/**
 * Checks everything first: two calls (BAD_PARAMETER), both known (NOT_FOUND), the user HELD on `deviceId` in
 * the held call and ACTIVE or RINGING_OUTGOING on it in the enquiry call (NOT_FOUND / NOT_EXPECTED), the
 * device talking in no third call (NOT_EXPECTED). Then the device's leg leaves the enquiry call as drop me
 * would (a two-party call is released, a conference goes on: `leave`), and the held leg is retrieved.
 */
const reconnect: Operation<Command<'reconnect'>> = (transaction, command, context) => {
  if (command.callRef === command.enquiryCallRef)
    throw new PlatformError(
      'BAD_PARAMETER',
      'enquiryCallRef: must be another call than the held one',
    )
  const held = peekCall(transaction, command.callRef)
  const enquiry = peekCall(transaction, command.enquiryCallRef)
  const { loginName, deviceId } = command
  const heldLeg = requireConnection(held, loginName, ['HELD'], deviceId)
  const enquiryLeg = requireConnection(enquiry, loginName, ['ACTIVE', 'RINGING_OUTGOING'], deviceId)
  requireNotActiveElsewhere(transaction, deviceId, enquiry.callRef)
  const leaving = touchConnection(transaction, enquiry, enquiryLeg)
  leave(transaction, leaving.call, [leaving.connection], context)
  const retrieving = touchConnection(transaction, held, heldLeg)
  moveConnection(retrieving.call, retrieving.connection, 'ACTIVE')
  return undefined
}

export const reconnectOperations = { reconnect }
