/** What the platform core needs from the outside world, in domain words. Adapters live in storage/. */

import type { UserRight } from '@openness/wire'
import type { ThrottleVerdict } from './auth/login-throttle.js'
import type {
  ComRecordChange,
  ComRecordDraft,
  ComRecordFilter,
  ComRecordPage,
  StoredComRecord,
} from './comlog/com-record.js'
import type { DirectorySettings, StoredAccount } from './directory/account.js'
import type { SearchContext } from './directory-search/search-context.js'
import type { JournalRecord } from './journal/journal-entry.js'
import type { RoutingProfile } from './routing/routing-profile.js'
import type {
  SessionDraft,
  SessionOpening,
  SessionRecord,
  SessionUse,
  StoredTokenStatus,
} from './sessions/session-record.js'
import type { SessionCloseCause } from './sessions/session-state.js'
import type {
  FilterReplacement,
  SubscriptionChange,
  SubscriptionChangeFollower,
  SubscriptionDraft,
  SubscriptionFilterRecord,
  SubscriptionRecord,
} from './subscriptions/subscription-record.js'
import type { SubscriptionRemoveCause } from './subscriptions/subscription-state.js'
import type {
  EngineAnswer,
  EngineRequest,
  EngineRequestHandler,
} from './telephony/engine-request.js'
import type { PortableEngineState } from './telephony/restored-state.js'
import type { TelephonyState } from './telephony/telephony-state.js'
import type {
  MailboxCounters,
  StoredVoiceMessage,
  VoiceMessageDraft,
} from './voicemail/voice-message.js'

/** A scheduled callback that can be cancelled. */
export interface Timer {
  cancel(): void
}

/** Time, injected so that tests drive it and never sleep. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Calls `callback` once after `delayMs` milliseconds. */
  setTimer(delayMs: number, callback: () => void): Timer
  /** Resolves after `delayMs` milliseconds. */
  sleep(delayMs: number): Promise<void>
}

/** The whole directory as it was last stored. */
export interface DirectorySnapshot {
  /** Digest of the directory file this snapshot was imported from. */
  sourceDigest: string
  settings: DirectorySettings
  accounts: StoredAccount[]
}

/**
 * The revision of a stored record: an opaque token its store writes anew with each change of the record, so
 * that two reads that give the same revision read the same content. A change planned on a copy is written only
 * while the record still has the copy's revision (docs/cluster.md, "No lost update").
 */
export type Revision = string

/** The directory as last stored, with the revision of each account by login name. */
export interface StoredDirectory extends DirectorySnapshot {
  revisions: ReadonlyMap<string, Revision>
}

/** One account as last stored, with its revision. */
export interface RevisedAccount {
  account: StoredAccount
  revision: Revision
}

/**
 * What one change of the directory writes, each account at the revision the change was planned on: all of it,
 * or nothing when any account moved on since.
 */
export interface AccountWrites {
  /** The account to delete, planned on this revision of it. */
  delete?: { loginName: string; revision: Revision }
  /**
   * The accounts to store, in order, each planned on a revision of it, or on its absence (`undefined`: a new
   * account, which no other may have taken the login name of meanwhile).
   */
  save: readonly { account: StoredAccount; revision: Revision | undefined }[]
}

/**
 * How a commit ended: written, with the new revision of each account saved; or nothing written, naming the
 * accounts that moved on since the change was planned (changed, deleted or created by another writer).
 */
export type AccountCommit =
  | { stale?: undefined; revisions: ReadonlyMap<string, Revision> }
  | { stale: readonly string[] }

/**
 * Durable storage of the directory: accounts, passwords, preferences and directory-wide settings. Several
 * nodes write it: every change is a compare-and-set on the revisions it was planned on.
 */
export interface DirectoryStore {
  /** Reads the directory as last stored, or undefined when nothing was ever stored. */
  load(): Promise<StoredDirectory | undefined>
  /** Replaces the whole directory in one transaction; answers the revision of each account. */
  replace(snapshot: DirectorySnapshot): Promise<ReadonlyMap<string, Revision>>
  /**
   * Replaces the whole directory as `replace` does while the accounts stored are exactly those of `basedOn`,
   * each at its revision there (an import planned on them); undefined, writing nothing, when any was changed,
   * created or deleted since.
   */
  replaceIfUnchanged(
    snapshot: DirectorySnapshot,
    basedOn: ReadonlyMap<string, Revision>,
  ): Promise<ReadonlyMap<string, Revision> | undefined>
  /**
   * Writes one change in one transaction when every account it touches still has the revision it was planned
   * on (or is still absent); writes nothing otherwise, naming the accounts that moved on.
   */
  commit(writes: AccountWrites): Promise<AccountCommit>
  /**
   * Reads one account as last stored, with its revision, or undefined when there is none (another node changed
   * or deleted it: docs/cluster.md, "What each node keeps in memory").
   */
  loadAccount(loginName: string): Promise<RevisedAccount | undefined>
  /** Releases connections. */
  close(): Promise<void>
}

/**
 * Durable storage of how far the control plane set the service's clock ahead of the system's time
 * (adjustable-clock.ts): the timers the call engine stores are due on that clock, so a restart goes on from it.
 * Several nodes advance it: an advance adds to the offset stored, so that two advances at once add up
 * (docs/cluster.md, "No lost update").
 */
export interface ClockOffsetStore {
  /** The offset last stored, in milliseconds; 0 when none was. */
  load(): Promise<number>
  /** Adds `ms` to the offset stored, in one step against every other writer; answers the offset stored. */
  advance(ms: number): Promise<number>
}

/** One user's routing profile as last stored, with its revision. */
export interface RevisedProfile {
  profile: RoutingProfile
  revision: Revision
}

/**
 * One change of a user's routing, planned on the revisions it read: the user's own profile (none stored:
 * `undefined`) and the other users' profiles the change's checks followed (a forward's loop check).
 */
export interface RoutingWrite {
  loginName: string
  /** The profile to store; undefined: none (back to no routing, the row deleted). */
  profile: RoutingProfile | undefined
  /** The revision of the user's profile the change was planned on; undefined: none was stored. */
  revision: Revision | undefined
  /** The other users' profiles the change read, each at the revision it read (undefined: none stored). */
  read: ReadonlyMap<string, Revision | undefined>
}

