/** Runs the AcdTicketStore conformance suite in memory and on every SQL target (sql-targets.ts). */
import { MemoryAcdTicketStore } from '../../src/storage/memory/memory-acd-ticket-store.js'
import { type DatabaseTarget, openDatabase } from '../../src/storage/sql/database.js'
import { acdTicketTables, SqlAcdTicketStore } from '../../src/storage/sql/sql-acd-ticket-store.js'
import { acdTicketStoreConformance } from './acd-ticket-store.js'
import { onEverySqlTarget } from './sql-targets.js'

acdTicketStoreConformance('MemoryAcdTicketStore', async () => ({
  store: new MemoryAcdTicketStore(),
  close: async () => {},
}))

/** Opens the store over one database; `empty` clears its table first. */
async function open(target: DatabaseTarget, empty = false) {
  const db = acdTicketTables(await openDatabase(target))
  if (empty) await db.deleteFrom('acd_ticket').execute()
  return { store: new SqlAcdTicketStore(db), close: () => db.destroy() }
}

onEverySqlTarget('SqlAcdTicketStore', (label, nextTarget, reopenable) =>
  acdTicketStoreConformance(label, async () => {
    const target = nextTarget()
    const opened = await open(target, true)
    return {
      ...opened,
      ...(reopenable && { reopen: () => open(target) }),
      ...(target.kind === 'postgres' && { concurrent: () => open(target) }),
    }
  }),
)
