/**
 * The runtime around the pure call engine (design section 2; issue 4 items 4 and 5): it holds the current
 * state, runs commands one at a time, stores the state after each command, then publishes the command's
 * events, and keeps one clock timer armed for the earliest pending engine timer, whose command it runs when
 * due. Started over a stored state, it re-arms that state's timers: calls and timers survive a restart.
 */
import type { CallLogRecorder } from '../comlog/call-log-recorder.js'
import type { StoredComRecord } from '../comlog/com-record.js'
import type { CallChanges, CallStore, Clock, EventSink, PlatformEvent, Timer } from '../ports.js'
import type { RoutingLookup } from '../routing/routing-profile.js'
import { callChanges } from './call-changes.js'
import {
  DEFAULT_ENGINE_SETTINGS,
  type EngineContext,
  type EngineResult,
  type EngineSettings,
  execute,
} from './call-engine.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import { TelephonyQueries } from './telephony-queries.js'
import {
  allCalls,
  type DeviceRecord,
  type EngineCommand,
  initialState,
  type PendingTimer,
  type TelephonyState,
} from './telephony-state.js'

/** What the service needs. */
export interface TelephonyServiceOptions {
  store: CallStore
  directory: TelephonyDirectory
  clock: Clock
  events: EventSink
  /** The devices of the directory: all of them at first start; the missing ones are added at a restart. */
  devices: readonly DeviceRecord[]
  settings?: EngineSettings
  /** The users' routing, read by each command (operations/routing.ts); none when absent. */
  routing?: RoutingLookup
  /** Told when a timer's command fails; the timer is dropped all the same. */
  onTimerError?: (error: unknown, timer: PendingTimer) => void
  /**
   * Follows the calls for the communication log: the records of the users who left a call are stored in
   * the transaction that stores the command's state (CallStore.saveWithRecords; docs/comlog.md).
   */
  recorder?: CallLogRecorder
  /** Told after each command is stored and its events published (the log's events, the event summary). */
  onCommitted?: (committed: Committed) => void
}

/** What a stored command did, for those who follow the engine. */
export interface Committed {
  before: TelephonyState
  after: TelephonyState
  events: readonly PlatformEvent[]
  /** The calls the command added, changed or removed, whether or not a user was told (an outside caller's). */
  changes: CallChanges
  /** The records of the communication log stored with the command. */
  records: readonly StoredComRecord[]
}

/** The answer of a command. */
export interface CommandResult {
  /** The callRef of the call the command created, where it has one. */
  callRef?: string
  /** The events the command published, in order. */
  events: readonly PlatformEvent[]
}

export class TelephonyService {
  readonly #store: CallStore
  readonly #clock: Clock
  readonly #events: EventSink
  readonly #context: EngineContext
  readonly #onTimerError: (error: unknown, timer: PendingTimer) => void
  readonly #recorder: CallLogRecorder | undefined
  readonly #onCommitted: ((committed: Committed) => void) | undefined
  #state: TelephonyState
  /** The tail of the queue of commands: each runs alone, on the state the previous one left. */
  #queue: Promise<unknown> = Promise.resolve()
  #armed: { at: number; timer: Timer } | undefined
  #stopped = false

