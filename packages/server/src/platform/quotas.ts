/**
 * What one account, one session and one node may hold at once in a shared sandbox (issue 15, finding 7;
 * docs/security.md): each refusal names the limit and the variable that sets it. The defaults are far above
 * what a sandbox of a few hundred users meets by accident, and bound what one misbehaving client can take.
 */
export interface Quotas {
  /** Open sessions one account may have (MAX_SESSIONS_PER_ACCOUNT). */
  sessionsPerAccount: number
  /** Subscriptions one session may have (MAX_SUBSCRIPTIONS_PER_SESSION). */
  subscriptionsPerSession: number
  /** Chunk channels one node holds open at once (MAX_OPEN_CHANNELS). */
  openChannels: number
  /**
   * Events the subscriptions' queues of one node hold at once, waiting or kept for a replay (MAX_QUEUED_EVENTS):
   * beyond, the queue an event joins drops its oldest, as a full queue does (the embedded mode; a cluster's
   * queues are in Redis, bounded each).
   */
  queuedEvents: number
}

export const DEFAULT_QUOTAS: Quotas = {
  sessionsPerAccount: 50,
  subscriptionsPerSession: 100,
  openChannels: 15_000,
  queuedEvents: 500_000,
}
