/**
 * The CallStore port on SQLite or PostgreSQL through Kysely: one `telephony_call` row per call in
 * progress and one `telephony_device` row per device, JSON in a text column, and one small
 * `telephony_state` row for the rest of the state (sequence, timers, callbacks; the call index is not
 * stored but rebuilt at load, call-state-json.ts). A save writes the changed calls and devices, deletes the
 * removed ones and rewrites the rest row only when it changed, in one transaction: its cost follows what
 * the command changed, not how many calls are in progress nor how many devices there are.
 */
import type { Kysely } from 'kysely'
import type { ComRecordDraft, StoredComRecord } from '../../platform/comlog/com-record.js'
import type { CallChanges, CallStore } from '../../platform/ports.js'
import {
  callOf,
  type DeviceRecord,
  type TelephonyState,
} from '../../platform/telephony/telephony-state.js'
import { decodeState, deviceWrites, encodeCall, encodeRest } from '../call-state-json.js'
import { ComRecordAppender, nextComRecordId } from './comlog-record-appender.js'
import { INDEX_BATCH, indexNewRecords } from './comlog-user-index.js'
import type { CallDatabase } from './database.js'

/** At three parameters a row, a batch stays under the 999-parameter bound of older SQLite builds. */
const BATCH_SIZE = 300
const STATE_ROW = 'state'

/** What the store does with the database it is given. */
export interface SqlCallStoreOptions {
  /** Whether `close()` destroys the Kysely instance (default true); false when it is shared. */
  ownsDatabase?: boolean
}

export class SqlCallStore implements CallStore {
  readonly #db: Kysely<CallDatabase>
  readonly #ownsDatabase: boolean
  /** The position the next new call gets; read from the table at the first save. */
  #nextPosition: number | undefined
  /** The position the next new device gets; read from the table at the first save that adds one. */
  #nextDevicePosition: number | undefined
  /** The rest row as last read or written, to skip rewriting it unchanged. */
  #rest: string | undefined
  /**
   * The devices record as last loaded or saved, to write only the devices that are new objects since;
   * undefined before (then a save replaces every device row).
   */
  #devices: Readonly<Record<string, DeviceRecord>> | undefined
  /** The id the next record of the log gets; read from the table at the first save that appends one. */
  #nextRecordId: number | undefined
  readonly #appender = new ComRecordAppender()
  /** How many records were appended since they were last indexed here (comlog-user-index.ts). */
  #unindexed = 0

  /** Takes `db`, migrated by `openDatabase` and seen through `callTables(db)`. */
  constructor(db: Kysely<CallDatabase>, options: SqlCallStoreOptions = {}) {
    this.#db = db
    this.#ownsDatabase = options.ownsDatabase ?? true
  }

