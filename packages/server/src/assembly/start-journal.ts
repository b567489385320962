/**
 * The journal of what the API, the delivery and the control plane did (docs/journal.md), on its store: none
 * with a size of 0, a ring in memory when the node is alone, the cluster's Redis stream in a cluster.
 */
import type { Clock } from '../platform/events.js'
import { Journal } from '../platform/journal/journal.js'
import { DEFAULT_JOURNAL_SIZE } from '../platform/journal/journal-entry.js'
import type { JournalStore } from '../platform/journal/journal-store.js'
import { MemoryJournalStore } from '../storage/memory/memory-journal-store.js'
import { RedisJournalStore } from '../storage/redis/redis-journal-store.js'
import type { SharedState } from '../storage/shared-state.js'

/** The journal of `size` entries (DEFAULT_JOURNAL_SIZE when not given). */
export function startJournal(
  size: number | undefined,
  shared: SharedState,
  clock: Clock,
  reportError: (error: unknown, what: string) => void,
): Journal {
  return new Journal(
    journalStore(size ?? DEFAULT_JOURNAL_SIZE, shared, reportError),
    clock,
    (error) => reportError(error, 'a live reader of the journal failed'),
  )
}

function journalStore(
  size: number,
  shared: SharedState,
  reportError: (error: unknown, what: string) => void,
): JournalStore | undefined {
  if (size === 0) return undefined
  if (shared.redis === undefined) return new MemoryJournalStore(size)
  return new RedisJournalStore(shared.redis, {
    size,
    onError: (error) => reportError(error, 'the journal'),
  })
}
