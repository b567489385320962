/**
 * The engine's change feed in one process (tests, and the embedded mode should it ever run a replica): the
 * latest batches in an array, at most `capacity`, and followers woken in a microtask after a publish.
 */
import type {
  EngineBatch,
  EngineBatchPage,
  EngineChangeFeed,
  EngineFeedFollower,
} from '../../platform/telephony/engine-change-feed.js'

/** How many batches the feed holds by default (the Redis feed's bound too). */
export const DEFAULT_FEED_CAPACITY = 10_000
/** The most batches handed to a follower at once. */
export const FOLLOW_PAGE = 256

export class MemoryEngineChangeFeed implements EngineChangeFeed {
  readonly #capacity: number
  #batches: EngineBatch[] = []
  /** The last batch published, kept when trimmed: a late batch of an older owner is told by it. */
  #last: EngineBatch | undefined
  readonly #wakers = new Set<() => void>()

  constructor(options: { capacity?: number } = {}) {
    this.#capacity = options.capacity ?? DEFAULT_FEED_CAPACITY
  }

  async publish(batch: EngineBatch, onQueued?: () => void): Promise<void> {
    this.#add(batch)
    // Held (or dropped) at once: anything appended from now on comes after it.
    onQueued?.()
  }

  #add(batch: EngineBatch): void {
    const last = this.#last
    if (last !== undefined && batch.batch <= last.batch) {
      if (last.epoch > batch.epoch) return
      this.#batches = []
    }
    this.#batches.push(batch)
    if (this.#batches.length > this.#capacity) this.#batches.splice(0, 1)
    this.#last = batch
    for (const wake of this.#wakers) queueMicrotask(wake)
    this.#wakers.clear()
  }

  async read(after: number, max: number): Promise<EngineBatchPage> {
    return this.#page(after, max)
  }

  #page(after: number, max: number): EngineBatchPage {
    const from = this.#batches.findIndex((batch) => batch.batch > after)
    const batches = from === -1 ? [] : this.#batches.slice(from, from + Math.max(1, max))
    const first = batches[0]
    return { batches, missing: first !== undefined && first.batch > after + 1 }
  }

  async follow(
    after: number,
    onPage: (page: EngineBatchPage) => Promise<number>,
  ): Promise<EngineFeedFollower> {
    let closed = false
    let wake: (() => void) | undefined
    const run = async (): Promise<void> => {
      let position = after
      while (!closed) {
        // Read and armed in one step: a batch published in between cannot go unseen.
        const page = this.#page(position, FOLLOW_PAGE)
        if (page.batches.length === 0) {
          await new Promise<void>((resolve) => {
            wake = resolve
            this.#wakers.add(resolve)
          })
          continue
        }
        position = await onPage(page)
      }
    }
    // A follower whose onPage rejected follows no more (the port's contract: onPage does not reject).
    const loop = run().catch(() => {})
    return {
      close: async () => {
        closed = true
        if (wake !== undefined) {
          this.#wakers.delete(wake)
          wake()
        }
        await loop
      },
    }
  }
}
