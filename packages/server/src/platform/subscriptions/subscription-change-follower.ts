/**
 * Every node's delivery follows the subscriptions of all nodes (docs/cluster.md, "Subscriptions"): it hears
 * each creation, filter replacement and removal through the store's changes, reads the record as it is then,
 * and attaches, reroutes or detaches it. The node that made a change told its own delivery already, so each call
 * here is one the delivery may have had: the delivery's calls are idempotent.
 */
import type { SubscriptionDelivery } from './subscription-delivery.js'
import type { SubscriptionChange, SubscriptionChangeFollower } from './subscription-record.js'
import type { SubscriptionStore } from './subscription-store.js'

/**
 * Follows the changes, then loads every subscription, so that none made in between is missed. The changes of
 * one subscription are applied in the order heard: a creation still reading its record when the removal is
 * heard is applied first, and cannot bring the subscription back after it. `onError` is told of a change
 * whose record could not be read (that node then lacks its routes until its next change).
 */
export async function followSubscriptionChanges(
  store: SubscriptionStore,
  delivery: SubscriptionDelivery,
  onError: (error: unknown) => void,
): Promise<SubscriptionChangeFollower> {
  let closed = false
  /** The change of each subscription being applied, the next one waiting for it. */
  const applying = new Map<string, Promise<void>>()

  const apply = async ({ subscriptionId, kind }: SubscriptionChange): Promise<void> => {
    if (closed) return
    if (kind === 'removed') {
      delivery.detach(subscriptionId)
      return
    }
    const found = await store.find(subscriptionId)
    // Removed meanwhile: its removal is heard next.
    if (closed || found === undefined) return
    if (kind === 'created') delivery.attach(found)
    else delivery.reroute(found)
  }

  const follow = (change: SubscriptionChange): void => {
    const id = change.subscriptionId
    const before = applying.get(id)
    const applied = (before === undefined ? apply(change) : before.then(() => apply(change))).catch(
      onError,
    )
    applying.set(id, applied)
    void applied.then(() => {
      if (applying.get(id) === applied) applying.delete(id)
    })
  }

  const following = await store.changes(follow)
  try {
    for (const found of await store.all()) delivery.attach(found)
  } catch (error) {
    await following.close()
    throw error
  }
  return {
    close: async () => {
      closed = true
      await following.close()
    },
  }
}