/**
 * How a routing commit ended: written, with the profile's new revision (undefined once deleted); or nothing
 * written, naming the users whose profiles moved on since the change read them.
 */
export type RoutingCommit =
  | { stale?: undefined; revision: Revision | undefined }
  | { stale: readonly string[] }

/**
 * Durable storage of users' routing (docs/routing.md): do not disturb, forward, overflow and remote
 * extension, one profile per user. The routing service loads every profile at start and keeps them in
 * memory; the store is written on each change, as a compare-and-set on what the change read, so that several
 * nodes' changes never undo each other nor together make what each alone refuses (docs/cluster.md, "No lost
 * update").
 */
export interface RoutingStore {
  /** Every stored profile, by login name (empty when none was stored). */
  loadAll(): Promise<Map<string, RevisedProfile>>
  /** The stored profile of one user, undefined when none is (another node changed it). */
  load(loginName: string): Promise<RevisedProfile | undefined>
  /**
   * Stores (or deletes) the user's profile while it, and every profile the change read, is still at the
   * revision the change read; writes nothing otherwise, naming the users whose profiles moved on.
   */
  commit(write: RoutingWrite): Promise<RoutingCommit>
}

/**
 * What durable state a node holds in memory, by kind: the directory's accounts (key: the login name) and
 * settings, users' routing profiles (key: the login name), the clock's offset (key: `offset` when it moved
 * forward, `set` when a reset or restore set it, possibly back); the sessions it uses from its cache (key: the
 * id of a session that closed; platform/sessions/cached-session-store.ts); and the platform as a whole (key:
 * `restored`: a reset or restore replaced it; platform/sandbox/platform-states.ts).
 */
export type ChangeTopic = 'directory' | 'routing' | 'clock' | 'sessions' | 'platform'

/** The key of a notice that says: reload everything of the topic (an import, or notices possibly missed). */
export const EVERY_KEY = '*'

/** One node's following of a topic's notices, until closed. */
export interface ChangeFollower {
  /** Stops telling the follower; nothing more is told, not even what arrived already. */
  close(): void
}

/**
 * Notices of changes to durable state that every node keeps a copy of in memory (docs/cluster.md, "What
 * each node keeps in memory"): the node that stored a change announces it, and the other nodes reload what
 * changed from the store. A notice names what changed, never how: a reload reads the store, so that notices
 * lost, repeated or out of order cost a read, never a wrong copy. The announcing node has applied its change
 * already and is not told of it. A node that may have missed notices (its connection to the others dropped,
 * or a topic not yet followed when they came) tells the topic's followers `EVERY_KEY`: reload everything.
 */
export interface ChangeNotices {
  /**
   * Tells the other nodes that `key` of `topic` changed in the store (stored already). Resolves once every
   * node that heard it has applied it (its followers' work settled), so that a change answered after it is
   * read by any node (docs/cluster.md, "Read your writes"), or once the adapter's bound passed (a node that
   * did not confirm in time is reported). Never rejects: a notice that could not be sent is reported too.
   */
  announce(topic: ChangeTopic, key: string): Promise<void>
  /**
   * Calls `onNotice` with the key of each change to `topic` another node announces from now on, or with
   * `EVERY_KEY`; at once (in a microtask) with `EVERY_KEY` when notices of the topic came before it was
   * followed. `onNotice` handles its own failures; the notice counts as applied by this node once what it
   * returns settled.
   */
  follow(topic: ChangeTopic, onNotice: (key: string) => void | Promise<void>): ChangeFollower
  /** Stops following everything and releases what the adapter holds (its connection). */
  close(): Promise<void>
}

/**
 * An event of the platform as it goes on the wire: `eventName` and its fields, with `loginName` the user it
 * is about (each user sees an event from its own side; design section 4).
 */
export type PlatformEvent = { eventName: string; loginName: string } & Record<string, unknown>

/** Where platform commands hand their events once their state change is stored. */
export interface EventSink {
  /**
   * Delivers the event to every subscription whose selectors match it. `origin`, given by the engine in a
   * cluster, is the event's place in the engine's stored history (`eventOrigin`: its batch, then its index in
   * the batch): a subscription's log that already took an event of that origin or a later one does not take it
   * again, so that a new owner can publish again what its predecessor stored and may not have published
   * (platform/telephony/event-origin.ts).
   */
  publish(event: PlatformEvent, origin?: number): void
}

/** An event of the platform itself (package `system`): about no user, so without `loginName`. */
export type SystemEvent = { eventName: string } & Record<string, unknown>

/** Where the platform's own events go: to the administrator subscriptions that name them. */
export interface SystemEventSink {
  publishSystem(event: SystemEvent): void
}

/**
 * The simulated platform's health as the control plane set it (docs/system-status.md): the links to the
 * PBX node and whether its users are loaded, and a license expiry warning. Ephemeral: a restart starts
 * healthy.
 */
export interface PlatformHealth {
  /** The link to the PBX node is up. */
  pbxLinkUp: boolean
  /** The CTI (CSTA) link to the PBX node is up. */
  ctiLinkUp: boolean
  /** The node's users are loaded (after the PBX link came up). */
  pbxLoaded: boolean
  /** A license expiry warning in force: days left (negative: days since), when it was given. */
  licenseWarning?: { nbDays: number; message: string; givenAt: number }
}

/** Where the platform's health is kept (a memory adapter; the cluster mode shares it on Redis). */
export interface PlatformHealthStore {
  load(): Promise<PlatformHealth>
  /**
   * Stores `next` while the health stored is still `expected` (as `load` answered it); false, storing nothing,
   * when another node changed it since (docs/cluster.md, "No lost update").
   */
  replace(expected: PlatformHealth, next: PlatformHealth): Promise<boolean>
}

/** What a queue hands over when the channel drains it. */
export interface QueuedEvents {
  /** Events with their sequence numbers, oldest first. */
  events: LoggedEvent[]
  /** Events dropped since the last drain because the queue was full: those numbered just before the first. */
  lost: number
  /** Why they are lost, when not because the queue was full (a channel resumed from too far back). */
  reason?: string
}

/**
 * Where a channel's replay from a sequence number starts (EventQueue.rewind): the events after it still held wait
 * again; `missing` of them, numbered from `missingFrom`, are no longer held.
 */
export interface Rewound {
  missing: number
  missingFrom: number
}

