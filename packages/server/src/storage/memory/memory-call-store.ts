/**
 * The CallStore port in memory: calls and devices kept as JSON by key (a Map keeps them in the order they
 * were first saved) and the rest of the state as one small JSON text (call-state-json.ts), so that nothing
 * the engine holds is shared and a save encodes only what the command changed.
 */
import type { ComRecordDraft, StoredComRecord } from '../../platform/comlog/com-record.js'
import type { CallChanges } from '../../platform/telephony/call-changes.js'
import type { CallStore } from '../../platform/telephony/call-store.js'
import {
  callOf,
  type DeviceRecord,
  type TelephonyState,
} from '../../platform/telephony/telephony-state.js'
import { decodeState, deviceWrites, encodeCall, encodeRest } from '../call-state-json.js'

export class MemoryCallStore implements CallStore {
  /** A save here is a few Map writes: nothing that commands would gain by sharing (CallStore.groupCommit). */
  readonly groupCommit = false
  readonly #calls = new Map<string, string>()
  readonly #devices = new Map<string, string>()
  #rest: string | undefined
  /** The devices record last saved or loaded, to write only the devices that are new objects since. */
  #savedDevices: Readonly<Record<string, DeviceRecord>> | undefined

  async load(): Promise<TelephonyState | undefined> {
    if (this.#rest === undefined) return undefined
    const { state } = decodeState(this.#rest, this.#calls, this.#devices)
    this.#savedDevices = state.devices
    return state
  }

  async save(state: TelephonyState, changes: CallChanges): Promise<void> {
    // Encode everything first, so that a call that cannot be encoded leaves the store unchanged.
    const rest = encodeRest(state)
    const calls = changes.changedCallRefs.map((callRef) => {
      const call = callOf(state, callRef)
      if (call === undefined) throw new Error(`Changed call ${callRef} is not in the state`)
      return [callRef, encodeCall(call)] as const
    })
    const devices = deviceWrites(this.#savedDevices, state.devices)
    for (const [callRef, json] of calls) this.#calls.set(callRef, json)
    for (const callRef of changes.removedCallRefs) this.#calls.delete(callRef)
    if (devices.replace) this.#devices.clear()
    for (const [deviceId, json] of devices.changed) this.#devices.set(deviceId, json)
    for (const deviceId of devices.removed) this.#devices.delete(deviceId)
    this.#rest = rest
    this.#savedDevices = state.devices
  }

  /** The records appended with the calls' ends, oldest first (this store has no ComlogStore over them). */
  readonly records: StoredComRecord[] = []

  async saveWithRecords(
    state: TelephonyState,
    changes: CallChanges,
    drafts: readonly ComRecordDraft[],
  ): Promise<StoredComRecord[]> {
    await this.save(state, changes)
    const stored = drafts.map((draft, index) => ({
      loginName: draft.loginName,
      missed: draft.missed,
      record: { recordId: this.records.length + index + 1, ...draft.record, acknowledged: false },
    }))
    this.records.push(...stored)
    return stored
  }

  async close(): Promise<void> {}
}
