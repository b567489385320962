/**
 * A webhook subscription delivered from its event log (docs/cluster-events.md, "Delivery on the event log"), by
 * the one node that holds the webhooks (the engine owner): the embedded mode's WebhookSender, fed a page at a time
 * from the acknowledged position, each event acknowledged once the receiver took it (or it was given up), so that
 * a node stopped mid-delivery leaves what it had not delivered to the next holder. X-Openness-Sequence comes from
 * the log's numbers (LoggedEventBuffer.numberOf): the next holder goes on from them, and an event delivered again
 * carries the number it had, which the receiver drops as a repeat.
 */
import type { EventLogPage } from '../platform/subscriptions/subscription-event-log.js'
import type { SubscriptionRecord } from '../platform/subscriptions/subscription-record.js'
import type { LogReaderContext } from './logged-channel-reader.js'
import { LoggedEventBuffer } from './logged-event-buffer.js'
import {
  type WebhookFailure,
  type WebhookPolicy,
  WebhookSender,
  type WebhookTransport,
} from './webhook-sender.js'

/** How webhooks are sent (the service's transport, policy and failure log). */
export interface WebhookDelivery {
  transport: WebhookTransport
  policy: WebhookPolicy
  onFailure?: (failure: WebhookFailure) => void
}

export class LoggedWebhook {
  private readonly buffer = new LoggedEventBuffer()
  private readonly sender: WebhookSender
  private readonly subscriptionId: string
  private position: number | 'acknowledged' = 'acknowledged'
  private reading = false
  private watching = false
  private stopped = false

  constructor(
    subscription: SubscriptionRecord,
    url: string,
    /** This node's name in the log's claim while it holds the webhooks. */
    private readonly readerId: string,
    private readonly context: LogReaderContext,
    webhook: WebhookDelivery,
    onActivity: () => void,
  ) {
    this.subscriptionId = subscription.subscriptionId
    this.buffer.onEmptied = () => this.pull()
    this.sender = new WebhookSender({
      subscriptionId: subscription.subscriptionId,
      url,
      queue: this.buffer,
      clock: context.clock,
      ...webhook,
      onActivity,
      ...(context.counts && { counts: context.counts }),
      onDelivered: (events) => this.delivered(events),
      numberOf: (kind) => this.buffer.numberOf(kind),
    })
  }

  /**
   * Claims the log for this node (again after a pause while that fails: reading first would find the previous
   * holder's claim) and starts delivering from the acknowledged position.
   */
  start(): void {
    const { log, ttlMs, clock, retryMs } = this.context
    this.reading = true
    log.claim(this.subscriptionId, this.readerId, ttlMs).then(
      () => {
        this.reading = false
        this.pull()
      },
      (error: unknown) => {
        this.report('claiming', error)
        clock.setTimer(retryMs, () => {
          if (!this.stopped) this.start()
        })
      },
    )
  }

  /** Events read from the log and not yet taken by the receiver (or given up). */
  get held(): number {
    return this.buffer.size
  }

  /** The watcher named the subscription. */
  wake(): void {
    this.watching = false
    this.pull()
  }

  /** Stops for good: the request in flight is aborted, and its event left unacknowledged for the next holder. */
  stop(): void {
    if (this.stopped) return
    this.stopped = true
    this.sender.stop()
    this.context.unwatch(this.subscriptionId)
  }

  /** Reads the next page, unless a read is under way, the watcher waits, or events are still held. */
  private pull(): void {
    if (this.stopped || this.reading || this.watching || this.buffer.size > 0) return
    this.reading = true
    const { log, pageSize } = this.context
    log.read(this.subscriptionId, this.position, pageSize).then(
      (page) => {
        this.reading = false
        this.take(page)
      },
      (error: unknown) => {
        this.report('reading', error)
        this.context.clock.setTimer(this.context.retryMs, () => {
          this.reading = false
          this.pull()
        })
      },
    )
  }

  private take(page: EventLogPage): void {
    if (this.stopped) return
    if (page.reader !== undefined && page.reader !== this.readerId) {
      // Another node holds the webhooks now.
      this.stop()
      return
    }
    if (page.lastSequence < page.after) {
      this.position = 0
      this.pull()
      return
    }
    if (page.events.length === 0 && page.lost === 0) {
      this.position = page.after
      this.watching = true
      this.context.watch(this.subscriptionId, page.after)
      return
    }
    const through = page.events.at(-1)?.sequence ?? page.lastSequence
    this.buffer.fill(page.events, page.lost, through)
    this.position = through
    if (this.buffer.size > 0) this.sender.wake()
    else this.pull()
  }

  private delivered(events: number): void {
    if (events === 0) return
    const sequence = this.buffer.delivered()
    if (sequence === undefined) return
    this.context.log
      .acknowledge(this.subscriptionId, sequence, this.readerId)
      .catch((error: unknown) => this.report('acknowledging', error))
  }

  private report(what: string, error: unknown): void {
    this.context.onError(
      new Error(
        `event log: ${what} the webhook events of subscription ${this.subscriptionId} failed`,
        {
          cause: error,
        },
      ),
    )
  }
}
