/**
 * The delivery side of every subscription, in the process (the embedded mode): its queue, filled from
 * acceptance on; its routes in the event router; its chunk channel when one is open, or its webhook sender.
 * Implements ChannelOutlets; outlets are known by subscription id, and told of each subscription both by the
 * manager and by the store's changes, so every call is idempotent.
 */
import type { ServerResponse } from 'node:http'
import type { Clock } from '../platform/events.js'
import type { Journal } from '../platform/journal/journal.js'
import type { EventQueue } from '../platform/subscriptions/event-queue.js'
import type { SubscriptionRecord } from '../platform/subscriptions/subscription-record.js'
import type { ChannelOutlets } from './channel-outlets.js'
import { ChunkChannel, type WrittenRange } from './chunk-channel.js'
import { ChunkFraming, cutNotice, lostNotice, NO_LONGER_HELD } from './chunk-framing.js'
import type { DeliveryCounts } from './delivery-counts.js'
import type { EventRouter, EventTarget, SerializedEvent } from './event-router.js'
import { EVENT_VARIANTS, type EventRewrite } from './event-variants.js'
import {
  type WebhookFailure,
  type WebhookPolicy,
  WebhookSender,
  type WebhookTransport,
} from './webhook-sender.js'

/** One subscription's queue, and its channel or its webhook. */
class Outlet implements EventTarget {
  channel: ChunkChannel | undefined
  webhook: WebhookSender | undefined
  /**
   * The events the last channel wrote that may not have reached its client, still held, when it ended abruptly:
   * the next channel opens with a notice naming them, unless its client says where to resume from.
   */
  unconfirmed: WrittenRange | undefined
  /** The events its client parses in a variant of their own (event-variants.ts); mostly none. */
  private readonly rewrites: ReadonlyMap<string, EventRewrite> | undefined

  constructor(
    /** The record it was attached or last rerouted with. */
    public subscription: SubscriptionRecord,
    readonly queue: EventQueue,
    /** Where each event the queue takes is recorded (docs/journal.md); absent when the journal is off. */
    private readonly journal: Journal | undefined,
  ) {
    const { dialect } = subscription
    this.rewrites = dialect === undefined ? undefined : EVENT_VARIANTS[dialect]
  }

  deliver(shared: SerializedEvent): void {
    const rewrite = this.rewrites?.get(shared.source?.eventName ?? '')
    const event = rewrite === undefined ? shared : shared.rewritten(rewrite)
    if (this.webhook !== undefined) {
      this.queue.push(event.json)
      this.webhook.wake()
    } else if (!this.channel?.offer(event)) {
      // Unless an open channel keeping up took it straight to the socket, numbered as taken at once.
      this.queue.push(event.json)
      this.channel?.flush()
    }
    if (this.journal !== undefined) {
      const { subscriptionId, owner } = this.subscription
      this.journal.event(subscriptionId, owner, shared.source, shared.json, this.queue.lastSequence)
    }
  }

  /** Remembers what `channel`, ending abruptly, wrote that is still held: its client may not have it. */
  cut(channel: ChunkChannel): void {
    const written = channel.writtenRange
    const first = Math.max(written?.first ?? 0, this.queue.oldestTaken ?? Number.POSITIVE_INFINITY)
    this.unconfirmed =
      written === undefined || first > written.last ? undefined : { first, last: written.last }
  }

  /** What a new channel says first: the loss of a replay from `resumeFrom`, or the previous channel's cut. */
  openingNotices(resumeFrom: number | undefined, counts: DeliveryCounts | undefined): string[] {
    const unconfirmed = this.unconfirmed
    this.unconfirmed = undefined
    if (resumeFrom !== undefined) {
      const { missing, missingFrom } = this.queue.rewind(resumeFrom)
      if (missing === 0) return []
      // Announced lost as a full queue's are, for the metrics.
      if (counts !== undefined) counts.channelLost += missing
      return [lostNotice(missing, NO_LONGER_HELD, missingFrom)]
    }
    return unconfirmed === undefined ? [] : [cutNotice(unconfirmed.first, unconfirmed.last)]
  }
}

/** Options of the outlets. */
export interface OutletOptions {
  router: EventRouter
  clock: Clock
  /**
   * A subscription's queue; a webhook's keeps nothing for a replay (`forReplay` false): only a chunk channel
   * resumes.
   */
  newQueue: (forReplay: boolean) => EventQueue
  /** Told of every write on a channel and every delivery a webhook took (the subscription is active). */
  onActivity: (subscription: SubscriptionRecord) => void
  /** How webhook subscriptions are delivered. */
  webhook: {
    transport: WebhookTransport
    policy: WebhookPolicy
    onFailure?: (failure: WebhookFailure) => void
  }
  /** Where the events delivered and announced lost are counted (the node's metrics). */
  counts?: DeliveryCounts
  /** Where each event a queue takes is recorded (docs/journal.md); absent when the journal is off. */
  journal?: Journal
}

/** How long a detached subscription stays known as gone: longer than any change takes to reach a node. */
const GONE_FOR_MS = 60_000

const DONE = Promise.resolve()

