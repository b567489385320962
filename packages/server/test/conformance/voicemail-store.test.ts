/** Runs the VoicemailStore conformance suite on every SQL target (sql-targets.ts). */
import {
  type DatabaseTarget,
  openDatabase,
  voicemailTables,
} from '../../src/storage/sql/database.js'
import { SqlVoicemailStore } from '../../src/storage/sql/sql-voicemail-store.js'
import { onEverySqlTarget } from './sql-targets.js'
import { voicemailStoreConformance } from './voicemail-store.js'

/** Opens the store over one database; `empty` clears its table first. */
async function open(target: DatabaseTarget, empty = false) {
  const db = voicemailTables(await openDatabase(target))
  if (empty) await db.deleteFrom('voicemail_message').execute()
  return { store: new SqlVoicemailStore(db), close: () => db.destroy() }
}

onEverySqlTarget('SqlVoicemailStore', (label, nextTarget, reopenable) =>
  voicemailStoreConformance(label, async () => {
    const target = nextTarget()
    const opened = await open(target, true)
    return {
      ...opened,
      ...(reopenable && { reopen: () => open(target) }),
      ...(target.kind === 'postgres' && { concurrent: () => open(target) }),
    }
  }),
)
