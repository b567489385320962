/** The port of the licenses sessions hold (docs/cluster.md, "License references"). */
import type { UserRight } from '@openness/wire'

/**
 * The license references of sessions, against the installed counts (specification, "States and transitions":
 * closing a session releases all license references; docs/cluster.md, "License references"). A user holds a
 * license once however many of its sessions took it, and gives it back with the last of them. References
 * belong to sessions, never to nodes: whoever closes a session, its own node or the sweep after that node
 * died, gives back what it holds by its id. Each operation is atomic across the nodes of a cluster.
 */
export interface LicenseStore {
  /**
   * Takes, for session `sessionId` acting as `loginName`, each of `rights` the user holds already or for which
   * a license is free within `installed`; resolves to the rights taken (and those the session held already).
   * `now` is when, for `holdingSessions`.
   */
  acquire(
    sessionId: string,
    loginName: string,
    rights: readonly UserRight[],
    installed: Readonly<Record<UserRight, number>>,
    now: number,
  ): Promise<UserRight[]>
  /** Gives back every reference of the session; nothing happens when it holds none (released already). */
  release(sessionId: string): Promise<void>
  /** How many distinct users hold `right` now. */
  inUse(right: UserRight): Promise<number>
  /**
   * The sessions holding references taken before `acquiredBefore`, earliest first, at most `limit`: the sweep
   * releases those that are not open (a node that died between acquiring and opening the session).
   */
  holdingSessions(acquiredBefore: number, limit: number): Promise<string[]>
}