export class SubscriptionOutlets implements ChannelOutlets {
  private readonly outlets = new Map<string, Outlet>()
  /** Channels open: counted, since every channel's open reads it (its node's quota). */
  private open = 0
  /**
   * The subscriptions detached lately, with when, oldest first: an attach or reroute that arrives after the
   * removal (a change heard late, a replacement answered after a removal) does not bring one back.
   */
  private readonly gone = new Map<string, number>()

  constructor(private readonly options: OutletOptions) {}

  attach(subscription: SubscriptionRecord): void {
    const id = subscription.subscriptionId
    const held = this.outlets.get(id)
    if (held !== undefined) {
      if (subscription.revision > held.subscription.revision) this.route(held, subscription)
      return
    }
    if (this.gone.has(id)) return
    const { webHookUrl } = subscription
    const outlet = new Outlet(
      subscription,
      this.options.newQueue(webHookUrl === undefined),
      this.options.journal,
    )
    if (webHookUrl !== undefined) {
      const { clock, onActivity, webhook } = this.options
      outlet.webhook = new WebhookSender({
        subscriptionId: id,
        url: webHookUrl,
        queue: outlet.queue,
        clock,
        ...webhook,
        ...(this.options.counts && { counts: this.options.counts }),
        onActivity: () => onActivity(outlet.subscription),
      })
    }
    this.outlets.set(id, outlet)
    this.options.router.route(outlet, subscription.filter.routes)
  }

  reroute(subscription: SubscriptionRecord): void {
    this.attach(subscription)
  }

  detach(subscriptionId: string): void {
    this.forget(subscriptionId)
    const outlet = this.outlets.get(subscriptionId)
    if (outlet === undefined) return
    this.outlets.delete(subscriptionId)
    this.options.router.unroute(outlet)
    outlet.channel?.end()
    outlet.webhook?.stop()
    outlet.queue.clear()
  }

  /** The queue goes with the outlet (detach); one still held is cleared. */
  discard(subscriptionId: string): Promise<void> {
    this.outlets.get(subscriptionId)?.queue.clear()
    return DONE
  }

  isQuiet(subscription: SubscriptionRecord): Promise<boolean> {
    return Promise.resolve(this.outlets.get(subscription.subscriptionId)?.webhook?.isQuiet ?? false)
  }

  /**
   * Ends every open chunk channel with a last OnChannelInformation saying the server stops and the response's
   * closing frame (the node drains before a stop), so that
   * clients see a channel that ended, not a cut connection, and open it again, on another node in cluster
   * mode; the subscriptions and their queues stay.
   */
  endChannels(): void {
    for (const outlet of this.outlets.values()) outlet.channel?.stop()
  }

  /** Stops every webhook (the service stops): no request is left in flight or scheduled. */
  stopWebhooks(): void {
    for (const outlet of this.outlets.values()) outlet.webhook?.stop()
  }

  /**
   * Opens the chunk channel of a subscription on `response`, replacing the one already open (a client
   * reconnecting), attaching it first when it is not known here; from the event after `resumeFrom` when given
   * (docs/subscriptions.md, "Resuming a channel"). False when it is delivered to a webhook, or was removed.
   */
  openChannel(
    subscription: SubscriptionRecord,
    response: ServerResponse,
    resumeFrom?: number,
  ): boolean {
    const id = subscription.subscriptionId
    if (!this.outlets.has(id)) this.attach(subscription)
    const outlet = this.outlets.get(id)
    if (outlet === undefined || outlet.webhook !== undefined) return false
    const replaced = outlet.channel
    if (replaced !== undefined) {
      // Opened again while open here: its client left the previous one without this node noticing.
      outlet.cut(replaced)
      replaced.end()
    }
    const { clock, onActivity } = this.options
    const channel = new ChunkChannel(
      response,
      outlet.queue,
      new ChunkFraming(subscription.mode),
      clock,
      subscription.keepaliveMinutes * 60_000,
      {
        onActivity: () => onActivity(outlet.subscription),
        onClosed: (closed) => {
          this.open -= 1
          if (outlet.channel !== closed) return
          outlet.channel = undefined
          if (closed.wasCut) outlet.cut(closed)
        },
      },
      this.options.counts,
    )
    outlet.channel = channel
    this.open += 1
    onActivity(outlet.subscription)
    channel.open(outlet.openingNotices(resumeFrom, this.options.counts))
    return true
  }

  /** Open channels now. */
  get openChannels(): number {
    return this.open
  }

  /** The subscriptions attached here. */
  get subscriptionCount(): number {
    return this.outlets.size
  }

  /** Events in the subscriptions' queues now. */
  get queuedEvents(): number {
    let count = 0
    for (const outlet of this.outlets.values()) count += outlet.queue.size
    return count
  }

  /** Its routes become the record's. */
  private route(outlet: Outlet, subscription: SubscriptionRecord): void {
    outlet.subscription = subscription
    this.options.router.route(outlet, subscription.filter.routes)
  }

  /** Remembers the subscription as gone, and forgets those gone for long enough. */
  private forget(subscriptionId: string): void {
    const now = this.options.clock.now()
    for (const [id, at] of this.gone) {
      if (now - at < GONE_FOR_MS) break
      this.gone.delete(id)
    }
    this.gone.delete(subscriptionId)
    this.gone.set(subscriptionId, now)
  }
}
