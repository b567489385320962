/**
 * The interphony key (O2G `ithmicro`; the SDKs' toggleInterphony): a press on the set's key, which in a call
 * turns the microphone off and on, on an idle set turns interphony (automatic answer) on and off, and does
 * nothing while the set rings (docs/call-model.md, "Call features").
 */
import type { MediaState } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import type { Operation } from '../engine-operation.js'
import type { EngineCommand } from '../telephony-state.js'
import { changeDevice, requireDeviceOf } from './feature-support.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The states of a device "in a call" for the key: an outgoing or established call, held or not. */
const IN_CALL: readonly MediaState[] = ['DIALING', 'RINGING_OUTGOING', 'ACTIVE', 'HELD']

/**
 * Checks the device first: known (NOT_FOUND), the user's (NOT_ALLOWED), in service (NOT_EXPECTED), and, in a
 * call, mutable (NOT_EXPECTED). Then, in a call, `muted` flips, as mute and unmute set it (the one microphone
 * of the device: GET /telephony/devices and OnDeviceStateModified show it); idle, `autoAnswer` flips, the
 * interphony of a simulated set, told to nobody; ringing only, nothing changes.
 */
const toggleInterphony: Operation<Command<'toggleInterphony'>> = (
  transaction,
  command,
  context,
) => {
  const { loginName, deviceId } = command
  const device = transaction.state.devices[deviceId]
  if (device === undefined) throw new PlatformError('NOT_FOUND', `No device '${deviceId}'`)
  requireDeviceOf(context, loginName, deviceId)
  if (device.state !== 'IN_SERVICE')
    throw new PlatformError('NOT_EXPECTED', `Device ${deviceId} is out of service`)
  const states = transaction
    .lookup()
    .onDevice(deviceId)
    .flatMap((call) => call.connections.filter((c) => c.endpoint.deviceId === deviceId))
    .map((connection) => connection.state)
  if (states.some((state) => IN_CALL.includes(state))) {
    if (!device.mutable)
      throw new PlatformError('NOT_EXPECTED', `Device ${deviceId} has no microphone to turn off`)
    changeDevice(transaction, deviceId, { muted: !device.muted })
  } else if (!states.includes('RINGING_INCOMING'))
    changeDevice(transaction, deviceId, { autoAnswer: device.autoAnswer !== true })
  return undefined
}

export const interphonyOperations = { toggleInterphony }
