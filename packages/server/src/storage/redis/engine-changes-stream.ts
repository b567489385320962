/**
 * The stream of the engine's change feed (docs/cluster-engine.md, "The replica"): its key, and how its entries
 * read as batches (id `0-{batch number}`, fields `e` the owner's epoch and `b` the batch's records as JSON).
 * Shared by the feed, which writes and reads it, and its followers, which block on it.
 */
import type { EngineBatch, EngineBatchPage } from '../../platform/telephony/engine-change-feed.js'

export const ENGINE_CHANGES_KEY = 'engine:changes'

/** An entry as XRANGE and XREAD give it. */
export type StreamEntry = [id: string, fields: string[]]

/** The batches of `entries`, read after `after`. */
export function pageOf(after: number, entries: readonly StreamEntry[]): EngineBatchPage {
  const batches = entries.map(batchOf)
  const first = batches[0]
  return { batches, missing: first !== undefined && first.batch > after + 1 }
}

function batchOf([id, fields]: StreamEntry): EngineBatch {
  let epoch = 0
  let records = '{}'
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const value = fields[index + 1] as string
    if (fields[index] === 'e') epoch = Number(value)
    else if (fields[index] === 'b') records = value
  }
  const batch = Number(id.slice(id.indexOf('-') + 1))
  return { batch, epoch, ...(JSON.parse(records) as Omit<EngineBatch, 'batch' | 'epoch'>) }
}

/** How the feed runs. */
export interface RedisEngineChangeFeedOptions {
  /** How many batches the stream keeps (exactly: `MAXLEN`); 10,000 by default. */
  capacity?: number
  /** Longest time one follower's XREAD blocks before it is sent again; 30 s by default. */
  blockMs?: number
  /** The name of the followers' connections (CLIENT LIST); `openness-engine-feed` by default. */
  connectionName?: string
  /** Told of a follower's failed read; it reads again after a pause. */
  onError?: (error: unknown) => void
}