/**
 * The bounded queue of one subscription (docs/subscriptions.md, "Resuming a channel"): filled from the moment the
 * subscription is accepted, drained by its channel. Each event gets the subscription's next sequence number. It
 * holds at most its capacity of events: those waiting, and the last ones taken, kept so that a client that lost
 * them with its connection can ask for them again (`rewind`). When full, the oldest go first: taken ones, then
 * waiting ones, which are counted lost.
 */
export interface EventQueue {
  /** Appends one serialized event, taken already when `taken` (written at once); resolves to its number. */
  push(event: string, taken?: boolean): number
  /** Takes everything waiting, with the count of events lost since the last drain. */
  drain(): QueuedEvents
  /** Takes at most `max` of the oldest waiting events, with the count lost since the last drain or take. */
  take(max: number): QueuedEvents
  /** How many events wait. */
  readonly size: number
  /** The number of the last event appended; 0 before the first. */
  readonly lastSequence: number
  /** The number of the oldest taken event still held; undefined when none is. */
  readonly oldestTaken: number | undefined
  /**
   * Makes the taken events after `after` wait again (a channel resuming from the last event its client
   * received), with what is no longer held of them; a number at or after the last taken changes nothing.
   */
  rewind(after: number): Rewound
  /** Drops everything. */
  clear(): void
}

/** One event of a subscription's event log, with its place in it. */
export interface LoggedEvent {
  /** The subscription's own sequence number of the event: 1, 2, 3... in the order of appends. */
  sequence: number
  /** The serialized event. */
  event: string
}

/** What a read of a subscription's event log hands over. */
export interface EventLogPage {
  /** The events after the position read from, oldest first, at most the `max` asked for. */
  events: LoggedEvent[]
  /**
   * How many events after the position read from the log no longer holds, before the first returned (or, when
   * none is returned, up to the last sequence number given): dropped because the log was full, or acknowledged
   * (delivered) by a channel before the reader asked from an earlier position. A reader that gets `lost > 0` tells
   * its client to resynchronize (docs/subscriptions.md, "Bounded queue").
   */
  lost: number
  /** The sequence number read after: the one given, or the acknowledged one when `'acknowledged'` was asked. */
  after: number
  /**
   * The last sequence number given to an event of the subscription (0 when none was): more events wait beyond
   * this page when it exceeds the last one returned.
   */
  lastSequence: number /**
   * The reader that claimed the log last (`claim`: a channel opened, on any node), while its claim is held; absent
   * when none did. A reader that finds another one named here was replaced and stops.
   */
  reader?: string
}

/** What a claim found of the reader before it (SubscriptionEventLog.claim). */
export interface ClaimedLog {
  /**
   * The events the previous reader acknowledged that the log still holds, when that reader did not release its
   * claim: its client may not have received them (docs/subscriptions.md, "Resuming a channel").
   */
  unconfirmed?: { first: number; last: number }
}

/**
 * Wakes a reader when events arrive in the event logs of the subscriptions it watches, without polling
 * (docs/cluster.md, "Events: one stream per subscription"). Each watch is armed once: the callback names the
 * subscription once, when its log holds an event after the position watched from, and the subscription is then
 * no longer watched until watched again from where its reader got to.
 */
export interface EventLogWatcher {
  /**
   * Arms (or re-arms from a new position) a wake-up for the first event after `afterSequence`; with `readerId`,
   * also for the log claimed by another reader (not for a claim that lapsed), found when arming too: a claim taken while the reader was not
   * armed (between its last read and this call) would otherwise wake it only at its log's next event, which
   * goes to the new reader's node.
   */
  watch(subscriptionId: string, afterSequence: number, readerId?: string): void
  /** Stops watching the subscription; nothing happens when it was not watched. */
  unwatch(subscriptionId: string): void
  /** Stops watching everything and releases what the watcher holds (its connection). */
  close(): Promise<void>
}

/** One fan-out of a batch (SubscriptionEventLog.appendBatch): an event for its subscriptions, with its origin. */
export interface EventAppend {
  subscriptionIds: readonly string[]
  event: string
  origin?: number
}

/**
 * The queue of a subscription's events, shared by every node of a cluster (docs/cluster.md, "Events: one stream
 * per subscription, sequence numbers, loss notices"). Each event gets the subscription's next sequence number, so
 * that a reader asks for the events after the last one it delivered, wherever it runs: a channel that moves to
 * another node, or a client that reconnects with the last number it received, gets every event still held once,
 * in order, and is told how many it lost. The log holds at most its capacity of events not acknowledged, dropping
 * the oldest first; each subscription's events are forgotten after the time to live given at each append, unless
 * renewed.
 */
export interface SubscriptionEventLog {
  /** Appends one serialized event; resolves to its sequence number. `ttlMs` renews the subscription's lifetime. */
  append(subscriptionId: string, event: string, ttlMs: number): Promise<number>
  /**
   * Appends the same serialized event to each subscription at once (a fan-out, one round trip); resolves to the
   * sequence numbers, in the order of `subscriptionIds`. With `origin` (EventSink.publish), a subscription
   * whose log took an event of that origin or a later one is passed over: its number is 0.
   */
  appendMany(
    subscriptionIds: readonly string[],
    event: string,
    ttlMs: number,
    origin?: number,
  ): Promise<number[]>
  /**
   * Several fan-outs at once (a turn's events, LogFanout), in order: each as `appendMany` would append it, all
   * in one round trip. Resolves to each one's sequence numbers, in the order of `appends`.
   */
  appendBatch(appends: readonly EventAppend[], ttlMs: number): Promise<number[][]>
  /**
   * At most `max` (at least 1) of the events after `afterSequence`, or after the last one acknowledged, oldest
   * first, with the count of those lost before them. Reading takes nothing: acknowledge what was delivered.
   */
  read(
    subscriptionId: string,
    afterSequence: number | 'acknowledged',
    max: number,
  ): Promise<EventLogPage>
  /**
   * Records that the events through `throughSequence` were delivered and frees them. The acknowledged position
   * never moves back, nor past the last sequence number given; nothing happens to an unknown subscription. Given
   * a `reader`, nothing happens either once another reader claimed the log: a replaced channel, still writing on
   * its node, cannot move the position past events its successor has not delivered.
   */
  acknowledge(subscriptionId: string, throughSequence: number, reader?: string): Promise<void>
  /**
   * Makes `reader` the one reader of the subscription's log (a chunk channel opening, on any node: the last open
   * wins): reads name it from now on (EventLogPage.reader), and acknowledgements by any other reader change
   * nothing. The claim lives `ttlMs`, renewed by `renew`. Resolves to what the previous reader acknowledged
   * and the log still holds when it had not released its claim (its channel ended abruptly, or is still open).
   */
  claim(subscriptionId: string, reader: string, ttlMs: number): Promise<ClaimedLog>
  /** Ends `reader`'s claim (its channel ended cleanly); nothing happens when another reader claimed the log. */
  release(subscriptionId: string, reader: string): Promise<void>
  /** Keeps the subscription's events, numbers, position and claim `ttlMs` longer (it is still alive). */
  renew(subscriptionId: string, ttlMs: number): Promise<void>
  /** Forgets everything of the subscription: events, sequence numbers, acknowledged position, claim. */
  drop(subscriptionId: string): Promise<void>
  /**
   * A watcher of node `nodeId` that calls `onEvents` with the subscriptions whose watched logs received events,
   * or were claimed by another reader. In a cluster the wake-ups of a log go to the node of the reader that
   * claimed it (readers are named `{nodeId}/...`), so a node watches the logs its own readers claimed; any
   * other is found at the watcher's periodic check (on Redis every 30 s).
   */
  openWatcher(onEvents: EventLogWakeListener, nodeId: string): Promise<EventLogWatcher>
}

