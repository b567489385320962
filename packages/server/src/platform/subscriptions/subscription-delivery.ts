/** What the subscription manager asks of the delivery of its subscriptions' events. */
import type { SubscriptionRecord } from './subscription-record.js'

/**
 * The delivery side of subscriptions on one node (docs/subscriptions.md; docs/cluster.md, "Subscriptions"): the
 * routes of every subscription in the node's event router, each subscription's queue, the chunk channels open on
 * this node and the webhooks it sends. The node that creates, changes or removes a subscription tells its own
 * delivery at once; every node's delivery is also told by the store's changes (SubscriptionStore.changes), so
 * each call is idempotent, and a record whose revision is below the one held changes nothing.
 */
export interface SubscriptionDelivery {
  /** The subscription exists: its routes join the router; its queue takes its events from now on. */
  attach(subscription: SubscriptionRecord): void
  /** Its filter was replaced: its routes become the record's (attaching it when this node did not know it). */
  reroute(subscription: SubscriptionRecord): void
  /** It was removed, on any node: its routes leave, its channel open on this node ends, its webhook here stops. */
  detach(subscriptionId: string): void
  /** Called once, by the caller that removed it (the store's claim): its queued events are forgotten. */
  discard(subscriptionId: string): Promise<void>
  /** True when nothing waits for a webhook subscription's receiver: the sweep then touches it rather than removing it. */
  isQuiet(subscription: SubscriptionRecord): Promise<boolean>
}
