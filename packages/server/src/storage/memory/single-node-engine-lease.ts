/**
 * The lease of the call engine in the embedded mode (docs/cluster-engine.md, "Engine lease and fencing"): one
 * node, so it owns the engine as soon as it asks, and the embedded mode runs the same start and stop of the engine
 * as a cluster node. Its first term has epoch 1; a term taken after one was given up has the next epoch. Nothing
 * is stored: the SQLite call store is not fenced (no other node can write it).
 */
import type { EngineLease, EngineOwnership } from '../../platform/telephony/engine-lease.js'
import { EngineTerm } from '../engine-term.js'

export class SingleNodeEngineLease implements EngineLease {
  #epoch = 0
  #term: EngineTerm | undefined
  #closed = false

  /** Owns the engine at once; rejects when closed or while a term holds. */
  async acquire(): Promise<EngineOwnership> {
    if (this.#closed) throw new Error('The engine lease is closed')
    if (this.#term?.isHeld) throw new Error('This node owns the call engine already')
    this.#epoch += 1
    this.#term = new EngineTerm(this.#epoch, async (term) => term.end({ reason: 'released' }))
    return this.#term
  }

  /** Gives the term up if one holds; acquire rejects from now on. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#term?.release()
  }
}
