/**
 * callRefs that do not tell the next one (issue 15, finding 4; docs/call-model.md, "Identifiers"). A callRef
 * is the engine's sequence number passed through a keyed permutation of 64-bit numbers, written as 16
 * lowercase hex digits: the form of the real server's (`a6aaea5b21000700`, wire facts 5.2), URL-safe, as
 * short as before, and a string, as every client reads it. A permutation gives each number its own callRef,
 * so callRefs stay unique without a lookup; the key is part of the engine's state, so the same state and
 * command give the same callRef (tests, a replica, a new owner of the engine in a cluster).
 *
 * The permutation is a four-round Feistel network on two 32-bit halves with HMAC-SHA-256 as its round
 * function (Luby-Rackoff: a pseudorandom permutation as long as the key is secret). Without the key, seeing
 * callRefs tells nothing of the next one, nor how many calls were made.
 */
import { createHmac, randomBytes } from 'node:crypto'

const ROUNDS = 4
const HALF = 2 ** 32

/** A new key: 32 random bytes in hex. The engine's state keeps it (`TelephonyState.callRefKey`). */
export function newCallRefKey(): string {
  return randomBytes(32).toString('hex')
}

/** The callRef of the call numbered `serial` (a whole number below 2^53) under `key`. */
export function callRefOf(key: string, serial: number): string {
  const secret = Buffer.from(key, 'hex')
  let left = Math.floor(serial / HALF) >>> 0
  let right = serial >>> 0
  const block = Buffer.alloc(5)
  for (let round = 0; round < ROUNDS; round += 1) {
    block.writeUInt8(round, 0)
    block.writeUInt32BE(right, 1)
    const mixed = createHmac('sha256', secret).update(block).digest().readUInt32BE(0)
    const next = (left ^ mixed) >>> 0
    left = right
    right = next
  }
  return hex8(left) + hex8(right)
}

function hex8(value: number): string {
  return value.toString(16).padStart(8, '0')
}
