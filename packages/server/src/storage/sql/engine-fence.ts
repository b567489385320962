/**
 * Fencing of the saves of the call engine's state (docs/cluster-engine.md, "Engine lease and fencing"): a save
 * made under an epoch checks, first thing in its transaction, that the epoch is still the one in the lease's row,
 * and fails with EngineFencedError, writing nothing, when a new owner incremented it since. The check is one
 * statement, an update of the row to itself where the epoch is the writer's: it must touch that row, and it locks
 * it until the save commits, so that a new owner's increment waits for a save already checked and a save checked
 * after the increment is refused (the owner loads the state only once its epoch is set).
 */
import type { Kysely } from 'kysely'
import { EngineFencedError } from '../../platform/telephony/engine-fenced-error.js'
import type { EngineOwnership } from '../../platform/telephony/engine-lease.js'
import type { CallDatabase } from './database.js'

/** The row of the call engine's lease in `engine_lease`. */
export const ENGINE_LEASE_NAME = 'call-engine'

/** What a fenced store checks its saves against. */
export interface EngineFence {
  /** The epoch the writer owns the engine under, read at each save; undefined once it knows it does not. */
  epoch(): number | undefined
  /** The lease's row; ENGINE_LEASE_NAME when absent. */
  lease?: string
}

/** The fence of an engine owner's term: its epoch while the term holds. */
export function fenceOf(ownership: EngineOwnership, lease?: string): EngineFence {
  return {
    epoch: () => (ownership.isHeld ? ownership.epoch : undefined),
    ...(lease !== undefined && { lease }),
  }
}

/** The epoch a save is made under; throws EngineFencedError when the writer knows it is no longer the owner. */
export function fencedEpoch(fence: EngineFence): number {
  const epoch = fence.epoch()
  if (epoch === undefined) throw new EngineFencedError(undefined)
  return epoch
}

/**
 * Checks, in the save's transaction and before it writes anything, that `epoch` is the lease's; otherwise
 * throws EngineFencedError (with the current epoch), which rolls the transaction back.
 */
export async function checkFence(
  trx: Kysely<CallDatabase>,
  fence: EngineFence,
  epoch: number,
): Promise<void> {
  const lease = leaseOf(fence)
  const { numUpdatedRows } = await trx
    .updateTable('engine_lease')
    .set((eb) => ({ epoch: eb.ref('epoch') }))
    .where('name', '=', lease)
    .where('epoch', '=', epoch)
    .executeTakeFirst()
  if (numUpdatedRows !== 1n) throw await fenceRefusal(trx, fence, epoch)
}

/** The lease's row a fence checks. */
export function leaseOf(fence: EngineFence): string {
  return fence.lease ?? ENGINE_LEASE_NAME
}

/** The error of a save refused under `epoch`, with the lease's epoch now. */
export async function fenceRefusal(
  db: Kysely<CallDatabase>,
  fence: EngineFence,
  epoch: number,
): Promise<EngineFencedError> {
  const row = await db
    .selectFrom('engine_lease')
    .select('epoch')
    .where('name', '=', leaseOf(fence))
    .executeTakeFirst()
  return new EngineFencedError(epoch, row === undefined ? undefined : Number(row.epoch))
}
