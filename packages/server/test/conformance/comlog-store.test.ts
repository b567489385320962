/**
 * Runs the ComlogStore conformance suite on every SQL target (sql-targets.ts), its records appended by a call
 * store unfenced and by one fenced by a lease it holds (the cluster mode's saves: one statement on PostgreSQL,
 * postgres-fenced-save.ts).
 */
import { callTables, type DatabaseTarget, openDatabase } from '../../src/storage/sql/database.js'
import { ENGINE_LEASE_NAME } from '../../src/storage/sql/engine-fence.js'
import { SqlCallStore } from '../../src/storage/sql/sql-call-store.js'
import { SqlComlogStore } from '../../src/storage/sql/sql-comlog-store.js'
import { comlogStoreConformance } from './comlog-store.js'
import { onEverySqlTarget } from './sql-targets.js'

/**
 * Opens the log and the call store over one database; `empty` clears the log and its index first; `fenced`
 * fences the call store's saves by a lease row it holds.
 */
async function open(target: DatabaseTarget, empty = false, fenced = false) {
  const db = callTables(await openDatabase(target))
  if (empty) {
    await db.deleteFrom('comlog_record').execute()
    await db.deleteFrom('comlog_user_index').execute()
  }
  if (!fenced) return { store: new SqlComlogStore(db), calls: new SqlCallStore(db) }
  await db
    .insertInto('engine_lease')
    .values({ name: ENGINE_LEASE_NAME, epoch: 7, owner_node: 'test', acquired_at: 0 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ epoch: 7 }))
    .execute()
  return {
    store: new SqlComlogStore(db),
    calls: new SqlCallStore(db, { fence: { epoch: () => 7 } }),
  }
}

onEverySqlTarget('SqlComlogStore', (label, nextTarget, reopenable) =>
  comlogStoreConformance(label, async () => {
    const target = nextTarget()
    const opened = await open(target, true)
    return {
      ...opened,
      ...(reopenable && { reopen: () => open(target) }),
      ...(target.kind === 'postgres' && { concurrent: () => open(target) }),
    }
  }),
)

onEverySqlTarget(
  'SqlComlogStore, records appended by a fenced call store',
  (label, nextTarget, reopenable) =>
    comlogStoreConformance(label, async () => {
      const target = nextTarget()
      const opened = await open(target, true, true)
      return reopenable ? { ...opened, reopen: () => open(target, false, true) } : opened
    }),
)
