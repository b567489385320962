/**
 * The subscription lifecycle (specification, "States and transitions", subscription table) as a table of
 * moves, and the Subscription view of a stored record.
 */
import { describe, expect, it } from 'vitest'
import { Subscription } from './subscription.js'
import type { SubscriptionRecord } from './subscription-record.js'
import {
  canTransition,
  SUBSCRIPTION_TRANSITIONS,
  type SubscriptionLifecycle,
  type SubscriptionRemoveCause,
} from './subscription-state.js'

const TABLE: [
  from: SubscriptionLifecycle,
  to: SubscriptionLifecycle,
  allowed: boolean,
  row: string,
][] = [
  ['ACCEPTED', 'ACCEPTED', true, 'PUT /subscriptions: filter replaced'],
  ['ACCEPTED', 'REMOVED', true, 'DELETE, idle timeout or session closed'],
  ['REMOVED', 'ACCEPTED', false, 'a removed subscription cannot be changed'],
  ['REMOVED', 'REMOVED', false, 'a removed subscription cannot be removed again'],
]

describe('subscription transition table', () => {
  it.each(TABLE)('%s -> %s: %s (%s)', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed)
  })

  it('covers every pair of states', () => {
    const states = Object.keys(SUBSCRIPTION_TRANSITIONS) as SubscriptionLifecycle[]
    const pairs = states.flatMap((from) => states.map((to) => `${from}->${to}`))
    expect(TABLE.map(([from, to]) => `${from}->${to}`).sort()).toEqual(pairs.sort())
  })
})

const RECORD: SubscriptionRecord = {
  subscriptionId: 'a'.repeat(32),
  sessionId: 'session-1',
  owner: 'admin',
  admin: true,
  mode: 'CHUNK',
  version: '1.0',
  timeoutMinutes: 10,
  keepaliveMinutes: 0,
  filter: {
    selectors: [{ names: ['OnCallCreated'], ids: ['alice'] }],
    routes: [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }],
    supervisedUsers: ['alice'],
  },
  createdAt: 1_000,
  lastActivityAt: 2_000,
  expiresAt: 602_000,
  revision: 2,
  state: 'ACCEPTED',
}

// The moves themselves are the store's (test/conformance/subscription-store.ts: a filter replaced from its
// revision, removed once, nothing after) and the manager's (test/gateway/subscriptions.test.ts).
describe('Subscription, the view of a stored record', () => {
  it('is ACCEPTED and active while stored, with no remove cause', () => {
    const stored = Subscription.fromRecord(RECORD)
    expect(stored.state).toBe('ACCEPTED')
    expect(stored.isActive).toBe(true)
    expect(stored.cause).toBeUndefined()
    expect(stored).toMatchObject({
      subscriptionId: RECORD.subscriptionId,
      sessionId: 'session-1',
      owner: 'admin',
      admin: true,
      mode: 'CHUNK',
      timeoutMinutes: 10,
      keepaliveMinutes: 0,
      lastActivityAt: 2_000,
      revision: 2,
    })
    expect(stored.routes).toEqual([{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }])
    expect(stored.supervisedUsers).toEqual(new Set(['alice']))
    expect(stored.record).toBe(RECORD)
  })

  it.each<SubscriptionRemoveCause>(['DELETED', 'IDLE_TIMEOUT', 'SESSION_CLOSED'])(
    'of a removal with cause %s: REMOVED, no longer active, with its cause',
    (cause) => {
      const removed = Subscription.fromRecord({ ...RECORD, state: 'REMOVED', removeCause: cause })
      expect(removed.state).toBe('REMOVED')
      expect(removed.isActive).toBe(false)
      expect(removed.cause).toBe(cause)
    },
  )
})
