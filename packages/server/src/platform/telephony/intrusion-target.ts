/**
 * Where an intrusion leads and whether it may happen (docs/call-model.md, "Call features"): the call a device
 * makes to a ringing user of the platform, the call that user talks in meanwhile, and the rules that keep the
 * caller out of it. The operation (operations/intrusion.ts) and the `intrusion` call capability
 * (feature-capabilities.ts) read the same rules.
 */
import { PlatformError } from '../platform-error.js'
import { CallLookup } from './call-index.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import type { CallRecord, Connection } from './telephony-state.js'

/** What the rules read of the engine's calls: a user's and a device's, in the order they were made in. */
export type CallsOf = Pick<CallLookup, 'ofUser' | 'onDevice'>

/** The calls of a lookup, or of a list of every call (oldest first), as the rules read them. */
export function callsOf(calls: CallLookup | readonly CallRecord[]): CallsOf {
  if (calls instanceof CallLookup) return calls
  const having = (has: (connection: Connection) => boolean) =>
    calls.filter((call) => call.connections.some(has))
  return {
    ofUser: (loginName) => having((connection) => connection.endpoint.loginName === loginName),
    onDevice: (deviceId) => having((connection) => connection.endpoint.deviceId === deviceId),
  }
}

/** The ringing directory user of a call of two parties; undefined for anything else. */
export function ringingUserOf(call: CallRecord): Connection | undefined {
  if (call.connections.length !== 2) return undefined
  return call.connections.find(
    (connection) =>
      connection.state === 'RINGING_INCOMING' && connection.endpoint.loginName !== undefined,
  )
}

/**
 * The call the user of `callee` talks in (ACTIVE) besides `except`: on the device that rings first, else on
 * another of its devices, the oldest first; undefined when it talks in none.
 */
export function busyCallOf(
  calls: CallsOf,
  callee: Connection,
  except: string,
): CallRecord | undefined {
  const login = callee.endpoint.loginName
  if (login === undefined) return undefined
  const talking = calls
    .ofUser(login)
    .filter(
      (call) =>
        call.callRef !== except &&
        call.connections.some((c) => c.endpoint.loginName === login && c.state === 'ACTIVE'),
    )
  const onRingingDevice = (call: CallRecord) =>
    call.connections.some(
      (c) => c.endpoint.deviceId === callee.endpoint.deviceId && c.state === 'ACTIVE',
    )
  return talking.find(onRingingDevice) ?? talking[0]
}

/**
 * Why `loginName` may not intrude from `deviceId` (calling out in `callRef`) into `busy`: a call with a
 * service of the platform (a voice mail, a park slot: nobody to talk to), or with the user in it already
 * (NOT_EXPECTED); a user of it protected against intrusion (NOT_ALLOWED); the device talking in another call
 * (NOT_EXPECTED: it talks in one call at a time). Undefined when nothing stands in the way.
 */
export function intrusionRefusal(
  directory: TelephonyDirectory,
  calls: CallsOf,
  busy: CallRecord,
  intruder: { loginName: string; deviceId: string; callRef: string },
): PlatformError | undefined {
  const { loginName, deviceId, callRef } = intruder
  if (busy.connections.some((connection) => connection.endpoint.service !== undefined))
    return new PlatformError('NOT_EXPECTED', 'The busy call is with a service of the platform')
  if (busy.connections.some((connection) => connection.endpoint.loginName === loginName))
    return new PlatformError('NOT_EXPECTED', `'${loginName}' is in the busy call already`)
  for (const { endpoint } of busy.connections) {
    const user = endpoint.loginName
    if (user !== undefined && directory.featuresOf?.(user)?.intrusionProtection === true)
      return new PlatformError('NOT_ALLOWED', `'${user}' is protected against intrusion`)
  }
  const talking = calls
    .onDevice(deviceId)
    .some(
      (call) =>
        call.callRef !== callRef &&
        call.connections.some((c) => c.endpoint.deviceId === deviceId && c.state === 'ACTIVE'),
    )
  if (talking)
    return new PlatformError('NOT_EXPECTED', `Device ${deviceId} is in another active call`)
  return undefined
}
