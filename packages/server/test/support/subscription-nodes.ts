/**
 * SubscriptionManagers for tests, one a node: each with its own delivery (a fake that records what it is told
 * and holds what an idempotent delivery would), its follower of the store's changes, and the supervision store
 * it releases through (recording each release). Nodes over one store share it; on Redis each node has a store
 * of its own on a client of its own.
 */
import type { SubscriptionRequest } from '@openness/wire'
import type { Directory } from '../../src/platform/directory/directory.js'
import type { Clock } from '../../src/platform/events.js'
import { Session } from '../../src/platform/sessions/session.js'
import type { Subscription } from '../../src/platform/subscriptions/subscription.js'
import { followSubscriptionChanges } from '../../src/platform/subscriptions/subscription-change-follower.js'
import type { SubscriptionDelivery } from '../../src/platform/subscriptions/subscription-delivery.js'
import {
  SubscriptionManager,
  type SubscriptionManagerOptions,
} from '../../src/platform/subscriptions/subscription-manager.js'
import type {
  SubscriptionChangeFollower,
  SubscriptionRecord,
} from '../../src/platform/subscriptions/subscription-record.js'
import type { SubscriptionStore } from '../../src/platform/subscriptions/subscription-store.js'
import type { SupervisionStore } from '../../src/platform/subscriptions/supervision-store.js'

/** The users a directory of the tests knows, each holding TELEPHONY_ADVANCED. */
const USERS = ['alice', 'bob', 'carol', 'dave']

/** A directory of USERS with `advanced` TELEPHONY_ADVANCED licenses installed. */
export function testDirectory(advanced = 10): Directory {
  return {
    findUser: (login: string) =>
      USERS.includes(login) ? { record: { apiRights: ['TELEPHONY_ADVANCED'] } } : undefined,
    settings: { licenses: { TELEPHONY_ADVANCED: advanced } },
  } as unknown as Directory
}

let sessions = 0

/** An open session of `login` (an administrator's when `admin`). */
export function testSession(login: string, admin = false): Session {
  sessions += 1
  return new Session({
    sessionId: `session-${sessions}`,
    token: `token-${sessions}`,
    kind: admin ? 'ADMINISTRATOR' : 'USER',
    owner: login,
    actingAs: login,
    admin,
    applicationName: 'test',
    rights: admin ? [] : ['TELEPHONY_ADVANCED'],
    createdAt: 0,
    expiresAt: Number.MAX_SAFE_INTEGER,
  })
}

/** A subscription request: telephony events of the session's user, or of `ids` for an administrator. */
export function telephony(
  ids?: string[],
  more: Partial<SubscriptionRequest> = {},
): SubscriptionRequest {
  return {
    version: '1.0',
    filter: { selectors: [{ names: ['telephony'], ...(ids && { ids }) }] },
    ...more,
  }
}

/**
 * A delivery that records each call (`attach <id>@<revision>`, `reroute`, `detach <id>`, `discard <id>`) and
 * holds, by id, the revision an idempotent delivery would route (a lower revision changes nothing, a removed
 * subscription does not come back).
 */
export class RecordingDelivery implements SubscriptionDelivery {
  readonly calls: string[] = []
  /** The subscriptions routed on this node, by id: the revision routed. */
  readonly held = new Map<string, number>()
  /** What isQuiet answers for a webhook subscription. */
  quiet = false
  private readonly gone = new Set<string>()

  attach(subscription: SubscriptionRecord): void {
    this.calls.push(`attach ${subscription.subscriptionId}@${subscription.revision}`)
    this.hold(subscription)
  }

  reroute(subscription: SubscriptionRecord): void {
    this.calls.push(`reroute ${subscription.subscriptionId}@${subscription.revision}`)
    this.hold(subscription)
  }

  detach(subscriptionId: string): void {
    this.calls.push(`detach ${subscriptionId}`)
    this.gone.add(subscriptionId)
    this.held.delete(subscriptionId)
  }

  async discard(subscriptionId: string): Promise<void> {
    this.calls.push(`discard ${subscriptionId}`)
  }

  async isQuiet(subscription: SubscriptionRecord): Promise<boolean> {
    return subscription.webHookUrl !== undefined && this.quiet
  }

  /** How many calls of `kind` (attach, reroute, detach, discard) named `subscriptionId`. */
  count(kind: string, subscriptionId: string): number {
    return this.calls.filter(
      (call) => call.split(/[ @]/).slice(0, 2).join(' ') === `${kind} ${subscriptionId}`,
    ).length
  }

  private hold(subscription: SubscriptionRecord): void {
    const { subscriptionId, revision } = subscription
    if (this.gone.has(subscriptionId)) return
    if ((this.held.get(subscriptionId) ?? 0) < revision) this.held.set(subscriptionId, revision)
  }
}

/** A supervision store that records the subscriptions whose users it was asked to release. */
export class RecordingSupervision implements SupervisionStore {
  readonly released: string[] = []

  constructor(private readonly store: SupervisionStore) {}

  hold(subscriptionId: string, users: ReadonlySet<string>, limit: number): Promise<boolean> {
    return this.store.hold(subscriptionId, users, limit)
  }

  release(subscriptionId: string): Promise<void> {
    this.released.push(subscriptionId)
    return this.store.release(subscriptionId)
  }

  count(): Promise<number> {
    return this.store.count()
  }
}

/** One node: its manager, its delivery, its supervision, what it removed, what went to its reporter. */
export interface TestNode {
  manager: SubscriptionManager
  store: SubscriptionStore
  delivery: RecordingDelivery
  supervision: RecordingSupervision
  /** The subscriptions this node's calls removed (the removal listeners). */
  removed: Subscription[]
  /** Background failures reported. */
  errors: unknown[]
  follower: SubscriptionChangeFollower
}

/** Starts a node over `store`, following its changes. */
export async function startNode(
  store: SubscriptionStore,
  supervision: SupervisionStore,
  clock: Clock,
  options: { directory?: Directory } & SubscriptionManagerOptions = {},
): Promise<TestNode> {
  const delivery = new RecordingDelivery()
  const recording = new RecordingSupervision(supervision)
  const errors: unknown[] = []
  const manager = new SubscriptionManager(
    options.directory ?? testDirectory(),
    clock,
    store,
    delivery,
    recording,
    { onBackgroundError: (error) => errors.push(error), ...options },
  )
  const removed: Subscription[] = []
  manager.onSubscriptionRemoved((subscription) => removed.push(subscription))
  const follower = await followSubscriptionChanges(store, delivery, (error) => errors.push(error))
  return { manager, store, delivery, supervision: recording, removed, errors, follower }
}

/** A clock the test sets; no timer fires (sweeps are run by the test). */
export function manualClock(start = Date.UTC(2026, 0, 1)) {
  let now = start
  const clock: Clock = {
    now: () => now,
    setTimer: () => ({ cancel: () => {} }),
    sleep: () => Promise.resolve(),
  }
  return {
    clock,
    advance: (ms: number) => {
      now += ms
    },
    now: () => now,
  }
}
