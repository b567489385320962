/**
 * The calls of a user or of a device, found through the index the state keeps (`callsByUser`,
 * `callsByDevice`: the callRefs each user or device has a connection in) instead of by scanning every call,
 * so that a command costs what the calls it touches cost, not what all calls cost (docs/performance.md).
 * The Transaction maintains the index (transaction.ts, at the end of each command); while a command runs,
 * its lookup (`Transaction.lookup`) also looks at the calls it touched, which the index describes as they
 * were.
 */
import { Map as ImmutableMap } from 'immutable'
import type {
  CallFields,
  CallIndex,
  CallMap,
  CallRecord,
  TelephonyState,
} from './telephony-state.js'

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

/** The index of these calls (for a state whose calls were loaded or written by hand). */
export function buildIndex(calls: Iterable<CallRecord>): Record<CallIndexField, CallIndex> {
  const callsByUser = new Map<string, string[]>()
  const callsByDevice = new Map<string, string[]>()
  const sorted = [...calls].sort((a, b) => compareCallRefs(a.callRef, b.callRef))
  for (const call of sorted) {
    const { users, devices } = indexKeys(call)
    for (const user of users) add(callsByUser, user, call.callRef)
    for (const device of devices) add(callsByDevice, device, call.callRef)
  }
  return { callsByUser: ImmutableMap(callsByUser), callsByDevice: ImmutableMap(callsByDevice) }
}

function add(index: Map<string, string[]>, key: string, callRef: string): void {
  const entry = index.get(key)
  if (entry === undefined) index.set(key, [callRef])
  else entry.push(callRef)
}

/**
 * A fixed order of callRefs, for lists that need one only to be the same from run to run (what a store
 * writes, the index's lists). It is not the order the calls were made in: callRefs are scrambled
 * (call-refs.ts); that order is `compareCalls`.
 */
export function compareCallRefs(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The order of the calls: the order they were made in, by their serial. Wherever the engine goes through
 * several calls (a user's, a device's, the first where an outside party rings) it goes in this order, so that
 * the same state and command give the same events (the maps of the state have no meaningful order of their
 * own) and "the oldest call" means what it says.
 */
export function compareCalls(a: CallRecord, b: CallRecord): number {
  return serialOf(a) - serialOf(b) || compareCallRefs(a.callRef, b.callRef)
}

/**
 * A call's serial; for a call made before callRefs were scrambled, its callRef was the sequence number in
 * hex, which this reads back, so calls stored then keep their place. Anything else (tests' own callRefs)
 * falls back to the callRef's order.
 */
function serialOf(call: CallRecord): number {
  return (
    call.serial ?? (/^[0-9a-f]{16}$/.test(call.callRef) ? Number.parseInt(call.callRef, 16) : 0)
  )
}

/** The calls and their index: what a lookup reads (a state, or the state a command is building). */
type IndexedCalls = Pick<TelephonyState, 'calls' | CallIndexField>

/** The calls of a user or a device, in the order they were made in. */
export class CallLookup {
  constructor(
    /** Read at each lookup: the state a command is building changes as the command runs. */
    private readonly state: IndexedCalls,
    /** Calls the index may not describe as they are (touched by the running command). */
    private readonly pending: ReadonlySet<string> | undefined,
  ) {}

  /** The calls the user has a connection in. */
  ofUser(loginName: string): CallRecord[] {
    return this.find(this.state.callsByUser.get(loginName), (call) =>
      call.connections.some((connection) => connection.endpoint.loginName === loginName),
    )
  }

  /** The calls the device has a connection in. */
  onDevice(deviceId: string): CallRecord[] {
    return this.find(this.state.callsByDevice.get(deviceId), (call) =>
      call.connections.some((connection) => connection.endpoint.deviceId === deviceId),
    )
  }

  /**
   * The calls among the indexed and the pending ones that are really in (`isIn`), in the order made: each
   * callRef looked at once, the pending ones after the indexed ones that are not pending (no merged copy of
   * the two lists: this runs several times a command).
   */
  private find(
    indexed: readonly string[] | undefined,
    isIn: (call: CallRecord) => boolean,
  ): CallRecord[] {
    const found: CallRecord[] = []
    const pending = this.pending
    if (indexed !== undefined)
      for (const callRef of indexed)
        if (pending === undefined || !pending.has(callRef)) this.collect(callRef, isIn, found)
    if (pending !== undefined) for (const callRef of pending) this.collect(callRef, isIn, found)
    return found.length > 1 ? found.sort(compareCalls) : found
  }

  /** Adds the call to `found` when it exists and is in (`isIn`). */
  private collect(callRef: string, isIn: (call: CallRecord) => boolean, found: CallRecord[]): void {
    const call = this.state.calls.get(callRef)
    if (call !== undefined && isIn(call)) found.push(call)
  }
}

/**
 * The lookup of the calls of a state through its index; `pending` are the calls a running command touched,
 * which the index may not describe as they are.
 */
export function lookupOf(state: IndexedCalls, pending?: ReadonlySet<string>): CallLookup {
  return new CallLookup(state, pending)
}

/**
 * The index with the call moved from the users and devices of `was` to those of `is` (either absent: a call
 * added or removed): how a replica follows the calls a batch changed without rebuilding the whole index.
 */
export function reindexCall(
  index: Readonly<Record<CallIndexField, CallIndex>>,
  callRef: string,
  was: CallRecord | undefined,
  is: CallRecord | undefined,
): Record<CallIndexField, CallIndex> {
  const before = indexKeys(was)
  const after = indexKeys(is)
  return {
    callsByUser: moveIn(index.callsByUser, callRef, before.users, after.users),
    callsByDevice: moveIn(index.callsByDevice, callRef, before.devices, after.devices),
  }
}

function moveIn(
  index: CallIndex,
  callRef: string,
  was: ReadonlySet<string>,
  is: ReadonlySet<string>,
): CallIndex {
  let next = index
  for (const key of was)
    if (!is.has(key)) {
      const left = (next.get(key) ?? []).filter((ref) => ref !== callRef)
      next = left.length > 0 ? next.set(key, left) : next.delete(key)
    }
  for (const key of is) if (!was.has(key)) next = next.set(key, [...(next.get(key) ?? []), callRef])
  return next
}

/** Every call in progress, oldest first (the order they were made in: `compareCalls`). */
export function allCalls(state: TelephonyState): CallRecord[] {
  return [...state.calls.values()].sort(compareCalls)
}

/**
 * The state with exactly these calls, and their index: how a store turns the calls it loaded into a state,
 * and how tests write a state with calls in it. Every other field of `state` is kept, in its place.
 */
export function withCalls<S extends Omit<TelephonyState, CallFields>>(
  state: S,
  calls: Iterable<CallRecord>,
): Omit<S, CallFields> & Pick<TelephonyState, CallFields> {
  const map: CallMap = ImmutableMap([...calls].map((call) => [call.callRef, call] as const))
  return { ...state, calls: map, ...buildIndex(map.values()) }
}
