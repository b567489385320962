/**
 * The origins of the engine's events (docs/cluster-engine.md, "Events of a batch whose owner died"): each
 * event a stored batch publishes is numbered by its batch, then its index in the batch, so that origins only
 * grow, across owners too (the batches are numbered from the stored state). A subscription's log keeps the last
 * origin it took and takes no event at or below it: a new owner publishes again the events of the batches its
 * predecessor stored and may not have published, and each log takes only those it lacks, in order.
 */

/** The most events one batch can number (2^20): far more than its 256 commands publish. */
const EVENTS_PER_BATCH = 1_048_576

/** The origin of the `index`-th event (from 0) that batch `batch` published. */
export function eventOrigin(batch: number, index: number): number {
  if (!Number.isSafeInteger(batch) || batch < 0 || !Number.isInteger(index) || index < 0)
    throw new RangeError(`no event origin for event ${index} of batch ${batch}`)
  if (index >= EVENTS_PER_BATCH)
    throw new RangeError(`batch ${batch} published more than ${EVENTS_PER_BATCH} events`)
  return batch * EVENTS_PER_BATCH + index
}
