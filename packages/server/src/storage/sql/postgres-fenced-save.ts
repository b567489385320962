/**
 * A fenced save of the call engine's state on PostgreSQL in one statement (cluster mode; docs/cluster-engine.md,
 * "The engine's saves in one statement"). The transaction of SqlCallStore takes five round trips or more (BEGIN,
 * the fence, the calls, the rest row, COMMIT); here one statement of data-modifying CTEs does the same, atomically
 * (a statement is a transaction of its own): the fence CTE updates the lease's row to itself where the epoch is
 * the writer's, which locks it as `checkFence` does, and every write is made only if the fence returned its row.
 * When it did not, nothing was written and the save is refused with EngineFencedError.
 *
 * The rows travel as JSON arrays turned into rows by `json_populate_recordset` over the tables' own row types,
 * so that the statement's text never changes (one plan shape, whatever the numbers of rows). Saves that replace
 * every device row or index the log (rare: a first save, one save in INDEX_BATCH records) keep the transaction.
 */
import { type Kysely, sql } from 'kysely'
import type { CallWritePlan, PositionedRow } from './call-write-plan.js'
import { APPEND_COLUMNS } from './comlog-record-appender.js'
import type { CallDatabase } from './database.js'
import { namedStatement } from './postgres-named-statements.js'

/**
 * The statement's name: prepared once per connection (postgres-named-statements.ts), since its text never
 * changes; parsing it was about a quarter of its time.
 */
const FENCED_SAVE = namedStatement('engine-fenced-save')

/** Whether `plan` can be written by `saveInOneStatement`. */
export function fitsOneStatement(plan: CallWritePlan): boolean {
  return !plan.replaceDevices && !plan.replaceOutbox && !plan.index
}

/**
 * Writes `plan` under `epoch` of the lease `lease`, the rest row named `stateRow`; resolves to whether the
 * fence held (false: nothing was written).
 */
export async function saveInOneStatement(
  db: Kysely<CallDatabase>,
  lease: string,
  epoch: number,
  stateRow: string,
  plan: CallWritePlan,
): Promise<boolean> {
  const calls = JSON.stringify(plan.calls.map(keyedRow('call_ref')))
  const devices = JSON.stringify(plan.devices.map(keyedRow('device_id')))
  const outbox = JSON.stringify(plan.outbox.map(([name, value]) => ({ name, value })))
  const records = JSON.stringify(
    plan.records.map((values) =>
      Object.fromEntries(APPEND_COLUMNS.map((column, index) => [column, values[index]])),
    ),
  )
  const { rows } = await sql<{ held: number }>`${sql.raw(FENCED_SAVE)}
    with fence as (
      update engine_lease set epoch = epoch where name = ${lease} and epoch = ${epoch} returning 1
    ), upserted_calls as (
      insert into telephony_call (call_ref, position, record)
      select call_ref, position, record from json_populate_recordset(null::telephony_call, ${calls}::json)
      where exists (select from fence)
      on conflict (call_ref) do update set record = excluded.record
    ), removed_calls as (
      delete from telephony_call
      where call_ref = any(${plan.removedCalls}::text[]) and exists (select from fence)
    ), upserted_devices as (
      insert into telephony_device (device_id, position, record)
      select device_id, position, record
      from json_populate_recordset(null::telephony_device, ${devices}::json)
      where exists (select from fence)
      on conflict (device_id) do update set record = excluded.record
    ), removed_devices as (
      delete from telephony_device
      where device_id = any(${plan.removedDevices}::text[]) and exists (select from fence)
    ), rest as (
      insert into telephony_state (name, value)
      select ${stateRow}, ${plan.rest ?? null}::text
      where ${plan.rest ?? null}::text is not null and exists (select from fence)
      on conflict (name) do update set value = excluded.value
    ), written_outbox as (
      insert into telephony_state (name, value)
      select name, value from json_populate_recordset(null::telephony_state, ${outbox}::json)
      where exists (select from fence)
      on conflict (name) do update set value = excluded.value
    ), removed_outbox as (
      delete from telephony_state
      where name = any(${plan.removedOutbox}::text[]) and exists (select from fence)
    ), appended_records as (
      insert into comlog_record (${sql.join(APPEND_COLUMNS.map((column) => sql.ref(column)))})
      select ${sql.join(APPEND_COLUMNS.map((column) => sql.ref(column)))}
      from json_populate_recordset(null::comlog_record, ${records}::json)
      where exists (select from fence)
    )
    select count(*)::int as held from fence
  `.execute(db)
  return rows[0]?.held === 1
}

/** A positioned row as the object `json_populate_recordset` reads, its key under `key`. */
function keyedRow(
  key: 'call_ref' | 'device_id',
): (row: PositionedRow) => Record<string, string | number> {
  return ([id, position, record]) => ({ [key]: id, position, record })
}
