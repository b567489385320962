/**
 * One command's work on the engine state: copies on write the calls it touches (into new persistent maps,
 * leaving the state it started from as it was), and at each `commit` turns what changed into the events
 * every involved user receives, in order.
 */
import type { Call, UserState } from '@openness/wire'
import type { PlatformEvent } from '../events.js'
import type { CallChanges } from './call-changes.js'
import { callAppeared, callEvent } from './call-events.js'
import {
  type CallIndexField,
  type CallLookup,
  compareCallRefs,
  compareCalls,
  indexKeys,
  lookupOf,
} from './call-index.js'
import { callRefOf } from './call-refs.js'
import { callView } from './call-view.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import type {
  CallRecord,
  EngineCommand,
  PendingTimer,
  StepCause,
  TelephonyState,
} from './telephony-state.js'

/**
 * The users of a call (those with a connection on one of their devices), each once, in the order of their
 * first connection. A list searched rather than a Set copied into one: a call has a few connections, and this
 * runs for every call a commit looks at.
 */
function usersOf(call: CallRecord | undefined): string[] {
  const users: string[] = []
  for (const connection of call?.connections ?? []) {
    const user = connection.endpoint.loginName
    if (user && !users.includes(user)) users.push(user)
  }
  return users
}

export class Transaction {
  readonly state: TelephonyState
  readonly events: PlatformEvent[] = []
  /** The calls the command changed and removed (what a store must write), once it finished. */
  changes: CallChanges = { changedCallRefs: [], removedCallRefs: [] }
  /** Views of the touched calls at the last commit, by callRef then login. */
  private readonly baseline = new Map<string, Map<string, Call | undefined>>()
  private readonly copied = new Set<string>()
  private readonly userStates = new Map<string, UserState>()
  private readonly involved = new Set<string>()
  /**
   * The users whose calls are all in the baseline already (rememberRelated, commitUntouched): a call the
   * command does not touch keeps its users, and one it touches joins the baseline, so their calls need no
   * second lookup.
   */
  private readonly settled = new Set<string>()
  /** Every call the command touched (copied, added or removed): the index describes them as they were. */
  private readonly touched = new Set<string>()
  /** The calls as they were before the command (the base state, which its own index describes exactly). */
  private readonly before: CallLookup
  /** Causes for some users' events of the next commit, instead of the step's (`causeFor`). */
  private readonly userCauses = new Map<string, StepCause>()

  /**
   * Starts from `base`, which stays as it is: its calls and index are persistent maps, so the state being
   * built shares them and each change makes new maps (call records themselves are copied one by one when
   * touched), and `base` keeps showing the calls as they were before the command.
   */
  constructor(
    private readonly base: TelephonyState,
    private readonly directory: TelephonyDirectory,
    readonly now: number,
  ) {
    this.state = { ...base, timers: [...base.timers] }
    this.before = lookupOf(base)
    this.isMobile = directory.isMobile?.bind(directory)
  }

  /** Whether a device is a MOBILE one (OnCallAppeared), when the directory tells. */
  private readonly isMobile: ((deviceId: string) => boolean) | undefined

  /** Sets the call, or removes it (undefined): the state gets a new map, sharing the others' entries. */
  private putCall(callRef: string, call: CallRecord | undefined): void {
    const calls = this.state.calls
    this.state.calls = call === undefined ? calls.delete(callRef) : calls.set(callRef, call)
  }

  /** Sets the callRefs of an index entry, or removes the entry (undefined). */
  private putIndex(
    field: CallIndexField,
    key: string,
    callRefs: readonly string[] | undefined,
  ): void {
    const index = this.state[field]
    this.state[field] = callRefs === undefined ? index.delete(key) : index.set(key, callRefs)
  }

  /** The calls of users and devices as they are now, including those this command touched. */
  lookup(): CallLookup {
    return lookupOf(this.state, this.touched)
  }

  /**
   * A new deterministic identifier (16 hex digits, URL-safe) from the sequence: the engine's own ids (timers,
   * callbacks), which name nothing another user could reach. Calls get theirs from `nextCall`.
   */
  nextId(): string {
    this.state.sequence += 1
    return this.state.sequence.toString(16).padStart(16, '0')
  }

  /**
   * The callRef and serial of a new call: the next number of the sequence, its callRef scrambled with the
   * state's key (call-refs.ts). A permutation never gives two numbers one callRef; a call stored before
   * callRefs were scrambled could hold one, which is then skipped.
   */
  nextCall(): { callRef: string; serial: number } {
    const key = this.state.callRefKey
    if (key === undefined) throw new Error('The telephony state has no callRef key')
    for (;;) {
      this.state.sequence += 1
      const serial = this.state.sequence
      const callRef = callRefOf(key, serial)
      if (!this.state.calls.has(callRef)) return { callRef, serial }
    }
  }