/**
 * Told of the subscriptions a watcher woke (SubscriptionEventLog.openWatcher). `pages`, when given, holds for some
 * of them what a read after the position armed would return of the events that woke it (on Redis, carried by the
 * wake-up itself): the events right after that position, in order and none missing, and the reader that claimed
 * the log. A reader handed one need not read; the others read as usual.
 */
export type EventLogWakeListener = (
  subscriptionIds: string[],
  pages?: ReadonlyMap<string, EventLogPage>,
) => void

/**
 * The delivery side of subscriptions on one node (docs/subscriptions.md; docs/cluster.md, "Subscriptions"): the
 * routes of every subscription in the node's event router, each subscription's queue, the chunk channels open on
 * this node and the webhooks it sends. The node that creates, changes or removes a subscription tells its own
 * delivery at once; every node's delivery is also told by the store's changes (SubscriptionStore.changes), so
 * each call is idempotent, and a record whose revision is below the one held changes nothing.
 */
export interface SubscriptionDelivery {
  /** The subscription exists: its routes join the router; its queue takes its events from now on. */
  attach(subscription: SubscriptionRecord): void
  /** Its filter was replaced: its routes become the record's (attaching it when this node did not know it). */
  reroute(subscription: SubscriptionRecord): void
  /** It was removed, on any node: its routes leave, its channel open on this node ends, its webhook here stops. */
  detach(subscriptionId: string): void
  /** Called once, by the caller that removed it (the store's claim): its queued events are forgotten. */
  discard(subscriptionId: string): Promise<void>
  /** True when nothing waits for a webhook subscription's receiver: the sweep then touches it rather than removing it. */
  isQuiet(subscription: SubscriptionRecord): Promise<boolean>
}

/**
 * What one command changed in the calls of the telephony state, so that a store writes only that. Calls
 * the engine did not touch keep their object identity, which is how `callChanges` finds the others.
 */
export interface CallChanges {
  /** Calls added or modified, in the order of the state's `calls`. */
  changedCallRefs: readonly string[]
  /** Calls no longer in the state. */
  removedCallRefs: readonly string[]
  /**
   * Set when the changes hold a reset's or restore's `restoreState`: the other tables, the log among them, were
   * written under the store (docs/sandbox.md), which reads again what it knew of them (the next record id).
   */
  restored?: true
}

/**
 * Durable storage of the call engine's state (calls in progress, devices, pending timers), so that calls
 * survive a restart of the service. Each call and device is a plain JSON record; the rest of the state is
 * opaque JSON to the store: every field is kept.
 */
export interface CallStore {
  /** Reads the state as last saved, its call index rebuilt (`withCalls`); undefined when none was. */
  load(): Promise<TelephonyState | undefined>
  /**
   * Saves `state` after a command, atomically: writes the `changes` calls, deletes the removed ones and
   * replaces the rest of the state (sequence, devices, timers and any other field). Devices are found
   * changed as calls are, by object identity (with the devices last saved or loaded): a changed device, or
   * a changed set of devices, is a new object. The call index (`callsByUser`, `callsByDevice`) is derived
   * from the calls: a store rebuilds it at load rather than keep it.
   */
  save(state: TelephonyState, changes: CallChanges): Promise<void>
  /**
   * Saves `state` as `save` does and, in the same transaction, appends `records` to the communication log
   * (the records of the users who left a call in the command: docs/comlog.md); resolves to them as stored,
   * with their ids, in the same order. Nothing is written when any part fails.
   */
  saveWithRecords(
    state: TelephonyState,
    changes: CallChanges,
    records: readonly ComRecordDraft[],
  ): Promise<StoredComRecord[]>
  /** Releases what the store holds (connections it owns). */
  close(): Promise<void>
}

/**
 * Why a node no longer owns the call engine: it gave ownership up (`released`: a graceful stop), the
 * database dropped or stopped answering the connection its ownership lived on (`connection-lost`), or a
 * check found that another node owns the engine since (`superseded`).
 */
export type EngineOwnershipLoss =
  | { reason: 'released' }
  | { reason: 'connection-lost' | 'superseded'; cause?: unknown }

/**
 * One node's term as owner of the call engine (docs/cluster.md, "Engine lease and fencing"). While it lasts,
 * the node loads the engine's state from the CallStore and runs the engine; every save of that state is
 * fenced with `epoch`, so that a save made after the term ended, by a node that did not know yet, is refused.
 */
export interface EngineOwnership {
  /** Greater than the epoch of every earlier owner's term: the newest owner's is the only one stores accept. */
  readonly epoch: number
  /** True until the term ends (as soon as this node knows it ended); a fence answers no epoch then. */
  readonly isHeld: boolean
  /** Resolves, with why, as soon as the term ends; never rejects. The engine stops at once when it does. */
  readonly lost: Promise<EngineOwnershipLoss>
  /** Gives ownership up (a graceful stop, once the engine stopped): another node may take it at once. */
  release(): Promise<void>
}

