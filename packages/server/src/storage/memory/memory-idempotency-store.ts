/**
 * The requests sent with an `Idempotency-Key` in the process (the embedded mode; docs/idempotency.md): one entry
 * a key, in the order they were claimed, the expired ones dropped from the front as keys are claimed, and at most
 * `maxEntries` kept (the oldest dropped first), so that memory follows the request rate, not the service's age.
 */
import type {
  IdempotencyClaim,
  IdempotencyStore,
  IdempotentOutcome,
} from '../../platform/idempotency-store.js'

/** How the store keeps keys. */
export interface IdempotencyTiming {
  /** How long a claim holds without being renewed: past it, a retry takes the key over. */
  leaseMs: number
  /** How long a key is kept from its last claim or outcome. */
  retentionMs: number
}

/** How a memory store keeps keys, and the time it reads (the system's, by default). */
export interface MemoryIdempotencyOptions extends IdempotencyTiming {
  /** The most keys kept; the oldest go first beyond it. */
  maxEntries?: number
  now?: () => number
}

/** Keys kept at most by default: about 50 MB of outcomes at their usual size. */
export const DEFAULT_MAX_IDEMPOTENCY_ENTRIES = 100_000

interface Entry {
  fingerprint: string
  holder: string
  leaseUntil: number
  expiresAt: number
  outcome?: IdempotentOutcome
}

export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, Entry>()
  readonly #leaseMs: number
  readonly #retentionMs: number
  readonly #maxEntries: number
  readonly #now: () => number

  constructor(options: MemoryIdempotencyOptions) {
    this.#leaseMs = options.leaseMs
    this.#retentionMs = options.retentionMs
    this.#maxEntries = options.maxEntries ?? DEFAULT_MAX_IDEMPOTENCY_ENTRIES
    this.#now = options.now ?? Date.now
  }

  /** How many keys it holds. */
  get size(): number {
    return this.#entries.size
  }

  async claim(key: string, fingerprint: string, holder: string): Promise<IdempotencyClaim> {
    const now = this.#now()
    this.#prune(now)
    const entry = this.#live(key, now)
    if (entry === undefined) {
      this.#keep(key, { fingerprint, holder, leaseUntil: now + this.#leaseMs, expiresAt: 0 }, now)
      return { kind: 'claimed', takenOver: false }
    }
    if (entry.fingerprint !== fingerprint) return { kind: 'mismatch' }
    if (entry.outcome !== undefined) return { kind: 'replay', outcome: entry.outcome }
    if (entry.leaseUntil > now) return { kind: 'busy' }
    this.#keep(key, { ...entry, holder, leaseUntil: now + this.#leaseMs }, now)
    return { kind: 'claimed', takenOver: true }
  }

  async renew(key: string, holder: string): Promise<boolean> {
    const now = this.#now()
    const entry = this.#live(key, now)
    if (entry?.holder !== holder || entry.outcome !== undefined) return false
    entry.leaseUntil = now + this.#leaseMs
    return true
  }

  async complete(key: string, holder: string, outcome: IdempotentOutcome): Promise<void> {
    const now = this.#now()
    const entry = this.#live(key, now)
    if (entry?.holder !== holder || entry.outcome !== undefined) return
    this.#keep(key, { ...entry, outcome }, now)
  }

  async release(key: string, holder: string): Promise<void> {
    const entry = this.#entries.get(key)
    if (entry?.holder === holder && entry.outcome === undefined) this.#entries.delete(key)
  }

  /** The key's entry unless it expired (dropped then). */
  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key)
    if (entry === undefined || entry.expiresAt > now) return entry
    this.#entries.delete(key)
    return undefined
  }

  /** Keeps the entry for the retention from now, at the end of the order; the oldest go beyond the bound. */
  #keep(key: string, entry: Entry, now: number): void {
    this.#entries.delete(key)
    this.#entries.set(key, { ...entry, expiresAt: now + this.#retentionMs })
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#entries.delete(oldest)
    }
  }

  /** Drops the expired entries at the front: entries are in the order of their expiry. */
  #prune(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt > now) return
      this.#entries.delete(key)
    }
  }
}
