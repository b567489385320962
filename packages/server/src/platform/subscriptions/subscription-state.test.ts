/**
 * The subscription lifecycle (specification, "States and transitions", subscription table) as a table of
 * moves, and the Subscription record that follows it: nothing moves after REMOVED.
 */
import { describe, expect, it } from 'vitest'
import { PlatformError } from '../platform-error.js'
import { Subscription } from './subscription.js'
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

function subscription(): Subscription {
  return new Subscription({
    subscriptionId: 'a'.repeat(32),
    sessionId: 'session-1',
    owner: 'admin',
    admin: true,
    mode: 'CHUNK',
    timeoutMinutes: 10,
    keepaliveMinutes: 0,
    routes: [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }],
    supervisedUsers: new Set(['alice']),
    createdAt: 1_000,
  })
}

describe('Subscription', () => {
  it('starts ACCEPTED, active, with no remove cause', () => {
    const created = subscription()
    expect(created.state).toBe('ACCEPTED')
    expect(created.isActive).toBe(true)
    expect(created.cause).toBeUndefined()
    expect(created.lastActivityAt).toBe(1_000)
  })

  it('replaces its filter and stays ACCEPTED; other parameters stay', () => {
    const created = subscription()
    created.replaceFilter(
      [{ eventNames: ['OnUserInfoChanged'], loginNames: ['bob'] }],
      new Set(['bob']),
      2_000,
    )
    expect(created.state).toBe('ACCEPTED')
    expect(created.routes).toEqual([{ eventNames: ['OnUserInfoChanged'], loginNames: ['bob'] }])
    expect([...created.supervisedUsers]).toEqual(['bob'])
    expect(created.lastActivityAt).toBe(2_000)
    expect(created).toMatchObject({ mode: 'CHUNK', timeoutMinutes: 10, keepaliveMinutes: 0 })
  })

  it.each<SubscriptionRemoveCause>(['DELETED', 'IDLE_TIMEOUT', 'SESSION_CLOSED'])(
    'is removed with cause %s',
    (cause) => {
      const created = subscription()
      created.remove(cause)
      expect(created.state).toBe('REMOVED')
      expect(created.isActive).toBe(false)
      expect(created.cause).toBe(cause)
    },
  )

  it('refuses every move after REMOVED with NOT_FOUND, and keeps its first cause and filter', () => {
    const removed = subscription()
    removed.remove('DELETED')
    const replace = () => removed.replaceFilter([], new Set(), 3_000)
    expect(replace).toThrow(PlatformError)
    expect(replace).toThrow(/no longer exists/)
    try {
      removed.remove('SESSION_CLOSED')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(PlatformError)
      expect((error as PlatformError).type).toBe('NOT_FOUND')
    }
    expect(removed.cause).toBe('DELETED')
    expect(removed.routes).toEqual([{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }])
    expect(removed.lastActivityAt).toBe(1_000)
  })
})
