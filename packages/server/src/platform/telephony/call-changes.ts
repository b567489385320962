/** What a command changed in the calls, found by object identity (the transaction copies the calls it touches). */
import type { CallChanges } from '../ports.js'
import type { TelephonyState } from './telephony-state.js'

/**
 * The calls of `next` that are not the very objects of `previous` (new or modified), and the calls of
 * `previous` that `next` no longer has. With no previous state every call counts as changed.
 */
export function callChanges(
  previous: TelephonyState | undefined,
  next: TelephonyState,
): CallChanges {
  // What the engine's command recorded (the calls it touched), when `next` is its outcome on `previous`.
  if (recorded !== undefined && recorded.next === next && recorded.previous === previous)
    return recorded.changes
  const changedCallRefs: string[] = []
  for (const [callRef, call] of Object.entries(next.calls))
    if (previous?.calls[callRef] !== call) changedCallRefs.push(callRef)
  const removedCallRefs =
    previous === undefined
      ? []
      : Object.keys(previous.calls).filter((callRef) => !Object.hasOwn(next.calls, callRef))
  return { changedCallRefs, removedCallRefs }
}

/**
 * What the engine's last command changed, with the states before and after it (one command only: a map
 * of every state to the one before it would keep every state ever made alive).
 */
let recorded: { previous: TelephonyState; next: TelephonyState; changes: CallChanges } | undefined

/**
 * @internal for the Transaction: what its command changed in the calls, so that `callChanges` costs what
 * the command touched rather than a look at every call.
 */
export function recordCallChanges(
  previous: TelephonyState,
  next: TelephonyState,
  changes: CallChanges,
): void {
  recorded = { previous, next, changes }
}
