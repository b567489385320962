/** Runs the MiniMessageStore conformance suite in memory and on every SQL target (sql-targets.ts). */
import { MemoryMiniMessageStore } from '../../src/storage/memory/memory-mini-message-store.js'
import {
  type DatabaseTarget,
  miniMessageTables,
  openDatabase,
} from '../../src/storage/sql/database.js'
import { SqlMiniMessageStore } from '../../src/storage/sql/sql-mini-message-store.js'
import { miniMessageStoreConformance } from './mini-message-store.js'
import { onEverySqlTarget } from './sql-targets.js'

miniMessageStoreConformance('MemoryMiniMessageStore', async () => ({
  store: new MemoryMiniMessageStore(),
  close: async () => {},
}))

/** Opens the store over one database; `empty` clears its table first. */
async function open(target: DatabaseTarget, empty = false) {
  const db = miniMessageTables(await openDatabase(target))
  if (empty) await db.deleteFrom('mini_message').execute()
  return { store: new SqlMiniMessageStore(db), close: () => db.destroy() }
}

onEverySqlTarget('SqlMiniMessageStore', (label, nextTarget, reopenable) =>
  miniMessageStoreConformance(label, async () => {
    const target = nextTarget()
    const opened = await open(target, true)
    return {
      ...opened,
      ...(reopenable && { reopen: () => open(target) }),
      ...(target.kind === 'postgres' && { concurrent: () => open(target) }),
    }
  }),
)
