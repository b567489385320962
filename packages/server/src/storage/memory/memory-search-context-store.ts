/**
 * The search contexts of directory searches in the process (the embedded mode). Expired contexts are
 * dropped whenever their session's contexts are read, so a session holds at most its live searches plus
 * the ones that expired since; a closed session's are dropped at once.
 */
import type { SearchContext } from '../../platform/directory-search/search-context.js'
import type { SearchContextStore } from '../../platform/directory-search/search-context-store.js'

export class MemorySearchContextStore implements SearchContextStore {
  private readonly sessions = new Map<string, Map<string, SearchContext>>()

  async contexts(sessionId: string, now: number): Promise<SearchContext[]> {
    return [...this.live(sessionId, now).values()]
  }

  async find(
    sessionId: string,
    loginName: string,
    now: number,
  ): Promise<SearchContext | undefined> {
    return this.live(sessionId, now).get(loginName)
  }

  async save(sessionId: string, context: SearchContext): Promise<void> {
    let contexts = this.sessions.get(sessionId)
    if (contexts === undefined) {
      contexts = new Map()
      this.sessions.set(sessionId, contexts)
    }
    contexts.set(context.loginName, context)
  }

  async replace(sessionId: string, expected: SearchContext, next: SearchContext): Promise<boolean> {
    if (this.sessions.get(sessionId)?.get(expected.loginName) !== expected) return false
    await this.save(sessionId, next)
    return true
  }

  async delete(sessionId: string, loginName: string): Promise<void> {
    const contexts = this.sessions.get(sessionId)
    contexts?.delete(loginName)
    if (contexts?.size === 0) this.sessions.delete(sessionId)
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId)
  }

  /** The session's contexts after dropping the expired ones. */
  private live(sessionId: string, now: number): Map<string, SearchContext> {
    const contexts = this.sessions.get(sessionId)
    if (contexts === undefined) return new Map()
    for (const [loginName, context] of contexts)
      if (context.expiresAt <= now) contexts.delete(loginName)
    if (contexts.size === 0) this.sessions.delete(sessionId)
    return contexts
  }
}
