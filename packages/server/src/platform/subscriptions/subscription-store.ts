/** The subscriptions' port: their records, shared by every node (docs/cluster.md, "Subscriptions"). */
import type {
  FilterReplacement,
  SubscriptionChange,
  SubscriptionChangeFollower,
  SubscriptionDraft,
  SubscriptionFilterRecord,
  SubscriptionRecord,
} from './subscription-record.js'
import type { SubscriptionRemoveCause } from './subscription-state.js'

/**
 * The subscriptions of all sessions (specification, "Subscription management", "Limits"; docs/cluster.md,
 * "Subscriptions"): what SubscriptionManager keeps of each, as plain JSON, so that any node serves any
 * subscription and every node keeps the routes of all of them. Every time is the caller's `now`. Each
 * operation is atomic across the nodes of a cluster: a filter is replaced by one node at a time (a
 * revision to compare), and a subscription is removed once, the one caller that removed it being told so.
 */
export interface SubscriptionStore {
  /** Keeps a new subscription, active at `now`: its record, or undefined when the id is taken. */
  create(draft: SubscriptionDraft, now: number): Promise<SubscriptionRecord | undefined>
  /** The subscription with this id, expired or not (see isExpired), or undefined once removed. */
  find(subscriptionId: string): Promise<SubscriptionRecord | undefined>
  /** The subscriptions of a session, oldest first (its requests, and its close, which removes them). */
  ofSession(sessionId: string): Promise<SubscriptionRecord[]>
  /** How many subscriptions the session has (its quota's check at each create), without reading them. */
  countOfSession(sessionId: string): Promise<number>
  /**
   * Replaces the filter when the subscription is still at `revision` (compare-and-set): of two nodes
   * replacing from the same revision, one replaces and the other is told CONFLICT. A replacement is activity.
   */
  replaceFilter(
    subscriptionId: string,
    revision: number,
    filter: SubscriptionFilterRecord,
    now: number,
  ): Promise<FilterReplacement>
  /** Records activity at `now`: the expiry moves with it, never back; false when the subscription is gone. */
  touch(subscriptionId: string, now: number): Promise<boolean>
  /**
   * Removes the subscription: resolves to its record as removed (REMOVED, `cause`) when this call removed it,
   * undefined when another did (or it never existed). Only that caller releases what it held.
   */
  remove(
    subscriptionId: string,
    cause: SubscriptionRemoveCause,
  ): Promise<SubscriptionRecord | undefined>
  /** The subscriptions expired at `now`, earliest first, at most `limit`: the sweep removes or touches each. */
  due(now: number, limit: number): Promise<SubscriptionRecord[]>
  /** Every subscription (a node starting loads the routes of all; follow the changes first). */
  all(): Promise<SubscriptionRecord[]>
  /**
   * Tells `onChange` of every creation, filter replacement and removal, on any node, from when the promise
   * resolves; in the process, synchronously within the operation that made it.
   */
  changes(onChange: (change: SubscriptionChange) => void): Promise<SubscriptionChangeFollower>
}
