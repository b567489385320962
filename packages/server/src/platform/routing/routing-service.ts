/**
 * Users' routing (docs/routing.md; wire facts 8.3): every profile loaded at start and read from memory (the
 * call engine reads it on each command through `lookup`), each change checked, stored, then announced with
 * OnRoutingStateChanged; a refused change answers 400 with RestErrorInfo.routing and is announced with
 * OnRoutingManagementFailed. In a cluster, a change is stored only over the profiles it was planned on (planned
 * again on what the store holds when another node changed one of them meanwhile), each node tells the others
 * whose profile it stored, and reloads those they store (docs/cluster.md, "No lost update" and "What each node
 * keeps in memory").
 */
import type {
  Destination,
  ForwardRoute,
  OverflowRoute,
  RoutingCapabilities,
  RoutingErrorCause,
  RoutingErrorType,
  RoutingState,
} from '@openness/wire'
import { type ChangeNotices, EVERY_KEY, type Revision } from '../change-notices.js'
import type { Clock, EventSink } from '../events.js'
import { NoticesHeard } from '../notices-heard.js'
import { PlatformError } from '../platform-error.js'
import type { Endpoint } from '../telephony/telephony-state.js'
import {
  type ForwardTarget,
  forwardRouteOf,
  isNoRouting,
  NO_ROUTING,
  type OverflowTarget,
  overflowRouteOf,
  type RoutingLookup,
  type RoutingProfile,
  routingStateOf,
} from './routing-profile.js'
import type { RevisedProfile, RoutingStore } from './routing-store.js'

/** What routing needs to know of a user (routing-user.ts reads it from the directory). */
export interface RoutingUser {
  loginName: string
  /** The user has a MOBILE device: the remote extension (presentation route) applies. */
  hasMobile: boolean
  /** The user has a voice mail: VOICEMAIL destinations and DND to voice mail apply. */
  hasVoicemail: boolean
  /** The user has more than one device: an overflow to ASSOCIATE has somewhere to go. */
  hasAssociate: boolean
}

/** What starting the service needs. */
export interface RoutingServiceOptions {
  store: RoutingStore
  events: EventSink
  /** What a dialed number reaches (the call engine's directory): forward destinations are checked with it. */
  resolve: (dialed: string) => Endpoint | undefined
  /** The other nodes of a cluster: told of each profile stored here, telling of theirs. None: a node alone. */
  notices?: ChangeNotices
  /** Told of a reload that failed: the node keeps its copy as it was until the next notice of it. */
  onReloadFailure?: (error: unknown, loginName: string) => void
  /**
   * The clock a change waits on for the notice of the change another node stored before it (NoticesHeard);
   * none: it does not wait.
   */
  clock?: Clock
  /** Resolves once the events published so far are in the subscriptions' queues (Directory's option). */
  published?: () => Promise<void>
}

/** The most users a forward chain is followed through when checking a new forward for a loop. */
const LOOP_CHECK_DEPTH = 32

/** How many times a change is planned again on profiles another node changed meanwhile before it gives up. */
export const MAX_ROUTING_COMMIT_ATTEMPTS = 10

export class RoutingService {
  readonly #store: RoutingStore
  readonly #events: EventSink
  readonly #resolve: (dialed: string) => Endpoint | undefined
  readonly #profiles = new Map<string, RoutingProfile>()
  /** The revision each profile held was stored at. */
  readonly #revisions = new Map<string, Revision>()
  /** The other users' profiles the change being planned read, at the revisions it read them. */
  #read: Map<string, Revision | undefined> | undefined
  readonly #notices: ChangeNotices | undefined
  readonly #onReloadFailure: (error: unknown, loginName: string) => void
  readonly #published: (() => Promise<void>) | undefined
  /** The other nodes' notices heard, by login name; undefined without a clock to bound the wait. */
  readonly #heard: NoticesHeard | undefined
  /** The tail of the queue of changes: each is checked against, and stored after, the previous one. */
  #queue: Promise<unknown> = Promise.resolve()

