/**
 * What one save of the call engine's state writes, decided before any statement runs: the calls and devices
 * that changed, as JSON rows with their positions, the rest row when it changed, and the records of the
 * communication log with their ids. SqlCallStore runs the plan through Kysely, in a transaction of the
 * service's connection, or as one fenced statement on PostgreSQL (postgres-fenced-save.ts) (docs/call-model.md,
 * "Runtime and storage of calls").
 */
import type { Kysely } from 'kysely'
import type { ComRecordDraft, StoredComRecord } from '../../platform/comlog/com-record.js'
import type { CallChanges } from '../../platform/telephony/call-changes.js'
import {
  callOf,
  type DeviceRecord,
  type TelephonyState,
} from '../../platform/telephony/telephony-state.js'
import { deviceWrites, encodeCall, encodeRest, outboxName, outboxRow } from '../call-state-json.js'
import { appendRows, nextComRecordId } from './comlog-record-appender.js'
import { INDEX_BATCH } from './comlog-user-index.js'
import type { CallDatabase } from './database.js'

/** A call's or a device's row: its key, its position (kept by an existing row), its JSON. */
export type PositionedRow = readonly [key: string, position: number, record: string]

/** Everything one save writes, as plain data. */
export interface CallWritePlan {
  /** Calls added or changed; an existing call keeps its position. */
  calls: PositionedRow[]
  removedCalls: readonly string[]
  /** Whether every device row is replaced (the first save, or the first after a load of an old state). */
  replaceDevices: boolean
  /** Devices added or changed; an existing device keeps its position. */
  devices: PositionedRow[]
  removedDevices: readonly string[]
  /** The rest row's new value, or undefined when it did not change. */
  rest: string | undefined
  /** Whether every outbox row is dropped before `outbox` is written (what is stored is unknown). */
  replaceOutbox: boolean
  /**
   * The `telephony_state` rows of the batches whose events the state keeps (`unpublished`) and that are not
   * stored yet, `[name, events' JSON]`: each batch's events are written once, not with every rest row.
   */
  outbox: Array<readonly [name: `outbox:${number}`, value: string]>
  /** The names of the outbox rows of batches the state no longer keeps (their events known published). */
  removedOutbox: ReadonlyArray<`outbox:${number}`>
  /** The records appended to the log, their values in APPEND_COLUMNS order. */
  records: unknown[][]
  /** Whether the records appended so far are to be indexed by user and date in this save. */
  index: boolean
}

/** A plan, what the store returns once it is written, and how the planner keeps its state then. */
export interface PlannedSave {
  plan: CallWritePlan
  stored: StoredComRecord[]
  /** Keeps the planner's state: call it once the plan is written, never when it failed. */
  written(): void
}

/**
 * Plans saves one after the other, knowing what the previous ones wrote: the rest row and devices last
 * written (to skip the unchanged), the next positions and record id, the records not indexed yet. It reads
 * the database only for what it does not know yet, at its first save.
 */
export class CallWritePlanner {
  #nextPosition: number | undefined
  #nextDevicePosition: number | undefined
  #nextRecordId: number | undefined
  #unindexed = 0
  #rest: string | undefined
  #devices: Readonly<Record<string, DeviceRecord>> | undefined
  /** The batches whose outbox rows are stored; undefined when unknown (every row is then written anew). */
  #outbox: ReadonlySet<number> | undefined

  /**
   * What a load found: the rest row, devices and outbox rows' batches as stored (undefined when they are to
   * be written anew).
   */
  loaded(
    rest: string | undefined,
    devices: Readonly<Record<string, DeviceRecord>> | undefined,
    outbox: readonly number[] | undefined,
  ): void {
    this.#rest = rest
    this.#devices = devices
    this.#outbox = outbox === undefined ? undefined : new Set(outbox)
  }

  /** Plans the save of `state` after `changes`, appending `drafts`; reads `db` for the first positions. */
  async plan(
    db: Kysely<CallDatabase>,
    state: TelephonyState,
    changes: CallChanges,
    drafts: readonly ComRecordDraft[],
  ): Promise<PlannedSave> {
    const unpublished = state.unpublished ?? []
    const rest = encodeRest(unpublished.length === 0 ? state : { ...state, unpublished: undefined })
    const storedOutbox = this.#outbox
    const outbox = unpublished
      .filter(({ batch }) => storedOutbox === undefined || !storedOutbox.has(batch))
      .map(outboxRow)
    const kept = new Set(unpublished.map(({ batch }) => batch))
    const removedOutbox =
      storedOutbox === undefined
        ? []
        : [...storedOutbox].filter((batch) => !kept.has(batch)).map(outboxName)
    const devices = deviceWrites(this.#devices, state.devices)
    let position =
      changes.changedCallRefs.length > 0
        ? (this.#nextPosition ?? (await nextPosition(db)))
        : (this.#nextPosition ?? 0)
    const calls = changes.changedCallRefs.map((callRef): PositionedRow => {
      const call = callOf(state, callRef)
      if (call === undefined) throw new Error(`Changed call ${callRef} is not in the state`)
      return [callRef, position++, encodeCall(call)]
    })
    let devicePosition = devices.replace ? 0 : this.#nextDevicePosition
    let deviceRows: PositionedRow[] = []
    if (devices.changed.length > 0) {
      devicePosition ??= await nextDevicePosition(db)
      let next = devicePosition
      deviceRows = devices.changed.map(
        ([deviceId, record]): PositionedRow => [deviceId, next++, record],
      )
      devicePosition = next
    }
    // A restore rewrote the log under this store (another node may have): its next id is read again.
    let recordId = changes.restored ? undefined : this.#nextRecordId
    let unindexed = this.#unindexed
    let records: unknown[][] = []
    let stored: StoredComRecord[] = []
    let index = false
    if (drafts.length > 0) {
      recordId ??= await nextComRecordId(db)
      ;({ rows: records, stored } = appendRows(drafts, recordId))
      recordId += drafts.length
      unindexed += drafts.length
      // The index by user and date is written in batches: one page per batch, not one per call's end.
      if (unindexed >= INDEX_BATCH) {
        index = true
        unindexed = 0
      }
    }
    const plan: CallWritePlan = {
      calls,
      removedCalls: changes.removedCallRefs,
      replaceDevices: devices.replace,
      devices: deviceRows,
      removedDevices: devices.removed,
      rest: rest === this.#rest ? undefined : rest,
      replaceOutbox: storedOutbox === undefined,
      outbox,
      removedOutbox,
      records,
      index,
    }
    const advanced = position
    return {
      plan,
      stored,
      written: () => {
        if (calls.length > 0) this.#nextPosition = advanced
        this.#nextDevicePosition = devicePosition
        this.#nextRecordId = recordId
        this.#unindexed = unindexed
        this.#rest = rest
        this.#devices = state.devices
        this.#outbox = kept
      },
    }
  }
}

/** One past the highest position in the table (0 when it is empty). */
async function nextPosition(db: Kysely<CallDatabase>): Promise<number> {
  const { last } = await db
    .selectFrom('telephony_call')
    .select((eb) => eb.fn.max('position').as('last'))
    .executeTakeFirstOrThrow()
  return last === null ? 0 : Number(last) + 1
}

/** One past the highest device position (0 when there is none). */
async function nextDevicePosition(db: Kysely<CallDatabase>): Promise<number> {
  const { last } = await db
    .selectFrom('telephony_device')
    .select((eb) => eb.fn.max('position').as('last'))
    .executeTakeFirstOrThrow()
  return last === null ? 0 : Number(last) + 1
}
