/**
 * The delivery side of subscriptions in cluster mode (docs/cluster-events.md, "Delivery on the event log"), on the
 * shared SubscriptionEventLog: every node routes every subscription (attach, reroute, detach, told by the store's
 * changes) and appends the events it produces to the logs of the subscriptions they match (LogFanout: one
 * serialization per event, one append per event for all its subscriptions); a chunk channel opens on any node and
 * reads its log from where the subscription's queue stands (LoggedChannelReader); the node that holds the webhooks
 * (the engine owner) sends them from the logs (LoggedWebhook). One watcher per node wakes its readers without
 * polling.
 *
 * Its methods are those of `ChannelOutlets` (delivery/channel-outlets.ts) and the record-based
 * `SubscriptionDelivery` port, which arrive with the wiring.
 */

import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { Clock, Timer } from '../platform/events.js'
import type { Journal } from '../platform/journal/journal.js'
import type {
  EventLogPage,
  EventLogWatcher,
  SubscriptionEventLog,
} from '../platform/subscriptions/subscription-event-log.js'
import type { SubscriptionRecord } from '../platform/subscriptions/subscription-record.js'
import type { ChannelOutlets } from './channel-outlets.js'
import type { DeliveryCounts } from './delivery-counts.js'
import type { EventRouter, EventTarget, SerializedEvent } from './event-router.js'
import { EVENT_VARIANTS, type EventRewrite } from './event-variants.js'
import { LogFanout, type LogFanoutOptions } from './log-fanout.js'
import { LoggedChannelReader, type LogReaderContext } from './logged-channel-reader.js'
import { LoggedWebhook, type WebhookDelivery } from './logged-webhook.js'

/**
 * The time to live of every subscription's log, its numbers, position and claim: the longest subscription timeout
 * (60 minutes) and the sweep's margin (10 minutes). Appends give it; the node holding the webhooks renews the logs
 * of every subscription it knows well before it runs out (`renewIntervalMs`), so a living subscription keeps its
 * log however quiet, even one that follows its session; a log nobody drops (a node died between a removal and its
 * drop) is gone after it.
 */
export const DEFAULT_LOG_TTL_MS = 70 * 60_000
/** How often the node holding the webhooks renews every log: a third of the time to live. */
export const DEFAULT_LOG_RENEW_INTERVAL_MS = DEFAULT_LOG_TTL_MS / 3
/** Events a reader reads at once: the memory one channel or webhook holds at most. */
export const DEFAULT_PAGE_SIZE = 256
/** Detached subscriptions remembered, so that a late attach (a change heard out of order) routes nothing. */
const DETACHED_REMEMBERED = 10_000

/** What the outlets are built with. */
export interface LoggedOutletsOptions {
  log: SubscriptionEventLog
  /** The node's router: the platform publishes its events there. */
  router: EventRouter
  clock: Clock
  /** This node's id, in the names of its claims (operators reading Redis see who reads). */
  nodeId: string
  /** Told of every write on a channel opened here and every webhook delivery taken. */
  onActivity: (subscription: SubscriptionRecord) => void
  /** Told of every background failure: appends, reads, acknowledgements, renewals, the watcher. */
  onError: (error: unknown) => void
  webhook: WebhookDelivery
  logTtlMs?: number
  renewIntervalMs?: number
  pageSize?: number
  /** The pause after a failed read before the next; 1 s by default. */
  retryMs?: number
  /** Where the events delivered and announced lost are counted (the node's metrics). */
  counts?: DeliveryCounts
  /** Where each event appended to a log is recorded (docs/journal.md); absent when the journal is off. */
  journal?: Journal
}

/** One subscription as this node delivers it: its routes' target, and its channel or webhook here. */
class LoggedSubscription implements EventTarget {
  channel: LoggedChannelReader | undefined
  webhook: LoggedWebhook | undefined
  private readonly rewrites: ReadonlyMap<string, EventRewrite> | undefined

  constructor(
    public record: SubscriptionRecord,
    private readonly fanout: LogFanout,
  ) {
    const { dialect } = record
    this.rewrites = dialect === undefined ? undefined : EVENT_VARIANTS[dialect]
  }

  get subscriptionId(): string {
    return this.record.subscriptionId
  }

  deliver(shared: SerializedEvent): void {
    const rewrite = this.rewrites?.get(shared.source?.eventName ?? '')
    this.fanout.add(
      this.record.subscriptionId,
      rewrite === undefined ? shared : shared.rewritten(rewrite),
    )
  }
}

export class LoggedSubscriptionOutlets implements ChannelOutlets {
  private readonly subscriptions = new Map<string, LoggedSubscription>()
  private readonly detached = new Set<string>()
  private readonly readers = new Set<LoggedChannelReader>()
  private readonly fanout: LogFanout
  private readonly context: LogReaderContext
  private readonly renewIntervalMs: number
  private watcher: Promise<EventLogWatcher | undefined> | undefined
  /** This node's claim while it holds the webhooks; undefined otherwise. */
  private webhookReader: string | undefined
  private renewTimer: Timer | undefined
  private closed = false

