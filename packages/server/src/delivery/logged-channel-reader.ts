/**
 * The reader behind a chunk channel in cluster mode (docs/cluster-events.md, "Delivery on the event log"): it
 * claims its subscription's event log, reads it a page at a time from the acknowledged position (where the
 * subscription's queue stands, whichever node delivered before), hands the page to the channel, and acknowledges
 * it once the channel wrote it all and its socket took it; then it reads on, or waits for the node's watcher to
 * name the subscription. Memory stays bounded: nothing more is read while the channel holds a page or its socket
 * is full.
 *
 * ```
 *   READING --page--> WRITING --written--> (acknowledge) READING | WATCHING
 *   READING --nothing after the position--> WATCHING --wake-up--> READING
 *   READING --another reader claimed the log (the client opened the channel again elsewhere)--> ENDED
 *   any --client gone, replaced here, subscription detached--> ENDED
 *   any --finish (the node drains)--> the page under way written and acknowledged, then ENDED
 * ```
 */
import type { ServerResponse } from 'node:http'
import type { Clock } from '../platform/events.js'
import type {
  ClaimedLog,
  EventLogPage,
  SubscriptionEventLog,
} from '../platform/subscriptions/subscription-event-log.js'
import type { SubscriptionRecord } from '../platform/subscriptions/subscription-record.js'
import { ChunkChannel } from './chunk-channel.js'
import { ChunkFraming, cutNotice, NO_LONGER_HELD } from './chunk-framing.js'
import type { DeliveryCounts } from './delivery-counts.js'
import { LoggedEventBuffer } from './logged-event-buffer.js'

/** What a reader needs of its node's delivery. */
export interface LogReaderContext {
  log: SubscriptionEventLog
  clock: Clock
  /** The time to live of a claim. */
  ttlMs: number
  /** Events read at once (one page). */
  pageSize: number
  /** The pause after a failed read before the next. */
  retryMs: number
  /**
   * Arms the node's one watcher: the reader's `wake` is called once its log holds an event after `after`, or
   * (with `readerId`) once another reader claimed it.
   */
  watch(subscriptionId: string, after: number, readerId?: string): void
  unwatch(subscriptionId: string): void
  onError(error: unknown): void
  /** Where the events delivered and announced lost are counted (the node's metrics). */
  counts?: DeliveryCounts
}

/** What a reader reports to its node's delivery. */
export interface ReaderEvents {
  /** Something was written on the channel: the subscription is active. */
  onActivity(): void
  /** The channel ended, whatever the cause. */
  onClosed(reader: LoggedChannelReader): void
}

/** What a reader waits for: a wake-up from the watcher, or its page written. */
interface Waiting {
  kind: 'wake' | 'written'
  /** Whether to go on; with the page the wake-up carried (the events right after the position watched). */
  resolve(goOn: boolean | EventLogPage): void
}

export class LoggedChannelReader {
  readonly channel: ChunkChannel
  private readonly buffer = new LoggedEventBuffer()
  private readonly subscriptionId: string
  private waiting: Waiting | undefined
  private finishing = false
  /** The last acknowledgement sent: a graceful end waits for it, so the next channel starts after it. */
  private acknowledged: Promise<void> = Promise.resolve()

  constructor(
    subscription: SubscriptionRecord,
    response: ServerResponse,
    /** This reader's name in the log's claim: unique to this channel. */
    readonly readerId: string,
    private readonly context: LogReaderContext,
    private readonly events: ReaderEvents,
  ) {
    this.subscriptionId = subscription.subscriptionId
    this.channel = new ChunkChannel(
      response,
      this.buffer,
      new ChunkFraming(subscription.mode),
      context.clock,
      subscription.keepaliveMinutes * 60_000,
      {
        onActivity: () => events.onActivity(),
        onClosed: () => this.closed(),
        onDrain: () => this.checkWritten(),
      },
      context.counts,
    )
  }

  /**
   * Opens the channel (headers and `Chunk started` at once) and starts reading: after `resumeFrom`, the last
   * event its client received, when given (docs/subscriptions.md, "Resuming a channel"), else where the
   * subscription's queue stands.
   */
  open(resumeFrom?: number): void {
    this.channel.open()
    void this.run(resumeFrom)
  }

  /** Events read from the log and not yet written on the channel. */
  get held(): number {
    return this.buffer.size
  }

  /**
   * The watcher named the subscription: its log holds events after the position watched; `page`, when the
   * wake-up carried them, the events right after that position (the reader then does not read them).
   */
  wake(page?: EventLogPage): void {
    if (this.waiting?.kind !== 'wake') return
    this.settle(page ?? true)
  }

  /**
   * Ends the channel once what it wrote is acknowledged (the node drains): a page being written is first taken by
   * the socket (a client that reads no more is cut by the node's stop, and its page, unacknowledged, goes to the
   * next channel); then the closing frame tells the client to reopen the channel elsewhere, where it goes on after
   * everything this one delivered, without a repeat.
   */
  finish(): void {
    if (!this.channel.isOpen || this.finishing) return
    this.finishing = true
    if (this.waiting?.kind === 'wake') this.settle(false)
  }

  /** Ends the channel at once (subscription detached, channel replaced on this node). */
  end(): void {
    this.channel.end()
  }