/**
 * The election of the call engine's owner: at most one node at a time owns the engine, the others wait in
 * `acquire` and take over when it ends. In the embedded mode the one node owns it at once.
 */
export interface EngineLease {
  /**
   * Resolves once this node owns the call engine, trying again every so often while another node owns it.
   * Rejects when the lease is closed first, or when this node owns it or is trying to already.
   */
  acquire(): Promise<EngineOwnership>
  /** Stops trying, gives ownership up if this node holds it, and releases what the lease holds. */
  close(): Promise<void>
}

/**
 * The way to the call engine's owner (docs/cluster.md, "Commands from other nodes"): any node submits engine
 * requests, the owner consumes them in the order each node submitted them, runs each once and answers the node
 * that submitted it. A request submitted while no node consumes waits for the next owner, within its bound; one
 * the owner took but never answered (it died) is taken over by the next owner, and one answered already is
 * answered again from the answers remembered (by request id, for minutes), never run twice.
 */
export interface EngineCommandQueue {
  /**
   * Hands the request to the engine's owner; resolves with its answer once its batch is stored. Rejects with
   * the PlatformError the engine refused it with, an Error when the owner failed it (nothing happened), or
   * EngineRequestTimeoutError when no answer came within the queue's bound (the owner does not start it past
   * the bound). `requestId` names it cluster-wide: a request submitted again with the id of one answered within
   * the last minutes gets that answer.
   */
  submit(requestId: string, request: EngineRequest): Promise<EngineAnswer>
  /**
   * Makes this node the consumer (the engine's owner, for one term): it first takes over the requests a
   * previous owner took and never answered, then every request submitted, in order, each run by `handler`;
   * a request is acknowledged once its answer is sent. At most one node consumes at a time (the lease decides).
   */
  consume(handler: EngineRequestHandler): Promise<EngineCommandConsumer>
  /** Stops consuming and waiting for answers (the requests waiting reject); releases connections. */
  close(): Promise<void>
}

/** One term of consuming engine requests. */
export interface EngineCommandConsumer {
  /** A graceful stop: takes no more requests; resolves once those under way are answered and acknowledged. */
  stop(): Promise<void>
  /**
   * The term ended under it: takes no more requests and answers none of those under way, which stay for the
   * next owner (their batches are refused by the fence; one stored just before the term ended runs again:
   * docs/cluster.md says how rare that is).
   */
  abandon(): Promise<void>
}

/**
 * What one stored batch of the call engine wrote, as the owner publishes it for the replicas of the other
 * nodes (docs/cluster.md, "The replica"): the records already encoded as the CallStore stores them.
 */
export interface EngineBatch {
  /** The batch's number: one more than the batch stored before it, whichever owner stored that. */
  batch: number
  /** The epoch of the owner that stored it (EngineOwnership.epoch). */
  epoch: number
  /** `[callRef, json]` of the calls added or changed. */
  calls: ReadonlyArray<readonly [callRef: string, json: string]>
  removedCalls: readonly string[]
  /** Whether the devices below replace every device (the first batch of a state). */
  replaceDevices: boolean
  /** `[deviceId, json]` of the devices added or changed. */
  devices: ReadonlyArray<readonly [deviceId: string, json: string]>
  removedDevices: readonly string[]
  /** The rest of the state (sequence, timers, callbacks...) without the batch number, when it changed. */
  rest?: string
}

/** Batches read from the feed: in order, and whether some after the position read from are missing. */
export interface EngineBatchPage {
  batches: EngineBatch[]
  /**
   * True when the batch right after the position read from is not in the feed (trimmed, or never published)
   * while later ones are: the reader is to load the state anew from the store.
   */
  missing: boolean
}

/** One follower of the feed, until it is closed. */
export interface EngineFeedFollower {
  /** Stops following; resolves once no page will be handed any more. */
  close(): Promise<void>
}

/**
 * The engine's change feed (docs/cluster.md, "The replica"): the engine's owner publishes each batch once it
 * is stored; the other nodes follow the batches, in order, to keep a replica of the engine's state. The feed
 * holds a bounded number of the latest batches; a follower that fell behind them loads the state anew.
 */
export interface EngineChangeFeed {
  /**
   * Adds a stored batch after those published. A batch numbered at or below the last one published starts a
   * new history (the feed forgets the batches it held) unless an owner of a greater epoch published that
   * last one: then it is a late batch of an older owner, and is dropped. Resolves once the feed holds it.
   * `onQueued`, when given, is called once whatever this node appends to the subscriptions' event logs from
   * then on is applied after the entry (docs/cluster.md, "Nothing is told before the feed has it"): on Redis
   * as soon as the entry's command is sent, on the connection the logs' appends share, which Redis runs in
   * order; on memory once the entry is held. A feed that does not call it leaves its caller to wait for the
   * promise.
   */
  publish(batch: EngineBatch, onQueued?: () => void): Promise<void>
  /** At most `max` (at least 1) of the batches after the number `after`, oldest first. */
  read(after: number, max: number): Promise<EngineBatchPage>
  /**
   * Hands `onPage` the batches after `after` as they are published (at once those already held), page after
   * page, each awaited before the next is read; nothing polls. `onPage` answers the number to go on after:
   * the last batch it applied, or another number when it loaded the state anew. `onPage` does not reject:
   * a follower whose `onPage` rejected follows no more.
   */
  follow(
    after: number,
    onPage: (page: EngineBatchPage) => Promise<number>,
  ): Promise<EngineFeedFollower>
}

/**
 * The communication log: the records of the calls each directory user took part in (docs/comlog.md).
 * Records are appended by the CallStore with the call's end (`saveWithRecords`); this port reads and
 * changes them. Every operation acts on one user's records only.
 */
