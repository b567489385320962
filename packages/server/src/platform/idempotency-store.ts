/** The port of the requests sent with an Idempotency-Key (docs/idempotency.md). */

/**
 * What a request sent with an `Idempotency-Key` ended with, as its retries are answered again
 * (docs/idempotency.md): the status, the headers worth answering again (Location, Content-Type...) and the body.
 */
export interface IdempotentOutcome {
  status: number
  headers: Readonly<Record<string, string>>
  body: string
}

/**
 * What claiming a key answers: run the request (`claimed`; `takenOver` when a previous holder's lease lapsed:
 * it may have run part of it); answer again what it ended with (`replay`); refuse a key sent before with another
 * request (`mismatch`, 422); or the same request still running through another connection or node (`busy`, 409).
 */
export type IdempotencyClaim =
  | { kind: 'claimed'; takenOver: boolean }
  | { kind: 'replay'; outcome: IdempotentOutcome }
  | { kind: 'mismatch' }
  | { kind: 'busy' }

/**
 * The requests clients sent with an `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header;
 * docs/idempotency.md), kept where every node sees them: a key (already scoped to its client by the caller) with
 * the fingerprint of its request, the holder running it under a lease it renews, then its outcome, kept for the
 * store's retention. Times are the store's own (Redis's, in a cluster), never the platform's adjustable clock.
 */
export interface IdempotencyStore {
  /** Claims `key` for the request of `fingerprint`, held by `holder` for the store's lease; see IdempotencyClaim. */
  claim(key: string, fingerprint: string, holder: string): Promise<IdempotencyClaim>
  /** Keeps `holder`'s claim for another lease while its request runs; false when it is no longer its own. */
  renew(key: string, holder: string): Promise<boolean>
  /** Records the outcome of `holder`'s request under `key`; nothing when another holder took the key over. */
  complete(key: string, holder: string, outcome: IdempotentOutcome): Promise<void>
  /** Frees `holder`'s claim, the request not done (a server-side failure): the key may be sent again. */
  release(key: string, holder: string): Promise<void>
}
