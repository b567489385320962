/**
 * Subscriptions of sessions (specification, "Subscription management", subscription table, "Events" and
 * "Limits"): creation with every rule of the request, filter replacement, removal by DELETE, idle
 * timeout or the end of the owning session, and the users supervised through administrator subscriptions,
 * held per subscription in a SupervisionStore within the installed TELEPHONY_ADVANCED count (docs/cluster.md,
 * "Supervised users"). The subscriptions themselves are in a SubscriptionStore, so that any node serves any of
 * them (docs/cluster.md, "Subscriptions"): nothing of them is kept here between requests but the throttle of
 * this node's touches, and idle ones are removed by a sweep, whose every removal is the store's claim.
 */

import { randomBytes } from 'node:crypto'
import type { Filter, NotificationMode, SubscriptionRequest, UserRight } from '@openness/wire'
import type { Directory } from '../directory/directory.js'
import type { Clock, Timer } from '../events.js'
import { PlatformError } from '../platform-error.js'
import { DEFAULT_QUOTAS } from '../quotas.js'
import type { Session } from '../sessions/session.js'
import type { ClientDialect } from './client-dialect.js'
import { Subscription } from './subscription.js'
import type { SubscriptionDelivery } from './subscription-delivery.js'
import { compileFilter, type FilterContext } from './subscription-filter.js'
import {
  isExpired,
  type SubscriptionDraft,
  type SubscriptionFilterRecord,
  type SubscriptionRecord,
} from './subscription-record.js'
import type { SubscriptionRemoveCause } from './subscription-state.js'
import type { SubscriptionStore } from './subscription-store.js'
import type { SupervisionStore } from './supervision-store.js'
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

/** Called once for every subscription removed, whatever the cause, by the caller that removed it. */
export type SubscriptionRemovedListener = (subscription: Subscription) => void

/** What SubscriptionManager needs beside its collaborators. */
export interface SubscriptionManagerOptions {
  /** The hosts a webHookUrl may name (WEBHOOK_ALLOWED_HOSTS); loopback only by default. */
  webhooks?: WebhookTargets
  /** Seconds between two sweeps of idle subscriptions; 5 by default, as the sessions' sweep. */
  sweepIntervalSeconds?: number
  /**
   * Told of every failure of work no request waits for (a touch, a sweep, a release of supervised users, a
   * queue's discard), with what failed.
   */
  onBackgroundError?: (error: unknown, what: string) => void
  /** Subscriptions one session may have; DEFAULT_QUOTAS' when absent (platform/quotas.ts). */
  maxPerSession?: number
  /** The contact center, for the selectors of its packages (subscription-filter.ts); none when absent. */
  contactCenter?: {
    isPilot(number: string): boolean
    pilots(): readonly string[]
    operators(): readonly string[]
    supervises(supervisor: string, agent: string): boolean
  }
}

/** How often the sweep looks for idle subscriptions, by default. */
export const SUBSCRIPTION_SWEEP_INTERVAL_SECONDS = 5

/** How many due subscriptions the sweep asks the store for at a time. */
const SWEEP_BATCH = 1000

/**
 * A hot subscription's activity is written to the store at most once per this share of its timeout on a node
 * (a tenth: once a minute with the default 10 minutes): docs/cluster.md, "Subscription activity".
 */
const TOUCH_SHARE = 10

/** This node's activity on one subscription, and when it last wrote it to the store. */
interface ActivityMark {
  /** The last activity seen on this node. */
  activeAt: number
  /** The activity the store was last told of from this node. */
  storedAt: number
  timeoutMs: number
}

/** Creates, changes and removes subscriptions. */
export class SubscriptionManager {
  private readonly removedListeners: SubscriptionRemovedListener[] = []
  /** The throttle of this node's touches, by subscription id: not the subscriptions' state (the store has it). */
  private readonly activity = new Map<string, ActivityMark>()
  private readonly webhooks: WebhookTargets
  private readonly sweepIntervalMs: number
  private readonly report: (error: unknown, what: string) => void
  private readonly maxPerSession: number
  private readonly contactCenter: SubscriptionManagerOptions['contactCenter']
  private sweepTimer: Timer | undefined

