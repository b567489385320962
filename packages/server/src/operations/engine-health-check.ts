/**
 * The call engine's part of a node's readiness (docs/operations.md; docs/cluster-engine.md, "The engine on every
 * node"): a cluster node is ready only once it is caught up with the engine, running it as its owner or
 * following the owner with a replica loaded from the stored state. The embedded mode's node owns the engine
 * before it serves, so it needs no such check.
 */
import type { HealthCheck } from './node-health.js'

/** What the check reads of the engine's node (EngineNode). */
export interface CatchingUp {
  readonly isCaughtUp: boolean
}

/** The check named `engine`: UP while the node is caught up, DOWN while it starts or changes role. */
export function engineHealthCheck(engine: CatchingUp): HealthCheck {
  return {
    name: 'engine',
    probe: async () => {
      if (!engine.isCaughtUp) throw new Error('The call engine is not caught up on this node')
    },
  }
}