export interface ComlogStore {
  /** One page of the user's records matching `filter`, newest first, with the count of all that match. */
  findRecords(
    loginName: string,
    filter: ComRecordFilter,
    page: { offset: number; limit: number },
  ): Promise<ComRecordPage>
  /** The user's record with this id; undefined when the user has none with it. */
  findRecord(loginName: string, recordId: number): Promise<StoredComRecord | undefined>
  /**
   * Sets the acknowledged flag of those of the user's records among `recordIds` whose flag differs; returns
   * the records it changed.
   */
  acknowledge(
    loginName: string,
    recordIds: readonly number[],
    acknowledged: boolean,
  ): Promise<ComRecordChange[]>
  /** Deletes those of the user's records among `recordIds`; returns the records deleted. */
  deleteRecords(loginName: string, recordIds: readonly number[]): Promise<ComRecordChange[]>
  /** Deletes the user's records matching `filter`; returns the records deleted. */
  deleteMatching(loginName: string, filter: ComRecordFilter): Promise<ComRecordChange[]>
  /** How many of the user's records are missed calls not acknowledged (the event summary's counter). */
  countUnacknowledgedMissed(loginName: string): Promise<number>
}

/**
 * The search contexts of directory searches (docs/directory-search.md): ephemeral, per session, each found
 * by the user its search acts for. A context whose `expiresAt` has passed is gone: no method returns it.
 * The memory adapter holds them in the process; the cluster mode keeps them in Redis with the same expiry.
 */
export interface SearchContextStore {
  /** The session's contexts not expired at `now`. */
  contexts(sessionId: string, now: number): Promise<SearchContext[]>
  /** The session's context for `loginName`, unless none or expired at `now`. */
  find(sessionId: string, loginName: string, now: number): Promise<SearchContext | undefined>
  /** Inserts or replaces the session's context for `context.loginName`. */
  save(sessionId: string, context: SearchContext): Promise<void>
  /**
   * Replaces the session's context for `expected.loginName` with `next` while it is still `expected` (as
   * `find` answered it); false, changing nothing, when another poll, a new search or a cancel changed it since
   * (docs/cluster.md, "No lost update").
   */
  replace(sessionId: string, expected: SearchContext, next: SearchContext): Promise<boolean>
  /** Frees the session's context for `loginName`; nothing happens when there is none. */
  delete(sessionId: string, loginName: string): Promise<void>
  /** Frees every context of the session (it closed). */
  deleteSession(sessionId: string): Promise<void>
}

/**
 * Credentials and the sessions opened with them (specification, "Authentication" items 3 and 6, "States and
 * transitions", "Limits"; docs/cluster.md, "Sessions and credentials"). Every operation takes the caller's
 * `now`: the store applies its timing (session-record.ts) to it, never a clock of its own. Each operation is
 * atomic, and one round trip to Redis at most: a request resolving and keeping alive its session is one `use`;
 * a session closes once cluster-wide, and only the caller that closed it is told it did.
 */
export interface SessionStore {
  /** Keeps a new credential of `loginName`, forgotten after the token's time to live unless it opens a session. */
  issueCredential(token: string, loginName: string, now: number): Promise<void>
  /** What `token` stands for at `now`, touching nothing: an OPEN session past its deadline is told as OPEN. */
  status(token: string, now: number): Promise<StoredTokenStatus>
  /**
   * The open session of `token` with its timer restarted at `now`; when the session is past its deadline, this
   * call closes it (EXPIRED) and says so.
   */
  use(token: string, now: number): Promise<SessionUse>
  /** Opens the one session the credential `draft.token` may open, unless it is unknown or opened one already. */
  open(draft: SessionDraft, now: number): Promise<SessionOpening>
  /**
   * Closes the session if it is open: resolves to the record as closed when this call closed it, undefined when
   * it was closed already (or is unknown). The credential is then remembered for the closed retention.
   */
  close(
    sessionId: string,
    cause: SessionCloseCause,
    now: number,
  ): Promise<SessionRecord | undefined>
  /** The session with this id, open or closed and not yet forgotten at `now`. */
  session(sessionId: string, now: number): Promise<SessionRecord | undefined>
  /** The open sessions `owner` opened, oldest first (other sessions, per-account limits). */
  openSessionsOf(owner: string): Promise<SessionRecord[]>
  /** Every open session, earliest deadline first (a switch-over, a stop). */
  openSessions(): Promise<SessionRecord[]>
  /** The open sessions past their deadline at `now`, earliest first, at most `limit`: the sweep closes them. */
  due(now: number, limit: number): Promise<SessionRecord[]>
  /**
   * Forgets the credentials, with their closed sessions, whose time ended at `now` (a credential that opened no
   * session, or one whose session closed longer than the closed retention ago); resolves to how many.
   */
  forgetDue(now: number): Promise<number>
  /**
   * Forgets the credentials of `loginName` that opened no session (its password changed: they were issued
   * for the old one); resolves to how many. Credentials that opened a session follow their session.
   */
  voidCredentialsOf(loginName: string): Promise<number>
}

/**
 * The license references of sessions, against the installed counts (specification, "States and transitions":
 * closing a session releases all license references; docs/cluster.md, "License references"). A user holds a
 * license once however many of its sessions took it, and gives it back with the last of them. References
 * belong to sessions, never to nodes: whoever closes a session, its own node or the sweep after that node
 * died, gives back what it holds by its id. Each operation is atomic across the nodes of a cluster.
 */
export interface LicenseStore {
  /**
   * Takes, for session `sessionId` acting as `loginName`, each of `rights` the user holds already or for which
   * a license is free within `installed`; resolves to the rights taken (and those the session held already).
   * `now` is when, for `holdingSessions`.
   */
  acquire(
    sessionId: string,
    loginName: string,
    rights: readonly UserRight[],
    installed: Readonly<Record<UserRight, number>>,
    now: number,
  ): Promise<UserRight[]>
  /** Gives back every reference of the session; nothing happens when it holds none (released already). */
  release(sessionId: string): Promise<void>
  /** How many distinct users hold `right` now. */
  inUse(right: UserRight): Promise<number>
  /**
   * The sessions holding references taken before `acquiredBefore`, earliest first, at most `limit`: the sweep
   * releases those that are not open (a node that died between acquiring and opening the session).
   */
  holdingSessions(acquiredBefore: number, limit: number): Promise<string[]>
}

/**
 * The failed authentication attempts of one kind of key (login names, or client addresses) and their locks,
 * under one `ThrottlePolicy` (login-throttle.ts; docs/cluster.md, "Login attempts"). An attempt reserves its
 * place before its password is checked and counts as a failure until it succeeds, so that at most
 * `lockAfterFailures` checks run for a key between two locks, however many arrive at once and on whichever
 * node (issue 15, item 6). Every time is the caller's `now`; each operation is atomic.
 */
