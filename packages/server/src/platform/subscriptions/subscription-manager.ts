/**
 * Subscriptions of sessions (specification, "Subscription management", subscription table, "Events" and
 * "Limits"): creation with every rule of the request, filter replacement, removal by DELETE, idle
 * timeout or the end of the owning session, and the users supervised through administrator subscriptions,
 * held per subscription in a SupervisionStore within the installed TELEPHONY_ADVANCED count (docs/cluster.md,
 * "Supervised users").
 */
import { randomBytes } from 'node:crypto'
import type { Filter, NotificationMode, SubscriptionRequest, UserRight } from '@openness/wire'
import type { Directory } from '../directory/directory.js'
import { PlatformError } from '../platform-error.js'
import type { Clock, SubscriptionDelivery, SupervisionStore, Timer } from '../ports.js'
import type { Session } from '../sessions/session.js'
import type { ClientDialect } from './client-dialect.js'
import { Subscription } from './subscription.js'
import { compileFilter, type FilterContext } from './subscription-filter.js'
import type { SubscriptionRemoveCause } from './subscription-state.js'
import { WebhookTargets } from './webhook-targets.js'

/** Versions of the events this server emits. */
export const EVENT_VERSIONS = ['1.0'] as const

/** Limits of the specification ("Limits"): timeout 0 or 2..60 minutes, default 10; keepalive below it. */
export const DEFAULT_TIMEOUT_MINUTES = 10
export const MIN_TIMEOUT_MINUTES = 2
export const MAX_TIMEOUT_MINUTES = 60

/** Licenses that allow a session to be notified (specification, "Events" item 5). */
export const NOTIFICATION_RIGHTS: readonly UserRight[] = [
  'TELEPHONY_ADVANCED',
  'MESSAGING',
  'CONFERENCING',
]
/** Licenses a user listed by an administrator subscription must hold (one of them). */
const SUPERVISION_RIGHTS: readonly UserRight[] = ['TELEPHONY_ADVANCED', 'MESSAGING']

/** The result of a creation or filter change: accepted, or refused with the reason. */
export type SubscriptionOutcome =
  | { accepted: true; subscription: Subscription }
  | { accepted: false; message: string }

/** Creates, changes and removes subscriptions. */
export class SubscriptionManager {
  private readonly subscriptions = new Map<string, Subscription>()
  private readonly bySession = new Map<string, Set<Subscription>>()
  private readonly timers = new Map<Subscription, Timer>()

  constructor(
    private readonly directory: Directory,
    private readonly clock: Clock,
    private readonly delivery: SubscriptionDelivery,
    /** The users each administrator subscription supervises, company-wide. */
    readonly supervision: SupervisionStore,
    /** The hosts a webHookUrl may name (WEBHOOK_ALLOWED_HOSTS); loopback only by default. */
    private readonly webhooks = new WebhookTargets(),
    /** Told of a removed subscription whose supervised users could not be given back. */
    private readonly onReleaseFailure: (error: unknown) => void = () => {},
  ) {}

