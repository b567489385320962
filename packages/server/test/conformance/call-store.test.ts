/**
 * Runs the CallStore conformance suite in memory and on every SQL target (sql-targets.ts), unfenced and fenced
 * by a lease it holds (the cluster mode's saves: one statement on PostgreSQL, postgres-fenced-save.ts), and
 * checks the reading of a state saved before migration 0003.
 */
import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { withCalls } from '../../src/platform/telephony/call-index.js'
import type { TelephonyState } from '../../src/platform/telephony/telephony-state.js'
import { MemoryCallStore } from '../../src/storage/memory/memory-call-store.js'
import {
  type CallDatabase,
  callTables,
  type DatabaseTarget,
  openDatabase,
} from '../../src/storage/sql/database.js'
import { ENGINE_LEASE_NAME } from '../../src/storage/sql/engine-fence.js'
import { SqlCallStore } from '../../src/storage/sql/sql-call-store.js'
import { callStoreConformance } from './call-store.js'
import { onEverySqlTarget } from './sql-targets.js'

/**
 * Opens the store; `empty` clears its tables first (a PostgreSQL schema is shared by the run's cases); `fenced`
 * fences its saves by a lease row it holds.
 */
async function openStore(
  target: DatabaseTarget,
  empty = false,
  fenced = false,
): Promise<SqlCallStore> {
  return (await openStoreOn(target, empty, fenced)).store
}

/** As openStore, with the database it writes to. */
async function openStoreOn(
  target: DatabaseTarget,
  empty = false,
  fenced = false,
): Promise<{ store: SqlCallStore; db: Kysely<CallDatabase> }> {
  const db = callTables(await openDatabase(target))
  if (empty) {
    await db.deleteFrom('telephony_call').execute()
    await db.deleteFrom('telephony_device').execute()
    await db.deleteFrom('telephony_state').execute()
  }
  if (!fenced) return { store: new SqlCallStore(db), db }
  await db
    .insertInto('engine_lease')
    .values({ name: ENGINE_LEASE_NAME, epoch: 7, owner_node: 'test', acquired_at: 0 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ epoch: 7 }))
    .execute()
  return { store: new SqlCallStore(db, { fence: { epoch: () => 7 } }), db }
}

callStoreConformance('MemoryCallStore', async () => ({ store: new MemoryCallStore() }))

onEverySqlTarget('SqlCallStore', (label, nextTarget, reopenable) =>
  callStoreConformance(label, async () => {
    const target = nextTarget()
    const store = await openStore(target, true)
    return reopenable ? { store, reopen: () => openStore(target) } : { store }
  }),
)

onEverySqlTarget('SqlCallStore, fenced', (label, nextTarget, reopenable) =>
  callStoreConformance(label, async () => {
    const target = nextTarget()
    const store = await openStore(target, true, true)
    return reopenable ? { store, reopen: () => openStore(target, false, true) } : { store }
  }),
)

describe('SqlCallStore over a state saved before migration 0003', () => {
  it('loads devices and index kept inline, then writes them as rows at the next save', async () => {
    const db = callTables(await openDatabase({ kind: 'sqlite', filename: ':memory:' }))
    const device = {
      deviceId: '1001',
      loginName: 'émile',
      state: 'IN_SERVICE' as const,
      mutable: true,
    }
    const legacy = {
      sequence: 3,
      calls: null,
      devices: { '1001': { ...device, muted: false } },
      timers: [],
      callsByUser: {},
      callsByDevice: {},
    }
    await db
      .insertInto('telephony_state')
      .values({ name: 'state', value: JSON.stringify(legacy) })
      .execute()
    const store = new SqlCallStore(db, { ownsDatabase: false })
    const loaded = await store.load()
    // The index kept inline is rebuilt from the calls (none here), like any index at load.
    expect(loaded).toStrictEqual(withCalls(legacy, []))
    if (loaded === undefined) throw new Error('nothing loaded')

    await store.save(loaded, { changedCallRefs: [], removedCallRefs: [] })

    const rows = await db.selectFrom('telephony_device').select('device_id').execute()
    expect(rows).toStrictEqual([{ device_id: '1001' }])
    const rest = await db.selectFrom('telephony_state').select('value').executeTakeFirstOrThrow()
    expect(JSON.parse(rest.value)).toStrictEqual({
      ...legacy,
      devices: null,
      callsByUser: null,
      callsByDevice: null,
    })
    expect(await new SqlCallStore(db).load()).toStrictEqual(withCalls(legacy, []))
  })
})

onEverySqlTarget('SqlCallStore, outbox rows', (label, nextTarget) =>
  describe(`${label}: the events a state keeps (TelephonyState.unpublished)`, () => {
    const event = (callRef: string) => ({ eventName: 'OnCallCreated', loginName: 'émile', callRef })
    const state = (batch: number, unpublished: number[]): TelephonyState => ({
      ...withCalls({ sequence: batch, devices: {}, timers: [] }, []),
      batch,
      ...(unpublished.length > 0 && {
        unpublished: unpublished.map((number) => ({ batch: number, events: [event(`${number}`)] })),
      }),
    })
    const rows = async (db: Kysely<CallDatabase>) =>
      (
        await db.selectFrom('telephony_state').select(['name', 'value']).orderBy('name').execute()
      ).map(({ name, value }) => [name, JSON.parse(value)])

    for (const fenced of [false, true])
      it(`writes each batch's events once, in a row of its own, and drops it with the batch${fenced ? ' (fenced)' : ''}`, async () => {
        const { store, db } = await openStoreOn(nextTarget(), true, fenced)
        const changes = { changedCallRefs: [], removedCallRefs: [] }
        await store.save(state(1, [1]), changes)
        await store.save(state(2, [1, 2]), changes)

        const rest = (batch: number) => [
          'state',
          {
            sequence: batch,
            calls: null,
            devices: null,
            timers: [],
            callsByUser: null,
            callsByDevice: null,
            batch,
          },
        ]
        expect(await rows(db)).toStrictEqual([
          ['outbox:1', [event('1')]],
          ['outbox:2', [event('2')]],
          rest(2),
        ])

        await store.save(state(3, [3]), changes)
        expect(await rows(db)).toStrictEqual([['outbox:3', [event('3')]], rest(3)])
        await store.save(state(4, []), changes)
        expect(await rows(db)).toStrictEqual([rest(4)])
        await store.close()
      })

    it('loads the events a rest row carries inline (written before the outbox rows), then writes them as rows', async () => {
      const { store, db } = await openStoreOn(nextTarget(), true)
      const inline = state(5, [4, 5])
      await db
        .insertInto('telephony_state')
        .values({
          name: 'state',
          value: JSON.stringify({
            ...inline,
            calls: null,
            devices: null,
            callsByUser: null,
            callsByDevice: null,
          }),
        })
        .execute()
      const reader = new SqlCallStore(db, { ownsDatabase: false })
      const loaded = await reader.load()
      expect(loaded).toStrictEqual(inline)
      if (loaded === undefined) throw new Error('nothing loaded')

      await reader.save(state(6, [5, 6]), { changedCallRefs: [], removedCallRefs: [] })

      expect((await rows(db)).map(([name]) => name)).toStrictEqual([
        'outbox:5',
        'outbox:6',
        'state',
      ])
      expect(await new SqlCallStore(db, { ownsDatabase: false }).load()).toStrictEqual(
        state(6, [5, 6]),
      )
      await store.close()
    })
  }),
)
