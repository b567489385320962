/** The routing's port: users' routing profiles, written by compare-and-set on what a change read. */
import type { Revision } from '../change-notices.js'
import type { RoutingProfile } from './routing-profile.js'

/** One user's routing profile as last stored, with its revision. */
export interface RevisedProfile {
  profile: RoutingProfile
  revision: Revision
}

/**
 * One change of a user's routing, planned on the revisions it read: the user's own profile (none stored:
 * `undefined`) and the other users' profiles the change's checks followed (a forward's loop check).
 */
export interface RoutingWrite {
  loginName: string
  /** The profile to store; undefined: none (back to no routing, the row deleted). */
  profile: RoutingProfile | undefined
  /** The revision of the user's profile the change was planned on; undefined: none was stored. */
  revision: Revision | undefined
  /** The other users' profiles the change read, each at the revision it read (undefined: none stored). */
  read: ReadonlyMap<string, Revision | undefined>
}

/**
 * How a routing commit ended: written, with the profile's new revision (undefined once deleted); or nothing
 * written, naming the users whose profiles moved on since the change read them.
 */
export type RoutingCommit =
  | { stale?: undefined; revision: Revision | undefined }
  | { stale: readonly string[] }

/**
 * Durable storage of users' routing (docs/routing.md): do not disturb, forward, overflow and remote
 * extension, one profile per user. The routing service loads every profile at start and keeps them in
 * memory; the store is written on each change, as a compare-and-set on what the change read, so that several
 * nodes' changes never undo each other nor together make what each alone refuses (docs/cluster.md, "No lost
 * update").
 */
export interface RoutingStore {
  /** Every stored profile, by login name (empty when none was stored). */
  loadAll(): Promise<Map<string, RevisedProfile>>
  /** The stored profile of one user, undefined when none is (another node changed it). */
  load(loginName: string): Promise<RevisedProfile | undefined>
  /**
   * Stores (or deletes) the user's profile while it, and every profile the change read, is still at the
   * revision the change read; writes nothing otherwise, naming the users whose profiles moved on.
   */
  commit(write: RoutingWrite): Promise<RoutingCommit>
}
