/**
 * Nodes of a cluster's delivery for tests (docs/cluster-events.md, "Delivery on the event log"): each node its own
 * EventRouter and LoggedSubscriptionOutlets on its own log client, and a real HTTP server on 127.0.0.1 whose path
 * `/{subscriptionId}` opens the subscription's chunk channel on that node; subscription records as a store hands
 * them out.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EventRouter } from '../../src/delivery/event-router.js'
import { LoggedSubscriptionOutlets } from '../../src/delivery/logged-outlets.js'
import type { WebhookTransport } from '../../src/delivery/webhook-sender.js'
import { fetchTransport } from '../../src/delivery/webhook-sender.js'
import type { Clock } from '../../src/platform/events.js'
import type { ClientDialect } from '../../src/platform/subscriptions/client-dialect.js'
import type { SubscriptionEventLog } from '../../src/platform/subscriptions/subscription-event-log.js'
import type { SubscriptionRoute } from '../../src/platform/subscriptions/subscription-filter.js'
import type { SubscriptionRecord } from '../../src/platform/subscriptions/subscription-record.js'
import { type ChannelClient, openChannel } from './channel-client.js'
import { acceptedRecord, subscriptionDraft } from './subscription-fixtures.js'

/** One node: its router (publish there), its outlets, and its channel server. */
export interface DeliveryNode {
  name: string
  router: EventRouter
  outlets: LoggedSubscriptionOutlets
  /**
   * Opens the subscription's channel on this node from a real HTTP client, resumed after `lastEventId` when
   * given (sent as the Last-Event-ID header, read here as the gateway reads it).
   */
  open(subscriptionId: string, lastEventId?: number): Promise<ChannelClient>
  /** Background failures reported by the node. */
  errors: unknown[]
  /** Subscriptions told active, in order. */
  activity: string[]
  close(): Promise<void>
}

/** How nodes are built. */
export interface DeliveryNodeOptions {
  name: string
  log: SubscriptionEventLog
  clock: Clock
  transport?: WebhookTransport
  /** The subscriptions every node knows, by id (the store: a channel opened names its record). */
  records: Map<string, SubscriptionRecord>
  pageSize?: number
}

export async function startDeliveryNode(options: DeliveryNodeOptions): Promise<DeliveryNode> {
  const router = new EventRouter()
  const errors: unknown[] = []
  const activity: string[] = []
  const outlets = new LoggedSubscriptionOutlets({
    log: options.log,
    router,
    clock: options.clock,
    nodeId: options.name,
    onActivity: (subscription) => activity.push(subscription.subscriptionId),
    onError: (error) => errors.push(error),
    webhook: {
      transport: options.transport ?? fetchTransport,
      policy: {
        secret: 'a-test-secret-of-16+',
        requestTimeoutMs: 2_000,
        maxAttempts: 3,
        firstRetryDelayMs: 10,
        maxRetryDelayMs: 10,
      },
    },
    ...(options.pageSize !== undefined && { pageSize: options.pageSize }),
  })
  const server: Server = createServer((request, response) => {
    const record = options.records.get((request.url ?? '').slice(1))
    const header = request.headers['last-event-id']
    const resumeFrom = typeof header === 'string' ? Number(header) : undefined
    if (record === undefined || !outlets.openChannel(record, response, resumeFrom))
      response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    name: options.name,
    router,
    outlets,
    errors,
    activity,
    open: (subscriptionId, lastEventId) =>
      openChannel(
        `http://127.0.0.1:${port}/${subscriptionId}`,
        'POST',
        lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) },
      ),
    close: async () => {
      await outlets.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

let created = 0

/** A subscription record as the store keeps it: `routes` of one login, chunk channel unless `webHookUrl`. */
export function subscriptionRecord(
  routes: SubscriptionRoute[],
  extra: { webHookUrl?: string; dialect?: ClientDialect; revision?: number; id?: string } = {},
): SubscriptionRecord {
  created += 1
  const subscriptionId = extra.id ?? `sub-${created}-${Math.random().toString(36).slice(2, 8)}`
  const draft = subscriptionDraft(subscriptionId, {
    sessionId: 'session-1',
    ...(extra.webHookUrl !== undefined && { webHookUrl: extra.webHookUrl }),
    ...(extra.dialect !== undefined && { dialect: extra.dialect }),
    filter: { selectors: [], routes, supervisedUsers: [] },
  })
  return acceptedRecord(draft, { revision: extra.revision ?? 1 })
}

/** An event of alice's, numbered `n` (the tests compare numbers). */
export function aliceEvent(
  n: number,
  eventName = 'OnCallCreated',
): { eventName: string; loginName: string; n: number } {
  return { eventName, loginName: 'alice', n }
}

/** Reads `count` events (skipping channel information other than loss notices), with a bound each. */
export async function nextEvents(
  client: ChannelClient,
  count: number,
  timeoutMs = 3_000,
): Promise<Record<string, unknown>[]> {
  const events: Record<string, unknown>[] = []
  while (events.length < count) {
    const event = await client.next(timeoutMs)
    if (event['eventName'] === 'OnChannelInformation' && event['text'] === 'Chunk started') continue
    events.push(event)
  }
  return events
}
