/**
 * The engine's change feed on Redis (docs/cluster-engine.md, "The replica"): the stream `engine:changes`, one
 * entry a stored batch, its id `0-{batch number}` so that a position is a batch number and a gap shows; fields `e`
 * (the owner's epoch) and `b` (the batch's records, JSON). The stream is trimmed to a bound (`MAXLEN`); a follower
 * that fell behind it is told the batches are missing, and loads the state from the database. Followers block in
 * `XREAD` on a connection of their own: Redis pushes the wake-up, nothing polls.
 */

import type { Redis } from 'ioredis'
import type {
  EngineBatch,
  EngineBatchPage,
  EngineChangeFeed,
  EngineFeedFollower,
} from '../../platform/telephony/engine-change-feed.js'
import { DEFAULT_FEED_CAPACITY } from '../memory/memory-engine-change-feed.js'
import type { RedisEngineChangeFeedOptions } from './engine-changes-stream.js'
import { ENGINE_CHANGES_KEY, pageOf, type StreamEntry } from './engine-changes-stream.js'
import { RedisEngineFeedFollower } from './redis-engine-feed-follower.js'
import { RedisScript } from './redis-script.js'

/**
 * Adds the batch: KEYS[1] the stream; ARGV capacity, batch number, epoch, records. A batch numbered at or
 * below the last entry is dropped when that entry's epoch is greater (a late batch of an older owner), else
 * starts a new history: the stream is dropped first. Answers 1 when added, 0 when dropped.
 */
const PUBLISH = new RedisScript(`
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if top ~= nil then
  local last = tonumber(string.match(top[1], '^0%-(%d+)$'))
  if last >= tonumber(ARGV[2]) then
    local epoch = 0
    for i = 1, #top[2], 2 do
      if top[2][i] == 'e' then epoch = tonumber(top[2][i + 1]) end
    end
    if epoch > tonumber(ARGV[3]) then return 0 end
    redis.call('DEL', KEYS[1])
  end
end
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '0-' .. ARGV[2], 'e', ARGV[3], 'b', ARGV[4])
return 1
`)

/** A stream entry as Redis answers it. */
export class RedisEngineChangeFeed implements EngineChangeFeed {
  readonly #client: Redis
  readonly #options: RedisEngineChangeFeedOptions

  constructor(client: Redis, options: RedisEngineChangeFeedOptions = {}) {
    this.#client = client
    this.#options = options
  }

  /**
   * Sends the entry at once, whole (`EVAL`: never sent again after a NOSCRIPT answer, behind later commands),
   * then calls `onQueued`: the node's appends, on the same connection, run after it (docs/cluster-engine.md,
   * "Nothing is told before the feed has it").
   */
  async publish(batch: EngineBatch, onQueued?: () => void): Promise<void> {
    const { batch: number, epoch, ...records } = batch
    const capacity = this.#options.capacity ?? DEFAULT_FEED_CAPACITY
    const added = PUBLISH.runInPlace(
      this.#client,
      [ENGINE_CHANGES_KEY],
      [capacity, number, epoch, JSON.stringify(records)],
    )
    onQueued?.()
    await added
  }

  async read(after: number, max: number): Promise<EngineBatchPage> {
    const entries = (await this.#client.xrange(
      ENGINE_CHANGES_KEY,
      `(0-${after}`,
      '+',
      'COUNT',
      Math.max(1, max),
    )) as StreamEntry[]
    return pageOf(after, entries)
  }

  follow(
    after: number,
    onPage: (page: EngineBatchPage) => Promise<number>,
  ): Promise<EngineFeedFollower> {
    return RedisEngineFeedFollower.open(this.#client, after, onPage, this.#options)
  }
}