export interface LoginAttemptStore {
  /**
   * Reserves an attempt on `key`: refused (`locked`) when the key is locked or already holds
   * `lockAfterFailures` attempts; otherwise counted, and delayed by the failures counted before it.
   */
  reserve(key: string, now: number): Promise<ThrottleVerdict>
  /** The attempt failed: locks the key when it holds `lockAfterFailures` attempts (true then). */
  fail(key: string, now: number): Promise<boolean>
  /**
   * The attempt succeeded: `reset` forgets the key's failures (a login that proved its password), `undo` only
   * takes back this attempt (an address other people may share, or an attempt refused by another key's lock).
   * A lock stays.
   */
  succeed(key: string, mode: 'reset' | 'undo', now: number): Promise<void>
  /** The time left on the key's lock at `now`, 0 when it is not locked. */
  lockedFor(key: string, now: number): Promise<number>
  /** Forgets every attempt and lock of this kind of key (a reset of the platform: docs/sandbox.md). */
  clear(): Promise<void>
}

/**
 * The users supervised through administrator subscriptions, company-wide, within a limit (the installed
 * TELEPHONY_ADVANCED count; specification, "Events" item 7 and "Limits"; docs/cluster.md, "Supervised
 * users"). Each subscription holds its set of users; a user counts once however many subscriptions hold it.
 * Checking the limit and changing the sets is one atomic step across the nodes of a cluster.
 */
export interface SupervisionStore {
  /**
   * Makes `users` the set subscription `subscriptionId` holds (creation, or a filter replaced), when the count
   * that follows is within `limit`: true then; false, changing nothing, otherwise.
   */
  hold(subscriptionId: string, users: ReadonlySet<string>, limit: number): Promise<boolean>
  /** Gives back every user the subscription holds (it was removed); nothing happens when it holds none. */
  release(subscriptionId: string): Promise<void>
  /** Distinct users supervised now. */
  count(): Promise<number>
}

/**
 * The subscriptions of all sessions (specification, "Subscription management", "Limits"; docs/cluster.md,
 * "Subscriptions"): what SubscriptionManager keeps of each, as plain JSON, so that any node serves any
 * subscription and every node keeps the routes of all of them. Every time is the caller's `now`. Each
 * operation is atomic across the nodes of a cluster: a filter is replaced by one node at a time (a
 * revision to compare), and a subscription is removed once, the one caller that removed it being told so.
 */
export interface SubscriptionStore {
  /** Keeps a new subscription, active at `now`: its record, or undefined when the id is taken. */
  create(draft: SubscriptionDraft, now: number): Promise<SubscriptionRecord | undefined>
  /** The subscription with this id, expired or not (see isExpired), or undefined once removed. */
  find(subscriptionId: string): Promise<SubscriptionRecord | undefined>
  /** The subscriptions of a session, oldest first (its requests, and its close, which removes them). */
  ofSession(sessionId: string): Promise<SubscriptionRecord[]>
  /** How many subscriptions the session has (its quota's check at each create), without reading them. */
  countOfSession(sessionId: string): Promise<number>
  /**
   * Replaces the filter when the subscription is still at `revision` (compare-and-set): of two nodes
   * replacing from the same revision, one replaces and the other is told CONFLICT. A replacement is activity.
   */
  replaceFilter(
    subscriptionId: string,
    revision: number,
    filter: SubscriptionFilterRecord,
    now: number,
  ): Promise<FilterReplacement>
  /** Records activity at `now`: the expiry moves with it, never back; false when the subscription is gone. */
  touch(subscriptionId: string, now: number): Promise<boolean>
  /**
   * Removes the subscription: resolves to its record as removed (REMOVED, `cause`) when this call removed it,
   * undefined when another did (or it never existed). Only that caller releases what it held.
   */
  remove(
    subscriptionId: string,
    cause: SubscriptionRemoveCause,
  ): Promise<SubscriptionRecord | undefined>
  /** The subscriptions expired at `now`, earliest first, at most `limit`: the sweep removes or touches each. */
  due(now: number, limit: number): Promise<SubscriptionRecord[]>
  /** Every subscription (a node starting loads the routes of all; follow the changes first). */
  all(): Promise<SubscriptionRecord[]>
  /**
   * Tells `onChange` of every creation, filter replacement and removal, on any node, from when the promise
   * resolves; in the process, synchronously within the operation that made it.
   */
  changes(onChange: (change: SubscriptionChange) => void): Promise<SubscriptionChangeFollower>
}

/**
 * The voice messages of the mailboxes the platform hosts (docs/voicemail.md), with their audio. Every
 * operation acts on one mailbox (the owner's login name): a message of another mailbox is not found.
 */
export interface VoicemailStore {
  /** Stores a new message. */
  add(message: VoiceMessageDraft): Promise<StoredVoiceMessage>
  /** One page of the mailbox's messages, newest first; unread ones only with `newOnly`. */
  list(
    loginName: string,
    query: { newOnly: boolean; offset: number; limit: number },
  ): Promise<StoredVoiceMessage[]>
  /** The mailbox's message with this id; undefined when it has none. */
  find(loginName: string, voicemailId: string): Promise<StoredVoiceMessage | undefined>
  /** The audio of the mailbox's message; undefined when it has none with this id. */
  audio(loginName: string, voicemailId: string): Promise<Uint8Array | undefined>
  /** Marks the message read; returns it as changed, undefined when it was read already or is not found. */
  markRead(loginName: string, voicemailId: string): Promise<StoredVoiceMessage | undefined>
  /** Deletes those of the mailbox's messages among `voicemailIds`; returns the messages deleted. */
  delete(loginName: string, voicemailIds: readonly string[]): Promise<StoredVoiceMessage[]>
  /** The mailbox's counters. */
  counters(loginName: string): Promise<MailboxCounters>
}

/**
 * The durable state of the platform at one moment (docs/sandbox.md): what a snapshot keeps and a restore puts
 * back. The engine's part is read by the platform, which restores it through the engine; the rest is in the
 * store's own form, which only the store reads.
 */
export interface PlatformImage {
  /** How far ahead of the system's time the service's clock was, in milliseconds. */
  readonly clockOffsetMs: number
  /** The call engine's state; undefined before the engine first stored one. */
  readonly engine: PortableEngineState | undefined
  /** The directory, users' routing, the communication log, voice messages: the store's own rows. */
  readonly tables: unknown
}

