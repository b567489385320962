/**
 * The call engine as the gateway, the control plane and the other services use it (docs/cluster-engine.md, "The
 * engine on every node"): commands, snapshots, and reads of its state. On the node that owns the engine
 * it is the engine's runtime (TelephonyService); on every node it is an EngineNode, which runs the engine
 * while it owns it and otherwise forwards commands to the owner and reads a replica of its state. Users of it
 * never know which.
 */
import type { PlatformEvent } from '../events.js'
import type { TelephonyQueries } from './telephony-queries.js'
import type { EngineCommand, TelephonyState } from './telephony-state.js'

export interface Telephony {
  /** The engine's state as this node last knows it stored (on a follower, its replica's); never change it. */
  readonly state: TelephonyState
  /** Reads of that state, as users see it (telephony-queries.ts). */
  readonly queries: TelephonyQueries
  /**
   * Runs the command after those asked before it; resolves once it is stored and its events published, and
   * once this node's state shows its effect. Rejects with the engine's PlatformError (nothing changed), the
   * store's error (nothing changed either), or, on a node that forwards it, EngineRequestTimeoutError when the
   * engine's owner did not answer in time. A command given a `requestId` the engine ran already (a client's
   * retry with its Idempotency-Key, on any node) is answered as it was, not run again (docs/idempotency.md).
   */
  execute(command: EngineCommand, requestId?: string): Promise<CommandResult>
  /**
   * Publishes the user's telephonic state as an OnTelephonyState event (POST /telephony/state/snapshot),
   * after the commands asked so far, so that it follows their events on the channel.
   */
  snapshot(loginName: string): Promise<void>
  /** Resolves once every command asked so far through this node (timers' included) is done. */
  idle(): Promise<void>
  /**
   * Resolves once this node's state shows every batch the engine had stored when it was called: at once on the
   * engine's owner; on a follower, once its replica applied what the change feed holds. A request that found no
   * call where another node's command just made one (its client saw the event first) reads again after it.
   */
  catchUp?(): Promise<void>
  /** Stops taking commands; resolves once those under way are done. */
  stop(): Promise<void>
}

/** The answer of a command. */
export interface CommandResult {
  /** The callRef of the call the command created, where it has one. */
  callRef?: string
  /** The events the command published, in order. */
  events: readonly PlatformEvent[]
}