  /** The call, copied for change; undefined when it does not exist. */
  call(callRef: string): CallRecord | undefined {
    const current = this.state.calls.get(callRef)
    if (current === undefined) return undefined
    if (!this.copied.has(callRef)) {
      this.remember(current)
      const copy: CallRecord = {
        ...current,
        connections: current.connections.map((connection) => ({
          ...connection,
          endpoint: { ...connection.endpoint },
        })),
        // The ACD's record of the call changes in place (acd-distribution.ts): the base state keeps its own.
        ...(current.acd !== undefined && { acd: { ...current.acd } }),
        // A hunt is changed in place by the operations that go on with it (its tries, its wait).
        ...(current.hunt !== undefined && {
          hunt: { ...current.hunt, tried: [...current.hunt.tried] },
        }),
      }
      this.putCall(callRef, copy)
      this.touched.add(callRef)
      this.copied.add(callRef)
      return copy
    }
    return current
  }

  /** The callRefs of the calls the command touched so far (copied, added or removed), in no order. */
  touchedCallRefs(): Iterable<string> {
    return this.touched
  }

  /** The call as it was before the command; undefined when it did not exist. */
  callBefore(callRef: string): CallRecord | undefined {
    return this.base.calls.get(callRef)
  }

  /** Adds a new call. */
  addCall(call: CallRecord): void {
    for (const user of usersOf(call))
      if (!this.userStates.has(user)) this.userStates.set(user, userStateIn(this.before, user))
    this.rememberRelated(call)
    this.baseline.set(call.callRef, new Map())
    this.putCall(call.callRef, call)
    this.touched.add(call.callRef)
    this.copied.add(call.callRef)
  }

  /** Removes a call. */
  removeCall(callRef: string): void {
    const current = this.state.calls.get(callRef)
    if (current === undefined) return
    if (!this.copied.has(callRef)) this.remember(current)
    this.putCall(callRef, undefined)
    this.touched.add(callRef)
  }

  /** Schedules a command. */
  schedule(delayMs: number, command: EngineCommand): string {
    const timer: PendingTimer = { timerId: this.nextId(), at: this.now + delayMs, command }
    this.state.timers.push(timer)
    return timer.timerId
  }

  /** Cancels the pending timers that match. */
  cancelTimers(match: (command: EngineCommand) => boolean): void {
    this.state.timers = this.state.timers.filter((timer) => !match(timer.command))
  }

  /**
   * The user's events of the next commit carry `cause` instead of the step's: a member a hunting group offers
   * the call to sees it arrive DISTRIBUTED in the step where its caller sees nothing (operations/hunting.ts),
   * without a commit of its own.
   */
  causeFor(user: string, cause: StepCause): void {
    this.userCauses.set(user, cause)
  }

  /** Emits the call events of what changed since the last commit, with the step's cause. */
  commit(cause?: StepCause): void {
    const now = this.lookup()
    for (const [callRef, before] of this.baseline) {
      const call = this.state.calls.get(callRef)
      const after = new Map<string, Call | undefined>()
      // The users who saw the call, then those new to it, without a Set merged from both: this runs for
      // every call of every commit.
      for (const user of before.keys()) this.commitView(user, call, before, after, now, cause)
      for (const user of usersOf(call))
        if (!before.has(user)) this.commitView(user, call, before, after, now, cause)
      this.baseline.set(callRef, after)
    }
    this.commitUntouched(cause)
    for (const [callRef] of this.baseline)
      if (!this.state.calls.has(callRef)) this.baseline.delete(callRef)
    if (this.userCauses.size > 0) this.userCauses.clear()
  }

  /** The user's view of the call now (`after`), and the events from the one it had (`before`). */
  private commitView(
    user: string,
    call: CallRecord | undefined,
    before: ReadonlyMap<string, Call | undefined>,
    after: Map<string, Call | undefined>,
    now: CallLookup,
    cause: StepCause,
  ): void {
    this.involved.add(user)
    const view = call === undefined ? undefined : callView(call, user, this.directory, now)
    after.set(user, view)
    const stepCause = this.userCauses.size > 0 ? (this.userCauses.get(user) ?? cause) : cause
    const event = callEvent(user, before.get(user), view, stepCause)
    if (event) this.events.push(event)
    const appeared = callAppeared(user, before.get(user), view, stepCause, this.isMobile)
    if (appeared) this.events.push(appeared)
  }

  /**
   * The other calls of the involved users that the command did not touch: what a user can do in them may
   * have changed (transfer and merge need one ACTIVE and one HELD call), so they are diffed too, against
   * the state before the command. Each user is looked at once (`settle`): its calls then stay in the
   * baseline.
   */
  private commitUntouched(cause: StepCause): void {
    const fresh = this.settle(this.involved)
    if (fresh.length === 0) return
    const now = this.lookup()
    for (const other of callsOfUsers(now, fresh)) {
      if (this.baseline.has(other.callRef)) continue
      // Where an involved user rings, its callers' capabilities may follow its state (intrusion needs the
      // callee busy elsewhere): every user of such a call is diffed, not only the involved ones.
      const users = this.ringsForInvolved(other)
        ? usersOf(other)
        : usersOf(other).filter((user) => this.involved.has(user))
      if (users.length === 0) continue
      const before = this.base.calls.get(other.callRef)
      for (const user of users) {
        const was = before && callView(before, user, this.directory, this.before)
        const event = callEvent(user, was, callView(other, user, this.directory, now), cause)
        if (event) this.events.push(event)
      }
      this.rememberViews(other)
    }
  }

