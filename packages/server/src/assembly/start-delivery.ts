/**
 * The delivery of events to subscriptions, assembled: the outlets, the subscriptions that feed them, and the
 * webhooks' settings. Events reach a subscription through this process's queues when the node is alone; in a
 * cluster, through the subscription's log in Redis, which a channel on any node reads (docs/cluster-events.md,
 * "Delivery on the event log"). The embedded mode keeps its direct path from the router to the socket.
 */
import { randomBytes } from 'node:crypto'
import type { ChannelOutlets } from '../delivery/channel-outlets.js'
import type { EventRouter } from '../delivery/event-router.js'
import { LoggedSubscriptionOutlets } from '../delivery/logged-outlets.js'
import { SubscriptionOutlets } from '../delivery/subscription-outlets.js'
import { DEFAULT_WEBHOOK_POLICY, fetchTransport } from '../delivery/webhook-sender.js'
import type { ServiceMetrics } from '../operations/service-metrics.js'
import type { Directory } from '../platform/directory/directory.js'
import type { Clock } from '../platform/events.js'
import type { Journal } from '../platform/journal/journal.js'
import type { Quotas } from '../platform/quotas.js'
import { followSubscriptionChanges } from '../platform/subscriptions/subscription-change-follower.js'
import {
  SubscriptionManager,
  type SubscriptionManagerOptions,
} from '../platform/subscriptions/subscription-manager.js'
import type { SubscriptionRecord } from '../platform/subscriptions/subscription-record.js'
import { WebhookTargets } from '../platform/subscriptions/webhook-targets.js'
import type { EngineNodeRole } from '../platform/telephony/engine-node.js'
import { MemoryEventQueue, QueuedEventsBudget } from '../storage/memory/memory-event-queue.js'
import type { SharedState } from '../storage/shared-state.js'
import type { PlatformOptions } from './platform-options.js'

/** The delivery of a started platform. */
export interface Delivery {
  outlets: ChannelOutlets
  subscriptions: SubscriptionManager
  /** The key webhook requests are signed with: WEBHOOK_SECRET, or generated for this run. */
  webhookSecret: string
  /**
   * In a cluster, resolves once the events published so far are in the subscriptions' logs: a change is told to
   * the other nodes, and an engine batch taken as done, only then. Absent when the node is alone.
   */
  inLogs?: () => Promise<void>
  /** The node's role for the call engine changed: in a cluster, the engine's owner delivers the webhooks. */
  engineRoleChanged(role: EngineNodeRole): void
  /** Stops the webhooks, the outlets, the subscriptions' sweeps and the following of their changes. */
  close(): Promise<void>
}

/** What the delivery is built from. */
export interface DeliveryParts {
  options: PlatformOptions
  shared: SharedState
  directory: Directory
  events: EventRouter
  clock: Clock
  metrics: ServiceMetrics
  quotas: Quotas
  journal: Journal
  reportError: (error: unknown, what: string) => void
  /** The contact center's pilots and operators, for the selectors of its packages. */
  contactCenter?: SubscriptionManagerOptions['contactCenter']
}

/** Builds the delivery; the subscriptions' sweeps start with `subscriptions.start()`. */
export async function startDelivery(parts: DeliveryParts): Promise<Delivery> {
  const { options, shared, events, clock, metrics, journal, reportError } = parts
  const webhookSecret = options.webhooks?.secret ?? randomBytes(32).toString('hex')
  const webhook = {
    transport: options.webhooks?.transport ?? fetchTransport,
    policy: { ...DEFAULT_WEBHOOK_POLICY, ...options.webhooks?.policy, secret: webhookSecret },
    ...(options.webhooks?.onFailure && { onFailure: options.webhooks.onFailure }),
  }
  const recorded = journal.enabled ? { journal } : {}
  const queuedEvents = new QueuedEventsBudget(parts.quotas.queuedEvents)
  const touch = (subscription: SubscriptionRecord): void => subscriptions.touch(subscription)
  const outlets =
    shared.eventLog === undefined
      ? new SubscriptionOutlets({
          router: events,
          clock,
          newQueue: () =>
            new MemoryEventQueue({ capacity: options.queueCapacity, clock, budget: queuedEvents }),
          onActivity: touch,
          webhook,
          counts: metrics.delivery,
          ...recorded,
        })
      : new LoggedSubscriptionOutlets({
          log: shared.eventLog,
          router: events,
          clock,
          nodeId: options.cluster?.nodeId ?? '',
          onActivity: touch,
          onError: (error) => reportError(error, 'the delivery of events failed'),
          webhook,
          counts: metrics.delivery,
          ...recorded,
        })
  const subscriptions = new SubscriptionManager(
    parts.directory,
    clock,
    shared.subscriptions,
    outlets,
    shared.supervision,
    {
      webhooks: new WebhookTargets(options.webhooks?.allowedHosts),
      maxPerSession: parts.quotas.subscriptionsPerSession,
      onBackgroundError: reportError,
      ...(parts.contactCenter !== undefined && { contactCenter: parts.contactCenter }),
    },
  )
  const subscriptionChanges = await followSubscriptionChanges(
    shared.subscriptions,
    outlets,
    (error) => reportError(error, "a subscription's change did not reach this node's delivery"),
  )
  const logged = outlets instanceof LoggedSubscriptionOutlets ? outlets : undefined
  return {
    outlets,
    subscriptions,
    webhookSecret,
    ...(logged && { inLogs: () => logged.settled() }),
    engineRoleChanged: (role) => {
      if (role === 'owner') logged?.takeWebhooks()
      else logged?.leaveWebhooks()
    },
    close: async () => {
      outlets.stopWebhooks()
      if (logged) await logged.close()
      subscriptions.stop()
      await subscriptionChanges.close()
    },
  }
}
