/**
 * The call capabilities of the call features (redirect to voice mail, overflow to voice mail, call back,
 * intrusion, park, recording) as one user sees them. A feature the directory does not offer the user is never shown
 * (the captured user of wire facts 6 was offered none of them); pause and resume of a recording are for
 * STANDARD users only (specification, call control table). See docs/call-model.md, "Call features".
 */
import type { CallCapabilities } from '@openness/wire'
import type { CallLookup } from './call-index.js'
import {
  busyCallOf,
  type CallsOf,
  callsOf,
  intrusionRefusal,
  ringingUserOf,
} from './intrusion-target.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import type { CallRecord, Connection } from './telephony-state.js'

/**
 * The ringing callee of a call the user is calling from `main`: a directory user's connection (not a member a
 * hunting group offers the call to: the caller calls the group, which has neither voice mail nor call back).
 */
export function ringingCallee(call: CallRecord): Connection | undefined {
  return call.connections.find(
    (connection) =>
      connection.state === 'RINGING_INCOMING' &&
      connection.endpoint.loginName !== undefined &&
      connection.endpoint.offeredBy === undefined,
  )
}

/** The feature capabilities of `loginName`'s side of the call, `main` being its main leg. */
export function featureCapabilities(
  call: CallRecord,
  main: Connection,
  loginName: string,
  directory: TelephonyDirectory,
  /** The engine's calls: the intrusion capability depends on the callee's other calls. */
  calls: CallLookup | readonly CallRecord[] | undefined,
  /** The capabilities to add to (returned): a new object when not given. */
  capabilities: CallCapabilities = {},
): CallCapabilities {
  const features = directory.featuresOf?.(loginName)
  if (features === undefined) return capabilities
  switch (main.state) {
    case 'RINGING_INCOMING':
      if (features.voicemail !== undefined && call.pendingCallee === undefined)
        capabilities.redirectToVoiceMail = true
      break
    case 'RINGING_OUTGOING': {
      const callee = ringingCallee(call)?.endpoint.loginName
      if (callee === undefined) break
      if (directory.featuresOf?.(callee)?.voicemail !== undefined)
        capabilities.overflowToVoiceMail = true
      if (features.callBack) capabilities.callBack = true
      if (
        features.intrusion &&
        calls !== undefined &&
        canIntrude(call, main, loginName, directory, callsOf(calls))
      )
        capabilities.intrusion = true
      break
    }
    case 'ACTIVE': {
      const others = call.connections.filter(
        (connection) => connection.endpoint.loginName !== loginName,
      )
      // As park accepts it (operations/park.ts): two parties, the other a person (not a park slot).
      const [other] = others
      if (
        features.park &&
        others.length === 1 &&
        call.connections.length === 2 &&
        other?.endpoint.service === undefined
      )
        capabilities.park = true
      if (features.recording) recordingCapabilities(call, loginName, directory, capabilities)
      break
    }
    case 'HELD':
      if (features.recording && call.recordState !== undefined)
        recordingCapabilities(call, loginName, directory, capabilities)
      break
    default:
      break
  }
  return capabilities
}

function recordingCapabilities(
  call: CallRecord,
  loginName: string,
  directory: TelephonyDirectory,
  capabilities: CallCapabilities,
): void {
  const own = call.connections.find((connection) => connection.endpoint.loginName === loginName)
  const deviceId = own?.endpoint.deviceId
  const standard = deviceId === undefined || directory.ownerOfDevice(deviceId)?.multimedia !== true
  if (call.recordState === undefined) {
    capabilities.startRecord = true
    return
  }
  capabilities.stopRecord = true
  if (standard && call.recordState === 'RECORDING') capabilities.pauseRecord = true
  if (standard && call.recordState === 'PAUSED') capabilities.resumeRecord = true
}

/**
 * True when the user calling out on `main` could intrude now (operations/intrusion.ts): the callee rings in a
 * call of two parties and talks in another call that `intrusionRefusal` lets the user into. The right is the
 * caller's to check.
 */
function canIntrude(
  call: CallRecord,
  main: Connection,
  loginName: string,
  directory: TelephonyDirectory,
  calls: CallsOf,
): boolean {
  const callee = ringingUserOf(call)
  const deviceId = main.endpoint.deviceId
  if (callee === undefined || deviceId === undefined) return false
  const busy = busyCallOf(calls, callee, call.callRef)
  if (busy === undefined) return false
  return (
    intrusionRefusal(directory, calls, busy, { loginName, deviceId, callRef: call.callRef }) ===
    undefined
  )
}
