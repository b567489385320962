/**
 * What the gateway's channel routes and a draining node need of the delivery, in both modes: the
 * in-process outlets (subscription-outlets.ts, embedded mode) and the outlets on the shared event log
 * (cluster mode).
 */
import type { ServerResponse } from 'node:http'
import type { SubscriptionDelivery } from '../platform/subscriptions/subscription-delivery.js'
import type { SubscriptionRecord } from '../platform/subscriptions/subscription-record.js'

export interface ChannelOutlets extends SubscriptionDelivery {
  /**
   * Opens the chunk channel of `subscription` on `response`, replacing one open on this node for it (a client
   * reconnecting); attaches the subscription first when this node did not know it yet. With `resumeFrom`, the
   * sequence number of the last event its client received, it starts with the events after it still held
   * (docs/subscriptions.md, "Resuming a channel"). False when it is delivered to a webhook.
   */
  openChannel(
    subscription: SubscriptionRecord,
    response: ServerResponse,
    resumeFrom?: number,
  ): boolean
  /**
   * Ends every channel open on this node with a last OnChannelInformation saying the server stops (STOPPING) and
   * the response's closing frame (the node drains before a stop).
   */
  endChannels(): void
  /** Stops every webhook this node sends (the service stops): no request left in flight or scheduled. */
  stopWebhooks(): void
  /** Channels open on this node now. */
  readonly openChannels: number
  /** The subscriptions this node delivers (every node routes every subscription: all of them). */
  readonly subscriptionCount: number
  /**
   * Events waiting on this node for a channel or a webhook: the queues of its subscriptions (embedded mode), or
   * the pages read from the event logs and not yet delivered (cluster mode, whose queues are the logs in Redis).
   */
  readonly queuedEvents: number
}
