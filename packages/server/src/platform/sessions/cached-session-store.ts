/**
 * A node's cache of the sessions its requests use, in front of the shared session store (cluster mode;
 * docs/cluster.md, "Sessions used from a node's cache"). Every request resolves its session with `use`, which on
 * Redis is a script run per request; here a use of a session this node renewed in the store less than
 * `renewEveryMs` ago (1 s by default) is answered from memory, its timer restarted locally, and the next use after
 * that renews it in the store. The store's deadline of a session in use is so at most `renewEveryMs` behind its
 * last use: far less than the grace the sweep gives it, so no session in use is swept.
 *
 * A session closed anywhere leaves every node's cache at once: a close through this store drops it here and
 * announces it (change notices, topic `sessions`, key the session id) before it is answered, and the other nodes
 * drop it as they hear it; a node that may have missed notices (its connection dropped) forgets everything. A
 * use whose store answer arrives after an invalidation is not cached. What is left: a node that dies between a
 * close and its notice leaves the others answering from a cache entry at most `renewEveryMs` old.
 *
 * Everything else goes to the store unchanged.
 */
import { type ChangeNotices, EVERY_KEY } from '../change-notices.js'
import type {
  SessionDraft,
  SessionOpening,
  SessionRecord,
  SessionStoreTiming,
  SessionUse,
  StoredTokenStatus,
} from './session-record.js'
import type { SessionCloseCause } from './session-state.js'
import type { SessionStore } from './session-store.js'

/** How long by default a session is used from the cache before it is renewed in the store. */
export const DEFAULT_RENEW_EVERY_MS = 1_000

/** What the cache needs besides the store. */
export interface CachedSessionStoreOptions {
  timing: SessionStoreTiming
  /** Where closes are announced to the other nodes and heard from them. */
  notices: ChangeNotices
  renewEveryMs?: number
}

/** A session as this node last renewed it in the store. */
interface Entry {
  session: SessionRecord
  renewedAt: number
}

export class CachedSessionStore implements SessionStore {
  readonly #store: SessionStore
  readonly #notices: ChangeNotices
  readonly #renewEveryMs: number
  readonly #timeToLiveMs: number
  /** By token: the sessions used through this node in the last `renewEveryMs` or so. */
  readonly #entries = new Map<string, Entry>()
  /** The token of each session in `#entries`, by session id. */
  readonly #tokens = new Map<string, string>()
  /** Counts the invalidations: a store answer obtained across one is not cached. */
  #invalidations = 0
  /** When entries too old to answer from were last dropped. */
  #prunedAt = 0

  constructor(store: SessionStore, options: CachedSessionStoreOptions) {
    this.#store = store
    this.#notices = options.notices
    this.#renewEveryMs = options.renewEveryMs ?? DEFAULT_RENEW_EVERY_MS
    this.#timeToLiveMs = options.timing.timeToLiveSeconds * 1000
    // Followed until the notices close with the node's shared state.
    options.notices.follow('sessions', (sessionId) => this.#forget(sessionId))
  }

  use(token: string, now: number): Promise<SessionUse> {
    const entry = this.#entries.get(token)
    if (entry !== undefined && now >= entry.renewedAt && now - entry.renewedAt < this.#renewEveryMs)
      return Promise.resolve({
        state: 'OPEN',
        session: { ...entry.session, expiresAt: now + this.#timeToLiveMs },
      })
    return this.#renew(token, now)
  }

  async #renew(token: string, now: number): Promise<SessionUse> {
    const invalidations = this.#invalidations
    const used = await this.#store.use(token, now)
    if (used.state === 'OPEN') {
      if (invalidations === this.#invalidations) {
        this.#entries.set(token, { session: used.session, renewedAt: now })
        this.#tokens.set(used.session.sessionId, token)
      }
    } else {
      this.#drop(token)
      if (used.state === 'EXPIRED') await this.#closed(used.session.sessionId)
    }
    this.#prune(now)
    return used
  }

  async close(
    sessionId: string,
    cause: SessionCloseCause,
    now: number,
  ): Promise<SessionRecord | undefined> {
    this.#forget(sessionId)
    const closed = await this.#store.close(sessionId, cause, now)
    // Dropped again: a use that read the session before the close may have cached it meanwhile.
    this.#forget(sessionId)
    if (closed !== undefined) await this.#closed(sessionId)
    return closed
  }

  issueCredential(token: string, loginName: string, now: number): Promise<void> {
    return this.#store.issueCredential(token, loginName, now)
  }

  status(token: string, now: number): Promise<StoredTokenStatus> {
    return this.#store.status(token, now)
  }

  open(draft: SessionDraft, now: number): Promise<SessionOpening> {
    return this.#store.open(draft, now)
  }

  session(sessionId: string, now: number): Promise<SessionRecord | undefined> {
    return this.#store.session(sessionId, now)
  }

  openSessionsOf(owner: string): Promise<SessionRecord[]> {
    return this.#store.openSessionsOf(owner)
  }

  openSessions(): Promise<SessionRecord[]> {
    return this.#store.openSessions()
  }

  due(now: number, limit: number): Promise<SessionRecord[]> {
    return this.#store.due(now, limit)
  }

  forgetDue(now: number): Promise<number> {
    return this.#store.forgetDue(now)
  }

  voidCredentialsOf(loginName: string): Promise<number> {
    return this.#store.voidCredentialsOf(loginName)
  }

  /** How many sessions the cache holds (tests). */
  get size(): number {
    return this.#entries.size
  }

  /**
   * Tells the other nodes that the session closed, before the close is answered: Redis has then written the
   * notice to every node's connection before the client can send its next request. Never rejects: a notice not
   * sent is reported by the adapter.
   */
  #closed(sessionId: string): Promise<void> {
    return this.#notices.announce('sessions', sessionId)
  }

  /** Drops the session (every session for EVERY_KEY) from the cache. */
  #forget(sessionId: string): void {
    this.#invalidations += 1
    if (sessionId === EVERY_KEY) {
      this.#entries.clear()
      this.#tokens.clear()
      return
    }
    const token = this.#tokens.get(sessionId)
    if (token !== undefined) this.#drop(token)
  }

  #drop(token: string): void {
    const entry = this.#entries.get(token)
    if (entry === undefined) return
    this.#entries.delete(token)
    this.#tokens.delete(entry.session.sessionId)
  }

  /** Drops, at most once per `renewEveryMs`, the entries too old to answer from: the cache stays small. */
  #prune(now: number): void {
    if (now >= this.#prunedAt && now - this.#prunedAt < this.#renewEveryMs) return
    this.#prunedAt = now
    for (const [token, entry] of this.#entries)
      if (now < entry.renewedAt || now - entry.renewedAt >= this.#renewEveryMs) this.#drop(token)
  }
}
