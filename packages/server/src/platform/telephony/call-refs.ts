/**
 * callRefs that do not tell the next one (issue 15, finding 4; docs/call-model.md, "Identifiers"). A callRef
 * is the engine's sequence number passed through a keyed permutation of 64-bit numbers, written as 16
 * lowercase hex digits: the form of the real server's (`a6aaea5b21000700`, wire facts 5.2), URL-safe, as
 * short as before, and a string, as every client reads it. A permutation gives each number its own callRef,
 * so callRefs stay unique without a lookup; the key is part of the engine's state, so the same state and
 * command give the same callRef (tests, a replica, a new owner of the engine in a cluster).
 *
 * The permutation is a Feistel network of eight rounds on two 32-bit halves whose round function is AES-256
 * under the key (a pseudorandom function: Luby-Rackoff, as format-preserving encryption such as NIST's FF1
 * builds on AES). Without the key, callRefs tell nothing of the next one, nor how many calls were made. AES
 * rather than HMAC: one cipher object serves every round of every callRef, about seven times cheaper than an
 * HMAC made per round.
 */
import { type Cipher, createCipheriv, randomBytes } from 'node:crypto'

const ROUNDS = 8
const HALF = 2 ** 32

/**
 * The cipher of the key used last (a node's engine has one key): ECB over whole blocks keeps no state from one
 * block to the next, so one cipher serves every call.
 */
let cached: { key: string; cipher: Cipher } | undefined

/** A new key: 32 random bytes in hex. The engine's state keeps it (`TelephonyState.callRefKey`). */
export function newCallRefKey(): string {
  return randomBytes(32).toString('hex')
}

/** The callRef of the call numbered `serial` (a whole number below 2^53) under `key` (64 hex digits). */
export function callRefOf(key: string, serial: number): string {
  const cipher = cipherOf(key)
  let left = Math.floor(serial / HALF) >>> 0
  let right = serial >>> 0
  const block = Buffer.alloc(16)
  for (let round = 0; round < ROUNDS; round += 1) {
    block.writeUInt32BE(round, 0)
    block.writeUInt32BE(right, 4)
    const mixed = cipher.update(block).readUInt32BE(0)
    const next = (left ^ mixed) >>> 0
    left = right
    right = next
  }
  return hex8(left) + hex8(right)
}

function cipherOf(key: string): Cipher {
  if (cached?.key === key) return cached.cipher
  const cipher = createCipheriv('aes-256-ecb', Buffer.from(key, 'hex'), null)
  cipher.setAutoPadding(false)
  cached = { key, cipher }
  return cipher
}

function hex8(value: number): string {
  return value.toString(16).padStart(8, '0')
}
