/**
 * Passwords recently verified, so that an application logging in again does not pay scrypt again: one
 * verification at OWASP's cost takes 0.1 to 0.5 s of a core, which would cap logins at a few per second
 * (docs/decisions.md, "Verified passwords"). What is kept is an HMAC-SHA256 of the password under a key
 * drawn at start and never stored, next to the stored hash it matched; only a correct password is ever
 * kept, so a wrong one always costs a full verification. An entry lapses after `ttlSeconds`, and as
 * soon as the account's hash changes (a new password has a new salt, hence another hash string): the
 * directory then forgets it, whichever node the change was made on.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../events.js'

/** How long a verification is kept by default, seconds (PASSWORD_CACHE_TTL). */
export const DEFAULT_VERIFIED_PASSWORD_TTL_SECONDS = 600

/** Beyond this many entries the oldest is forgotten: a bound on memory whatever the directory's size. */
const MAX_ENTRIES = 10_000

interface Entry {
  digest: Buffer
  expiresAt: number
}

export class VerifiedPasswords {
  readonly #key = randomBytes(32)
  /** By stored hash; Map order is insertion order, oldest first. */
  readonly #entries = new Map<string, Entry>()

  constructor(
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

  /** Whether `password` was verified against `passwordHash` less than ttlSeconds ago. */
  has(passwordHash: string, password: string): boolean {
    const entry = this.#entries.get(passwordHash)
    if (entry === undefined) return false
    if (entry.expiresAt <= this.clock.now()) {
      this.#entries.delete(passwordHash)
      return false
    }
    return timingSafeEqual(entry.digest, this.#digest(password))
  }

  /** Keeps that `password` matches `passwordHash`, which a full verification has just shown. */
  remember(passwordHash: string, password: string): void {
    this.#entries.delete(passwordHash)
    this.#entries.set(passwordHash, {
      digest: this.#digest(password),
      expiresAt: this.clock.now() + this.ttlSeconds * 1000,
    })
    if (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value
      if (oldest !== undefined) this.#entries.delete(oldest)
    }
  }

  /** Forgets what was verified against `passwordHash` (the account's password changed, maybe on another node). */
  forget(passwordHash: string): void {
    this.#entries.delete(passwordHash)
  }

  /** Forgets everything (the whole directory was reloaded). */
  clear(): void {
    this.#entries.clear()
  }

  /** How many entries are kept (lapsed ones included until looked up). */
  get size(): number {
    return this.#entries.size
  }

  #digest(password: string): Buffer {
    return createHmac('sha256', this.#key).update(password).digest()
  }
}
