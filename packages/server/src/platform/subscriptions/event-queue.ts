/** The port of a subscription's queue of events in the process (the embedded mode's delivery). */

/** What a queue hands over when the channel drains it. */
export interface QueuedEvents {
  /** Events with their sequence numbers, oldest first. */
  events: LoggedEvent[]
  /** Events dropped since the last drain because the queue was full: those numbered just before the first. */
  lost: number
  /** Why they are lost, when not because the queue was full (a channel resumed from too far back). */
  reason?: string
}

/**
 * Where a channel's replay from a sequence number starts (EventQueue.rewind): the events after it still held wait
 * again; `missing` of them, numbered from `missingFrom`, are no longer held.
 */
export interface Rewound {
  missing: number
  missingFrom: number
}

/**
 * The bounded queue of one subscription (docs/subscriptions.md, "Resuming a channel"): filled from the moment the
 * subscription is accepted, drained by its channel. Each event gets the subscription's next sequence number. It
 * holds at most its capacity of events: those waiting, and the last ones taken, kept so that a client that lost
 * them with its connection can ask for them again (`rewind`). When full, the oldest go first: taken ones, then
 * waiting ones, which are counted lost.
 */
export interface EventQueue {
  /** Appends one serialized event, taken already when `taken` (written at once); resolves to its number. */
  push(event: string, taken?: boolean): number
  /** Takes everything waiting, with the count of events lost since the last drain. */
  drain(): QueuedEvents
  /** Takes at most `max` of the oldest waiting events, with the count lost since the last drain or take. */
  take(max: number): QueuedEvents
  /** How many events wait. */
  readonly size: number
  /** The number of the last event appended; 0 before the first. */
  readonly lastSequence: number
  /** The number of the oldest taken event still held; undefined when none is. */
  readonly oldestTaken: number | undefined
  /**
   * Makes the taken events after `after` wait again (a channel resuming from the last event its client
   * received), with what is no longer held of them; a number at or after the last taken changes nothing.
   */
  rewind(after: number): Rewound
  /** Drops everything. */
  clear(): void
}

/** One event of a subscription's event log, with its place in it. */
export interface LoggedEvent {
  /** The subscription's own sequence number of the event: 1, 2, 3... in the order of appends. */
  sequence: number
  /** The serialized event. */
  event: string
}
