/** The ClockOffsetStore port in the `service_state` table: one row, `clock_offset_ms`, holding a number. */
import type { Kysely } from 'kysely'
import type { ClockOffsetStore } from '../../platform/ports.js'
import type { ServiceDatabase } from './database.js'

const ROW = 'clock_offset_ms'

export class SqlClockOffsetStore implements ClockOffsetStore {
  /** Uses `db` (from `serviceTables`) without owning it: whoever opened it closes it. */
  constructor(private readonly db: Kysely<ServiceDatabase>) {}

  async load(): Promise<number> {
    const row = await this.db
      .selectFrom('service_state')
      .select('value')
      .where('name', '=', ROW)
      .executeTakeFirst()
    if (row === undefined) return 0
    const offsetMs: unknown = JSON.parse(row.value)
    if (typeof offsetMs !== 'number' || !Number.isFinite(offsetMs) || offsetMs < 0)
      throw new Error(`service_state ${ROW} holds ${row.value}, not a number of milliseconds`)
    return offsetMs
  }

  async save(offsetMs: number): Promise<void> {
    await this.db
      .insertInto('service_state')
      .values({ name: ROW, value: JSON.stringify(offsetMs) })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
      )
      .execute()
  }
}
