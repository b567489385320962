/**
 * The port of the subscriptions' event logs every node reads (the cluster mode's delivery: docs/cluster-events.md,
 * "One stream per subscription").
 */
import type { LoggedEvent } from './event-queue.js'

/** What a read of a subscription's event log hands over. */
export interface EventLogPage {
  /** The events after the position read from, oldest first, at most the `max` asked for. */
  events: LoggedEvent[]
  /**
   * How many events after the position read from the log no longer holds, before the first returned (or, when
   * none is returned, up to the last sequence number given): dropped because the log was full, or acknowledged
   * (delivered) by a channel before the reader asked from an earlier position. A reader that gets `lost > 0` tells
   * its client to resynchronize (docs/subscriptions.md, "Bounded queue").
   */
  lost: number
  /** The sequence number read after: the one given, or the acknowledged one when `'acknowledged'` was asked. */
  after: number
  /**
   * The last sequence number given to an event of the subscription (0 when none was): more events wait beyond
   * this page when it exceeds the last one returned.
   */
  lastSequence: number /**
   * The reader that claimed the log last (`claim`: a channel opened, on any node), while its claim is held; absent
   * when none did. A reader that finds another one named here was replaced and stops.
   */
  reader?: string
}

/** What a claim found of the reader before it (SubscriptionEventLog.claim). */
export interface ClaimedLog {
  /**
   * The events the previous reader acknowledged that the log still holds, when that reader did not release its
   * claim: its client may not have received them (docs/subscriptions.md, "Resuming a channel").
   */
  unconfirmed?: { first: number; last: number }
}

/**
 * Wakes a reader when events arrive in the event logs of the subscriptions it watches, without polling
 * (docs/cluster-events.md, "One stream per subscription"). Each watch is armed once: the callback names the
 * subscription once, when its log holds an event after the position watched from, and the subscription is then
 * no longer watched until watched again from where its reader got to.
 */
export interface EventLogWatcher {
  /**
   * Arms (or re-arms from a new position) a wake-up for the first event after `afterSequence`; with `readerId`,
   * also for the log claimed by another reader (not for a claim that lapsed), found when arming too: a claim taken while the reader was not
   * armed (between its last read and this call) would otherwise wake it only at its log's next event, which
   * goes to the new reader's node.
   */
  watch(subscriptionId: string, afterSequence: number, readerId?: string): void
  /** Stops watching the subscription; nothing happens when it was not watched. */
  unwatch(subscriptionId: string): void
  /** Stops watching everything and releases what the watcher holds (its connection). */
  close(): Promise<void>
}

/** One fan-out of a batch (SubscriptionEventLog.appendBatch): an event for its subscriptions, with its origin. */
export interface EventAppend {
  subscriptionIds: readonly string[]
  event: string
  origin?: number
}

/**
 * The queue of a subscription's events, shared by every node of a cluster (docs/cluster-events.md, "One stream per
 * subscription"). Each event gets the subscription's next sequence number, so
 * that a reader asks for the events after the last one it delivered, wherever it runs: a channel that moves to
 * another node, or a client that reconnects with the last number it received, gets every event still held once,
 * in order, and is told how many it lost. The log holds at most its capacity of events not acknowledged, dropping
 * the oldest first; each subscription's events are forgotten after the time to live given at each append, unless
 * renewed.
 */
export interface SubscriptionEventLog {
  /** Appends one serialized event; resolves to its sequence number. `ttlMs` renews the subscription's lifetime. */
  append(subscriptionId: string, event: string, ttlMs: number): Promise<number>
  /**
   * Appends the same serialized event to each subscription at once (a fan-out, one round trip); resolves to the
   * sequence numbers, in the order of `subscriptionIds`. With `origin` (EventSink.publish), a subscription
   * whose log took an event of that origin or a later one is passed over: its number is 0.
   */
  appendMany(
    subscriptionIds: readonly string[],
    event: string,
    ttlMs: number,
    origin?: number,
  ): Promise<number[]>
  /**
   * Several fan-outs at once (a turn's events, LogFanout), in order: each as `appendMany` would append it, all
   * in one round trip. Resolves to each one's sequence numbers, in the order of `appends`.
   */
  appendBatch(appends: readonly EventAppend[], ttlMs: number): Promise<number[][]>
  /**
   * At most `max` (at least 1) of the events after `afterSequence`, or after the last one acknowledged, oldest
   * first, with the count of those lost before them. Reading takes nothing: acknowledge what was delivered.
   */
  read(
    subscriptionId: string,
    afterSequence: number | 'acknowledged',
    max: number,
  ): Promise<EventLogPage>
  /**
   * Records that the events through `throughSequence` were delivered and frees them. The acknowledged position
   * never moves back, nor past the last sequence number given; nothing happens to an unknown subscription. Given
   * a `reader`, nothing happens either once another reader claimed the log: a replaced channel, still writing on
   * its node, cannot move the position past events its successor has not delivered.
   */
  acknowledge(subscriptionId: string, throughSequence: number, reader?: string): Promise<void>
  /**
   * Makes `reader` the one reader of the subscription's log (a chunk channel opening, on any node: the last open
   * wins): reads name it from now on (EventLogPage.reader), and acknowledgements by any other reader change
   * nothing. The claim lives `ttlMs`, renewed by `renew`. Resolves to what the previous reader acknowledged
   * and the log still holds when it had not released its claim (its channel ended abruptly, or is still open).
   */
  claim(subscriptionId: string, reader: string, ttlMs: number): Promise<ClaimedLog>
  /** Ends `reader`'s claim (its channel ended cleanly); nothing happens when another reader claimed the log. */
  release(subscriptionId: string, reader: string): Promise<void>
  /** Keeps the subscription's events, numbers, position and claim `ttlMs` longer (it is still alive). */
  renew(subscriptionId: string, ttlMs: number): Promise<void>
  /** Forgets everything of the subscription: events, sequence numbers, acknowledged position, claim. */
  drop(subscriptionId: string): Promise<void>
  /**
   * A watcher of node `nodeId` that calls `onEvents` with the subscriptions whose watched logs received events,
   * or were claimed by another reader. In a cluster the wake-ups of a log go to the node of the reader that
   * claimed it (readers are named `{nodeId}/...`), so a node watches the logs its own readers claimed; any
   * other is found at the watcher's periodic check (on Redis every 30 s).
   */
  openWatcher(onEvents: EventLogWakeListener, nodeId: string): Promise<EventLogWatcher>
}

/**
 * Told of the subscriptions a watcher woke (SubscriptionEventLog.openWatcher). `pages`, when given, holds for some
 * of them what a read after the position armed would return of the events that woke it (on Redis, carried by the
 * wake-up itself): the events right after that position, in order and none missing, and the reader that claimed
 * the log. A reader handed one need not read; the others read as usual.
 */
export type EventLogWakeListener = (
  subscriptionIds: string[],
  pages?: ReadonlyMap<string, EventLogPage>,
) => void
