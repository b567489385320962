/**
 * Subscriptions for the tests of the subscription stores and of the delivery: alice's chunk subscription on session
 * `s1`, with no routes unless given, and the record a store keeps of it once accepted.
 */
import type {
  SubscriptionDraft,
  SubscriptionRecord,
} from '../../src/platform/subscriptions/subscription-record.js'

/** A draft of `subscriptionId`, with `overrides` applied. */
export function subscriptionDraft(
  subscriptionId: string,
  overrides: Partial<SubscriptionDraft> = {},
): SubscriptionDraft {
  return {
    subscriptionId,
    sessionId: 's1',
    owner: 'alice',
    admin: false,
    mode: 'CHUNK',
    version: '1.0',
    timeoutMinutes: 10,
    keepaliveMinutes: 0,
    filter: { selectors: [], routes: [], supervisedUsers: [] },
    ...overrides,
  }
}

/** The record of `draft` accepted at time 0, revision 1, with `overrides` applied. */
export function acceptedRecord(
  draft: SubscriptionDraft,
  overrides: Partial<SubscriptionRecord> = {},
): SubscriptionRecord {
  return { ...draft, createdAt: 0, lastActivityAt: 0, revision: 1, state: 'ACCEPTED', ...overrides }
}