  /** Reads the rest row, the calls and the devices, in saved order, from one snapshot of the database. */
  async load(): Promise<TelephonyState | undefined> {
    return this.#db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const rest = await trx
          .selectFrom('telephony_state')
          .select('value')
          .where('name', '=', STATE_ROW)
          .executeTakeFirst()
        const calls = await trx
          .selectFrom('telephony_call')
          .select(['call_ref', 'record'])
          .orderBy('position')
          .execute()
        const devices = await trx
          .selectFrom('telephony_device')
          .select(['device_id', 'record'])
          .orderBy('position')
          .execute()
        if (rest === undefined) {
          if (calls.length > 0 || devices.length > 0)
            throw new Error('The telephony state has calls or devices but no state row')
          return undefined
        }
        const { state, legacy } = decodeState(
          rest.value,
          calls.map((row) => [row.call_ref, row.record] as const),
          devices.map((row) => [row.device_id, row.record] as const),
        )
        // A rest row from before migration 0003 (devices inline) is written anew, devices in rows.
        this.#rest = legacy ? undefined : rest.value
        this.#devices = legacy ? undefined : state.devices
        return state
      })
  }

  /** Upserts the changed calls and devices, deletes the removed ones and upserts the rest row, atomically. */
  async save(state: TelephonyState, changes: CallChanges): Promise<void> {
    await this.saveWithRecords(state, changes, [])
  }

  /**
   * As `save`, and appends the records to `comlog_record` in the same transaction, indexing them by user
   * and date every INDEX_BATCH records (comlog-user-index.ts).
   */
  async saveWithRecords(
    state: TelephonyState,
    changes: CallChanges,
    drafts: readonly ComRecordDraft[],
  ): Promise<StoredComRecord[]> {
    const rest = encodeRest(state)
    const records = changes.changedCallRefs.map((callRef) => {
      const call = callOf(state, callRef)
      if (call === undefined) throw new Error(`Changed call ${callRef} is not in the state`)
      return { callRef, record: encodeCall(call) }
    })
    const devices = deviceWrites(this.#devices, state.devices)
    const written = await this.#db.transaction().execute(async (trx) => {
      if (records.length > 0) {
        let position = this.#nextPosition ?? (await nextPosition(trx))
        const rows = records.map(({ callRef, record }) => ({
          call_ref: callRef,
          position: position++,
          record,
        }))
        this.#nextPosition = position
        for (let start = 0; start < rows.length; start += BATCH_SIZE) {
          // An existing call keeps its position: only its record changes.
          await trx
            .insertInto('telephony_call')
            .values(rows.slice(start, start + BATCH_SIZE))
            .onConflict((oc) =>
              oc.column('call_ref').doUpdateSet((eb) => ({ record: eb.ref('excluded.record') })),
            )
            .execute()
        }
      }
      const removed = changes.removedCallRefs
      for (let start = 0; start < removed.length; start += BATCH_SIZE) {
        await trx
          .deleteFrom('telephony_call')
          .where('call_ref', 'in', removed.slice(start, start + BATCH_SIZE))
          .execute()
      }
      // The next device position is kept once the transaction commits: a failed one leaves no trace.
      let devicePosition = devices.replace ? 0 : this.#nextDevicePosition
      if (devices.replace) await trx.deleteFrom('telephony_device').execute()
      if (devices.changed.length > 0) {
        let position = devicePosition ?? (await nextDevicePosition(trx))
        const rows = devices.changed.map(([deviceId, record]) => ({
          device_id: deviceId,
          position: position++,
          record,
        }))
        devicePosition = position
        for (let start = 0; start < rows.length; start += BATCH_SIZE) {
          // An existing device keeps its position: only its record changes.
          await trx
            .insertInto('telephony_device')
            .values(rows.slice(start, start + BATCH_SIZE))
            .onConflict((oc) =>
              oc.column('device_id').doUpdateSet((eb) => ({ record: eb.ref('excluded.record') })),
            )
            .execute()
        }
      }
      for (let start = 0; start < devices.removed.length; start += BATCH_SIZE) {
        await trx
          .deleteFrom('telephony_device')
          .where('device_id', 'in', devices.removed.slice(start, start + BATCH_SIZE))
          .execute()
      }
      if (rest !== this.#rest) {
        await trx
          .insertInto('telephony_state')
          .values({ name: STATE_ROW, value: rest })
          .onConflict((oc) =>
            oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
          )
          .execute()
      }
      let stored: StoredComRecord[] = []
      let recordId = this.#nextRecordId
      let unindexed = this.#unindexed
      if (drafts.length > 0) {
        recordId ??= await nextComRecordId(trx)
        stored = await this.#appender.append(trx, drafts, recordId)
        recordId += drafts.length
        unindexed += drafts.length
        // The index by user and date is written in batches: one page per batch, not one per call's end.
        if (unindexed >= INDEX_BATCH) {
          await indexNewRecords(trx)
          unindexed = 0
        }
      }
      return { devicePosition, recordId, stored, unindexed }
    })
    this.#nextDevicePosition = written.devicePosition
    this.#nextRecordId = written.recordId
    this.#unindexed = written.unindexed
    this.#rest = rest
    this.#devices = state.devices
    return written.stored
  }

  /** Destroys the Kysely instance when the store owns it. */
  async close(): Promise<void> {
    if (this.#ownsDatabase) await this.#db.destroy()
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
