/**
 * An election of the call engine's owner among the nodes of one process, for engine node tests over memory
 * adapters: the first node to ask owns the engine; a term ends when its node gives it up or the test takes it
 * (`loseTerm`, as a lost database connection would); the node that waited longest then owns the engine, under
 * the next epoch. `fencedStore` refuses the saves of a term that ended, as the PostgreSQL fence does.
 */
import type { CallStore } from '../../src/platform/telephony/call-store.js'
import { EngineFencedError } from '../../src/platform/telephony/engine-fenced-error.js'
import type {
  EngineLease,
  EngineOwnership,
  EngineOwnershipLoss,
} from '../../src/platform/telephony/engine-lease.js'
import { EngineTerm } from '../../src/storage/engine-term.js'

interface Waiting {
  node: string
  resolve(term: EngineOwnership): void
  reject(error: unknown): void
}

export class TestEngineElection {
  #epoch = 0
  #holder: { node: string; term: EngineTerm } | undefined
  #waiting: Waiting[] = []

  /** The node owning the engine now, if any. */
  get owner(): string | undefined {
    return this.#holder?.node
  }

  /** The epoch of the last term given. */
  get epoch(): number {
    return this.#epoch
  }

  /** The lease of one node. */
  lease(node: string): EngineLease {
    let closed = false
    return {
      acquire: () =>
        new Promise<EngineOwnership>((resolve, reject) => {
          if (closed) reject(new Error('The engine lease is closed'))
          else {
            this.#waiting.push({ node, resolve, reject })
            this.#grant()
          }
        }),
      close: async () => {
        closed = true
        for (const waiting of this.#waiting.filter((entry) => entry.node === node))
          waiting.reject(new Error('The engine lease is closed'))
        this.#waiting = this.#waiting.filter((entry) => entry.node !== node)
        if (this.#holder?.node === node) this.#end({ reason: 'released' })
      },
    }
  }

  /** Ends the owner's term, as its database connection dying would; the next node waiting owns the engine. */
  loseTerm(loss: EngineOwnershipLoss = { reason: 'connection-lost' }): void {
    this.#end(loss)
  }

  #end(loss: EngineOwnershipLoss): void {
    const holder = this.#holder
    if (holder === undefined) return
    this.#holder = undefined
    holder.term.end(loss)
    this.#grant()
  }

  #grant(): void {
    if (this.#holder !== undefined) return
    const next = this.#waiting.shift()
    if (next === undefined) return
    this.#epoch += 1
    const term: EngineTerm = new EngineTerm(this.#epoch, async () => {
      if (this.#holder?.term === term) this.#end({ reason: 'released' })
    })
    this.#holder = { node: next.node, term }
    next.resolve(term)
  }
}

/** The store as a term writes it: its saves refused once the term ended, as the PostgreSQL fence does. */
export function fencedStore(store: CallStore, term: EngineOwnership): CallStore {
  const check = () => {
    if (!term.isHeld) throw new EngineFencedError(undefined)
  }
  return {
    load: () => store.load(),
    save: async (state, changes) => {
      check()
      await store.save(state, changes)
    },
    saveWithRecords: async (state, changes, records) => {
      check()
      return store.saveWithRecords(state, changes, records)
    },
    close: async () => {},
  }
}
