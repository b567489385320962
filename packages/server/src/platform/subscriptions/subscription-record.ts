/**
 * Subscriptions as a SubscriptionStore keeps them (docs/cluster.md, "Subscriptions"): plain JSON records, so
 * that any node reads what another wrote, and every node can rebuild the routes of all subscriptions. The
 * rule every store applies is here once: when an idle subscription expires (specification, "Limits":
 * subscription timeout).
 */
import type { NotificationMode, Selector } from '@openness/wire'
import type { ClientDialect } from './client-dialect.js'
import type { SubscriptionRoute } from './subscription-filter.js'
import type { SubscriptionLifecycle, SubscriptionRemoveCause } from './subscription-state.js'

/** A subscription's filter: the request's selectors as given, and what they were compiled to. */
export interface SubscriptionFilterRecord {
  /** The selectors of the request's filter, as the client sent them. */
  selectors: Selector[]
  /** The routes the selectors were compiled to (subscription-filter.ts): what fan-out matches events against. */
  routes: SubscriptionRoute[]
  /** The users an administrator subscription supervises; empty for a user's subscription. */
  supervisedUsers: string[]
}

/** What a subscription is created with: the store gives it its times, its revision and its state. */
export interface SubscriptionDraft {
  subscriptionId: string
  /** The session that owns it; its subscriptions end with it. */
  sessionId: string
  /** The login the owning session acts as. */
  owner: string
  admin: boolean
  mode: NotificationMode
  /** The version of the events asked for (SubscriptionRequest.version). */
  version: string
  /** Idle timeout in minutes; 0 follows the session (no expiry of its own). */
  timeoutMinutes: number
  /** Minutes between keepalive messages on the channel; 0 for none. */
  keepaliveMinutes: number
  /** Where events are POSTed instead of a chunk channel. */
  webHookUrl?: string
  /** The SDK that subscribed, when it gets variants of some events. */
  dialect?: ClientDialect
  filter: SubscriptionFilterRecord
}

/** A subscription as stored. */
export interface SubscriptionRecord extends SubscriptionDraft {
  /** When it was created (milliseconds since the epoch, the caller's clock). */
  createdAt: number
  /** Its last activity: channel opened, something written, a webhook delivery taken, the filter replaced. */
  lastActivityAt: number
  /** When it expires unless active before: last activity plus the timeout; absent with timeout 0. */
  expiresAt?: number
  /** The filter's revision: 1 at creation, one more at each replacement (compare-and-set across nodes). */
  revision: number
  /** ACCEPTED while stored; REMOVED only in the record handed to the caller that removed it. */
  state: SubscriptionLifecycle
  /** Why it was removed, in that record. */
  removeCause?: SubscriptionRemoveCause
}

/** What replacing a subscription's filter did. */
export type FilterReplacement =
  /** Replaced: the record with its next revision. */
  | { state: 'REPLACED'; subscription: SubscriptionRecord }
  /** Another replacement came first: the record as it is now, with the revision to try again from. */
  | { state: 'CONFLICT'; subscription: SubscriptionRecord }
  /** No such subscription (removed, or never created). */
  | { state: 'NOT_FOUND' }

/** A change to the subscriptions, as every node is told of it (the routes each node keeps of all of them). */
export interface SubscriptionChange {
  subscriptionId: string
  /** Created, its filter replaced, or removed; activity is not a change (routes stay). */
  kind: 'created' | 'filter' | 'removed'
}

/** A node's following of the changes, until closed. */
export interface SubscriptionChangeFollower {
  /** Stops telling the listener. */
  close(): Promise<void>
}

/** When the subscription expires if idle from `activeAt`, or undefined when it follows its session. */
export function expiryOf(timeoutMinutes: number, activeAt: number): number | undefined {
  return timeoutMinutes === 0 ? undefined : activeAt + timeoutMinutes * 60_000
}

/** True when the subscription is expired at `now` (its expiry itself included, as the idle timer does). */
export function isExpired(subscription: SubscriptionRecord, now: number): boolean {
  return subscription.expiresAt !== undefined && now >= subscription.expiresAt
}