/** What a restore changed of what nodes hold in memory: the accounts, the settings, the routing profiles. */
export interface RestoredRows {
  /** The login names of the accounts it added, changed or deleted. */
  accounts: string[]
  /** Whether the directory's settings changed (another directory file's image). */
  settings: boolean
  /** The login names of the routing profiles it added, changed or deleted. */
  routing: string[]
  /** How many rows it wrote in all: added, changed or deleted. */
  rows: number
}

/** A snapshot as listed: its name, when it was taken (the service's time) and its size. */
export interface SnapshotInfo {
  name: string
  takenAt: number
  bytes: number
}

/**
 * Durable storage of the platform's images (docs/sandbox.md): reading and replacing the whole durable state,
 * and named snapshots of it, kept in the same database (they survive restarts; a cluster's nodes share them).
 */
export interface PlatformImageStore {
  /** Reads the whole durable state from one snapshot of the database. */
  capture(): Promise<PlatformImage>
  /**
   * The image of a platform that holds only `directory`: no routing, no log, no message, the clock not set
   * ahead, and no engine state (the platform makes the engine's from the directory's devices).
   */
  baseline(directory: DirectorySnapshot): PlatformImage
  /**
   * Replaces the durable state by the image's, in one transaction, except the engine's: the platform restores
   * that through the engine (the `restoreState` command), which stores it like any other. Only the rows that
   * differ are written; the answer names the accounts and routing profiles among them, which are all a node
   * must reload.
   */
  restore(image: PlatformImage): Promise<RestoredRows>
  /** Keeps `image` under `name`, replacing a snapshot of that name; `rows`: how many rows the image holds. */
  save(
    name: string,
    image: PlatformImage,
    takenAt: number,
  ): Promise<SnapshotInfo & { rows: number }>
  /** The snapshot named `name`; undefined when there is none. */
  load(name: string): Promise<PlatformImage | undefined>
  /** Every snapshot, by name. */
  list(): Promise<SnapshotInfo[]>
  /** Deletes the snapshot; false when there was none. */
  delete(name: string): Promise<boolean>
}

/** A read of the journal's store: what it keeps, between which ids, how many, from which end. */
export interface JournalRead {
  /** Whether a record belongs in the page. */
  match(record: JournalRecord): boolean
  /** Ids after this one only (excluded). */
  after?: number
  /** Ids before this one only (excluded). */
  before?: number
  /** At most this many records; Infinity for all. */
  limit: number
  /** `newest`: from the latest record back; `oldest`: from the earliest on. */
  order: 'newest' | 'oldest'
}

/** A page of the journal: its records in the order read, and whether the store held more that matched. */
export interface JournalPage {
  records: JournalRecord[]
  more: boolean
}

/** A live reader of the journal; closed, it calls its listener no more. */
export interface JournalFollower {
  close(): Promise<void>
}

/**
 * The journal's entries (docs/journal.md): a bounded ring, the oldest dropped beyond its size. In memory alone;
 * in a cluster, one Redis stream every node appends to and reads, so that any node shows every node's entries.
 */
export interface JournalStore {
  /**
   * Keeps `record`, giving it the journal's next id; never waits, and never fails the caller. The memory store
   * sets `record.id` at once; a cluster's writes its records a moment later, in batches, numbered as written.
   * A `pending` record is a request in progress: it takes its place now, and `complete` says when its answer's
   * fields are in it (live readers get it then; a cluster's store writes it then, or after a second as it is).
   */
  append(record: JournalRecord, pending?: boolean): void
  /** The pending `record` is complete. */
  complete(record: JournalRecord): void
  /**
   * Keeps the entry of an event a subscription's queue took (eventRecord in journal-entry.ts makes it), given by
   * its parts, so that a fan-out to thousands of subscriptions allocates nothing per subscription in memory.
   */
  appendEvent(
    at: number,
    subscription: string,
    user: string,
    source: PlatformEvent | undefined,
    json: string,
    sequence: number,
  ): void
  read(request: JournalRead): Promise<JournalPage>
  /** Drops every record; ids go on from the last given. */
  clear(): Promise<void>
  /**
   * Calls `listener` with every record after the id `after` (`now`: recorded from now on), in id order: those
   * held first, then each as it is appended, on any node.
   */
  follow(after: number | 'now', listener: (record: JournalRecord) => void): Promise<JournalFollower>
  /** Resolves once every record appended so far is readable (a cluster's batches written). */
  settled(): Promise<void>
}

/**
 * What a request sent with an `Idempotency-Key` ended with, as its retries are answered again
 * (docs/idempotency.md): the status, the headers worth answering again (Location, Content-Type...) and the body.
 */
export interface IdempotentOutcome {
  status: number
  headers: Readonly<Record<string, string>>
  body: string
}

/**
 * What claiming a key answers: run the request (`claimed`; `takenOver` when a previous holder's lease lapsed:
 * it may have run part of it); answer again what it ended with (`replay`); refuse a key sent before with another
 * request (`mismatch`, 422); or the same request still running through another connection or node (`busy`, 409).
 */
export type IdempotencyClaim =
  | { kind: 'claimed'; takenOver: boolean }
  | { kind: 'replay'; outcome: IdempotentOutcome }
  | { kind: 'mismatch' }
  | { kind: 'busy' }

/**
 * The requests clients sent with an `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header;
 * docs/idempotency.md), kept where every node sees them: a key (already scoped to its client by the caller) with
 * the fingerprint of its request, the holder running it under a lease it renews, then its outcome, kept for the
 * store's retention. Times are the store's own (Redis's, in a cluster), never the platform's adjustable clock.
 */
export interface IdempotencyStore {
  /** Claims `key` for the request of `fingerprint`, held by `holder` for the store's lease; see IdempotencyClaim. */
  claim(key: string, fingerprint: string, holder: string): Promise<IdempotencyClaim>
  /** Keeps `holder`'s claim for another lease while its request runs; false when it is no longer its own. */
  renew(key: string, holder: string): Promise<boolean>
  /** Records the outcome of `holder`'s request under `key`; nothing when another holder took the key over. */
  complete(key: string, holder: string, outcome: IdempotentOutcome): Promise<void>
  /** Frees `holder`'s claim, the request not done (a server-side failure): the key may be sent again. */
  release(key: string, holder: string): Promise<void>
}
