/** Runs the DirectoryStore conformance suite on every SQL target (sql-targets.ts). */
import { type DatabaseTarget, openDatabase } from '../../src/storage/sql/database.js'
import { SqlDirectoryStore } from '../../src/storage/sql/sql-directory-store.js'
import { directoryStoreConformance } from './directory-store.js'
import { onEverySqlTarget } from './sql-targets.js'

/** Opens the store; `empty` clears its tables first (a PostgreSQL schema is shared by the run's cases). */
async function openStore(target: DatabaseTarget, empty = false): Promise<SqlDirectoryStore> {
  const db = await openDatabase(target)
  if (empty) {
    await db.deleteFrom('account').execute()
    await db.deleteFrom('directory_setting').execute()
  }
  return new SqlDirectoryStore(db)
}

onEverySqlTarget('SqlDirectoryStore', (label, nextTarget, reopenable) =>
  directoryStoreConformance(label, async () => {
    const target = nextTarget()
    const store = await openStore(target, true)
    return {
      store,
      ...(reopenable && { reopen: () => openStore(target) }),
      ...(target.kind === 'postgres' && { concurrent: () => openStore(target) }),
    }
  }),
)
