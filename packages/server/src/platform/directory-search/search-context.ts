/**
 * The search context: what one session keeps of the search it runs for one user (wire facts 8.4; the
 * specification shows nothing of it). The protocol names no search: the context is found by the session
 * and the user the search acts for (the session's own user, or `loginName` for an administrator session),
 * so a user session runs one search at a time and an administrator session one per user it acts for.
 *
 * ```
 *            POST (the results computed)          GET: OK + the next batch
 *   (none) ─────────────────────────────► SEARCHING ◄──────┐
 *     ▲  ▲                                 │  │   └────────┘
 *     │  │ DELETE, idle 1 min,             │  │ GET with no batch left: FINISH
 *     │  └──── session closed ─────────────┘  ▼
 *     └────────────────────────────────── FINISHED ── GET: FINISH
 * ```
 * A POST on an existing context replaces its search (SEARCHING again). A GET on no context answers
 * TIMEOUT: the context idled out, was cancelled, or never was. docs/directory-search.md has the table.
 */
import type { DirectoryContact } from '@openness/wire'
import { PlatformError } from '../platform-error.js'

/** SEARCHING: results (maybe none) not yet all delivered, or FINISH not yet answered; FINISHED: over. */
export type SearchState = 'SEARCHING' | 'FINISHED'

/** The moves between states; the first move of a context is from none to SEARCHING (a POST). */
export const SEARCH_TRANSITIONS = {
  SEARCHING: ['SEARCHING', 'FINISHED'],
  FINISHED: ['FINISHED', 'SEARCHING'],
} as const satisfies Record<SearchState, readonly SearchState[]>

/** How long an unused context lives (the Node SDK's documentation: "freed after 1 minute"). */
export const SEARCH_IDLE_MS = 60_000
/** How many searches one session runs at once (the same documentation). */
export const MAX_SEARCHES_PER_SESSION = 5
/** How many contacts one OK answer carries at most. */
export const SEARCH_BATCH_SIZE = 20

/** One context, as the SearchContextStore keeps it. */
export interface SearchContext {
  /** The user the search acts for. */
  loginName: string
  state: SearchState
  /** The batches not delivered yet, oldest first. */
  batches: DirectoryContact[][]
  /** When the context is freed unless a request uses it first (ms since the epoch). */
  expiresAt: number
}

/** The context in `to`, checked against the table (a move it lacks is NOT_EXPECTED). */
export function moved(context: SearchContext, to: SearchState, changes: Partial<SearchContext>) {
  if (!(SEARCH_TRANSITIONS[context.state] as readonly SearchState[]).includes(to))
    throw new PlatformError('NOT_EXPECTED', `A search cannot go from ${context.state} to ${to}`)
  return { ...context, ...changes, state: to }
}

/** Whether the context counts among the session's searches at once: until its FINISH is answered. */
export function isRunning(context: SearchContext): boolean {
  return context.state === 'SEARCHING'
}
