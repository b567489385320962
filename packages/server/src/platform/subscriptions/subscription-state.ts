/**
 * Subscription lifecycle (specification, "States and transitions", subscription table).
 *
 * ```
 *   (none) --POST accepted--> ACCEPTED --DELETE | idle timeout | session closed--> REMOVED
 *          --POST refused---> (REFUSED answer, nothing kept)
 *                             ACCEPTED --PUT filter--> ACCEPTED
 * ```
 */
export type SubscriptionLifecycle = 'ACCEPTED' | 'REMOVED'

/** Why a subscription was removed. */
export type SubscriptionRemoveCause = 'DELETED' | 'IDLE_TIMEOUT' | 'SESSION_CLOSED'

/** The moves the subscription state machine allows. */
export const SUBSCRIPTION_TRANSITIONS = {
  ACCEPTED: ['ACCEPTED', 'REMOVED'],
  REMOVED: [],
} as const satisfies Record<SubscriptionLifecycle, readonly SubscriptionLifecycle[]>

/** True when the table allows moving from `from` to `to`. */
export function canTransition(from: SubscriptionLifecycle, to: SubscriptionLifecycle): boolean {
  return (SUBSCRIPTION_TRANSITIONS[from] as readonly SubscriptionLifecycle[]).includes(to)
}