  constructor(private readonly options: LoggedOutletsOptions) {
    const ttlMs = options.logTtlMs ?? DEFAULT_LOG_TTL_MS
    this.renewIntervalMs = options.renewIntervalMs ?? DEFAULT_LOG_RENEW_INTERVAL_MS
    this.fanout = new LogFanout({
      log: options.log,
      ttlMs,
      isAttached: (subscriptionId) => this.subscriptions.has(subscriptionId),
      onError: options.onError,
      ...(options.journal && { onAppended: this.journalOf(options.journal) }),
    })
    this.context = {
      log: options.log,
      clock: options.clock,
      ttlMs,
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      retryMs: options.retryMs ?? 1_000,
      watch: (subscriptionId, after, readerId) => this.watch(subscriptionId, after, readerId),
      unwatch: (subscriptionId) => this.unwatch(subscriptionId),
      onError: options.onError,
      ...(options.counts && { counts: options.counts }),
    }
  }

  /** Records each event appended, once its number in each log is known. */
  private journalOf(journal: Journal): NonNullable<LogFanoutOptions['onAppended']> {
    return (event, subscriptionIds, sequences) => {
      subscriptionIds.forEach((subscriptionId, index) => {
        const owner = this.subscriptions.get(subscriptionId)?.record.owner ?? ''
        journal.event(subscriptionId, owner, event.source, event.json, sequences[index] ?? 0)
      })
    }
  }

  /** The subscription exists: its routes join the router (a record older than the one held changes nothing). */
  attach(subscription: SubscriptionRecord): void {
    const { subscriptionId } = subscription
    if (this.detached.has(subscriptionId)) return
    const held = this.subscriptions.get(subscriptionId)
    if (held !== undefined) {
      if (subscription.revision <= held.record.revision) return
      held.record = subscription
      this.options.router.route(held, subscription.filter.routes)
      return
    }
    const created = new LoggedSubscription(subscription, this.fanout)
    this.subscriptions.set(subscriptionId, created)
    this.options.router.route(created, subscription.filter.routes)
    if (this.webhookReader !== undefined) this.startWebhook(created)
  }

  /** Its filter was replaced: its routes become the record's (attaching it when this node did not know it). */
  reroute(subscription: SubscriptionRecord): void {
    this.attach(subscription)
  }

  /** It was removed, on any node: its routes leave, its channel open here ends, its webhook here stops. */
  detach(subscriptionId: string): void {
    this.remember(subscriptionId)
    const held = this.subscriptions.get(subscriptionId)
    if (held === undefined) return
    this.subscriptions.delete(subscriptionId)
    this.options.router.unroute(held)
    held.channel?.end()
    held.webhook?.stop()
    this.unwatch(subscriptionId)
  }

  /** Called once, by the caller that removed it: its log is dropped. */
  async discard(subscriptionId: string): Promise<void> {
    await this.options.log.drop(subscriptionId)
  }

  /** True when the log of a webhook subscription holds nothing after its acknowledged position; any node. */
  async isQuiet(subscription: SubscriptionRecord): Promise<boolean> {
    if (subscription.webHookUrl === undefined) return false
    const page = await this.options.log.read(subscription.subscriptionId, 'acknowledged', 1)
    return page.events.length === 0
  }

  /**
   * Opens the chunk channel of `subscription` on `response`, replacing one open on this node for it; the log's
   * claim replaces one open on another node (it ends at its next read). False for a webhook subscription, and for
   * one removed already.
   */
  openChannel(
    subscription: SubscriptionRecord,
    response: ServerResponse,
    resumeFrom?: number,
  ): boolean {
    if (subscription.webHookUrl !== undefined) return false
    this.attach(subscription)
    const held = this.subscriptions.get(subscription.subscriptionId)
    if (held === undefined) return false
    held.channel?.end()
    const { onActivity } = this.options
    const reader = new LoggedChannelReader(
      held.record,
      response,
      this.readerId('channel'),
      this.context,
      {
        onActivity: () => onActivity(held.record),
        onClosed: (closed) => {
          this.readers.delete(closed)
          if (held.channel === closed) held.channel = undefined
        },
      },
    )
    held.channel = reader
    this.readers.add(reader)
    onActivity(held.record)
    reader.open(resumeFrom)
    return true
  }

  /**
   * Ends every channel open on this node with a last OnChannelInformation saying the server stops and the
   * response's closing frame, each once its last acknowledgement is
   * recorded, so that the client reopening it on another node goes on after what this one delivered.
   */
  endChannels(): void {
    for (const reader of this.readers) reader.finish()
  }

  /** Channels open on this node now. */
  get openChannels(): number {
    return this.readers.size
  }

  /** The subscriptions this node routes: every one (each node routes them all). */
  get subscriptionCount(): number {
    return this.subscriptions.size
  }

