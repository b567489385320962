/** Runs the ComlogStore conformance suite on every SQL target (sql-targets.ts). */
import { callTables, type DatabaseTarget, openDatabase } from '../../src/storage/sql/database.js'
import { SqlCallStore } from '../../src/storage/sql/sql-call-store.js'
import { SqlComlogStore } from '../../src/storage/sql/sql-comlog-store.js'
import { comlogStoreConformance } from './comlog-store.js'
import { onEverySqlTarget } from './sql-targets.js'

/** Opens the log and the call store over one database; `empty` clears the log and its index first. */
async function open(target: DatabaseTarget, empty = false) {
  const db = callTables(await openDatabase(target))
  if (empty) {
    await db.deleteFrom('comlog_record').execute()
    await db.deleteFrom('comlog_user_index').execute()
  }
  return { store: new SqlComlogStore(db), calls: new SqlCallStore(db) }
}

onEverySqlTarget('SqlComlogStore', (label, nextTarget, reopenable) =>
  comlogStoreConformance(label, async () => {
    const target = nextTarget()
    const opened = await open(target, true)
    return reopenable ? { ...opened, reopen: () => open(target) } : opened
  }),
)
