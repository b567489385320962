/**
 * The engine owner's side of the change feed (docs/cluster.md, "The replica"): told of each batch once it is
 * stored (TelephonyServiceOptions.onStored), it encodes what the batch wrote and publishes it, batch after
 * batch in order, under the owner's epoch. A batch that fails to be published is reported and the next ones
 * go on: the followers find the gap and load the state from the database.
 */
import type { EngineChangeFeed } from '../platform/ports.js'
import type { StoredBatch } from '../platform/telephony/telephony-service.js'
import { encodeEngineBatch } from './engine-batch-json.js'

export class EngineBatchPublisher {
  readonly #feed: EngineChangeFeed
  readonly #epoch: number
  readonly #onError: (error: unknown) => void
  /** The rest of the batch last encoded: the next batch carries its rest only when it differs. */
  #lastRest: string | undefined
  /** The publication under way: each waits for the one before, so that the feed receives them in order. */
  #tail: Promise<void> = Promise.resolve()

  constructor(feed: EngineChangeFeed, epoch: number, onError: (error: unknown) => void = () => {}) {
    this.#feed = feed
    this.#epoch = epoch
    this.#onError = onError
  }

  /**
   * Encodes the stored batch at once and publishes it after those before it; resolves once it is on the feed
   * (or its failure reported: never rejects), so that the engine tells nobody of the batch before a follower
   * can find it there.
   */
  readonly stored = (stored: StoredBatch): Promise<void> => {
    const batch = encodeEngineBatch(stored, this.#epoch, this.#lastRest)
    if (batch.rest !== undefined) this.#lastRest = batch.rest
    this.#tail = this.#tail.then(() => this.#feed.publish(batch)).catch(this.#onError)
    return this.#tail
  }

  /** Resolves once every batch told so far is published (or reported as failed). */
  idle(): Promise<void> {
    return this.#tail
  }
}
