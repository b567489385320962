/**
 * Directory search (service `Directory`; wire facts 8.4; docs/directory-search.md): a session starts a
 * search for a user, polls its results batch by batch, and may cancel it. The index answers at once, so
 * the results are computed when the search starts and the polls hand them out; the context is kept in
 * the SearchContextStore and freed after a minute unused.
 */
import type { DirectoryContact, SearchResult } from '@openness/wire'
import { MAX_SEARCH_LIMIT } from '@openness/wire'
import type { Clock } from '../events.js'
import { PlatformError } from '../platform-error.js'
import { parseCriterion } from './criterion.js'
import type { DirectoryIndex } from './directory-index.js'
import {
  isRunning,
  MAX_SEARCHES_PER_SESSION,
  moved,
  SEARCH_BATCH_SIZE,
  SEARCH_IDLE_MS,
  type SearchContext,
} from './search-context.js'
import type { SearchContextStore } from './search-context-store.js'

/** Who asks: the session, and the user its search acts for. */
export interface SearchOwner {
  sessionId: string
  loginName: string
}

export class DirectorySearchService {
  constructor(
    private readonly index: DirectoryIndex,
    private readonly store: SearchContextStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Starts a search, replacing the one this session runs for the same user if any. 400 BAD_PARAMETER
   * naming the bad part of `filter`; 403 NOT_EXPECTED when the session already runs
   * MAX_SEARCHES_PER_SESSION searches for other users.
   */
  async start(owner: SearchOwner, filter: unknown, limit = MAX_SEARCH_LIMIT): Promise<void> {
    const criterion = parseCriterion(filter)
    const now = this.clock.now()
    const running = (await this.store.contexts(owner.sessionId, now)).filter(
      (context) => isRunning(context) && context.loginName !== owner.loginName,
    )
    if (running.length >= MAX_SEARCHES_PER_SESSION)
      throw new PlatformError(
        'NOT_EXPECTED',
        `This session already runs ${MAX_SEARCHES_PER_SESSION} directory searches (for ${running
          .map((context) => context.loginName)
          .join(', ')}): cancel one (DELETE /directory/search) or read it to its end first`,
      )
    const contacts = this.index.search(criterion, limit)
    await this.store.save(owner.sessionId, {
      loginName: owner.loginName,
      state: 'SEARCHING',
      batches: batchesOf(contacts),
      expiresAt: now + SEARCH_IDLE_MS,
    })
  }

  /**
   * The next answer of the search: OK with a batch, FINISH once all were given, TIMEOUT with no search. The
   * context moves on only from the state it was read in: a poll through another node, a new search or a
   * cancel that came first makes this poll read it again, so that no batch is handed out twice.
   */
  async poll(owner: SearchOwner): Promise<SearchResult> {
    for (;;) {
      const now = this.clock.now()
      const context = await this.store.find(owner.sessionId, owner.loginName, now)
      if (context === undefined) return { resultCode: 'TIMEOUT' }
      const expiresAt = now + SEARCH_IDLE_MS
      const [batch, ...rest] = context.batches
      const next: SearchContext =
        batch === undefined
          ? moved(context, 'FINISHED', { expiresAt })
          : moved(context, 'SEARCHING', { batches: rest, expiresAt })
      if (!(await this.store.replace(owner.sessionId, context, next))) continue
      return batch === undefined
        ? { resultCode: 'FINISH' }
        : { resultCode: 'OK', resultElements: [{ contacts: batch }] }
    }
  }

  /** Cancels the search and frees its context; nothing happens when there is none. */
  async cancel(owner: SearchOwner): Promise<void> {
    await this.store.delete(owner.sessionId, owner.loginName)
  }

  /** Frees every context of a closed session. */
  async sessionClosed(sessionId: string): Promise<void> {
    await this.store.deleteSession(sessionId)
  }
}

function batchesOf(contacts: readonly DirectoryContact[]): DirectoryContact[][] {
  const batches: DirectoryContact[][] = []
  for (let at = 0; at < contacts.length; at += SEARCH_BATCH_SIZE)
    batches.push(contacts.slice(at, at + SEARCH_BATCH_SIZE))
  return batches
}
