/**
 * The delivery side of every subscription: its queue, filled from acceptance on; its routes in the
 * event router; its chunk channel when one is open, or its webhook sender. Implements the platform's
 * SubscriptionDelivery port.
 */
import type { ServerResponse } from 'node:http'
import type { Clock, EventQueue, SubscriptionDelivery } from '../platform/ports.js'
import type { Subscription } from '../platform/subscriptions/subscription.js'
import { ChunkChannel } from './chunk-channel.js'
import { ChunkFraming } from './chunk-framing.js'
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
  /** The events its client parses in a variant of their own (event-variants.ts); mostly none. */
  private readonly rewrites: ReadonlyMap<string, EventRewrite> | undefined

  constructor(
    readonly subscription: Subscription,
    readonly queue: EventQueue,
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
      return
    }
    // The common case, an open channel keeping up: straight to the socket, no queueing.
    if (this.channel?.offer(event)) return
    this.queue.push(event.json)
    this.channel?.flush()
  }
}

/** Options of the outlets. */
export interface OutletOptions {
  router: EventRouter
  clock: Clock
  newQueue: () => EventQueue
  /** Told of every write on a channel and every delivery a webhook took (the subscription is active). */
  onActivity: (subscription: Subscription) => void
  /** How webhook subscriptions are delivered. */
  webhook: {
    transport: WebhookTransport
    policy: WebhookPolicy
    onFailure?: (failure: WebhookFailure) => void
  }
}

export class SubscriptionOutlets implements SubscriptionDelivery {
  private readonly outlets = new Map<string, Outlet>()

  constructor(private readonly options: OutletOptions) {}

  attach(subscription: Subscription): void {
    const outlet = new Outlet(subscription, this.options.newQueue())
    const { webHookUrl } = subscription
    if (webHookUrl !== undefined) {
      const { clock, onActivity, webhook } = this.options
      outlet.webhook = new WebhookSender({
        subscriptionId: subscription.subscriptionId,
        url: webHookUrl,
        queue: outlet.queue,
        clock,
        ...webhook,
        onActivity: () => onActivity(subscription),
      })
    }
    this.outlets.set(subscription.subscriptionId, outlet)
    this.options.router.route(outlet, subscription.routes)
  }

  reroute(subscription: Subscription): void {
    const outlet = this.outlets.get(subscription.subscriptionId)
    if (outlet) this.options.router.route(outlet, subscription.routes)
  }

  detach(subscription: Subscription): void {
    const outlet = this.outlets.get(subscription.subscriptionId)
    if (outlet === undefined) return
    this.outlets.delete(subscription.subscriptionId)
    this.options.router.unroute(outlet)
    outlet.channel?.end()
    outlet.webhook?.stop()
    outlet.queue.clear()
  }

  isQuiet(subscription: Subscription): boolean {
    return this.outlets.get(subscription.subscriptionId)?.webhook?.isQuiet ?? false
  }

  /**
   * Ends every open chunk channel with the response's closing frame (the node drains before a stop), so that
   * clients see a channel that ended, not a cut connection, and open it again, on another node in cluster
   * mode; the subscriptions and their queues stay.
   */
  endChannels(): void {
    for (const outlet of this.outlets.values()) outlet.channel?.end()
  }

  /** Stops every webhook (the service stops): no request is left in flight or scheduled. */
  stopWebhooks(): void {
    for (const outlet of this.outlets.values()) outlet.webhook?.stop()
  }

  /**
   * Opens the chunk channel of a subscription on `response`, replacing the one already open (a client
   * reconnecting). False when the subscription has no outlet (it no longer exists) or is delivered to a
   * webhook.
   */
  openChannel(subscription: Subscription, response: ServerResponse): boolean {
    const outlet = this.outlets.get(subscription.subscriptionId)
    if (outlet === undefined || outlet.webhook !== undefined) return false
    outlet.channel?.end()
    const { clock, onActivity } = this.options
    const channel = new ChunkChannel(
      response,
      outlet.queue,
      new ChunkFraming(subscription.mode),
      clock,
      subscription.keepaliveMinutes * 60_000,
      {
        onActivity: () => onActivity(subscription),
        onClosed: (closed) => {
          if (outlet.channel === closed) outlet.channel = undefined
        },
      },
    )
    outlet.channel = channel
    onActivity(subscription)
    channel.open()
    return true
  }

  /** Open channels now. */
  get openChannels(): number {
    let count = 0
    for (const outlet of this.outlets.values()) if (outlet.channel?.isOpen) count += 1
    return count
  }
}
