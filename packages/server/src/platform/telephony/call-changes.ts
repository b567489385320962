/**
 * What changed in the calls between two states, found by object identity (the transaction copies the calls it
 * touches): for states the engine did not produce in one command (a loaded state completed at start).
 * A command's own changes come with its result (`EngineResult.changes`).
 */
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
  const changedCallRefs: string[] = []
  for (const [callRef, call] of Object.entries(next.calls))
    if (previous?.calls[callRef] !== call) changedCallRefs.push(callRef)
  const removedCallRefs =
    previous === undefined
      ? []
      : Object.keys(previous.calls).filter((callRef) => !Object.hasOwn(next.calls, callRef))
  return { changedCallRefs, removedCallRefs }
}
