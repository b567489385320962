/**
 * scrypt password hashes with a per-password salt, stored as one self-describing string so that the cost
 * can rise without invalidating stored hashes: `scrypt$<N>$<r>$<p>$<salt b64>$<key b64>`.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

const KEY_LENGTH = 32
const SALT_LENGTH = 16

/** scrypt cost parameters. */
export interface ScryptCost {
  N: number
  r: number
  p: number
}

/** OWASP's minimum for scrypt: N=2^17, r=8, p=1 (about 128 MiB and 0.1 to 0.3 s on this hardware). */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 }

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const maxmem = 128 * cost.N * cost.r * 2
    scrypt(password, salt, KEY_LENGTH, { ...cost, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

/** Hashes and verifies passwords; unknown accounts are verified against a dummy hash of the same cost. */
export class PasswordHasher {
  private dummyHash: Promise<string> | undefined

  constructor(private readonly cost: ScryptCost = DEFAULT_SCRYPT_COST) {}

  /** A new hash of `password` with a fresh random salt. */
  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_LENGTH)
    const key = await derive(password, salt, this.cost)
    const { N, r, p } = this.cost
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`
  }

  /**
   * True when `password` matches `hash`. With no hash (unknown account, or an account without a
   * password) it still spends the time of a real verification, so that timing does not tell them apart.
   */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    if (hash === undefined) {
      this.dummyHash ??= this.hash(randomBytes(16).toString('hex'))
      await this.check(password, await this.dummyHash)
      return false
    }
    return this.check(password, hash)
  }

  /** True when the hash string is one this hasher can verify. */
  static isWellFormed(hash: string): boolean {
    return parseHash(hash) !== undefined
  }

  private async check(password: string, hash: string): Promise<boolean> {
    const parsed = parseHash(hash)
    if (parsed === undefined) return false
    const key = await derive(password, parsed.salt, parsed.cost)
    return key.length === parsed.key.length && timingSafeEqual(key, parsed.key)
  }
}

function parseHash(hash: string): { cost: ScryptCost; salt: Buffer; key: Buffer } | undefined {
  const parts = hash.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined
  const [N, r, p] = parts.slice(1, 4).map(Number)
  if (!N || !r || !p || !Number.isInteger(Math.log2(N))) return undefined
  const salt = Buffer.from(parts[4] ?? '', 'base64')
  const key = Buffer.from(parts[5] ?? '', 'base64')
  if (salt.length === 0 || key.length === 0) return undefined
  return { cost: { N, r, p }, salt, key }
}
