/**
 * The fencing of SqlCallStore's saves (docs/cluster-engine.md, "Engine lease and fencing"), on every SQL target: a
 * save under the lease's epoch is stored, one under an earlier epoch, or by a writer that knows its term
 * ended, is refused with EngineFencedError and writes nothing. The lease's row is set by hand here; the
 * election that moves it on is tested in engine-lease.test.ts.
 */
import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callChanges } from '../../src/platform/telephony/call-changes.js'
import { withCalls } from '../../src/platform/telephony/call-index.js'
import { EngineFencedError } from '../../src/platform/telephony/engine-fenced-error.js'
import type { CallRecord, TelephonyState } from '../../src/platform/telephony/telephony-state.js'
import { SingleNodeEngineLease } from '../../src/storage/memory/single-node-engine-lease.js'
import { type CallDatabase, callTables, openDatabase } from '../../src/storage/sql/database.js'
import { ENGINE_LEASE_NAME, fenceOf } from '../../src/storage/sql/engine-fence.js'
import { SqlCallStore } from '../../src/storage/sql/sql-call-store.js'
import { onEverySqlTarget } from './sql-targets.js'

function call(callRef: string): CallRecord {
  return {
    callRef,
    callUUID: `${callRef}-uuid`,
    connections: [{ endpoint: { number: '0612345678' }, state: 'RINGING_INCOMING' }],
    initialCalled: { number: '0612345678' },
    createdAt: 1_767_225_600_000,
  }
}

function stateOf(sequence: number, callRefs: string[]): TelephonyState {
  return withCalls({ sequence, devices: {}, timers: [] }, callRefs.map(call))
}

const FIRST = stateOf(1, ['1'])
const SECOND = stateOf(2, ['1', '2'])

onEverySqlTarget('SqlCallStore', (label, nextTarget) =>
  describe(`${label}, fenced by the engine lease`, () => {
    let db: Kysely<CallDatabase>

    /** What an unfenced store loads: what the database holds. */
    const stored = () => new SqlCallStore(db, { ownsDatabase: false }).load()

    /** Sets the lease's epoch, as a new owner taking it does. */
    async function setEpoch(epoch: number): Promise<void> {
      await db
        .insertInto('engine_lease')
        .values({ name: ENGINE_LEASE_NAME, epoch, owner_node: 'test', acquired_at: 0 })
        .onConflict((oc) => oc.column('name').doUpdateSet({ epoch }))
        .execute()
    }

    beforeEach(async () => {
      db = callTables(await openDatabase(nextTarget()))
      // A PostgreSQL schema is shared by the run's cases.
      await db.deleteFrom('telephony_call').execute()
      await db.deleteFrom('telephony_device').execute()
      await db.deleteFrom('telephony_state').execute()
      await db.deleteFrom('engine_lease').execute()
    })

    afterEach(async () => {
      await db.destroy()
    })

    it("stores a save made under the lease's epoch", async () => {
      await setEpoch(3)
      const store = new SqlCallStore(db, { ownsDatabase: false, fence: { epoch: () => 3 } })

      await store.save(FIRST, callChanges(undefined, FIRST))

      expect(await stored()).toStrictEqual(FIRST)
    })

    it('refuses a save made under an earlier epoch, naming both, and writes nothing', async () => {
      await setEpoch(3)
      const store = new SqlCallStore(db, { ownsDatabase: false, fence: { epoch: () => 3 } })
      await store.save(FIRST, callChanges(undefined, FIRST))
      await setEpoch(4)

      const refusal = await store.save(SECOND, callChanges(FIRST, SECOND)).catch((e) => e)

      expect(refusal).toBeInstanceOf(EngineFencedError)
      expect(refusal).toMatchObject({ epoch: 3, current: 4 })
      expect(await stored()).toStrictEqual(FIRST)
    })

    it('refuses a save when the lease has no row', async () => {
      const store = new SqlCallStore(db, { ownsDatabase: false, fence: { epoch: () => 1 } })

      const refusal = await store.save(FIRST, callChanges(undefined, FIRST)).catch((e) => e)

      expect(refusal).toBeInstanceOf(EngineFencedError)
      expect(refusal).toMatchObject({ epoch: 1, current: undefined })
      expect(await stored()).toBeUndefined()
    })

    it('refuses a save once the writer knows its term ended, whatever the row says', async () => {
      const lease = new SingleNodeEngineLease()
      const term = await lease.acquire()
      await setEpoch(term.epoch)
      const store = new SqlCallStore(db, { ownsDatabase: false, fence: fenceOf(term) })
      await store.save(FIRST, callChanges(undefined, FIRST))

      await term.release()
      const refusal = await store.save(SECOND, callChanges(FIRST, SECOND)).catch((e) => e)

      expect(refusal).toBeInstanceOf(EngineFencedError)
      expect(refusal).toMatchObject({ epoch: undefined })
      expect(await stored()).toStrictEqual(FIRST)
    })

    it('writes in full, after a refusal, the save it refused once its writer owns the lease again', async () => {
      let epoch = 1
      await setEpoch(1)
      const store = new SqlCallStore(db, { ownsDatabase: false, fence: { epoch: () => epoch } })
      await store.save(FIRST, callChanges(undefined, FIRST))
      await setEpoch(2)
      await expect(store.save(SECOND, callChanges(FIRST, SECOND))).rejects.toThrow(
        EngineFencedError,
      )

      epoch = 2
      await store.save(SECOND, callChanges(FIRST, SECOND))

      expect(await stored()).toStrictEqual(SECOND)
    })

    it.runIf(label.includes('PostgreSQL'))(
      'runs the fenced save as a named prepared statement, which still refuses a stale epoch',
      async () => {
        await setEpoch(3)
        await db.connection().execute(async (connection) => {
          const store = new SqlCallStore(connection, {
            ownsDatabase: false,
            fence: { epoch: () => 3 },
          })
          let state: TelephonyState = FIRST
          await store.save(state, callChanges(undefined, state))
          // Past five runs PostgreSQL may run the statement on a generic plan: the fence must still hold.
          for (let sequence = 2; sequence <= 8; sequence += 1) {
            const next = stateOf(sequence, ['1', String(sequence)])
            await store.save(next, callChanges(state, next))
            state = next
          }
          const { rows } = await sql<{ name: string }>`
            select name from pg_prepared_statements`.execute(connection)
          expect(rows.map((row) => row.name)).toContain('engine-fenced-save')

          await setEpoch(4)
          const later = stateOf(9, ['1', '9'])
          const refusal = await store.save(later, callChanges(state, later)).catch((e) => e)

          expect(refusal).toBeInstanceOf(EngineFencedError)
          expect(refusal).toMatchObject({ epoch: 3, current: 4 })
          expect(await stored()).toStrictEqual(state)
        })
      },
    )

    it('saves without a fence whatever the lease row says (the embedded mode)', async () => {
      await setEpoch(7)
      const store = new SqlCallStore(db, { ownsDatabase: false })

      await store.save(FIRST, callChanges(undefined, FIRST))

      expect(await stored()).toStrictEqual(FIRST)
    })
  }),
)