  private get isReading(): boolean {
    return this.channel.isOpen && !this.finishing
  }

  private async run(resumeFrom: number | undefined): Promise<void> {
    const claimed = await this.claim()
    if (claimed === undefined) return
    // The previous channel did not end cleanly: what it delivered may not have reached the client.
    const { unconfirmed } = claimed
    if (unconfirmed !== undefined && resumeFrom === undefined)
      this.channel.inform(cutNotice(unconfirmed.first, unconfirmed.last))
    let after: number | 'acknowledged' = resumeFrom ?? 'acknowledged'
    let resuming = resumeFrom !== undefined
    let woken: EventLogPage | undefined
    while (this.isReading) {
      const page = woken ?? (await this.read(after))
      woken = undefined
      if (page === undefined || !this.isReading) continue
      if (page.reader !== undefined && page.reader !== this.readerId) break
      if (resuming && page.lastSequence < page.after) {
        // A number the subscription never gave: resumed from where its queue stands instead.
        after = 'acknowledged'
        resuming = false
        continue
      }
      const resumed = resuming
      resuming = false
      if (page.lastSequence < page.after) {
        // The log was forgotten (its time to live) and numbers started again: read them from the start.
        after = 0
        continue
      }
      if (page.events.length > 0 || page.lost > 0) {
        const through = page.events.at(-1)?.sequence ?? page.lastSequence
        // What a resumed channel asked for and the log no longer holds, named as the embedded mode names it.
        const reason = resumed ? NO_LONGER_HELD : undefined
        if (!(await this.write(page, through, reason))) break
        this.acknowledge(through)
        after = through
        if (through < page.lastSequence) continue
      } else {
        after = page.after
      }
      const goOn = await this.watch(after)
      if (goOn === false) break
      if (goOn !== true) woken = goOn
    }
    await this.acknowledged
    // A node that drains says so on the channel's last line, and lets the claim go: the channel ends cleanly,
    // so the next one has nothing to tell of it. The other ends are the channel's own.
    if (this.finishing) {
      await this.release()
      this.channel.stop()
    } else this.channel.end()
  }

  /**
   * Claims the log, again after a pause while that fails (reading first would find the previous reader's
   * claim); undefined when the channel ended meanwhile.
   */
  private async claim(): Promise<ClaimedLog | undefined> {
    const { log, ttlMs, clock, retryMs } = this.context
    while (this.isReading) {
      try {
        return await log.claim(this.subscriptionId, this.readerId, ttlMs)
      } catch (error) {
        this.report('claiming', error)
        await clock.sleep(retryMs)
      }
    }
    this.channel.end()
    return undefined
  }

  /** Lets the claim go; a failure is reported, and the next channel then tells of a cut that was not one. */
  private async release(): Promise<void> {
    await this.context.log
      .release(this.subscriptionId, this.readerId)
      .catch((error: unknown) => this.report('releasing', error))
  }

  /** A page after `after`, or undefined after a failed read (reported, and retried after a pause). */
  private async read(after: number | 'acknowledged'): Promise<EventLogPage | undefined> {
    const { log, pageSize, clock, retryMs } = this.context
    try {
      return await log.read(this.subscriptionId, after, pageSize)
    } catch (error) {
      this.report('reading', error)
      await clock.sleep(retryMs)
      return undefined
    }
  }

  /** Hands the page to the channel; true once all of it was written and the socket took it. */
  private write(page: EventLogPage, through: number, reason?: string): Promise<boolean> {
    this.buffer.fill(page.events, page.lost, through, reason)
    this.channel.flush()
    return this.wait('written', () => this.checkWritten())
  }

  /** Resolves once woken: false to stop, else true, or the page the wake-up carried. */
  private watch(after: number): Promise<boolean | EventLogPage> {
    return this.wait('wake', () => this.context.watch(this.subscriptionId, after, this.readerId))
  }

  /** Waits for `kind`, set up before `start` runs so that a wake-up it causes at once is not missed. */
  private wait(kind: 'written', start: () => void): Promise<boolean>
  private wait(kind: 'wake', start: () => void): Promise<boolean | EventLogPage>
  private wait(kind: Waiting['kind'], start: () => void): Promise<boolean | EventLogPage> {
    return new Promise((resolve) => {
      this.waiting = { kind, resolve }
      start()
    })
  }

  private checkWritten(): void {
    if (this.waiting?.kind !== 'written') return
    if (this.buffer.size === 0 && !this.channel.isPaused) this.settle(true)
  }

  private settle(goOn: boolean | EventLogPage): void {
    const waiting = this.waiting
    this.waiting = undefined
    waiting?.resolve(goOn)
  }

  private acknowledge(through: number): void {
    this.acknowledged = this.context.log
      .acknowledge(this.subscriptionId, through, this.readerId)
      .catch((error: unknown) => this.report('acknowledging', error))
  }

  private closed(): void {
    this.context.unwatch(this.subscriptionId)
    this.settle(false)
    this.events.onClosed(this)
  }

  private report(what: string, error: unknown): void {
    this.context.onError(
      new Error(`event log: ${what} the events of subscription ${this.subscriptionId} failed`, {
        cause: error,
      }),
    )
  }
}
