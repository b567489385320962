/** The routing stores, memory and SQL on every target (sql-targets.ts), against one suite. */
import type { Kysely } from 'kysely'
import { describe } from 'vitest'
import { MemoryRoutingStore } from '../../src/storage/memory/memory-routing-store.js'
import {
  type DatabaseTarget,
  type DirectoryDatabase,
  openDatabase,
  routingTables,
} from '../../src/storage/sql/database.js'
import { SqlRoutingStore } from '../../src/storage/sql/sql-routing-store.js'
import { type RoutingStoreHandle, routingStoreConformance } from './routing-store.js'
import { onEverySqlTarget } from './sql-targets.js'

describe('MemoryRoutingStore', () => {
  routingStoreConformance(async () => ({ store: new MemoryRoutingStore(), close: async () => {} }))
})

/** Opens the database; `empty` clears the routing table first (a PostgreSQL schema is shared by the run). */
async function open(target: DatabaseTarget, empty: boolean): Promise<Kysely<DirectoryDatabase>> {
  const db = await openDatabase(target)
  if (empty) await routingTables(db).deleteFrom('routing_profile').execute()
  return db
}

async function handleOn(
  target: DatabaseTarget,
  reopenable: boolean,
  empty: boolean,
): Promise<RoutingStoreHandle> {
  const db = await open(target, empty)
  return {
    store: new SqlRoutingStore(routingTables(db)),
    ...(reopenable && { reopen: () => handleOn(target, reopenable, false) }),
    ...(target.kind === 'postgres' && { concurrent: () => handleOn(target, reopenable, false) }),
    close: () => db.destroy(),
  }
}

onEverySqlTarget('SqlRoutingStore', (label, nextTarget, reopenable) =>
  describe(label, () => {
    routingStoreConformance(() => handleOn(nextTarget(), reopenable, true))
  }),
)