  constructor(
    private readonly directory: Directory,
    private readonly clock: Clock,
    private readonly store: SubscriptionStore,
    private readonly delivery: SubscriptionDelivery,
    /** The users each administrator subscription supervises, company-wide. */
    readonly supervision: SupervisionStore,
    options: SubscriptionManagerOptions = {},
  ) {
    this.webhooks = options.webhooks ?? new WebhookTargets()
    this.sweepIntervalMs =
      (options.sweepIntervalSeconds ?? SUBSCRIPTION_SWEEP_INTERVAL_SECONDS) * 1000
    this.report = options.onBackgroundError ?? (() => {})
    this.maxPerSession = options.maxPerSession ?? DEFAULT_QUOTAS.subscriptionsPerSession
    this.contactCenter = options.contactCenter
  }

  /**
   * Starts sweeping idle subscriptions on the clock. As the sessions' sweep, the next sweep is set before this
   * one runs; sweeps that overlap, here or on other nodes, remove each subscription once (the store's claim).
   */
  start(): void {
    const run = (): void => {
      this.scheduleSweep(run)
      this.sweep().catch((error) => this.report(error, 'the subscription sweep failed'))
    }
    this.scheduleSweep(run)
  }

  /** Stops the sweep. */
  stop(): void {
    this.sweepTimer?.cancel()
  }