  private constructor(options: TelephonyServiceOptions, state: TelephonyState) {
    this.#store = options.store
    this.#clock = options.clock
    this.#events = options.events
    this.#context = {
      directory: options.directory,
      settings: options.settings ?? DEFAULT_ENGINE_SETTINGS,
      ...(options.routing && { routing: options.routing }),
    }
    this.#onTimerError = options.onTimerError ?? (() => {})
    this.#recorder = options.recorder
    this.#onCommitted = options.onCommitted
    this.#state = state
  }

  /**
   * Loads the stored state (or starts from the directory's devices), adds the directory's devices the
   * stored state lacks, stores it, and arms the earliest pending timer (at once when already due).
   */
  static async start(options: TelephonyServiceOptions): Promise<TelephonyService> {
    const loaded = await options.store.load()
    const state =
      loaded === undefined
        ? initialState([...options.devices])
        : withDevices(loaded, options.devices)
    if (state !== loaded) await options.store.save(state, callChanges(loaded, state))
    const service = new TelephonyService(options, state)
    options.recorder?.seed(allCalls(state))
    service.#arm()
    return service
  }

  /** The state after the last command, for queries; never change it. */
  get state(): TelephonyState {
    return this.#state
  }

  /** Reads of the state after the last command, as users see it (telephony-queries.ts). */
  get queries(): TelephonyQueries {
    return new TelephonyQueries(this.#state, this.#context.directory)
  }

  /**
   * Runs the command after the ones already queued, at the clock's time; resolves once its state is stored
   * and its events published. Rejects with the engine's PlatformError (nothing changed) or the store's error
   * (nothing changed either: the state stays the last stored one).
   */
  execute(command: EngineCommand): Promise<CommandResult> {
    return this.#enqueue(() => {
      const now = this.#clock.now()
      return this.#commit(execute(this.#state, command, now, this.#context), now)
    })
  }

  /**
   * Publishes the user's telephonic state as an OnTelephonyState event (POST /telephony/state/snapshot;
   * wire facts 6), after the commands queued so far, so that it follows their events on the channel.
   */
  snapshot(loginName: string): Promise<void> {
    return this.#enqueue(async () => {
      const state = this.queries.telephonicState(loginName)
      this.#events.publish({ eventName: 'OnTelephonyState', loginName, state })
    })
  }

  /** Resolves once every command queued so far (timers' included) is done. */
  async idle(): Promise<void> {
    await this.#queue
  }

  /** Stops running timers and accepting commands; resolves once the queued commands are done. */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#armed?.timer.cancel()
    this.#armed = undefined
    await this.#queue.catch(() => {})
  }

  #enqueue<T>(job: () => Promise<T>): Promise<T> {
    if (this.#stopped) return Promise.reject(new Error('The telephony service is stopped'))
    const run = this.#queue.then(job, job)
    this.#queue = run.catch(() => {})
    return run
  }

  /**
   * Stores the new state (with the log's records of the calls users left), makes it current, publishes
   * the events and re-arms the timer.
   */
  async #commit(
    { state: next, events, changes, callRef }: EngineResult,
    now: number,
  ): Promise<CommandResult> {
    const log = this.#recorder?.observe(events, now)
    let records: readonly StoredComRecord[] = []
    if (log !== undefined && log.drafts.length > 0)
      records = await this.#store.saveWithRecords(next, changes, log.drafts)
    else await this.#store.save(next, changes)
    log?.commit()
    const before = this.#state
    this.#state = next
    for (const event of events) this.#events.publish(event)
    this.#onCommitted?.({ before, after: next, events, changes, records })
    this.#arm()
    return { ...(callRef !== undefined && { callRef }), events }
  }

  /** Keeps one clock timer armed for the earliest pending engine timer. */
  #arm(): void {
    if (this.#stopped) return
    const at = earliest(this.#state.timers)
    if (this.#armed?.at === at) return
    this.#armed?.timer.cancel()
    this.#armed = undefined
    if (at === undefined) return
    const timer = this.#clock.setTimer(Math.max(0, at - this.#clock.now()), () => {
      if (this.#armed?.timer === timer) this.#armed = undefined
      this.#enqueue(() => this.#runDueTimers()).catch(() => {})
    })
    this.#armed = { at, timer }
  }

  /** Runs the due timers, earliest first, each as a command of its own; a timer leaves the state as it runs. */
  async #runDueTimers(): Promise<void> {
    for (;;) {
      const now = this.#clock.now()
      const due = nextDue(this.#state.timers, now)
      if (due === undefined || this.#stopped) break
      const base: TelephonyState = {
        ...this.#state,
        timers: this.#state.timers.filter((timer) => timer !== due),
      }
      let result: EngineResult
      try {
        result = execute(base, due.command, now, this.#context)
      } catch (error) {
        this.#onTimerError(error, due)
        // The timer leaves the state all the same (a state that differs by its timers only).
        result = { state: base, events: [], changes: { changedCallRefs: [], removedCallRefs: [] } }
      }
      await this.#commit(result, now)
    }
    this.#arm()
  }
}

/** The time of the earliest timer. */
function earliest(timers: readonly PendingTimer[]): number | undefined {
  let at: number | undefined
  for (const timer of timers) if (at === undefined || timer.at < at) at = timer.at
  return at
}

/** The earliest timer due at `now` (the first scheduled among equals). */
function nextDue(timers: readonly PendingTimer[], now: number): PendingTimer | undefined {
  let due: PendingTimer | undefined
  for (const timer of timers)
    if (timer.at <= now && (due === undefined || timer.at < due.at)) due = timer
  return due
}

/** The state with the devices it lacks added (a directory changed between two starts). */
function withDevices(state: TelephonyState, devices: readonly DeviceRecord[]): TelephonyState {
  const missing = devices.filter((device) => !Object.hasOwn(state.devices, device.deviceId))
  if (missing.length === 0) return state
  const added = Object.fromEntries(missing.map((device) => [device.deviceId, device]))
  return { ...state, devices: { ...state.devices, ...added } }
}
