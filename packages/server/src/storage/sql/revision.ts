/**
 * Revisions of the rows several nodes change (docs/cluster.md, "No lost update"), and the write conflicts a
 * compare-and-set meets on PostgreSQL.
 */
import { randomBytes } from 'node:crypto'
import type { Revision } from '../../platform/change-notices.js'

/** A new revision: 72 random bits, never the same for two writes in practice, so never two contents. */
export function newRevision(): Revision {
  return randomBytes(9).toString('base64url')
}

/**
 * Whether `error` is PostgreSQL refusing a transaction because a concurrent one wrote what it read or wrote
 * (serialization failure, 40001; deadlock, 40P01): nothing of it was written, and planning it again on what
 * the store holds now is the answer, as for a revision that moved on.
 */
export function isWriteConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '40001' || code === '40P01'
}

/** Whether `error` is PostgreSQL refusing an insert whose key another transaction inserted meanwhile. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505'
}

/** Thrown inside a transaction to roll it back when a record moved on; caught by the store that threw it. */
export class StaleWriteError extends Error {
  override readonly name = 'StaleWriteError'

  /** @param stale the keys of the records that moved on since the change was planned */
  constructor(readonly stale: readonly string[]) {
    super(`Changed since read: ${stale.join(', ')}`)
  }
}