  /** Registers a listener told of every subscription removed (once, by whichever call removed it). */
  onSubscriptionRemoved(listener: SubscriptionRemovedListener): void {
    this.removedListeners.push(listener)
  }

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
    const selectors = request.filter?.selectors ?? []
    const compiled = compileFilter(selectors, this.filterContext(session, dialect))
    if (!compiled.ok) return { accepted: false, message: compiled.message }
    // Checked before the create: concurrent creates of one session may pass it together.
    const held = await this.store.countOfSession(session.sessionId)
    if (held >= this.maxPerSession)
      return {
        accepted: false,
        message:
          `This session has ${held} subscriptions, the most a session may have ` +
          `(MAX_SUBSCRIPTIONS_PER_SESSION=${this.maxPerSession}): delete one first`,
      }
    const subscriptionId = randomBytes(16).toString('hex')
    if (session.admin) {
      const limit = this.supervisionLimit()
      if (!(await this.supervision.hold(subscriptionId, compiled.supervisedUsers, limit)))
        return licenseRefusal(limit)
    }
    const draft: SubscriptionDraft = {
      subscriptionId,
      sessionId: session.sessionId,
      owner: session.actingAs,
      admin: session.admin,
      mode: (request.mode ?? 'CHUNK') as NotificationMode,
      version: request.version,
      timeoutMinutes: request.timeout ?? DEFAULT_TIMEOUT_MINUTES,
      keepaliveMinutes: request.keepalive ?? 0,
      ...(webhook?.ok && { webHookUrl: webhook.url }),
      ...(dialect !== undefined && { dialect }),
      filter: filterRecord(selectors, compiled),
    }
    const created = await this.store.create(draft, this.clock.now()).catch(async (error) => {
      // Nothing is kept of a subscription the store did not take: what the hold took goes back.
      if (session.admin) await this.supervision.release(subscriptionId).catch(() => {})
      throw error
    })
    // 128 random bits: an id already taken means a broken random source, not bad luck.
    if (created === undefined) throw new Error(`subscription id ${subscriptionId} already taken`)
    this.delivery.attach(created)
    return { accepted: true, subscription: Subscription.fromRecord(created) }
  }

  /**
   * PUT /subscriptions: replaces the filter of one of the session's subscriptions, or refuses. The store
   * compares the revision read: when another replacement came first, this one holds its users again and
   * replaces from the revision that one made, so that the last PUT wins, as in one process.
   */
  async replaceFilter(
    session: Session,
    subscriptionId: string | undefined,
    filter: Filter,
  ): Promise<SubscriptionOutcome> {
    let current = await this.ownSubscription(session, subscriptionId)
    const selectors = filter.selectors ?? []
    const compiled = compileFilter(selectors, this.filterContext(session, current.dialect))
    if (!compiled.ok) return { accepted: false, message: compiled.message }
    const replacement = filterRecord(selectors, compiled)
    const id = current.subscriptionId
    for (let attempt = 1; ; attempt += 1) {
      if (current.admin) {
        const limit = this.supervisionLimit()
        if (!(await this.supervision.hold(id, compiled.supervisedUsers, limit))) {
          // Refused after a conflict: the users held are this PUT's earlier ones; those of the filter stored go
          // back in their place (they were within the limit when its PUT held them).
          if (attempt > 1) await this.restoreHold(current)
          return licenseRefusal(limit)
        }
      }
      const replaced = await this.store.replaceFilter(
        id,
        current.revision,
        replacement,
        this.clock.now(),
      )
      if (replaced.state === 'REPLACED') {
        this.delivery.reroute(replaced.subscription)
        return { accepted: true, subscription: Subscription.fromRecord(replaced.subscription) }
      }
      if (replaced.state === 'NOT_FOUND') {
        // Removed while the store answered: what the hold took goes back, as the removal gave back the rest.
        if (current.admin) await this.supervision.release(id)
        throw notFound(id)
      }
      current = replaced.subscription
    }
  }

  /** DELETE /subscriptions/{subscriptionId}: only the owning session may remove it. */
  async delete(session: Session, subscriptionId: string): Promise<void> {
    const found = await this.store.find(subscriptionId)
    if (found === undefined || found.sessionId !== session.sessionId) throw notFound(subscriptionId)
    const now = this.clock.now()
    if (isExpired(found, now) && (await this.expire(found, now))) throw notFound(subscriptionId)
    const removed = await this.store.remove(subscriptionId, 'DELETED')
    if (removed === undefined) throw notFound(subscriptionId)
    this.removed(removed)
  }

  /**
   * The active subscription with this id (the polling URL's capability). One found past its expiry is gone:
   * removed here, unless it is not idle after all (activity this node has not written yet, or a quiet webhook).
   */
  async find(subscriptionId: string): Promise<Subscription | undefined> {
    const found = await this.store.find(subscriptionId)
    if (found === undefined) return undefined
    const now = this.clock.now()
    if (isExpired(found, now) && (await this.expire(found, now))) return undefined
    return Subscription.fromRecord(found)
  }

  /** Removes every subscription of a session that ended (specification: they follow their session). */
  async sessionClosed(sessionId: string): Promise<void> {
    const own = await this.store.ofSession(sessionId)
    await Promise.all(own.map((found) => this.removeById(found.subscriptionId, 'SESSION_CLOSED')))
  }

  /**
   * Records activity on the subscription (channel opened, something written, a webhook delivery taken): the
   * hot path of every event. The store is told at most once per tenth of the timeout on this node, without
   * waiting; what it was not told yet, the sweep of this node reads here before it removes the subscription.
   */
  touch(subscription: Pick<SubscriptionRecord, 'subscriptionId' | 'timeoutMinutes'>): void {
    // One that follows its session never expires: its activity moves nothing.
    if (subscription.timeoutMinutes === 0) return
    const now = this.clock.now()
    const id = subscription.subscriptionId
    let mark = this.activity.get(id)
    if (mark === undefined) {
      mark = {
        activeAt: now,
        storedAt: Number.NEGATIVE_INFINITY,
        timeoutMs: subscription.timeoutMinutes * 60_000,
      }
      this.activity.set(id, mark)
    }
    mark.activeAt = now
    if (now - mark.storedAt < mark.timeoutMs / TOUCH_SHARE) return
    mark.storedAt = now
    this.store.touch(id, now).catch(this.touchFailed)
  }

  /** How many subscriptions exist (every node's; reads them all: for tests and benchmarks). */
  async count(): Promise<number> {
    return (await this.store.all()).length
  }

  /**
   * Removes the subscriptions idle past their expiry, each once whichever node sweeps, and forgets this
   * node's activity on those idle for longer than their timeout.
   */
  async sweep(): Promise<void> {
    const now = this.clock.now()
    for (;;) {
      const due = await this.store.due(now, SWEEP_BATCH)
      await Promise.all(due.map((found) => this.expire(found, now)))
      if (due.length < SWEEP_BATCH) break
    }
    for (const [id, mark] of this.activity)
      if (now - mark.activeAt >= mark.timeoutMs) this.activity.delete(id)
  }

  /**
   * A subscription found past its expiry at `now`: touched when it is not idle after all (activity on this
   * node the store was not told of, or a webhook with nothing waiting), else removed (IDLE_TIMEOUT). Resolves to
   * true when it is gone.
   */
  private async expire(found: SubscriptionRecord, now: number): Promise<boolean> {
    const id = found.subscriptionId
    const mark = this.activity.get(id)
    if (
      mark !== undefined &&
      mark.activeAt > found.lastActivityAt &&
      now < mark.activeAt + mark.timeoutMs
    ) {
      mark.storedAt = mark.activeAt
      return !(await this.store.touch(id, mark.activeAt))
    }
    if (found.webHookUrl !== undefined && (await this.delivery.isQuiet(found))) {
      if (mark !== undefined) mark.storedAt = now
      return !(await this.store.touch(id, now))
    }
    await this.removeById(id, 'IDLE_TIMEOUT')
    return true
  }

  /** Holds the supervised users of the filter stored, whatever the limit. */
  private async restoreHold(stored: SubscriptionRecord): Promise<void> {
    const users = new Set(stored.filter.supervisedUsers)
    await this.supervision.hold(stored.subscriptionId, users, Number.MAX_SAFE_INTEGER)
  }

  /** The claim: the store removes it for one caller only, and only that caller runs the removal's effects. */
  private async removeById(subscriptionId: string, cause: SubscriptionRemoveCause): Promise<void> {
    const removed = await this.store.remove(subscriptionId, cause)
    if (removed !== undefined) this.removed(removed)
  }

  /**
   * The effects of a removal, once, by the caller that removed it: this node's delivery detaches it at once
   * (every other node's hears of it through the store's changes), its queue is discarded, its supervised
   * users given back, the listeners told.
   */
  private removed(removed: SubscriptionRecord): void {
    const id = removed.subscriptionId
    this.activity.delete(id)
    this.delivery.detach(id)
    this.delivery
      .discard(id)
      .catch((error) =>
        this.report(error, "a removed subscription's queued events were not dropped"),
      )
    if (removed.admin)
      this.supervision
        .release(id)
        .catch((error) =>
          this.report(error, "a removed subscription's supervised users were not given back"),
        )
    if (this.removedListeners.length === 0) return
    const subscription = Subscription.fromRecord(removed)
    for (const listener of this.removedListeners) listener(subscription)
  }

  private readonly touchFailed = (error: unknown): void =>
    this.report(error, "a subscription's activity was not recorded")

  private scheduleSweep(run: () => void): void {
    this.sweepTimer = this.clock.setTimer(this.sweepIntervalMs, run)
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
      ...(this.contactCenter !== undefined && {
        isPilot: (number: string) => this.contactCenter?.isPilot(number) === true,
        pilots: () => this.contactCenter?.pilots() ?? [],
        operators: () => this.contactCenter?.operators() ?? [],
        supervises: (supervisor: string, agent: string) =>
          this.contactCenter?.supervises(supervisor, agent) === true,
      }),
    }
  }

  /**
   * The session's subscription named, or its only one; one past its expiry is gone (see find). Refuses when
   * there is none, or when several leave the choice open.
   */
  private async ownSubscription(
    session: Session,
    subscriptionId: string | undefined,
  ): Promise<SubscriptionRecord> {
    const now = this.clock.now()
    const live = async (found: SubscriptionRecord | undefined) =>
      found !== undefined && !(isExpired(found, now) && (await this.expire(found, now)))
    if (subscriptionId !== undefined) {
      const found = await this.store.find(subscriptionId)
      if (found?.sessionId !== session.sessionId || !(await live(found)))
        throw notFound(subscriptionId)
      return found
    }
    const own: SubscriptionRecord[] = []
    for (const found of await this.store.ofSession(session.sessionId))
      if (await live(found)) own.push(found)
    if (own.length === 0) throw new PlatformError('NOT_FOUND', 'This session has no subscription')
    if (own.length > 1)
      throw new PlatformError(
        'BAD_PARAMETER',
        'query parameter subscriptionId: is required when the session has several subscriptions',
      )
    return own[0] as SubscriptionRecord
  }

  /** The installed TELEPHONY_ADVANCED count, read at each change (the directory's settings may change). */
  private supervisionLimit(): number {
    return this.directory.settings.licenses.TELEPHONY_ADVANCED
  }
}

/** What a filter is kept as: the selectors as sent, and what they compiled to. */
function filterRecord(
  selectors: SubscriptionFilterRecord['selectors'],
  compiled: { routes: SubscriptionFilterRecord['routes']; supervisedUsers: ReadonlySet<string> },
): SubscriptionFilterRecord {
  return { selectors, routes: compiled.routes, supervisedUsers: [...compiled.supervisedUsers] }
}

function notFound(subscriptionId: string): PlatformError {
  return new PlatformError('NOT_FOUND', `No subscription '${subscriptionId}' in this session`)
}

function licenseRefusal(limit: number): SubscriptionOutcome {
  return {
    accepted: false,
    message: `The maximum number of licenses used for notification is reached: at most ${limit} users (TELEPHONY_ADVANCED) may be supervised through administrator subscriptions`,
  }
}
