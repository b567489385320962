/**
 * Subscriptions in the process (the embedded mode). Every operation runs to its end before another starts, so
 * each is atomic as the port asks; records go in and out as copies, as they would through Redis, and the
 * listeners of changes are called synchronously within the operation that made the change.
 */

import {
  expiryOf,
  type FilterReplacement,
  isExpired,
  type SubscriptionChange,
  type SubscriptionChangeFollower,
  type SubscriptionDraft,
  type SubscriptionFilterRecord,
  type SubscriptionRecord,
} from '../../platform/subscriptions/subscription-record.js'
import type { SubscriptionRemoveCause } from '../../platform/subscriptions/subscription-state.js'
import type { SubscriptionStore } from '../../platform/subscriptions/subscription-store.js'

type ChangeListener = (change: SubscriptionChange) => void

export class MemorySubscriptionStore implements SubscriptionStore {
  private readonly subscriptions = new Map<string, SubscriptionRecord>()
  private readonly bySession = new Map<string, Set<string>>()
  private readonly listeners = new Set<ChangeListener>()

  async create(draft: SubscriptionDraft, now: number): Promise<SubscriptionRecord | undefined> {
    if (this.subscriptions.has(draft.subscriptionId)) return undefined
    const expiresAt = expiryOf(draft.timeoutMinutes, now)
    const subscription: SubscriptionRecord = {
      ...structuredClone(draft),
      createdAt: now,
      lastActivityAt: now,
      ...(expiresAt !== undefined && { expiresAt }),
      revision: 1,
      state: 'ACCEPTED',
    }
    this.subscriptions.set(draft.subscriptionId, subscription)
    let own = this.bySession.get(draft.sessionId)
    if (own === undefined) {
      own = new Set()
      this.bySession.set(draft.sessionId, own)
    }
    own.add(draft.subscriptionId)
    this.tell({ subscriptionId: draft.subscriptionId, kind: 'created' })
    return structuredClone(subscription)
  }

  async find(subscriptionId: string): Promise<SubscriptionRecord | undefined> {
    const subscription = this.subscriptions.get(subscriptionId)
    return subscription && structuredClone(subscription)
  }

  async ofSession(sessionId: string): Promise<SubscriptionRecord[]> {
    const own: SubscriptionRecord[] = []
    for (const id of this.bySession.get(sessionId) ?? []) {
      const subscription = this.subscriptions.get(id)
      if (subscription !== undefined) own.push(structuredClone(subscription))
    }
    return own.sort((a, b) => a.createdAt - b.createdAt)
  }

  async countOfSession(sessionId: string): Promise<number> {
    return this.bySession.get(sessionId)?.size ?? 0
  }

  async replaceFilter(
    subscriptionId: string,
    revision: number,
    filter: SubscriptionFilterRecord,
    now: number,
  ): Promise<FilterReplacement> {
    const subscription = this.subscriptions.get(subscriptionId)
    if (subscription === undefined) return { state: 'NOT_FOUND' }
    if (subscription.revision !== revision)
      return { state: 'CONFLICT', subscription: structuredClone(subscription) }
    subscription.filter = structuredClone(filter)
    subscription.revision++
    this.moveActivity(subscription, now)
    this.tell({ subscriptionId, kind: 'filter' })
    return { state: 'REPLACED', subscription: structuredClone(subscription) }
  }

  async touch(subscriptionId: string, now: number): Promise<boolean> {
    const subscription = this.subscriptions.get(subscriptionId)
    if (subscription === undefined) return false
    this.moveActivity(subscription, now)
    return true
  }

  async remove(
    subscriptionId: string,
    cause: SubscriptionRemoveCause,
  ): Promise<SubscriptionRecord | undefined> {
    const subscription = this.subscriptions.get(subscriptionId)
    if (subscription === undefined) return undefined
    this.subscriptions.delete(subscriptionId)
    const own = this.bySession.get(subscription.sessionId)
    own?.delete(subscriptionId)
    if (own?.size === 0) this.bySession.delete(subscription.sessionId)
    this.tell({ subscriptionId, kind: 'removed' })
    return { ...subscription, state: 'REMOVED', removeCause: cause }
  }

  async due(now: number, limit: number): Promise<SubscriptionRecord[]> {
    const due = [...this.subscriptions.values()].filter((subscription) =>
      isExpired(subscription, now),
    )
    due.sort((a, b) => (a.expiresAt ?? 0) - (b.expiresAt ?? 0))
    return due.slice(0, limit).map((subscription) => structuredClone(subscription))
  }

  async all(): Promise<SubscriptionRecord[]> {
    return [...this.subscriptions.values()].map((subscription) => structuredClone(subscription))
  }

  async changes(onChange: ChangeListener): Promise<SubscriptionChangeFollower> {
    const listener: ChangeListener = (change) => onChange(change)
    this.listeners.add(listener)
    return {
      close: async () => {
        this.listeners.delete(listener)
      },
    }
  }

  /** What the store holds, named as the Redis adapter's keys (after the prefix), sorted. */
  heldKeys(): string[] {
    const keys = [
      ...[...this.subscriptions.keys()].map((id) => `subscription:${id}`),
      ...[...this.bySession.keys()].map((sessionId) => `subscriptions-of:${sessionId}`),
    ]
    if (this.subscriptions.size > 0) keys.push('subscriptions')
    return keys.sort()
  }

  private moveActivity(subscription: SubscriptionRecord, now: number): void {
    if (now <= subscription.lastActivityAt) return
    subscription.lastActivityAt = now
    const expiresAt = expiryOf(subscription.timeoutMinutes, now)
    if (expiresAt !== undefined) subscription.expiresAt = expiresAt
  }

  private tell(change: SubscriptionChange): void {
    for (const listener of [...this.listeners]) listener({ ...change })
  }
}