  /** Whether an involved user's connection rings in the call. */
  private ringsForInvolved(call: CallRecord): boolean {
    for (const connection of call.connections) {
      const user = connection.endpoint.loginName
      if (connection.state === 'RINGING_INCOMING' && user !== undefined && this.involved.has(user))
        return true
    }
    return false
  }

  /**
   * Emits the user-state changes of the whole command, after its call events (wire facts 6: the
   * OnUserStateModified of a hang-up follows the OnCallRemoved).
   */
  finish(): void {
    this.emitUserStates()
    this.close()
  }

  /**
   * Emits the user-state changes so far, after the call events so far; a later `finish` emits only what
   * changes after (the engine does so before it offers waiting calls to the members a command left free).
   */
  emitUserStates(): void {
    for (const user of [...this.involved].sort()) {
      const state = userStateIn(this.lookup(), user)
      // A user first seen in a call added by this command: its state before the command.
      const previous = this.userStates.get(user) ?? userStateIn(this.before, user)
      if (state !== previous)
        this.events.push({ eventName: 'OnUserStateModified', loginName: user, state })
      this.userStates.set(user, state)
    }
  }

  /**
   * The end of a command that succeeded: indexes the calls it touched and records what changed in the calls (call-changes.ts).
   */
  private close(): void {
    const touched = [...this.touched].sort(compareCallRefs)
    for (const callRef of touched) {
      const was = indexKeys(this.base.calls.get(callRef))
      const is = indexKeys(this.state.calls.get(callRef))
      this.reindex('callsByUser', callRef, was.users, is.users)
      this.reindex('callsByDevice', callRef, was.devices, is.devices)
    }
    const changedCallRefs: string[] = []
    const removedCallRefs: string[] = []
    for (const callRef of touched)
      if (this.state.calls.has(callRef)) changedCallRefs.push(callRef)
      else if (this.base.calls.has(callRef)) removedCallRefs.push(callRef)
    this.changes = { changedCallRefs, removedCallRefs }
  }

  /** Moves `callRef` in the index from the entries of `was` to those of `is`. */
  private reindex(
    field: CallIndexField,
    callRef: string,
    was: ReadonlySet<string>,
    is: ReadonlySet<string>,
  ): void {
    const entry = (key: string) => this.state[field].get(key) ?? []
    for (const key of was)
      if (!is.has(key)) {
        const left = entry(key).filter((ref) => ref !== callRef)
        this.putIndex(field, key, left.length > 0 ? left : undefined)
      }
    for (const key of is) if (!was.has(key)) this.putIndex(field, key, [...entry(key), callRef])
  }

  private remember(call: CallRecord): void {
    if (this.baseline.has(call.callRef)) return
    this.rememberViews(call)
    this.rememberRelated(call)
  }

  private rememberViews(call: CallRecord): void {
    const views = new Map<string, Call | undefined>()
    const now = this.lookup()
    for (const user of usersOf(call)) {
      views.set(user, callView(call, user, this.directory, now))
      if (!this.userStates.has(user)) this.userStates.set(user, userStateIn(this.before, user))
    }
    this.baseline.set(call.callRef, views)
  }

  /**
   * Also remembers the other calls of the call's users: what a user can do in one call may depend on its
   * other calls (transfer and merge need one ACTIVE and one HELD), so their views are diffed at commit too
   * and an event goes out only where a view changed.
   */
  private rememberRelated(call: CallRecord): void {
    const users = this.settle(usersOf(call))
    if (users.length === 0) return
    for (const other of callsOfUsers(this.lookup(), users))
      if (!this.baseline.has(other.callRef)) this.rememberViews(other)
  }

  /** Those of `users` not settled yet, settled now: the caller puts their calls in the baseline. */
  private settle(users: Iterable<string>): string[] {
    const fresh = [...users].filter((user) => !this.settled.has(user))
    for (const user of fresh) this.settled.add(user)
    return fresh
  }

  /** @internal the user state recorded before the first change, if any. */
  recordedUserState(user: string): UserState | undefined {
    return this.userStates.get(user)
  }
}

/** The calls of any of the users, in the order they were made in. */
function callsOfUsers(lookup: CallLookup, users: Iterable<string>): CallRecord[] {
  const found = new Map<string, CallRecord>()
  for (const user of users) for (const call of lookup.ofUser(user)) found.set(call.callRef, call)
  return [...found.values()].sort(compareCalls)
}

/** BUSY exactly when the user has an active or held connection (issue 4 invariant). */
export function userState(state: TelephonyState, loginName: string): UserState {
  return userStateIn(lookupOf(state), loginName)
}

/** The user state in the calls of `lookup`: BUSY exactly when the user has an ACTIVE or HELD connection. */
export function userStateIn(lookup: CallLookup, loginName: string): UserState {
  for (const call of lookup.ofUser(loginName))
    for (const connection of call.connections)
      if (
        connection.endpoint.loginName === loginName &&
        (connection.state === 'ACTIVE' || connection.state === 'HELD')
      )
        return 'BUSY'
  return 'FREE'
}
