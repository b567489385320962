/**
 * The calls of a user or of a device, found through the index the state keeps (`callsByUser`,
 * `callsByDevice`: the callRefs each user or device has a connection in) instead of by scanning every call,
 * so that a command costs what the calls it touches cost, not what all calls cost (docs/performance.md).
 * The Transaction maintains the index (transaction.ts, at the end of each command); while a command runs,
 * its lookup (`Transaction.lookup`) also looks at the calls it touched, which the index describes as they
 * were.
 */
import type { CallRecord, TelephonyState } from './telephony-state.js'

/** The index fields of the state: login name or device id to the callRefs of its calls. */
export type CallIndexField = 'callsByUser' | 'callsByDevice'

/** The users and devices a call is in (those of its connections). */
export function indexKeys(call: CallRecord | undefined): {
  users: Set<string>
  devices: Set<string>
} {
  const users = new Set<string>()
  const devices = new Set<string>()
  for (const { endpoint } of call?.connections ?? []) {
    if (endpoint.loginName !== undefined) users.add(endpoint.loginName)
    if (endpoint.deviceId !== undefined) devices.add(endpoint.deviceId)
  }
  return { users, devices }
}

/** The index of all the calls (to start one for a state that has none). */
export function buildIndex(
  calls: Readonly<Record<string, CallRecord>>,
): Record<CallIndexField, Record<string, string[]>> {
  const callsByUser: Record<string, string[]> = {}
  const callsByDevice: Record<string, string[]> = {}
  for (const call of Object.values(calls)) {
    const { users, devices } = indexKeys(call)
    for (const user of users) add(callsByUser, user, call.callRef)
    for (const device of devices) add(callsByDevice, device, call.callRef)
  }
  return { callsByUser, callsByDevice }
}

function add(index: Record<string, string[]>, key: string, callRef: string): void {
  if (Object.hasOwn(index, key)) index[key]?.push(callRef)
  else index[key] = [callRef]
}

/**
 * The order of the calls in the state's `calls`: the order they were created in, which is the order of
 * their callRefs (`Transaction.nextId`: fixed-width hexadecimal of an increasing sequence).
 */
export function compareCallRefs(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** The calls of a user or a device, in the order of the state's calls. */
export class CallLookup {
  constructor(
    /** The entry of an index field, or undefined when the state has no index (then every call is scanned). */
    private readonly entry:
      | ((field: CallIndexField, key: string) => readonly string[] | undefined)
      | undefined,
    /** A call by callRef. */
    private readonly get: (callRef: string) => CallRecord | undefined,
    /** Every call, in order: only without an index. */
    private readonly all: () => Iterable<CallRecord>,
    /** Calls the index may not describe as they are (touched by the running command). */
    private readonly pending: ReadonlySet<string> | undefined,
  ) {}

  /** The calls the user has a connection in. */
  ofUser(loginName: string): CallRecord[] {
    return this.find('callsByUser', loginName, (call) =>
      call.connections.some((connection) => connection.endpoint.loginName === loginName),
    )
  }

  /** The calls the device has a connection in. */
  onDevice(deviceId: string): CallRecord[] {
    return this.find('callsByDevice', deviceId, (call) =>
      call.connections.some((connection) => connection.endpoint.deviceId === deviceId),
    )
  }

  private find(
    field: CallIndexField,
    key: string,
    isIn: (call: CallRecord) => boolean,
  ): CallRecord[] {
    const found: CallRecord[] = []
    if (this.entry === undefined) {
      for (const call of this.all()) if (isIn(call)) found.push(call)
      return found
    }
    const indexed = this.entry(field, key) ?? []
    let callRefs: readonly string[] = indexed
    if (this.pending !== undefined && this.pending.size > 0)
      callRefs = [...new Set([...indexed, ...this.pending])]
    if (callRefs.length > 1) callRefs = [...callRefs].sort(compareCallRefs)
    for (const callRef of callRefs) {
      const call = this.get(callRef)
      if (call !== undefined && isIn(call)) found.push(call)
    }
    return found
  }
}

/**
 * The lookup of the calls of a state (through its index when it has one); `pending` are the calls a running
 * command touched, which the index may not describe as they are.
 */
export function lookupOf(state: TelephonyState, pending?: ReadonlySet<string>): CallLookup {
  const byUser = state.callsByUser
  const byDevice = state.callsByDevice
  return new CallLookup(
    byUser === undefined || byDevice === undefined
      ? undefined
      : (field, key) => {
          const index = field === 'callsByUser' ? byUser : byDevice
          return Object.hasOwn(index, key) ? index[key] : undefined
        },
    (callRef) => state.calls[callRef],
    () => Object.values(state.calls),
    pending,
  )
}
