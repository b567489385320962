/**
 * The CallStore port in memory: calls kept as JSON by callRef (a Map keeps them in the order they were
 * first saved) and the rest of the state as one JSON text, so that nothing the engine holds is shared.
 */
import type { CallChanges, CallStore } from '../../platform/ports.js'
import type { TelephonyState } from '../../platform/telephony/telephony-state.js'
import { decodeState, encodeCall, encodeRest } from '../call-state-json.js'

export class MemoryCallStore implements CallStore {
  readonly #calls = new Map<string, string>()
  #rest: string | undefined

  async load(): Promise<TelephonyState | undefined> {
    if (this.#rest === undefined) return undefined
    return decodeState(this.#rest, this.#calls)
  }

  async save(state: TelephonyState, changes: CallChanges): Promise<void> {
    // Encode everything first, so that a call that cannot be encoded leaves the store unchanged.
    const rest = encodeRest(state)
    const calls = changes.changedCallRefs.map((callRef) => {
      const call = state.calls[callRef]
      if (call === undefined) throw new Error(`Changed call ${callRef} is not in the state`)
      return [callRef, encodeCall(call)] as const
    })
    for (const [callRef, json] of calls) this.#calls.set(callRef, json)
    for (const callRef of changes.removedCallRefs) this.#calls.delete(callRef)
    this.#rest = rest
  }

  async close(): Promise<void> {}
}
