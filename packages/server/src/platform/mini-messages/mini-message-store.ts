/** The mini messages' port (docs/telephony-api.md, "Mini messages"): each user's queue of unread messages. */

/** A mini message waiting in its recipient's queue. */
export interface StoredMiniMessage {
  /** Unique over the platform: a retried request carries the same one (docs/idempotency.md). */
  messageId: string
  /** The recipient's login name: whose queue holds the message. */
  loginName: string
  /** The sender's phone number, as the recipient's set shows it. */
  sender: string
  /** When it was sent, milliseconds since the epoch (the service's clock). */
  sentAt: number
  /** The text, already checked (mini-message-text.ts). */
  text: string
}

/** What a push did: queued (or found queued already), or refused because the queue is full. */
export interface PushOutcome {
  queued: boolean
  /** The messages the recipient's queue holds now. */
  unread: number
}

/**
 * The queues of unread mini messages, one per user, durable (they are user data: SQL in both modes). A queue is
 * read from its most recent message; reading takes the message away. Every node of a cluster may push and take
 * at once: a queue never holds more than the capacity a push is given, and each message is taken once.
 */
export interface MiniMessageStore {
  /**
   * Appends the message to its recipient's queue unless the queue holds `capacity` messages already; a message
   * whose `messageId` is queued already is not queued twice and counts as queued.
   */
  push(message: StoredMiniMessage, capacity: number): Promise<PushOutcome>
  /** Takes the most recent message out of the user's queue; undefined when the queue is empty. */
  take(loginName: string): Promise<StoredMiniMessage | undefined>
  /** The user's queue, most recent first, left as it is. */
  list(loginName: string): Promise<StoredMiniMessage[]>
  /** How many messages the user's queue holds. */
  count(loginName: string): Promise<number>
}
