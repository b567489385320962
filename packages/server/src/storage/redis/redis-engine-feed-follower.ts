/**
 * One follower of the engine's change feed on Redis: a connection of its own (duplicated from the node's
 * client) blocked in `XREAD` on `engine:changes` from the batch it got to; each page read is handed to the
 * follower's callback, which answers where to go on from. Closing ends the connection, and with it the read.
 */
import { setTimeout as delay } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import type {
  EngineBatchPage,
  EngineFeedFollower,
} from '../../platform/telephony/engine-change-feed.js'
import { FOLLOW_PAGE } from '../memory/memory-engine-change-feed.js'
import type { RedisEngineChangeFeedOptions } from './engine-changes-stream.js'
import { ENGINE_CHANGES_KEY, pageOf, type StreamEntry } from './engine-changes-stream.js'

/** The pause after a failed read before the next. */
const RETRY_MS = 1_000

/** An XREAD reply on one stream. */
type XreadReply = [key: string, entries: StreamEntry[]][] | null

export class RedisEngineFeedFollower implements EngineFeedFollower {
  readonly #reader: Redis
  readonly #options: RedisEngineChangeFeedOptions
  #closed = false
  #loop: Promise<void> = Promise.resolve()

  private constructor(reader: Redis, options: RedisEngineChangeFeedOptions) {
    this.#reader = reader
    this.#options = options
  }

  /** Connects the follower's connection and starts reading after `after`. */
  static async open(
    client: Redis,
    after: number,
    onPage: (page: EngineBatchPage) => Promise<number>,
    options: RedisEngineChangeFeedOptions,
  ): Promise<RedisEngineFeedFollower> {
    const reader = client.duplicate({
      connectionName: options.connectionName ?? 'openness-engine-feed',
      lazyConnect: true,
    })
    await reader.connect()
    const follower = new RedisEngineFeedFollower(reader, options)
    follower.#loop = follower.#run(after, onPage)
    return follower
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#reader.disconnect()
    await this.#loop
  }

  async #run(after: number, onPage: (page: EngineBatchPage) => Promise<number>): Promise<void> {
    let position = after
    while (!this.#closed) {
      let page: EngineBatchPage
      try {
        page = await this.#read(position)
      } catch (error) {
        if (this.#closed) return
        this.#options.onError?.(error)
        await delay(RETRY_MS)
        continue
      }
      if (page.batches.length === 0) continue
      try {
        position = await onPage(page)
      } catch (error) {
        // The port's contract: onPage does not reject; a follower whose onPage did follows no more.
        this.#options.onError?.(error)
        return
      }
    }
  }

  /** One blocking read of the batches after `after` (the key prefixed by ioredis, as every key). */
  async #read(after: number): Promise<EngineBatchPage> {
    const reply = (await this.#reader.xread(
      'COUNT',
      FOLLOW_PAGE,
      'BLOCK',
      this.#options.blockMs ?? 30_000,
      'STREAMS',
      ENGINE_CHANGES_KEY,
      `0-${after}`,
    )) as XreadReply
    return pageOf(after, reply?.[0]?.[1] ?? [])
  }
}
