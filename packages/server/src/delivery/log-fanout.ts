/**
 * The appends of one node to its subscriptions' event logs (docs/cluster.md, "Delivery on the event log"): the
 * events routed during one turn of the event loop are gathered, each serialized event (or dialect variant) with
 * the subscriptions it goes to, and sent at the end of the turn with one `appendMany` per event, all at once: on
 * Redis, one pipeline each, written back to back on the node's connection, whatever the number of subscriptions.
 * Events leave in the order they were routed, so one subscription's events keep the order this node routed them in.
 * An engine's event carries its origin to the log, which takes it once (platform/telephony/event-origin.ts).
 */
import type { SubscriptionEventLog } from '../platform/ports.js'
import type { SerializedEvent } from './event-router.js'

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

const noop = () => {}

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
    const { log, ttlMs, isAttached } = this.options
    const appends: Promise<unknown>[] = []
    const sent: string[][] = []
    for (const [event, subscriptionIds] of batch) {
      const attached = subscriptionIds.filter(isAttached)
      if (attached.length === 0) continue
      const append = log.appendMany(attached, event.json, ttlMs, event.origin)
      const { onAppended } = this.options
      // A failure is reported below, once for the turn.
      if (onAppended) append.then((sequences) => onAppended(event, attached, sequences), noop)
      appends.push(append)
      sent.push(attached)
    }
    const previous = this.inFlight
    this.inFlight = Promise.allSettled(appends).then(async (results) => {
      await previous
      this.report(results, sent)
    })
  }

  /** One report per turn whose appends failed, naming how many events for how many subscriptions. */
  private report(results: PromiseSettledResult<unknown>[], sent: string[][]): void {
    let events = 0
    const subscriptions = new Set<string>()
    let cause: unknown
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') return
      events += 1
      cause ??= result.reason
      for (const id of sent[index] ?? []) subscriptions.add(id)
    })
    if (events === 0) return
    const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
    this.options.onError(
      new Error(
        `event log: ${plural(events, 'event')} for ${plural(subscriptions.size, 'subscription')} not appended (lost for them)`,
        { cause },
      ),
    )
  }
}
