/**
 * The users supervised through administrator subscriptions, in the process (the embedded mode): each
 * subscription's set, and per user how many subscriptions hold it. Every operation runs to its end before
 * another starts, so checking the limit and changing the sets is one step, as the port asks.
 */
import type { SupervisionStore } from '../../platform/subscriptions/supervision-store.js'

export class MemorySupervisionStore implements SupervisionStore {
  /** User to the number of subscriptions holding it. */
  private readonly holders = new Map<string, number>()
  private readonly subscriptions = new Map<string, ReadonlySet<string>>()

  async hold(subscriptionId: string, users: ReadonlySet<string>, limit: number): Promise<boolean> {
    const previous = this.subscriptions.get(subscriptionId) ?? new Set<string>()
    const joining = [...users].filter((user) => !previous.has(user))
    const leaving = [...previous].filter((user) => !users.has(user))
    const added = joining.filter((user) => !this.holders.has(user)).length
    const freed = leaving.filter((user) => this.holders.get(user) === 1).length
    if (this.holders.size + added - freed > limit) return false
    for (const user of joining) this.holders.set(user, (this.holders.get(user) ?? 0) + 1)
    this.giveBack(leaving)
    if (users.size > 0) this.subscriptions.set(subscriptionId, new Set(users))
    else this.subscriptions.delete(subscriptionId)
    return true
  }

  async release(subscriptionId: string): Promise<void> {
    const users = this.subscriptions.get(subscriptionId)
    if (users === undefined) return
    this.subscriptions.delete(subscriptionId)
    this.giveBack(users)
  }

  async count(): Promise<number> {
    return this.holders.size
  }

  /** What the store holds, named as the Redis adapter's keys (after the prefix), sorted. */
  heldKeys(): string[] {
    return [
      ...(this.holders.size > 0 ? ['supervised'] : []),
      ...[...this.subscriptions.keys()].map((id) => `supervision:${id}`),
    ].sort()
  }

  private giveBack(users: Iterable<string>): void {
    for (const user of users) {
      const held = this.holders.get(user) ?? 0
      if (held > 1) this.holders.set(user, held - 1)
      else this.holders.delete(user)
    }
  }
}