  /** Events read from the logs by this node's channels and webhooks and not yet delivered. */
  get queuedEvents(): number {
    let count = 0
    for (const reader of this.readers) count += reader.held
    for (const subscription of this.subscriptions.values()) count += subscription.webhook?.held ?? 0
    return count
  }

  /**
   * This node now delivers every webhook subscription (it became the engine owner): each claims its log and sends
   * from its acknowledged position; those attached later too, until `leaveWebhooks`. It renews every log it knows.
   */
  takeWebhooks(): void {
    if (this.webhookReader !== undefined || this.closed) return
    this.webhookReader = this.readerId('webhooks')
    for (const subscription of this.subscriptions.values()) this.startWebhook(subscription)
    this.scheduleRenewal()
  }

  /** This node's term as engine owner ended: its webhooks stop, what they had not delivered stays in the logs. */
  leaveWebhooks(): void {
    this.webhookReader = undefined
    this.renewTimer?.cancel()
    this.renewTimer = undefined
    for (const subscription of this.subscriptions.values()) {
      subscription.webhook?.stop()
      subscription.webhook = undefined
    }
  }

  /** Stops every webhook this node sends (the service stops): no request left in flight or scheduled. */
  stopWebhooks(): void {
    this.leaveWebhooks()
  }

  /** Resolves once every event routed so far was appended (or its failure reported). */
  settled(): Promise<void> {
    return this.fanout.settled()
  }

  /** Stops everything: webhooks, channels (at once), the pending appends sent, the watcher closed. */
  async close(): Promise<void> {
    this.closed = true
    this.stopWebhooks()
    for (const reader of this.readers) reader.end()
    await this.fanout.settled()
    const watcher = await this.watcher
    this.watcher = undefined
    await watcher?.close()
  }

  private startWebhook(subscription: LoggedSubscription): void {
    const { webHookUrl } = subscription.record
    if (webHookUrl === undefined || this.webhookReader === undefined) return
    const webhook = new LoggedWebhook(
      subscription.record,
      webHookUrl,
      this.webhookReader,
      this.context,
      this.options.webhook,
      () => this.options.onActivity(subscription.record),
    )
    subscription.webhook = webhook
    webhook.start()
  }

  /** Renews every log this node knows, then again after the interval, while it holds the webhooks. */
  private scheduleRenewal(): void {
    this.renewTimer = this.options.clock.setTimer(this.renewIntervalMs, () => {
      if (this.webhookReader === undefined) return
      void this.renewAll()
      this.scheduleRenewal()
    })
  }

  private async renewAll(): Promise<void> {
    const { log } = this.options
    const { ttlMs } = this.context
    const ids = [...this.subscriptions.keys()]
    const results = await Promise.allSettled(ids.map((id) => log.renew(id, ttlMs)))
    const failed = results.filter((result) => result.status === 'rejected')
    if (failed.length === 0) return
    this.options.onError(
      new Error(
        `event log: renewing ${failed.length} of ${ids.length} subscriptions' logs failed`,
        {
          cause: (failed[0] as PromiseRejectedResult).reason,
        },
      ),
    )
  }

  /** The node's one watcher, opened on first use and shared by every reader here. */
  private watch(subscriptionId: string, after: number, readerId?: string): void {
    if (this.closed) return
    this.watcher ??= this.options.log
      .openWatcher(
        (subscriptionIds, pages) => this.wake(subscriptionIds, pages),
        this.options.nodeId,
      )
      .catch((error: unknown) => {
        this.options.onError(new Error('event log: opening the watcher failed', { cause: error }))
        this.watcher = undefined
        return undefined
      })
    void this.watcher.then((watcher) => {
      if (watcher !== undefined) watcher.watch(subscriptionId, after, readerId)
      // Without a watcher, read again after a pause rather than wait for a wake-up that cannot come.
      else this.options.clock.setTimer(this.context.retryMs, () => this.wake([subscriptionId]))
    })
  }

  private unwatch(subscriptionId: string): void {
    void this.watcher?.then((watcher) => watcher?.unwatch(subscriptionId))
  }

  /** Wakes the readers of `subscriptionIds`: a channel handed its page by the watcher does not read it. */
  private wake(subscriptionIds: string[], pages?: ReadonlyMap<string, EventLogPage>): void {
    for (const subscriptionId of subscriptionIds) {
      const subscription = this.subscriptions.get(subscriptionId)
      subscription?.channel?.wake(pages?.get(subscriptionId))
      subscription?.webhook?.wake()
    }
  }

  private remember(subscriptionId: string): void {
    this.detached.add(subscriptionId)
    if (this.detached.size <= DETACHED_REMEMBERED) return
    const oldest = this.detached.values().next().value
    if (oldest !== undefined) this.detached.delete(oldest)
  }

  private readerId(kind: 'channel' | 'webhooks'): string {
    return `${this.options.nodeId}/${kind}/${randomBytes(6).toString('hex')}`
  }
}
