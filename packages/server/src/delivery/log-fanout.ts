/**
 * The appends of one node to its subscriptions' event logs (docs/cluster-events.md, "Delivery on the event log"):
 * the events routed during one turn of the event loop are gathered, each serialized event (or dialect variant)
 * with the subscriptions it goes to, and sent at the end of the turn with one `appendBatch`: on Redis one pipeline
 * of script calls (one for up to 256 appends), written at once on the node's connection, whatever the number of
 * events and subscriptions. Events leave in the order they were routed, so one subscription's events keep the
 * order this node routed them in. An engine's event carries its origin to the log, which takes it once
 * (platform/telephony/event-origin.ts).
 */
import type {
  EventAppend,
  SubscriptionEventLog,
} from '../platform/subscriptions/subscription-event-log.js'
import type { SerializedEvent } from './event-router.js'

const noop = () => {}

/** What the fan-out needs. */
export interface LogFanoutOptions {
  log: SubscriptionEventLog
  /** The time to live each append gives the logs it touches. */
  ttlMs: number
  /** Whether the subscription is still delivered on this node when the appends leave (detached ones are not). */
  isAttached(subscriptionId: string): boolean
  /** Told of appends that failed: how many events for how many subscriptions. */
  onError(error: unknown): void
  /** Told of each event appended, with the subscriptions' logs it joined and its number in each (the journal). */
  onAppended?(
    event: SerializedEvent,
    subscriptionIds: readonly string[],
    sequences: readonly number[],
  ): void
}

export class LogFanout {
  /** The turn's events, in the order they were first routed, each with its subscriptions. */
  private pending = new Map<SerializedEvent, string[]>()
  private scheduled = false
  private inFlight: Promise<void> = Promise.resolve()

  constructor(private readonly options: LogFanoutOptions) {}

  /** Appends `event` to the subscription's log at the end of this turn of the event loop. */
  add(subscriptionId: string, event: SerializedEvent): void {
    const subscriptionIds = this.pending.get(event)
    if (subscriptionIds === undefined) this.pending.set(event, [subscriptionId])
    else subscriptionIds.push(subscriptionId)
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.flush())
  }

  /** Resolves once every append routed so far has been answered (a node stopping, tests). */
  async settled(): Promise<void> {
    if (this.scheduled) this.flush()
    await this.inFlight
  }

  private flush(): void {
    this.scheduled = false
    const batch = this.pending
    if (batch.size === 0) return
    this.pending = new Map()
    const { log, ttlMs, isAttached, onAppended } = this.options
    const events: SerializedEvent[] = []
    const appends: EventAppend[] = []
    for (const [event, subscriptionIds] of batch) {
      const attached = subscriptionIds.filter(isAttached)
      if (attached.length === 0) continue
      events.push(event)
      appends.push({
        subscriptionIds: attached,
        event: event.json,
        ...(event.origin !== undefined && { origin: event.origin }),
      })
    }
    if (appends.length === 0) return
    const appended = log.appendBatch(appends, ttlMs)
    // A failure is reported below, once for the turn.
    if (onAppended)
      appended.then((sequences) => {
        for (const [index, event] of events.entries())
          onAppended(event, appends[index]?.subscriptionIds ?? [], sequences[index] ?? [])
      }, noop)
    const previous = this.inFlight
    this.inFlight = appended.then(
      () => previous,
      async (error: unknown) => {
        await previous
        this.report(appends, error)
      },
    )
  }

  /** One report per turn whose appends failed, naming how many events for how many subscriptions. */
  private report(appends: readonly EventAppend[], cause: unknown): void {
    const subscriptions = new Set(appends.flatMap((append) => append.subscriptionIds))
    const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
    this.options.onError(
      new Error(
        `event log: ${plural(appends.length, 'event')} for ${plural(subscriptions.size, 'subscription')} not appended (lost for them)`,
        { cause },
      ),
    )
  }
}
