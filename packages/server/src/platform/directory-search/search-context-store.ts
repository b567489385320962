/** The port of directory searches' contexts (docs/directory-search.md). */
import type { SearchContext } from './search-context.js'

/**
 * The search contexts of directory searches (docs/directory-search.md): ephemeral, per session, each found
 * by the user its search acts for. A context whose `expiresAt` has passed is gone: no method returns it.
 * The memory adapter holds them in the process; the cluster mode keeps them in Redis with the same expiry.
 */
export interface SearchContextStore {
  /** The session's contexts not expired at `now`. */
  contexts(sessionId: string, now: number): Promise<SearchContext[]>
  /** The session's context for `loginName`, unless none or expired at `now`. */
  find(sessionId: string, loginName: string, now: number): Promise<SearchContext | undefined>
  /** Inserts or replaces the session's context for `context.loginName`. */
  save(sessionId: string, context: SearchContext): Promise<void>
  /**
   * Replaces the session's context for `expected.loginName` with `next` while it is still `expected` (as
   * `find` answered it); false, changing nothing, when another poll, a new search or a cancel changed it since
   * (docs/cluster.md, "No lost update").
   */
  replace(sessionId: string, expected: SearchContext, next: SearchContext): Promise<boolean>
  /** Frees the session's context for `loginName`; nothing happens when there is none. */
  delete(sessionId: string, loginName: string): Promise<void>
  /** Frees every context of the session (it closed). */
  deleteSession(sessionId: string): Promise<void>
}
