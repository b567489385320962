/**
 * The ClockOffsetStore port in the `service_state` table: one row, `clock_offset_ms`, holding a number. An
 * advance is a compare-and-set on the text the row held, tried again when another node's advance came first
 * (docs/cluster.md, "No lost update").
 */
import type { Kysely } from 'kysely'
import type { ClockOffsetStore } from '../../platform/clock-offset-store.js'
import type { ServiceDatabase } from './database.js'

const ROW = 'clock_offset_ms'

export class SqlClockOffsetStore implements ClockOffsetStore {
  /** Uses `db` (from `serviceTables`) without owning it: whoever opened it closes it. */
  constructor(private readonly db: Kysely<ServiceDatabase>) {}

  async load(): Promise<number> {
    return offsetOf(await this.#stored())
  }

  async advance(ms: number): Promise<number> {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`The clock only moves forward: ${ms} ms`)
    for (;;) {
      const stored = await this.#stored()
      const next = offsetOf(stored) + ms
      const value = JSON.stringify(next)
      const written =
        stored === undefined
          ? (
              await this.db
                .insertInto('service_state')
                .values({ name: ROW, value })
                .onConflict((oc) => oc.column('name').doNothing())
                .executeTakeFirst()
            ).numInsertedOrUpdatedRows
          : (
              await this.db
                .updateTable('service_state')
                .set({ value })
                .where('name', '=', ROW)
                .where('value', '=', stored)
                .executeTakeFirst()
            ).numUpdatedRows
      if (written === 1n) return next
    }
  }

  /** The row's text, or undefined when there is none. */
  async #stored(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('service_state')
      .select('value')
      .where('name', '=', ROW)
      .executeTakeFirst()
    return row?.value
  }
}

/** The offset a row's text holds (0 for no row); a row that is not one stops rather than misread time. */
function offsetOf(text: string | undefined): number {
  if (text === undefined) return 0
  const offsetMs: unknown = JSON.parse(text)
  if (typeof offsetMs !== 'number' || !Number.isFinite(offsetMs) || offsetMs < 0)
    throw new Error(`service_state ${ROW} holds ${text}, not a number of milliseconds`)
  return offsetMs
}