  private constructor(options: RoutingServiceOptions, stored: Map<string, RevisedProfile>) {
    this.#store = options.store
    this.#events = options.events
    this.#resolve = options.resolve
    for (const [loginName, revised] of stored) this.#hold(loginName, revised)
    this.#notices = options.notices
    this.#onReloadFailure = options.onReloadFailure ?? (() => {})
    this.#published = options.published
    this.#heard = options.clock === undefined ? undefined : new NoticesHeard(options.clock)
    // Notices that came while the profiles loaded make this first one EVERY_KEY: nothing is missed.
    this.#notices?.follow('routing', (loginName) => {
      this.#heard?.hear(loginName)
      return this.#reload(loginName)
    })
  }

  /** Loads every stored profile, then follows the other nodes' changes. */
  static async start(options: RoutingServiceOptions): Promise<RoutingService> {
    return new RoutingService(options, await options.store.loadAll())
  }

  /** The routing of each user as the call engine reads it (undefined: none). */
  readonly lookup: RoutingLookup = (loginName) => this.#profiles.get(loginName)

  /** Reloads the profiles of these users, which a reset or restore wrote in the store (docs/sandbox.md). */
  async restored(loginNames: readonly string[]): Promise<void> {
    await this.#enqueue(async () => {
      for (const loginName of loginNames) await this.#reloadOne(loginName)
    })
  }

  /** The user's profile; NO_ROUTING when nothing was set. */
  profileOf(loginName: string): RoutingProfile {
    return this.#profiles.get(loginName) ?? NO_ROUTING
  }

  /** GET /routing: the routes the user may set. */
  capabilities(user: RoutingUser): RoutingCapabilities {
    return {
      presentationRoute: user.hasMobile,
      forwardRoute: true,
      overflowRoute: user.hasVoicemail || user.hasAssociate,
      dnd: true,
    }
  }

  /** GET /routing/state. */
  state(user: RoutingUser): RoutingState {
    return routingStateOf(this.profileOf(user.loginName), user.hasMobile)
  }

  /** GET /routing/forwardroute: undefined when none is set. */
  forwardRoute(loginName: string): ForwardRoute | undefined {
    return forwardRouteOf(this.profileOf(loginName))
  }

  /** GET /routing/overflowroute: undefined when none is set. */
  overflowRoute(loginName: string): OverflowRoute | undefined {
    return overflowRouteOf(this.profileOf(loginName))
  }

  /** POST /routing/dnd (true) and DELETE /routing/dnd (false). */
  setDnd(user: RoutingUser, activate: boolean): Promise<void> {
    return this.#change(user, (profile) => ({ ...profile, dnd: activate }))
  }

  /** POST /routing: the remote extension on or off (a MOBILE destination of the first presentation route). */
  setRemoteExtension(user: RoutingUser, destinations: readonly Destination[]): Promise<void> {
    return this.#change(user, (profile) => ({
      ...profile,
      remoteExtension: this.#remoteExtension(user, destinations),
    }))
  }

  /** POST /routing/forwardroute. */
  setForward(user: RoutingUser, route: ForwardRoute): Promise<void> {
    return this.#change(user, (profile) => ({ ...profile, forward: this.#forward(user, route) }))
  }

  /** DELETE /routing/forwardroute. */
  cancelForward(user: RoutingUser): Promise<void> {
    return this.#change(user, ({ forward: _, ...profile }) => profile)
  }

  /** POST /routing/overflowroute: one route, as a list (Java SDK) or alone (Node SDK). */
  setOverflow(user: RoutingUser, routes: OverflowRoute | readonly OverflowRoute[]): Promise<void> {
    return this.#change(user, (profile) => ({ ...profile, overflow: this.#overflow(user, routes) }))
  }

  /** DELETE /routing/overflowroute. */
  cancelOverflow(user: RoutingUser): Promise<void> {
    return this.#change(user, ({ overflow: _, ...profile }) => profile)
  }

  /**
   * The whole routing at once (the control plane's PUT): every part absent from `state` is cleared, every
   * part present checked as its own request would be; nothing changes when one is refused.
   */
  replace(user: RoutingUser, state: RoutingState): Promise<void> {
    return this.#change(user, () => {
      const forward = state.forwardRoutes?.[0]
      const overflow = state.overflowRoutes?.[0]
      const mobile = state.presentationRoutes?.[0]?.destinations
      return {
        dnd: state.dndState?.activate === true,
        remoteExtension: mobile === undefined ? false : this.#remoteExtension(user, mobile),
        ...(forward !== undefined && { forward: this.#forward(user, forward) }),
        ...(overflow !== undefined && { overflow: this.#overflow(user, overflow) }),
      }
    })
  }

  /** POST /routing/state/snapshot: OnRoutingStateChanged with the state, after the changes queued so far. */
  snapshot(user: RoutingUser): Promise<void> {
    return this.#enqueue(async () => this.#announce(user))
  }

  /** Resolves once every change queued so far is done. */
  async idle(): Promise<void> {
    await this.#queue
  }

  /**
   * Computes the new profile (a refusal throws), stores it over the profiles it was planned on (planned again
   * on them reloaded while another node changed one meanwhile), keeps it and announces it; resolves once the
   * other nodes were told, outside the queue (their reloads may wait for this node's queue).
   */
  #change(user: RoutingUser, next: (profile: RoutingProfile) => RoutingProfile): Promise<void> {
    let announced: Promise<void> = Promise.resolve()
    return this.#enqueue(async () => {
      await this.#commit(user, next)
      this.#announce(user)
      await this.#published?.()
      if (this.#notices !== undefined) announced = this.#notices.announce('routing', user.loginName)
    }).then(() => announced)
  }

  async #commit(
    user: RoutingUser,
    next: (profile: RoutingProfile) => RoutingProfile,
  ): Promise<void> {
    const { loginName } = user
    for (let attempt = 1; ; attempt += 1) {
      const read = new Map<string, Revision | undefined>()
      const profile = this.#plan(user, next, read)
      const heard = this.#heard
      const counts = new Map(
        [loginName, ...read.keys()].map((login) => [login, heard?.count(login) ?? 0]),
      )
      const outcome = await this.#store.commit({
        loginName,
        profile: isNoRouting(profile) ? undefined : profile,
        revision: this.#revisions.get(loginName),
        read,
      })
      if (outcome.stale === undefined) {
        this.#hold(
          loginName,
          outcome.revision === undefined ? undefined : { profile, revision: outcome.revision },
        )
        return
      }
      if (attempt === MAX_ROUTING_COMMIT_ATTEMPTS)
        throw new PlatformError(
          'SERVER_PROBLEM',
          `The routing of ${outcome.stale.join(', ')} kept changing under this request: nothing was changed`,
        )
      // The change that moved them on is told once its events are out: this one's follow them. The first notice
      // of one of them will do: a conflict PostgreSQL reported names the unchanged profiles too.
      if (heard !== undefined && this.#notices !== undefined)
        await Promise.race(outcome.stale.map((login) => heard.after(login, counts.get(login) ?? 0)))
      for (const login of outcome.stale) await this.#reloadOne(login)
    }
  }

  /** The new profile, the other profiles its checks read recorded in `read`; a refusal is announced. */
  #plan(
    user: RoutingUser,
    next: (profile: RoutingProfile) => RoutingProfile,
    read: Map<string, Revision | undefined>,
  ): RoutingProfile {
    this.#read = read
    try {
      return next(this.profileOf(user.loginName))
    } catch (error) {
      if (error instanceof PlatformError && error.routing !== undefined)
        this.#events.publish({
          eventName: 'OnRoutingManagementFailed',
          loginName: user.loginName,
          routing: error.routing,
        })
      throw error
    } finally {
      this.#read = undefined
    }
  }

  /**
   * Reloads the profile another node stored (`EVERY_KEY`: every profile), in turn with this node's changes.
   * The node that stored it published OnRoutingStateChanged: nothing is published here.
   */
  #reload(loginName: string): Promise<void> {
    return this.#enqueue(async () => {
      if (loginName === EVERY_KEY) {
        const all = await this.#store.loadAll()
        this.#profiles.clear()
        this.#revisions.clear()
        for (const [login, revised] of all) this.#hold(login, revised)
        return
      }
      await this.#reloadOne(loginName)
    }).catch((error: unknown) => this.#onReloadFailure(error, loginName))
  }

  /** Holds the profile of one user as stored now. */
  async #reloadOne(loginName: string): Promise<void> {
    this.#hold(loginName, await this.#store.load(loginName))
  }

  /** Holds the user's profile at its revision; undefined: none stored (no routing). */
  #hold(loginName: string, revised: RevisedProfile | undefined): void {
    if (revised === undefined) {
      this.#profiles.delete(loginName)
      this.#revisions.delete(loginName)
    } else {
      this.#profiles.set(loginName, revised.profile)
      this.#revisions.set(loginName, revised.revision)
    }
  }

  #announce(user: RoutingUser): void {
    this.#events.publish({
      eventName: 'OnRoutingStateChanged',
      loginName: user.loginName,
      routingState: this.state(user),
    })
  }

  #enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(job, job)
    this.#queue = run.catch(() => {})
    return run
  }

  #remoteExtension(user: RoutingUser, destinations: readonly Destination[]): boolean {
    const mobile = destinations.find((destination) => destination.type === 'MOBILE')
    if (mobile === undefined)
      throw refusal('BAD_PARAMETER_VALUE', 'UNKNOWN', 'presentationRoutes: no MOBILE destination')
    if (!user.hasMobile)
      throw refusal(
        'INVALID_OPERATION',
        'INVALID_CURRENT_DEVICE',
        `'${user.loginName}' has no MOBILE device`,
      )
    if (mobile.selected === undefined)
      throw refusal(
        'BAD_PARAMETER_VALUE',
        'NULL_PARAMETER',
        'presentationRoutes: MOBILE needs selected',
      )
    return mobile.selected
  }

  #forward(user: RoutingUser, route: ForwardRoute): NonNullable<RoutingProfile['forward']> {
    const cause = 'INVALID_FORWARD_ROUTE'
    const [destination, ...more] = route.destinations
    if (destination === undefined || more.length > 0)
      throw refusal('BAD_PARAMETER_VALUE', cause, 'forwardRoute: exactly one destination')
    const condition = route.forwardType ?? 'IMMEDIATE'
    if (destination.type === 'VOICEMAIL') {
      if (!user.hasVoicemail)
        throw refusal('INVALID_OPERATION', cause, `'${user.loginName}' has no voice mail`)
      return { condition, target: { type: 'VOICEMAIL' } }
    }
    if (destination.type !== 'NUMBER')
      throw refusal(
        'BAD_PARAMETER_VALUE',
        cause,
        `forwardRoute: ${destination.type} is not a forward destination`,
      )
    const number = destination.number?.trim() ?? ''
    if (number === '')
      throw refusal(
        'BAD_PARAMETER_VALUE',
        'NULL_OR_EMPTY_PARAMETER',
        'forwardRoute: NUMBER needs number',
      )
    const reached = this.#resolve(number)
    if (reached === undefined)
      throw refusal('UNKNOWN_PHONE_NUMBER', cause, `forwardRoute: ${number} reaches nothing`)
    if (reached.service === 'VOICEMAIL' && !user.hasVoicemail)
      throw refusal('INVALID_OPERATION', cause, `'${user.loginName}' has no voice mail`)
    if (reached.loginName === user.loginName)
      throw refusal('INVALID_OPERATION', cause, `forwardRoute: ${number} is the user's own number`)
    const target: ForwardTarget = { type: 'NUMBER', number }
    if (this.#forwardsBack(reached, user.loginName))
      throw refusal('INVALID_OPERATION', cause, `forwardRoute: ${number} forwards back: a loop`)
    return { condition, target }
  }

  /** True when the forwards starting at `reached` (whatever their condition) lead back to `loginName`. */
  #forwardsBack(reached: Endpoint, loginName: string): boolean {
    let at: Endpoint | undefined = reached
    const seen = new Set<string>()
    for (let depth = 0; depth < LOOP_CHECK_DEPTH && at?.loginName !== undefined; depth += 1) {
      if (at.loginName === loginName) return true
      if (seen.has(at.loginName)) return false
      seen.add(at.loginName)
      const target: ForwardTarget | undefined = this.#readProfile(at.loginName)?.forward?.target
      at = target?.type === 'NUMBER' ? this.#resolve(target.number) : undefined
    }
    return false
  }

  /** Another user's profile, as a check of the change being planned reads it (recorded in its read set). */
  #readProfile(loginName: string): RoutingProfile | undefined {
    this.#read?.set(loginName, this.#revisions.get(loginName))
    return this.#profiles.get(loginName)
  }

  #overflow(
    user: RoutingUser,
    routes: OverflowRoute | readonly OverflowRoute[],
  ): NonNullable<RoutingProfile['overflow']> {
    const cause = 'INVALID_OVERFLOW_ROUTE'
    const list: readonly OverflowRoute[] = Array.isArray(routes)
      ? routes
      : [routes as OverflowRoute]
    const [route, ...others] = list
    const [destination, ...more] = route?.destinations ?? []
    if (route === undefined || others.length > 0 || destination === undefined || more.length > 0)
      throw refusal('BAD_PARAMETER_VALUE', cause, 'overflowRoutes: one route, one destination')
    const target = destination.type
    if (target !== 'VOICEMAIL' && target !== 'ASSOCIATE')
      throw refusal(
        'BAD_PARAMETER_VALUE',
        cause,
        `overflowRoutes: ${target} is not an overflow destination`,
      )
    if (target === 'VOICEMAIL' && !user.hasVoicemail)
      throw refusal('INVALID_OPERATION', cause, `'${user.loginName}' has no voice mail`)
    if (target === 'ASSOCIATE' && !user.hasAssociate)
      throw refusal('INVALID_OPERATION', cause, `'${user.loginName}' has no other device`)
    return { condition: route.overflowType ?? 'BUSY_NO_ANSWER', target: target as OverflowTarget }
  }
}

/** A refused routing request: 400 BAD_PARAMETER with RestErrorInfo.routing (wire facts 9). */
function refusal(errorType: RoutingErrorType, errorCause: RoutingErrorCause, message: string) {
  return new PlatformError('BAD_PARAMETER', message, undefined, { errorType, errorCause, message })
}
