/** One accepted subscription: whose it is, what it selects, how it is delivered, when it was last active. */
import type { NotificationMode } from '@openness/wire'
import { PlatformError } from '../platform-error.js'
import type { ClientDialect } from './client-dialect.js'
import type { SubscriptionRoute } from './subscription-filter.js'
import {
  canTransition,
  type SubscriptionLifecycle,
  type SubscriptionRemoveCause,
} from './subscription-state.js'

/** What a subscription is created with. */
export interface SubscriptionInit {
  subscriptionId: string
  /** The session that owns it; its subscriptions go with it. */
  sessionId: string
  /** The login the owning session acts as. */
  owner: string
  admin: boolean
  mode: NotificationMode
  /** Idle timeout in minutes; 0 follows the session. */
  timeoutMinutes: number
  /** Minutes between keepalive messages on the channel; 0 for none. */
  keepaliveMinutes: number
  /** Where events are POSTed instead of a chunk channel (docs/subscriptions.md, "Webhook delivery"). */
  webHookUrl?: string
  routes: SubscriptionRoute[]
  supervisedUsers: Set<string>
  createdAt: number
  /** The SDK that subscribed, when it gets variants of some events (client-dialect.ts). */
  dialect?: ClientDialect | undefined
}

/** A subscription. Only `transition` changes its state. */
export class Subscription {
  readonly subscriptionId: string
  readonly sessionId: string
  readonly owner: string
  readonly admin: boolean
  readonly mode: NotificationMode
  readonly timeoutMinutes: number
  readonly keepaliveMinutes: number
  readonly dialect: ClientDialect | undefined
  readonly webHookUrl: string | undefined
  private currentRoutes: SubscriptionRoute[]
  private currentSupervised: Set<string>
  private currentState: SubscriptionLifecycle = 'ACCEPTED'
  private removeCause: SubscriptionRemoveCause | undefined
  /**
   * Last activity (channel opened, event or keepalive written, filter changed; for a webhook, a delivery
   * taken or events starting to wait), ms since the epoch.
   */
  lastActivityAt: number

  constructor(init: SubscriptionInit) {
    this.subscriptionId = init.subscriptionId
    this.sessionId = init.sessionId
    this.owner = init.owner
    this.admin = init.admin
    this.mode = init.mode
    this.timeoutMinutes = init.timeoutMinutes
    this.keepaliveMinutes = init.keepaliveMinutes
    this.dialect = init.dialect
    this.webHookUrl = init.webHookUrl
    this.currentRoutes = init.routes
    this.currentSupervised = init.supervisedUsers
    this.lastActivityAt = init.createdAt
  }

  get state(): SubscriptionLifecycle {
    return this.currentState
  }

  get cause(): SubscriptionRemoveCause | undefined {
    return this.removeCause
  }

  get isActive(): boolean {
    return this.currentState === 'ACCEPTED'
  }

  get routes(): readonly SubscriptionRoute[] {
    return this.currentRoutes
  }

  /** The users an administrator subscription supervises (counted against TELEPHONY_ADVANCED). */
  get supervisedUsers(): ReadonlySet<string> {
    return this.currentSupervised
  }

  /** Replaces the filter (PUT /subscriptions): other parameters stay. */
  replaceFilter(routes: SubscriptionRoute[], supervisedUsers: Set<string>, now: number): void {
    this.transition('ACCEPTED')
    this.currentRoutes = routes
    this.currentSupervised = supervisedUsers
    this.lastActivityAt = now
  }

  /** Marks the subscription removed; the owner releases its channel, queue and licenses. */
  remove(cause: SubscriptionRemoveCause): void {
    this.transition('REMOVED')
    this.removeCause = cause
  }

  private transition(to: SubscriptionLifecycle): void {
    if (!canTransition(this.currentState, to))
      throw new PlatformError('NOT_FOUND', `Subscription ${this.subscriptionId} no longer exists`)
    this.currentState = to
  }
}
