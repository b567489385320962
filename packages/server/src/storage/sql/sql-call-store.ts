/**
 * The CallStore port on SQLite or PostgreSQL through Kysely: one `telephony_call` row per call in
 * progress and one `telephony_device` row per device, JSON in a text column, and one small
 * `telephony_state` row for the rest of the state (sequence, timers, callbacks; the call index is not
 * stored but rebuilt at load, call-state-json.ts). A save writes the changed calls and devices, deletes the
 * removed ones and rewrites the rest row only when it changed, in one transaction: its cost follows what
 * the command changed, not how many calls are in progress nor how many devices there are. What a save
 * writes is planned by CallWritePlanner (call-write-plan.ts) and run here in a transaction of `db`. In
 * cluster mode the store is fenced (engine-fence.ts): each save first checks that its writer still owns the
 * engine, one more statement; on PostgreSQL the fence and the writes are then one statement
 * (postgres-fenced-save.ts). The embedded mode has no fence and no such statement. The events a cluster's
 * state keeps until published (`unpublished`) are rows of their own beside the rest row, `outbox:{batch}`,
 * each written once (call-state-json.ts).
 */
import { type Kysely, SqliteAdapter } from 'kysely'
import type { ComRecordDraft, StoredComRecord } from '../../platform/comlog/com-record.js'
import type { CallChanges } from '../../platform/telephony/call-changes.js'
import type { CallStore } from '../../platform/telephony/call-store.js'
import type { TelephonyState } from '../../platform/telephony/telephony-state.js'
import { decodeState, OUTBOX_ROW_PREFIX, outboxBatch } from '../call-state-json.js'
import { type CallWritePlan, CallWritePlanner, type PositionedRow } from './call-write-plan.js'
import { ComRecordAppender } from './comlog-record-appender.js'
import { indexNewRecords } from './comlog-user-index.js'
import type { CallDatabase } from './database.js'
import { checkFence, type EngineFence, fencedEpoch, fenceRefusal, leaseOf } from './engine-fence.js'
import { fitsOneStatement, saveInOneStatement } from './postgres-fenced-save.js'

/** At three parameters a row, a batch stays under the 999-parameter bound of older SQLite builds. */
const BATCH_SIZE = 300
export const STATE_ROW = 'state'

/** What the store does with the database it is given. */
export interface SqlCallStoreOptions {
  /** Whether `close()` destroys the Kysely instance (default true); false when it is shared. */
  ownsDatabase?: boolean
  /**
   * The engine owner's epoch every save is checked against (cluster mode): a save under an epoch no longer
   * the lease's fails with EngineFencedError and writes nothing. None in the embedded mode.
   */
  fence?: EngineFence
}

export class SqlCallStore implements CallStore {
  readonly #db: Kysely<CallDatabase>
  readonly #ownsDatabase: boolean
  readonly #fence: EngineFence | undefined
  /** Whether fenced saves may be one statement (PostgreSQL: postgres-fenced-save.ts). */
  readonly #oneStatement: boolean
  readonly #planner = new CallWritePlanner()
  readonly #appender = new ComRecordAppender()

  /** Takes `db`, migrated by `openDatabase` and seen through `callTables(db)`. */
  constructor(db: Kysely<CallDatabase>, options: SqlCallStoreOptions = {}) {
    this.#db = db
    this.#ownsDatabase = options.ownsDatabase ?? true
    this.#fence = options.fence
    this.#oneStatement = !(db.getExecutor().adapter instanceof SqliteAdapter)
  }

  /** Reads the rest row, the calls and the devices, in saved order, from one snapshot of the database. */
  load(): Promise<TelephonyState | undefined> {
    return loadCallState(this.#db, this.#planner)
  }

  /** Upserts the changed calls and devices, deletes the removed ones and upserts the rest row, atomically. */
  async save(state: TelephonyState, changes: CallChanges): Promise<void> {
    await this.saveWithRecords(state, changes, [])
  }

  /**
   * As `save`, and appends the records to `comlog_record` in the same transaction, indexing them by user
   * and date every INDEX_BATCH records (comlog-user-index.ts). With a fence, the transaction first checks
   * the writer's epoch (EngineFencedError, nothing written, when it moved on).
   */
  async saveWithRecords(
    state: TelephonyState,
    changes: CallChanges,
    drafts: readonly ComRecordDraft[],
  ): Promise<StoredComRecord[]> {
    const fence = this.#fence
    const epoch = fence === undefined ? undefined : fencedEpoch(fence)
    const planned = await this.#planner.plan(this.#db, state, changes, drafts)
    if (
      fence !== undefined &&
      epoch !== undefined &&
      this.#oneStatement &&
      fitsOneStatement(planned.plan)
    ) {
      const held = await saveInOneStatement(
        this.#db,
        leaseOf(fence),
        epoch,
        STATE_ROW,
        planned.plan,
      )
      if (!held) throw await fenceRefusal(this.#db, fence, epoch)
      planned.written()
      return planned.stored
    }
    await this.#db.transaction().execute(async (trx) => {
      if (fence !== undefined && epoch !== undefined) await checkFence(trx, fence, epoch)
      await this.#write(trx, planned.plan)
    })
    planned.written()
    return planned.stored
  }

