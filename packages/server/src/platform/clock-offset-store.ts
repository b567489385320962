/**
 * The port of the clock's offset: how far the control plane set the service's clock ahead, kept across restarts
 * and shared by the nodes.
 */

/**
 * Durable storage of how far the control plane set the service's clock ahead of the system's time
 * (adjustable-clock.ts): the timers the call engine stores are due on that clock, so a restart goes on from it.
 * Several nodes advance it: an advance adds to the offset stored, so that two advances at once add up
 * (docs/cluster.md, "No lost update").
 */
export interface ClockOffsetStore {
  /** The offset last stored, in milliseconds; 0 when none was. */
  load(): Promise<number>
  /** Adds `ms` to the offset stored, in one step against every other writer; answers the offset stored. */
  advance(ms: number): Promise<number>
}
