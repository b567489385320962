/** What the gateway needs from the rest of the server, decorated on the Fastify instance as `platform`. */

import type { ChannelOutlets } from '../delivery/channel-outlets.js'
import type { NodeHealth } from '../operations/node-health.js'
import type { ServiceMetrics } from '../operations/service-metrics.js'
import type { AcdTicketStore } from '../platform/acd/acd-ticket-store.js'
import type { Authenticator } from '../platform/auth/authenticator.js'
import type { ComlogService } from '../platform/comlog/comlog-service.js'
import type { EventSummaryService } from '../platform/comlog/event-summary.js'
import type { Directory } from '../platform/directory/directory.js'
import type { DirectorySearchService } from '../platform/directory-search/directory-search-service.js'
import type { Clock } from '../platform/events.js'
import type { IdempotencyStore } from '../platform/idempotency-store.js'
import type { Journal } from '../platform/journal/journal.js'
import type { MiniMessageService } from '../platform/mini-messages/mini-message-service.js'
import type { Quotas } from '../platform/quotas.js'
import type { Readiness } from '../platform/readiness.js'
import type { RoutingService } from '../platform/routing/routing-service.js'
import type { Session } from '../platform/sessions/session.js'
import type { SessionManager } from '../platform/sessions/session-manager.js'
import type { SubscriptionManager } from '../platform/subscriptions/subscription-manager.js'
import type { SystemStatusService } from '../platform/system/system-status-service.js'
import type { Telephony } from '../platform/telephony/telephony.js'
import type { VoicemailService } from '../platform/voicemail/voicemail-service.js'
import type { SessionCookies } from './cookies.js'
import type { ServiceCatalog } from './service-catalog.js'

/** The configured base URLs; when absent, the URL the request came on is used. */
export interface BaseUrlConfig {
  publicBaseUrl?: string
  privateBaseUrl?: string
  /** Origin of polling URLs; when absent, the plain-HTTP listener (`httpPort`) or the request's origin. */
  pollingBaseUrl?: string
  /** The bound plain-HTTP port, set once the listener is up. */
  httpPort?: number
  /**
   * Whether a client that subscribed over HTTPS gets HTTPS polling URLs (on the listener it used) rather than
   * the plain-HTTP listener's: set when the HTTPS listener's certificate is the operator's, which clients trust
   * (docs/security.md, finding 5).
   */
  httpsPolling?: boolean
}

/** The platform services and settings routes use. */
export interface GatewayPlatform {
  /** What an account, a session and this node may hold (platform/quotas.ts). */
  quotas: Quotas
  directory: Directory
  sessions: SessionManager
  authenticator: Authenticator
  subscriptions: SubscriptionManager
  outlets: ChannelOutlets
  /** The call engine: commands of the call-control API, and its state as users see it. */
  telephony: Telephony
  /** Users' routing (DND, forward, overflow, remote extension), which the call engine follows. */
  routing: RoutingService
  /** The communication log of each user (docs/comlog.md). */
  comlog: ComlogService
  /** The counters of what waits for each user (docs/event-summary.md). */
  eventSummary: EventSummaryService
  /** Directory searches of sessions, polled batch by batch (docs/directory-search.md). */
  directorySearch: DirectorySearchService
  /** The mailboxes the platform hosts (docs/voicemail.md). */
  voicemail: VoicemailService
  /** Each user's unread mini messages (docs/telephony-api.md, "Mini messages"). */
  miniMessages: MiniMessageService
  /** The contact center's tickets, durable (platform/acd/acd-ticket-store.ts); the control plane lists them. */
  acdTickets?: AcdTicketStore
  /** The platform's own status and health (docs/system-status.md). */
  system: SystemStatusService
  clock: Clock
  /** Whether the API serves: a fault injected by the control plane makes it answer 503 NOT_READY. */
  readiness: Readiness
  /** The node's liveness and readiness for load balancers, and whether it is draining before a stop. */
  health: NodeHealth
  /** The node's Prometheus metrics: the gateway times its requests there (docs/operations.md, "Metrics"). */
  metrics: ServiceMetrics
  urls: BaseUrlConfig
  /** The accepted names of the session cookie (SESSION_COOKIE_NAMES). */
  cookies: SessionCookies
  /** Where requests sent with an Idempotency-Key are kept, and how often a running one renews its claim. */
  idempotency: { store: IdempotencyStore; renewEveryMs: number }
  services: ServiceCatalog
  product: { name: string; type: string; version: string }
  /** What the API, the delivery and the control plane did (docs/journal.md); off with JOURNAL_SIZE=0. */
  journal?: Journal
  /** This node's place in a cluster (docs/cluster.md); absent in the embedded mode. */
  cluster?: { nodeId: string }
}

/** How a route uses the session cookie. */
export type SessionRequirement =
  /** An open session is required (the default under /api/rest/1.0). */
  | 'open'
  /** The route reads the cookie itself (session opening, closing, keepalive). */
  | 'cookie'
  /** The route is public (root, authentication, documentation). */
  | 'none'

declare module 'fastify' {
  interface FastifyInstance {
    platform: GatewayPlatform
  }
  interface FastifyRequest {
    /** The open session of the request, set for routes that require one. */
    session: Session | undefined
  }
  interface FastifyContextConfig {
    session?: SessionRequirement
  }
}
