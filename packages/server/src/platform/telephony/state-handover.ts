/**
 * How a command's new state shares the big records of the state it started from (the calls and the call
 * index) without copying them: the Transaction changes the record of the state it started from in place,
 * when that state is the one the record was last handed to, and hands it on to the new state; the state it
 * started from keeps, instead, what the command changed (an undo log) and gets its own copy of the record
 * back only if it is ever read again (a property getter that rebuilds it, then becomes plain data). The
 * current state is always plain JSON data; a command costs what it changes, not the size of the records.
 */
import { compareCallRefs } from './call-index.js'
import type { TelephonyState } from './telephony-state.js'

/** The records of the state handed on from state to state. */
export type SharedField = 'calls' | 'callsByUser' | 'callsByDevice'
export type SharedRecord = Record<string, unknown>
/** The values a command replaced, by key: undefined where the key was absent. */
export type UndoLog = ReadonlyMap<string, unknown>

/**
 * Which state may change which records in place: the outcome of the last command (or the state it failed
 * on), only. One slot, not a map of every record: states are made by the thousand per second, and a weak
 * map of them costs the garbage collector more than what it saves; a command on any other state copies.
 */
let owner: { state: TelephonyState; records: Set<object> } | undefined

/** True when `state` may change `record` in place (nothing else can see it). */
export function owns(state: TelephonyState, record: object): boolean {
  return owner?.state === state && owner.records.has(record)
}

/** Makes `state` the one that may change `record` in place (and the only state that may change any). */
export function own(state: TelephonyState, record: object): void {
  if (owner?.state !== state) owner = { state, records: new Set() }
  owner.records.add(record)
}

/** The getter of a handed-on record, with where the record went and what changed on the way. */
type HandedOn = (() => SharedRecord) & { next: TelephonyState; undo: UndoLog }

/**
 * `state`'s `field` record was handed to `next` and changed as `undo` says: from now on `state` reads it
 * through a getter that rebuilds it (once) from `next`'s.
 */
export function handOver(
  state: TelephonyState,
  field: SharedField,
  next: TelephonyState,
  undo: UndoLog,
): void {
  const get: HandedOn = Object.assign(() => materialize(state, field), { next, undo })
  Object.defineProperty(state, field, {
    configurable: true,
    enumerable: true,
    get,
    set: (value: unknown) => settle(state, field, value),
  })
}

/** `state`'s field becomes plain data again. */
function settle(state: TelephonyState, field: SharedField, value: unknown): void {
  Object.defineProperty(state, field, {
    configurable: true,
    enumerable: true,
    writable: true,
    value,
  })
}

/** The handover of `state`'s `field`, if it was handed on and not rebuilt since. */
function handedOn(state: TelephonyState, field: SharedField): HandedOn | undefined {
  const get = Object.getOwnPropertyDescriptor(state, field)?.get as Partial<HandedOn> | undefined
  return get?.next === undefined ? undefined : (get as HandedOn)
}

/** Rebuilds `state`'s record: a copy of the latest one, with the changes since undone, newest first. */
function materialize(state: TelephonyState, field: SharedField): SharedRecord {
  const undos: UndoLog[] = []
  let current = state
  for (;;) {
    const handover = handedOn(current, field)
    if (handover === undefined) break
    undos.push(handover.undo)
    current = handover.next
  }
  const latest = current[field] as SharedRecord | undefined
  const record: SharedRecord = { ...latest }
  const readded = new Set<string>()
  for (const undo of undos.reverse())
    for (const [key, value] of undo) {
      if (value === undefined) {
        delete record[key]
        readded.delete(key)
      } else {
        if (!Object.hasOwn(record, key)) readded.add(key)
        record[key] = value
      }
    }
  const rebuilt = readded.size === 0 ? record : inOrder(record, readded)
  settle(state, field, rebuilt)
  return rebuilt
}

/**
 * The record with the `readded` keys (added back last) put back in their place among the others: the
 * order of the calls is the order of their callRefs (call-index.ts).
 */
export function inOrder(record: SharedRecord, readded: ReadonlySet<string>): SharedRecord {
  const back = [...readded].sort(compareCallRefs)
  const ordered: SharedRecord = {}
  let next = 0
  for (const [key, value] of Object.entries(record)) {
    if (readded.has(key)) continue
    for (; next < back.length && compareCallRefs(back[next] as string, key) < 0; next++)
      ordered[back[next] as string] = record[back[next] as string]
    ordered[key] = value
  }
  for (; next < back.length; next++) ordered[back[next] as string] = record[back[next] as string]
  return ordered
}