  /**
   * POST /subscriptions: the whole request is checked; nothing is kept when it is refused. `dialect` is the
   * SDK that sent it, when it gets variants of some events (client-dialect.ts).
   */
  async create(
    session: Session,
    request: SubscriptionRequest,
    dialect?: ClientDialect,
  ): Promise<SubscriptionOutcome> {
    const refusal = this.checkParameters(request)
    if (refusal !== undefined) return { accepted: false, message: refusal }
    const webhook =
      request.webHookUrl === undefined ? undefined : this.webhooks.check(request.webHookUrl)
    if (webhook?.ok === false) return { accepted: false, message: webhook.message }
    const compiled = compileFilter(
      request.filter?.selectors ?? [],
      this.filterContext(session, dialect),
    )
    if (!compiled.ok) return { accepted: false, message: compiled.message }
    const subscriptionId = randomBytes(16).toString('hex')
    if (session.admin) {
      const limit = this.supervisionLimit()
      if (!(await this.supervision.hold(subscriptionId, compiled.supervisedUsers, limit)))
        return licenseRefusal(limit)
    }
    const subscription = new Subscription({
      subscriptionId,
      sessionId: session.sessionId,
      owner: session.actingAs,
      admin: session.admin,
      mode: (request.mode ?? 'CHUNK') as NotificationMode,
      timeoutMinutes: request.timeout ?? DEFAULT_TIMEOUT_MINUTES,
      keepaliveMinutes: request.keepalive ?? 0,
      ...(webhook?.ok && { webHookUrl: webhook.url }),
      routes: compiled.routes,
      supervisedUsers: compiled.supervisedUsers,
      createdAt: this.clock.now(),
      dialect,
    })
    this.subscriptions.set(subscription.subscriptionId, subscription)
    const own = this.bySession.get(session.sessionId) ?? new Set<Subscription>()
    this.bySession.set(session.sessionId, own)
    own.add(subscription)
    this.delivery.attach(subscription)
    this.armIdleTimer(subscription)
    return { accepted: true, subscription }
  }

  /** PUT /subscriptions: replaces the filter of one of the session's subscriptions, or refuses. */
  async replaceFilter(
    session: Session,
    subscriptionId: string | undefined,
    filter: Filter,
  ): Promise<SubscriptionOutcome> {
    const subscription = this.ownSubscription(session, subscriptionId)
    const compiled = compileFilter(
      filter.selectors ?? [],
      this.filterContext(session, subscription.dialect),
    )
    if (!compiled.ok) return { accepted: false, message: compiled.message }
    if (subscription.admin) {
      const limit = this.supervisionLimit()
      const id = subscription.subscriptionId
      if (!(await this.supervision.hold(id, compiled.supervisedUsers, limit)))
        return licenseRefusal(limit)
      // Removed while the store answered: what the hold took goes back, as the removal gave back the rest.
      if (!subscription.isActive) {
        await this.supervision.release(id)
        throw new PlatformError('NOT_FOUND', `No subscription '${id}' in this session`)
      }
    }
    subscription.replaceFilter(compiled.routes, compiled.supervisedUsers, this.clock.now())
    this.delivery.reroute(subscription)
    return { accepted: true, subscription }
  }

  /** DELETE /subscriptions/{subscriptionId}: only the owning session may remove it. */
  delete(session: Session, subscriptionId: string): void {
    const subscription = this.subscriptions.get(subscriptionId)
    if (subscription === undefined || subscription.sessionId !== session.sessionId)
      throw new PlatformError('NOT_FOUND', `No subscription '${subscriptionId}' in this session`)
    this.remove(subscription, 'DELETED')
  }

  /** The active subscription with this id (the polling URL's capability). */
  find(subscriptionId: string): Subscription | undefined {
    return this.subscriptions.get(subscriptionId)
  }

  /** Removes every subscription of a session that ended (specification: they follow their session). */
  sessionClosed(sessionId: string): void {
    for (const subscription of [...(this.bySession.get(sessionId) ?? [])])
      this.remove(subscription, 'SESSION_CLOSED')
  }

  /** Records activity on the subscription (channel opened, something written, a webhook delivery taken). */
  touch(subscription: Subscription): void {
    subscription.lastActivityAt = this.clock.now()
  }

  /** How many subscriptions exist. */
  get size(): number {
    return this.subscriptions.size
  }

  private remove(subscription: Subscription, cause: SubscriptionRemoveCause): void {
    subscription.remove(cause)
    this.subscriptions.delete(subscription.subscriptionId)
    const own = this.bySession.get(subscription.sessionId)
    own?.delete(subscription)
    if (own?.size === 0) this.bySession.delete(subscription.sessionId)
    this.timers.get(subscription)?.cancel()
    this.timers.delete(subscription)
    if (subscription.admin)
      this.supervision.release(subscription.subscriptionId).catch(this.onReleaseFailure)
    this.delivery.detach(subscription)
  }

