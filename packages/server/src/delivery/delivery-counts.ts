/**
 * The events a node's chunk channels and webhooks delivered, and those their loss notices announced lost, since
 * it started (docs/operations.md, "Metrics"). Plain numbers, added to on the event's path (one addition per
 * write), which the node's metrics read when scraped: nothing of the metrics library runs per event.
 *
 * An event is delivered when it was written on a channel's socket or a webhook's receiver took it (2xx); lost
 * when a loss notice announced it: dropped by a full queue (or trimmed from a cluster's event log), or given up by
 * a webhook after its last attempt. A loss is counted once a notice announces it, on the node that writes it, so
 * events dropped from the queue of a subscription that is never read again are not.
 */
export class DeliveryCounts {
  channelDelivered = 0
  channelLost = 0
  webhookDelivered = 0
  webhookLost = 0
}
