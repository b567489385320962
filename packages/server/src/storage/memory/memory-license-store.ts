/**
 * License references in the process (the embedded mode): per right, the users holding it with how many of
 * their sessions do; per session, the rights it holds. Every operation runs to its end before another starts,
 * so each is atomic as the port asks.
 */
import type { UserRight } from '@openness/wire'
import type { LicenseStore } from '../../platform/sessions/license-store.js'

/** What one session holds. */
interface Holding {
  loginName: string
  rights: Set<UserRight>
  acquiredAt: number
}

export class MemoryLicenseStore implements LicenseStore {
  /** Per right: login name to the number of sessions holding it for that user. */
  private readonly holders = new Map<UserRight, Map<string, number>>()
  private readonly sessions = new Map<string, Holding>()

  async acquire(
    sessionId: string,
    loginName: string,
    rights: readonly UserRight[],
    installed: Readonly<Record<UserRight, number>>,
    now: number,
  ): Promise<UserRight[]> {
    const holding = this.sessions.get(sessionId) ?? {
      loginName,
      rights: new Set<UserRight>(),
      acquiredAt: now,
    }
    const granted = rights.filter(
      (right) =>
        holding.rights.has(right) || this.take(right, loginName, installed[right], holding),
    )
    if (holding.rights.size > 0) this.sessions.set(sessionId, holding)
    return granted
  }

  async release(sessionId: string): Promise<void> {
    const holding = this.sessions.get(sessionId)
    if (holding === undefined) return
    this.sessions.delete(sessionId)
    for (const right of holding.rights) {
      const users = this.holders.get(right)
      const references = users?.get(holding.loginName) ?? 0
      if (references > 1) users?.set(holding.loginName, references - 1)
      else users?.delete(holding.loginName)
      if (users?.size === 0) this.holders.delete(right)
    }
  }

  async inUse(right: UserRight): Promise<number> {
    return this.holders.get(right)?.size ?? 0
  }

  async holdingSessions(acquiredBefore: number, limit: number): Promise<string[]> {
    return [...this.sessions]
      .filter(([, holding]) => holding.acquiredAt < acquiredBefore)
      .sort(([, a], [, b]) => a.acquiredAt - b.acquiredAt)
      .slice(0, limit)
      .map(([sessionId]) => sessionId)
  }

  /** What the store holds, named as the Redis adapter's keys (after the prefix), sorted. */
  heldKeys(): string[] {
    return [
      ...[...this.holders.keys()].map((right) => `licenses:${right}`),
      ...[...this.sessions.keys()].map((sessionId) => `license-refs:${sessionId}`),
      ...(this.sessions.size > 0 ? ['license-sessions'] : []),
    ].sort()
  }

  /** One more reference on `right` for the session's user, unless every installed license is held by others. */
  private take(right: UserRight, loginName: string, installed: number, holding: Holding): boolean {
    let users = this.holders.get(right)
    const references = users?.get(loginName)
    if (references === undefined && (users?.size ?? 0) >= installed) return false
    if (users === undefined) {
      users = new Map()
      this.holders.set(right, users)
    }
    users.set(loginName, (references ?? 0) + 1)
    holding.rights.add(right)
    return true
  }
}
