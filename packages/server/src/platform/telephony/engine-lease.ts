/**
 * The ports of the call engine's ownership in a cluster: the lease and its terms (docs/cluster-engine.md, "Engine
 * lease and fencing").
 */

/**
 * Why a node no longer owns the call engine: it gave ownership up (`released`: a graceful stop), the
 * database dropped or stopped answering the connection its ownership lived on (`connection-lost`), or a
 * check found that another node owns the engine since (`superseded`).
 */
export type EngineOwnershipLoss =
  | { reason: 'released' }
  | { reason: 'connection-lost' | 'superseded'; cause?: unknown }

/**
 * One node's term as owner of the call engine (docs/cluster-engine.md, "Engine lease and fencing"). While it
 * lasts, the node loads the engine's state from the CallStore and runs the engine; every save of that state is
 * fenced with `epoch`, so that a save made after the term ended, by a node that did not know yet, is refused.
 */
export interface EngineOwnership {
  /** Greater than the epoch of every earlier owner's term: the newest owner's is the only one stores accept. */
  readonly epoch: number
  /** True until the term ends (as soon as this node knows it ended); a fence answers no epoch then. */
  readonly isHeld: boolean
  /** Resolves, with why, as soon as the term ends; never rejects. The engine stops at once when it does. */
  readonly lost: Promise<EngineOwnershipLoss>
  /** Gives ownership up (a graceful stop, once the engine stopped): another node may take it at once. */
  release(): Promise<void>
}

/**
 * The election of the call engine's owner: at most one node at a time owns the engine, the others wait in
 * `acquire` and take over when it ends. In the embedded mode the one node owns it at once.
 */
export interface EngineLease {
  /**
   * Resolves once this node owns the call engine, trying again every so often while another node owns it.
   * Rejects when the lease is closed first, or when this node owns it or is trying to already.
   */
  acquire(): Promise<EngineOwnership>
  /** Stops trying, gives ownership up if this node holds it, and releases what the lease holds. */
  close(): Promise<void>
}
