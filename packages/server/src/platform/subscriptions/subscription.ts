/**
 * One subscription as its store holds it now: whose it is, what it selects, how it is delivered, when it was
 * last active. A view of a SubscriptionRecord, built for each request (docs/cluster.md, "Subscriptions"):
 * nothing of it lives between requests, and two views of one subscription are the same subscription when
 * their ids are.
 */
import type { NotificationMode } from '@openness/wire'
import type { ClientDialect } from './client-dialect.js'
import type { SubscriptionRoute } from './subscription-filter.js'
import type { SubscriptionRecord } from './subscription-record.js'
import type { SubscriptionLifecycle, SubscriptionRemoveCause } from './subscription-state.js'

export class Subscription {
  readonly subscriptionId: string
  /** The session that owns it; its subscriptions go with it. */
  readonly sessionId: string
  /** The login the owning session acts as. */
  readonly owner: string
  readonly admin: boolean
  readonly mode: NotificationMode
  /** Idle timeout in minutes; 0 follows the session. */
  readonly timeoutMinutes: number
  /** Minutes between keepalive messages on the channel; 0 for none. */
  readonly keepaliveMinutes: number
  /** The SDK that subscribed, when it gets variants of some events (client-dialect.ts). */
  readonly dialect: ClientDialect | undefined
  /** Where events are POSTed instead of a chunk channel (docs/subscriptions.md, "Webhook delivery"). */
  readonly webHookUrl: string | undefined
  readonly routes: readonly SubscriptionRoute[]
  /** The users an administrator subscription supervises (counted against TELEPHONY_ADVANCED). */
  readonly supervisedUsers: ReadonlySet<string>
  /** Last activity as stored (channel opened, something written, filter replaced), ms since the epoch. */
  readonly lastActivityAt: number
  /** The filter's revision: what a replacement compares. */
  readonly revision: number
  readonly state: SubscriptionLifecycle
  /** Why it was removed, in the view of a removal. */
  readonly cause: SubscriptionRemoveCause | undefined

  private constructor(readonly record: SubscriptionRecord) {
    this.subscriptionId = record.subscriptionId
    this.sessionId = record.sessionId
    this.owner = record.owner
    this.admin = record.admin
    this.mode = record.mode
    this.timeoutMinutes = record.timeoutMinutes
    this.keepaliveMinutes = record.keepaliveMinutes
    this.dialect = record.dialect
    this.webHookUrl = record.webHookUrl
    this.routes = record.filter.routes
    this.supervisedUsers = new Set(record.filter.supervisedUsers)
    this.lastActivityAt = record.lastActivityAt
    this.revision = record.revision
    this.state = record.state
    this.cause = record.removeCause
  }

  /** The view of a stored record (ACCEPTED), or of the record a removal answered (REMOVED, with its cause). */
  static fromRecord(record: SubscriptionRecord): Subscription {
    return new Subscription(record)
  }

  get isActive(): boolean {
    return this.state === 'ACCEPTED'
  }
}