  /**
   * Idle timeout: checked when due; activity meanwhile moves it further. A webhook subscription with
   * nothing waiting is not idle: only a receiver that takes nothing while events wait makes it so.
   */
  private armIdleTimer(subscription: Subscription): void {
    if (subscription.timeoutMinutes === 0) return
    const timeoutMs = subscription.timeoutMinutes * 60_000
    const check = (): void => {
      if (!subscription.isActive) return
      if (this.delivery.isQuiet(subscription)) this.touch(subscription)
      const idleFor = this.clock.now() - subscription.lastActivityAt
      if (idleFor >= timeoutMs) this.remove(subscription, 'IDLE_TIMEOUT')
      else this.timers.set(subscription, this.clock.setTimer(timeoutMs - idleFor, check))
    }
    this.timers.set(subscription, this.clock.setTimer(timeoutMs, check))
  }

  private checkParameters(request: SubscriptionRequest): string | undefined {
    if (request.webHookUrl !== undefined && request.mode === 'CHUNK_MULTIPART')
      return 'mode: CHUNK_MULTIPART frames a chunk channel; a subscription with a webHookUrl has none'
    if (!(EVENT_VERSIONS as readonly string[]).includes(request.version))
      return `version: events of version '${request.version}' are not available (available: ${EVENT_VERSIONS.join(', ')})`
    const timeout = request.timeout ?? DEFAULT_TIMEOUT_MINUTES
    if (timeout !== 0 && (timeout < MIN_TIMEOUT_MINUTES || timeout > MAX_TIMEOUT_MINUTES))
      return `timeout: must be 0 (follows the session) or from ${MIN_TIMEOUT_MINUTES} to ${MAX_TIMEOUT_MINUTES} minutes`
    const keepalive = request.keepalive ?? 0
    if (keepalive < 0) return 'keepalive: must be 0 (none) or a number of minutes'
    if (keepalive > 0 && timeout !== 0 && keepalive >= timeout)
      return `keepalive: must be from 1 to ${timeout - 1} minutes, less than timeout`
    return undefined
  }

  private filterContext(session: Session, dialect: ClientDialect | undefined): FilterContext {
    return {
      owner: session.actingAs,
      admin: session.admin,
      dialect,
      isUser: (login) => this.directory.findUser(login) !== undefined,
      maySupervise: (login) =>
        this.directory
          .findUser(login)
          ?.record.apiRights.some((right) => SUPERVISION_RIGHTS.includes(right)) ?? false,
    }
  }

  private ownSubscription(session: Session, subscriptionId: string | undefined): Subscription {
    const own = [...(this.bySession.get(session.sessionId) ?? [])]
    if (subscriptionId !== undefined) {
      const found = own.find((subscription) => subscription.subscriptionId === subscriptionId)
      if (found === undefined)
        throw new PlatformError('NOT_FOUND', `No subscription '${subscriptionId}' in this session`)
      return found
    }
    if (own.length === 0) throw new PlatformError('NOT_FOUND', 'This session has no subscription')
    if (own.length > 1)
      throw new PlatformError(
        'BAD_PARAMETER',
        'query parameter subscriptionId: is required when the session has several subscriptions',
      )
    return own[0] as Subscription
  }

  /** The installed TELEPHONY_ADVANCED count, read at each change (the directory's settings may change). */
  private supervisionLimit(): number {
    return this.directory.settings.licenses.TELEPHONY_ADVANCED
  }
}

function licenseRefusal(limit: number): SubscriptionOutcome {
  return {
    accepted: false,
    message: `The maximum number of licenses used for notification is reached: at most ${limit} users (TELEPHONY_ADVANCED) may be supervised through administrator subscriptions`,
  }
}
