/**
 * How the call stores write the telephony state as JSON: one text per call, and one text for the rest of
 * the state (every field but the calls, whatever fields the engine adds), which keeps the place of `calls`
 * so that a loaded state has its fields in the order they were saved in.
 */
import type { CallRecord, TelephonyState } from '../platform/telephony/telephony-state.js'

/** The state without its calls, as JSON. */
export function encodeRest(state: TelephonyState): string {
  return JSON.stringify({ ...state, calls: null })
}

/** One call as JSON. */
export function encodeCall(call: CallRecord): string {
  return JSON.stringify(call)
}

/** The state from the rest and the calls, `[callRef, json]` in the order the calls are to be listed. */
export function decodeState(
  rest: string,
  calls: Iterable<readonly [string, string]>,
): TelephonyState {
  const state = JSON.parse(rest) as Omit<TelephonyState, 'calls'> & {
    calls: Record<string, CallRecord> | null
  }
  const byRef: Record<string, CallRecord> = {}
  for (const [callRef, json] of calls) byRef[callRef] = JSON.parse(json) as CallRecord
  state.calls = byRef
  return state as TelephonyState
}