  async #write(trx: Kysely<CallDatabase>, plan: CallWritePlan): Promise<void> {
    for (let start = 0; start < plan.calls.length; start += BATCH_SIZE) {
      // An existing call keeps its position: only its record changes.
      await trx
        .insertInto('telephony_call')
        .values(plan.calls.slice(start, start + BATCH_SIZE).map(callRow))
        .onConflict((oc) =>
          oc.column('call_ref').doUpdateSet((eb) => ({ record: eb.ref('excluded.record') })),
        )
        .execute()
    }
    for (let start = 0; start < plan.removedCalls.length; start += BATCH_SIZE) {
      await trx
        .deleteFrom('telephony_call')
        .where('call_ref', 'in', plan.removedCalls.slice(start, start + BATCH_SIZE))
        .execute()
    }
    if (plan.replaceDevices) await trx.deleteFrom('telephony_device').execute()
    for (let start = 0; start < plan.devices.length; start += BATCH_SIZE) {
      // An existing device keeps its position: only its record changes.
      await trx
        .insertInto('telephony_device')
        .values(plan.devices.slice(start, start + BATCH_SIZE).map(deviceRow))
        .onConflict((oc) =>
          oc.column('device_id').doUpdateSet((eb) => ({ record: eb.ref('excluded.record') })),
        )
        .execute()
    }
    for (let start = 0; start < plan.removedDevices.length; start += BATCH_SIZE) {
      await trx
        .deleteFrom('telephony_device')
        .where('device_id', 'in', plan.removedDevices.slice(start, start + BATCH_SIZE))
        .execute()
    }
    if (plan.rest !== undefined) {
      await trx
        .insertInto('telephony_state')
        .values({ name: STATE_ROW, value: plan.rest })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
        )
        .execute()
    }
    if (plan.replaceOutbox)
      await trx
        .deleteFrom('telephony_state')
        .where('name', 'like', `${OUTBOX_ROW_PREFIX}%` as `outbox:${number}`)
        .execute()
    for (let start = 0; start < plan.removedOutbox.length; start += BATCH_SIZE) {
      await trx
        .deleteFrom('telephony_state')
        .where('name', 'in', plan.removedOutbox.slice(start, start + BATCH_SIZE))
        .execute()
    }
    for (let start = 0; start < plan.outbox.length; start += BATCH_SIZE) {
      await trx
        .insertInto('telephony_state')
        .values(
          plan.outbox.slice(start, start + BATCH_SIZE).map(([name, value]) => ({ name, value })),
        )
        .onConflict((oc) =>
          oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
        )
        .execute()
    }
    if (plan.records.length > 0) await this.#appender.append(trx, plan.records)
    if (plan.index) await indexNewRecords(trx)
  }

  /** Destroys the Kysely instance when the store owns it. */
  async close(): Promise<void> {
    if (this.#ownsDatabase) await this.#db.destroy()
  }
}

/**
 * Reads the rest row, the calls and the devices, in saved order, from one snapshot of the database, and
 * tells `planner` what it found.
 */
export function loadCallState(
  db: Kysely<CallDatabase>,
  planner: CallWritePlanner,
): Promise<TelephonyState | undefined> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const read = await readCallState(trx)
      if (read === undefined) return undefined
      const { state, legacy, rest, outbox } = read
      // A rest row from before migration 0003 (devices inline) is written anew, devices in rows.
      if (legacy) planner.loaded(undefined, undefined, undefined)
      else planner.loaded(rest, state.devices, outbox)
      return state
    })
}

/**
 * Reads the engine's state in the caller's transaction (a load, or the capture of the platform's image:
 * sql-platform-images.ts): the state, whether its rest row is from before migration 0003, and that row.
 */
export async function readCallState(
  trx: Kysely<CallDatabase>,
): Promise<{ state: TelephonyState; legacy: boolean; rest: string; outbox: number[] } | undefined> {
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
  const outbox = await trx
    .selectFrom('telephony_state')
    .select(['name', 'value'])
    .where('name', 'like', `${OUTBOX_ROW_PREFIX}%` as `outbox:${number}`)
    .execute()
  if (rest === undefined) {
    if (calls.length > 0 || devices.length > 0 || outbox.length > 0)
      throw new Error('The telephony state has calls or devices but no state row')
    return undefined
  }
  const decoded = decodeState(
    rest.value,
    calls.map((row) => [row.call_ref, row.record] as const),
    devices.map((row) => [row.device_id, row.record] as const),
    outbox.map((row) => [row.name, row.value] as const),
  )
  return { ...decoded, rest: rest.value, outbox: outbox.map((row) => outboxBatch(row.name)) }
}

function callRow([callRef, position, record]: PositionedRow) {
  return { call_ref: callRef, position, record }
}

function deviceRow([deviceId, position, record]: PositionedRow) {
  return { device_id: deviceId, position, record }
}
