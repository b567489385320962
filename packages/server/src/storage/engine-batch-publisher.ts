/**
 * The engine owner's side of the change feed (docs/cluster-engine.md, "The replica"): told of each batch once it
 * is stored (TelephonyServiceOptions.onStored), it encodes what the batch wrote and publishes it, batch after
 * batch in order, under the owner's epoch. A batch that fails to be published is reported and the next ones go on:
 * the followers find the gap and load the state from the database.
 */
import type { EngineChangeFeed } from '../platform/telephony/engine-change-feed.js'
import type { BatchPublication, StoredBatch } from '../platform/telephony/telephony-service.js'
import { withResolvers } from '../platform/with-resolvers.js'
import { encodeEngineBatch } from './engine-batch-json.js'

export class EngineBatchPublisher {
  readonly #feed: EngineChangeFeed
  readonly #epoch: number
  readonly #onError: (error: unknown) => void
  /** The rest of the batch last encoded: the next batch carries its rest only when it differs. */
  #lastRest: string | undefined
  /** The publications under way: `idle` waits for them all. */
  #tail: Promise<void> = Promise.resolve()

  constructor(feed: EngineChangeFeed, epoch: number, onError: (error: unknown) => void = () => {}) {
    this.#feed = feed
    this.#epoch = epoch
    this.#onError = onError
  }

  /**
   * Encodes the stored batch and publishes it at once (the engine stores one batch at a time, and the feed
   * keeps the order it is sent in). `queued` resolves once the events appended from then on come after the
   * entry (the feed's `onQueued`, or once it is held); `held` once it is on the feed (or its failure
   * reported). Neither rejects. The engine appends the batch's events after `queued` and tells its clients
   * after `held`, so that nobody learns of the batch before a follower can find it there.
   */
  readonly stored = (stored: StoredBatch): BatchPublication => {
    const batch = encodeEngineBatch(stored, this.#epoch, this.#lastRest)
    if (batch.rest !== undefined) this.#lastRest = batch.rest
    const queued = withResolvers()
    const held = this.#feed.publish(batch, () => queued.resolve()).catch(this.#onError)
    this.#tail = Promise.all([this.#tail, held]).then(() => {})
    return { queued: Promise.race([queued.promise, held]), held }
  }

  /** Resolves once every batch told so far is published (or reported as failed). */
  idle(): Promise<void> {
    return this.#tail
  }
}
