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
/** The bytes of one AES block: a round's input is its first 8 (round number, right half), the rest zero. */
const BLOCK_BYTES = 16
/**
 * How many callRefs one pass through the rounds makes: the serials from the one asked, in one cipher call per
 * round for all of them. A cipher call costs about 1.2 µs plus 20 ns a block, and eight of them per callRef
 * were a seventh of the engine's time in a call cycle; the engine asks for the serials in order (a call and
 * its timers take a few numbers each), so most of those made ahead are used.
 */
const AHEAD = 256

/**
 * The cipher of the key used last (a node's engine has one key): ECB over whole blocks keeps no state from one
 * block to the next, so one cipher serves every call.
 */
let cached: { key: string; cipher: Cipher } | undefined

/** The permuted serials from `first` under `key`, made by the last pass (callRefOf): their two halves. */
let ahead: { key: string; first: number; high: Uint32Array; low: Uint32Array } | undefined

/** A new key: 32 random bytes in hex. The engine's state keeps it (`TelephonyState.callRefKey`). */
export function newCallRefKey(): string {
  return randomBytes(32).toString('hex')
}

/**
 * The callRef of the call numbered `serial` (a whole number below 2^53) under `key` (64 hex digits). The same
 * key and number always give the same callRef: those made ahead are kept only to save cipher calls.
 */
export function callRefOf(key: string, serial: number): string {
  let index = ahead?.key === key ? serial - ahead.first : -1
  if (ahead === undefined || !(index >= 0 && index < ahead.high.length)) {
    const count = Math.min(AHEAD, Number.MAX_SAFE_INTEGER - serial + 1)
    const { high, low } = permute(cipherOf(key), serial, count)
    ahead = { key, first: serial, high, low }
    index = 0
  }
  // Written out only when asked: about half the serials made ahead become callRefs (the others, timers' ids).
  return hex8(ahead.high[index] as number) + hex8(ahead.low[index] as number)
}

/**
 * The permuted halves of `count` serials from `first`: the Feistel rounds of all of them side by side, each
 * round's inputs one block apart in one buffer, so that each round is one cipher call.
 */
function permute(
  cipher: Cipher,
  first: number,
  count: number,
): { high: Uint32Array; low: Uint32Array } {
  const left = new Uint32Array(count)
  const right = new Uint32Array(count)
  for (let i = 0; i < count; i += 1) {
    left[i] = Math.floor((first + i) / HALF) >>> 0
    right[i] = (first + i) >>> 0
  }
  const blocks = Buffer.alloc(count * BLOCK_BYTES)
  const input = new DataView(blocks.buffer, blocks.byteOffset, blocks.byteLength)
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let i = 0; i < count; i += 1) {
      input.setUint32(i * BLOCK_BYTES, round)
      input.setUint32(i * BLOCK_BYTES + 4, right[i] as number)
    }
    const mixed = cipher.update(blocks)
    const output = new DataView(mixed.buffer, mixed.byteOffset, mixed.byteLength)
    for (let i = 0; i < count; i += 1) {
      const next = ((left[i] as number) ^ output.getUint32(i * BLOCK_BYTES)) >>> 0
      left[i] = right[i] as number
      right[i] = next
    }
  }
  return { high: left, low: right }
}

function cipherOf(key: string): Cipher {
  if (cached?.key === key) return cached.cipher
  const cipher = createCipheriv('aes-256-ecb', Buffer.from(key, 'hex'), null)
  cipher.setAutoPadding(false)
  cached = { key, cipher }
  return cipher
}

/** Two hex digits for each byte value: `toString(16)` takes about 350 ns a number above 2^31, this 50. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

function hex8(value: number): string {
  return (
    (HEX_BYTES[value >>> 24] as string) +
    (HEX_BYTES[(value >>> 16) & 0xff] as string) +
    (HEX_BYTES[(value >>> 8) & 0xff] as string) +
    (HEX_BYTES[value & 0xff] as string)
  )
}
