/**
 * One command's work on the engine state: copies on write the calls it touches, and at each `commit`
 * turns what changed into the events every involved user receives, in order.
 */
import type { Call, UserState } from '@openness/wire'
import type { PlatformEvent } from '../ports.js'
import { callEvent } from './call-events.js'
import { callView } from './call-view.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import type {
  CallRecord,
  EngineCommand,
  PendingTimer,
  StepCause,
  TelephonyState,
} from './telephony-state.js'

/** The users of a call (those with a connection on one of their devices). */
function usersOf(call: CallRecord | undefined): string[] {
  const users = new Set<string>()
  for (const connection of call?.connections ?? [])
    if (connection.endpoint.loginName) users.add(connection.endpoint.loginName)
  return [...users]
}

export class Transaction {
  readonly state: TelephonyState
  readonly events: PlatformEvent[] = []
  /** Views of the touched calls at the last commit, by callRef then login. */
  private readonly baseline = new Map<string, Map<string, Call | undefined>>()
  private readonly copied = new Set<string>()
  private readonly userStates = new Map<string, UserState>()
  private readonly involved = new Set<string>()

  constructor(
    private readonly base: TelephonyState,
    private readonly directory: TelephonyDirectory,
    readonly now: number,
  ) {
    this.state = { ...base, calls: { ...base.calls }, timers: [...base.timers] }
  }

  /** A new deterministic identifier (16 hex digits, URL-safe). */
  nextId(): string {
    this.state.sequence += 1
    return this.state.sequence.toString(16).padStart(16, '0')
  }

  /** The call, copied for change; undefined when it does not exist. */
  call(callRef: string): CallRecord | undefined {
    const current = this.state.calls[callRef]
    if (current === undefined) return undefined
    if (!this.copied.has(callRef)) {
      this.remember(current)
      const copy: CallRecord = {
        ...current,
        connections: current.connections.map((connection) => ({
          ...connection,
          endpoint: { ...connection.endpoint },
        })),
      }
      this.state.calls[callRef] = copy
      this.copied.add(callRef)
      return copy
    }
    return current
  }

  /** Adds a new call. */
  addCall(call: CallRecord): void {
    for (const user of usersOf(call))
      if (!this.userStates.has(user)) this.userStates.set(user, userState(this.base, user))
    this.rememberRelated(call)
    this.baseline.set(call.callRef, new Map())
    this.state.calls[call.callRef] = call
    this.copied.add(call.callRef)
  }

  /** Removes a call. */
  removeCall(callRef: string): void {
    const current = this.state.calls[callRef]
    if (current === undefined) return
    if (!this.copied.has(callRef)) this.remember(current)
    delete this.state.calls[callRef]
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

  /** Emits the call events of what changed since the last commit, with the step's cause. */
  commit(cause?: StepCause): void {
    const involved = this.involved
    for (const [callRef, before] of this.baseline) {
      const call = this.state.calls[callRef]
      const users = new Set([...before.keys(), ...usersOf(call)])
      const after = new Map<string, Call | undefined>()
      for (const user of users) {
        involved.add(user)
        const view =
          call === undefined ? undefined : callView(call, user, this.directory, this.state.calls)
        after.set(user, view)
        const event = callEvent(user, before.get(user), view, cause)
        if (event) this.events.push(event)
      }
      this.baseline.set(callRef, after)
    }
    this.commitUntouched(cause)
    for (const [callRef] of this.baseline)
      if (this.state.calls[callRef] === undefined) this.baseline.delete(callRef)
  }

  /**
   * The other calls of the involved users that the command did not touch: what a user can do in them may
   * have changed (transfer and merge need one ACTIVE and one HELD call), so they are diffed too, against
   * the state before the command.
   */
  private commitUntouched(cause: StepCause): void {
    for (const other of Object.values(this.state.calls)) {
      if (this.baseline.has(other.callRef)) continue
      const users = usersOf(other).filter((user) => this.involved.has(user))
      if (users.length === 0) continue
      const before = this.base.calls[other.callRef]
      for (const user of users) {
        const was = before && callView(before, user, this.directory, this.base.calls)
        const event = callEvent(
          user,
          was,
          callView(other, user, this.directory, this.state.calls),
          cause,
        )
        if (event) this.events.push(event)
      }
      this.rememberViews(other)
    }
  }

  /**
   * Emits the user-state changes of the whole command, after its call events (wire facts 6: the
   * OnUserStateModified of a hang-up follows the OnCallRemoved).
   */
  finish(): void {
    for (const user of [...this.involved].sort()) {
      const state = userState(this.state, user)
      // A user first seen in a call added by this command: its state before the command.
      const previous = this.userStates.get(user) ?? userState(this.base, user)
      if (state !== previous)
        this.events.push({ eventName: 'OnUserStateModified', loginName: user, state })
      this.userStates.set(user, state)
    }
  }

  private remember(call: CallRecord): void {
    if (this.baseline.has(call.callRef)) return
    this.rememberViews(call)
    this.rememberRelated(call)
  }

  private rememberViews(call: CallRecord): void {
    const views = new Map<string, Call | undefined>()
    for (const user of usersOf(call)) {
      views.set(user, callView(call, user, this.directory, this.state.calls))
      if (!this.userStates.has(user)) this.userStates.set(user, userState(this.base, user))
    }
    this.baseline.set(call.callRef, views)
  }

  /**
   * Also remembers the other calls of the call's users: what a user can do in one call may depend on its
   * other calls (transfer and merge need one ACTIVE and one HELD), so their views are diffed at commit too
   * and an event goes out only where a view changed.
   */
  private rememberRelated(call: CallRecord): void {
    const users = usersOf(call)
    if (users.length === 0) return
    for (const other of Object.values(this.state.calls))
      if (
        !this.baseline.has(other.callRef) &&
        other.connections.some(
          (connection) =>
            connection.endpoint.loginName !== undefined &&
            users.includes(connection.endpoint.loginName),
        )
      )
        this.rememberViews(other)
  }

  /** @internal the user state recorded before the first change, if any. */
  recordedUserState(user: string): UserState | undefined {
    return this.userStates.get(user)
  }
}

/** BUSY exactly when the user has an active or held connection (issue 4 invariant). */
export function userState(state: TelephonyState, loginName: string): UserState {
  for (const call of Object.values(state.calls))
    for (const connection of call.connections)
      if (
        connection.endpoint.loginName === loginName &&
        (connection.state === 'ACTIVE' || connection.state === 'HELD')
      )
        return 'BUSY'
  return 'FREE'
}
