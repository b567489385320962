/**
 * What changed in the calls between two states, found by object identity (the transaction copies the calls it
 * touches): for states the engine did not produce in one command (a loaded state completed at start).
 * A command's own changes come with its result (`EngineResult.changes`).
 */
import { compareCallRefs } from './call-index.js'
import type { TelephonyState } from './telephony-state.js'

/**
 * What one command changed in the calls of the telephony state, so that a store writes only that. Calls
 * the engine did not touch keep their object identity, which is how `callChanges` finds the others.
 */
export interface CallChanges {
  /** Calls added or modified, in the order of the state's `calls`. */
  changedCallRefs: readonly string[]
  /** Calls no longer in the state. */
  removedCallRefs: readonly string[]
  /**
   * Set when the changes hold a reset's or restore's `restoreState`: the other tables, the log among them, were
   * written under the store (docs/sandbox.md), which reads again what it knew of them (the next record id).
   */
  restored?: true
}

/**
 * The calls of `next` that are not the very objects of `previous` (new or modified), and the calls of
 * `previous` that `next` no longer has, each in callRef order. With no previous state every call counts as
 * changed.
 */
export function callChanges(
  previous: TelephonyState | undefined,
  next: TelephonyState,
): CallChanges {
  if (previous?.calls === next.calls) return { changedCallRefs: [], removedCallRefs: [] }
  const changedCallRefs: string[] = []
  for (const [callRef, call] of next.calls)
    if (previous?.calls.get(callRef) !== call) changedCallRefs.push(callRef)
  const removedCallRefs: string[] = []
  for (const callRef of previous?.calls.keys() ?? [])
    if (!next.calls.has(callRef)) removedCallRefs.push(callRef)
  return {
    changedCallRefs: changedCallRefs.sort(compareCallRefs),
    removedCallRefs: removedCallRefs.sort(compareCallRefs),
  }
}

/**
 * The changes of commands run one after the other, as one: a call changed by one and removed by a later one
 * is removed, a call removed and then changed again is changed; each list in callRef order.
 */
export function mergeCallChanges(steps: readonly CallChanges[]): CallChanges {
  if (steps.length === 1 && steps[0] !== undefined) return steps[0]
  const changed = new Set<string>()
  const removed = new Set<string>()
  for (const { changedCallRefs, removedCallRefs } of steps) {
    for (const callRef of changedCallRefs) {
      removed.delete(callRef)
      changed.add(callRef)
    }
    for (const callRef of removedCallRefs) {
      changed.delete(callRef)
      removed.add(callRef)
    }
  }
  return {
    changedCallRefs: [...changed].sort(compareCallRefs),
    removedCallRefs: [...removed].sort(compareCallRefs),
    ...(steps.some((step) => step.restored) && { restored: true }),
  }
}
