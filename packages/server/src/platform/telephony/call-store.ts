/** The call engine's durable store (docs/call-model.md, "Runtime and storage of calls"). */
import type { ComRecordDraft, StoredComRecord } from '../comlog/com-record.js'
import type { CallChanges } from './call-changes.js'
import type { TelephonyState } from './telephony-state.js'

/**
 * Durable storage of the call engine's state (calls in progress, devices, pending timers), so that calls
 * survive a restart of the service. Each call and device is a plain JSON record; the rest of the state is
 * opaque JSON to the store: every field is kept.
 */
export interface CallStore {
  /** Reads the state as last saved, its call index rebuilt (`withCalls`); undefined when none was. */
  load(): Promise<TelephonyState | undefined>
  /**
   * Saves `state` after a command, atomically: writes the `changes` calls, deletes the removed ones and
   * replaces the rest of the state (sequence, devices, timers and any other field). Devices are found
   * changed as calls are, by object identity (with the devices last saved or loaded): a changed device, or
   * a changed set of devices, is a new object. The call index (`callsByUser`, `callsByDevice`) is derived
   * from the calls: a store rebuilds it at load rather than keep it.
   */
  save(state: TelephonyState, changes: CallChanges): Promise<void>
  /**
   * Saves `state` as `save` does and, in the same transaction, appends `records` to the communication log
   * (the records of the users who left a call in the command: docs/comlog.md); resolves to them as stored,
   * with their ids, in the same order. Nothing is written when any part fails.
   */
  saveWithRecords(
    state: TelephonyState,
    changes: CallChanges,
    records: readonly ComRecordDraft[],
  ): Promise<StoredComRecord[]>
  /**
   * False for a store whose save costs nothing per transaction (in memory): the runtime then stores a batch
   * as soon as the commands asked in the same run of the program have joined it, instead of waiting for the
   * end of the event loop's turn, which lets commands read together share one commit (group commit) and
   * costs a turn of the loop, about 3 µs, a batch. True when absent.
   */
  readonly groupCommit?: boolean
  /** Releases what the store holds (connections it owns). */
  close(): Promise<void>
}
