/**
 * The runtime around the pure call engine (design section 2; issue 4 items 4 and 5): it holds the current
 * state, runs commands one at a time, stores their states, then publishes their events, and keeps one clock
 * timer armed for the earliest pending engine timer, whose command it runs when due. Started over a stored
 * state, it re-arms that state's timers: calls and timers survive a restart.
 *
 * Group commit (docs/call-model.md, "Runtime and storage of calls"): a command runs at once on the state the
 * commands before it left (the head), and waits for its batch to be stored; the commands that run while a
 * batch is stored, or in the same turn of the event loop, form the next batch, stored in one transaction (a
 * store whose commits cost nothing, in memory, does not wait for the turn's end: CallStore.groupCommit).
 * Nothing is published and no command resolves before its batch is stored; a batch that fails to be stored
 * fails its commands and those run after them, and the state goes back to the last one stored.
 *
 * In a cluster a batch stores its events too, until they are known published (`TelephonyState.unpublished`, a
 * transactional outbox): an owner that dies between a batch's commit and its events' appends leaves them to the
 * next owner, which publishes them again at its start, each with its origin (event-origin.ts), so that every log
 * takes each event once.
 */

import type { CallLogRecorder } from '../comlog/call-log-recorder.js'
import type { ComRecordDraft, StoredComRecord } from '../comlog/com-record.js'
import type { Clock, EventSink, PlatformEvent, Timer } from '../events.js'
import { type EngineMetrics, NO_ENGINE_METRICS } from '../platform-metrics.js'
import type { RoutingLookup } from '../routing/routing-profile.js'
import type { CallChanges } from './call-changes.js'
import { callChanges, mergeCallChanges } from './call-changes.js'
import { execute } from './call-engine.js'
import { allCalls } from './call-index.js'
import { newCallRefKey } from './call-refs.js'
import type { CallStore } from './call-store.js'
import {
  DEFAULT_ENGINE_SETTINGS,
  type EngineContext,
  type EngineResult,
  type EngineSettings,
} from './engine-operation.js'
import { eventOrigin } from './event-origin.js'
import { type FileHuntingGroups, freshEngineState } from './restored-state.js'
import type { CommandResult, Telephony } from './telephony.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import { TelephonyQueries } from './telephony-queries.js'
import {
  type DeviceRecord,
  type EngineCommand,
  initialState,
  type PendingTimer,
  type TelephonyState,
  type UnpublishedBatch,
  withAnswered,
} from './telephony-state.js'

/** The most commands stored in one transaction; the others wait for the next. */
const MAX_BATCH = 256
/** After a batch failed to be stored, how long the timers wait before they run again (not in a tight loop). */
const STORE_RETRY_MS = 1_000
const NO_CHANGES: CallChanges = { changedCallRefs: [], removedCallRefs: [] }

/** What the service needs. */
export interface TelephonyServiceOptions {
  store: CallStore
  directory: TelephonyDirectory
  clock: Clock
  events: EventSink
  /** The devices of the directory: all of them at first start; the missing ones are added at a restart. */
  devices: readonly DeviceRecord[]
  /**
   * The directory file's hunting groups, which a state made at first start has (everyone logged on); later
   * they follow the file through engine-groups.ts.
   */
  huntingGroups?: FileHuntingGroups
  /**
   * Makes the key of the callRefs (call-refs.ts) of a state that has none: a new one, or one stored before
   * callRefs were scrambled. Random by default; a test that wants the same callRefs at every run gives a
   * constant.
   */
  newCallRefKey?: () => string
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
  /**
   * Numbers the batches and is told of each once it is stored, before its commands are published or
   * resolved (cluster mode: the owner publishes it to the engine's change feed). With it, each state stored
   * carries its batch's number (`TelephonyState.batch`, one more than the stored state's); without it
   * nothing is numbered and every save writes what it wrote before. When it returns a promise (never
   * rejected), the batch's events and answers wait for it: a client told of a call by the owner finds it on
   * any node that catches up with the feed. When it returns a `BatchPublication`, the events wait for its
   * `queued` only (their appends then land after the feed's entry), the answers and the state for `held`.
   */
  onStored?: (stored: StoredBatch) => void | Promise<void> | BatchPublication
  /**
   * Resolves once every event published so far is in the subscriptions' logs (cluster mode, with `onStored`:
   * LoggedSubscriptionOutlets.settled). With it, each stored state carries the events of the batches not yet
   * known published (`TelephonyState.unpublished`), and a start publishes again those of the state it loads.
   */
  published?: () => Promise<void>
  /** Told of each command run here, asked or a timer's, and how it ended (the node's metrics). */
  metrics?: EngineMetrics
}

/** One batch as stored: what a replica needs to follow it. */
export interface StoredBatch {
  /** The batch's number, also in `after.batch`. */
  batch: number
  /** The state stored before it (undefined for the first state ever stored). */
  before: TelephonyState | undefined
  after: TelephonyState
  /** The calls the batch's commands added, changed or removed. */
  changes: CallChanges
}

/**
 * A stored batch's publication on the change feed, in two steps (EngineBatchPublisher.stored); neither
 * rejects. `queued`: the events published from then on reach the subscriptions' logs after the feed's entry.
 * `held`: the feed holds the entry; only then may a client be answered or the state be read.
 */
export interface BatchPublication {
  queued: Promise<void>
  held: Promise<void>
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
  /** The command's type (`makeCall`, `release`, `ringingTimeout`...); absent for a snapshot's step. */
  command?: EngineCommand['type']
  /**
   * Set when the command was a reset's or restore's `restoreState` (restored-state.ts): the calls it removed
   * did not end, they never were (no voice message is left, no record written).
   */
  restored?: true
}

/** A command run on the head state, waiting for its batch to be stored. */
interface Step {
  before: TelephonyState
  after: TelephonyState
  events: readonly PlatformEvent[]
  changes: CallChanges
  /** The records of the log the command wrote, stored with its batch. */
  drafts: readonly ComRecordDraft[]
  /** Set for a `restoreState` command's step (Committed.restored). */
  restored?: true
  /** The command's type (Committed.command). */
  command?: EngineCommand['type']
  /** Called once the batch is stored and the step's events published, with the step's records. */
  done(records: readonly StoredComRecord[]): void
  /** Called when the batch could not be stored: nothing of the step happened. */
  fail(error: unknown): void
}

/** How a command's step ends, and what it was (Step's own fields). */
type Outcome = Pick<Step, 'done' | 'fail' | 'restored' | 'command'>

export class TelephonyService implements Telephony {
  readonly #store: CallStore
  readonly #clock: Clock
  readonly #events: EventSink
  readonly #context: EngineContext
  readonly #onTimerError: (error: unknown, timer: PendingTimer) => void
  readonly #recorder: CallLogRecorder | undefined
  readonly #onCommitted: ((committed: Committed) => void) | undefined
  readonly #onStored: TelephonyServiceOptions['onStored']
  readonly #published: (() => Promise<void>) | undefined
  readonly #metrics: EngineMetrics
  /** Whether a batch waits for the end of the event loop's turn (CallStore.groupCommit). */
  readonly #groupCommit: boolean
  /** The batches published whose events are not yet known to be in the logs, oldest first. */
  #unconfirmed: readonly UnpublishedBatch[] = []
  /** The state last stored, which queries read. */
  #state: TelephonyState
  /** The state after every command run, stored or not: the next command runs on it. */
  #head: TelephonyState
  /** The commands run and not yet taken into a batch, in order. */
  #pending: Step[] = []
  /** The flush under way (scheduled or storing batches), until no command is left pending. */
  #flushing: Promise<void> | undefined
  /** The timers run no earlier than this after a batch failed to be stored. */
  #retryAt = Number.NEGATIVE_INFINITY
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
    this.#onStored = options.onStored
    this.#published = options.onStored && options.published
    this.#metrics = options.metrics ?? NO_ENGINE_METRICS
    this.#groupCommit = options.store.groupCommit ?? true
    this.#state = state
    this.#head = state
  }

  /**
   * Loads the stored state (or starts from the directory's devices), adds the directory's devices the
   * stored state lacks, stores it, and arms the earliest pending timer (at once when already due).
   */
  static async start(options: TelephonyServiceOptions): Promise<TelephonyService> {
    const loaded = await options.store.load()
    const newKey = options.newCallRefKey ?? newCallRefKey
    let state =
      loaded === undefined
        ? withFileGroups(initialState([...options.devices], newKey()), options.huntingGroups)
        : withCallRefKey(withDevices(loaded, options.devices), newKey)
    if (state !== loaded) {
      const changes = callChanges(loaded, state)
      if (options.onStored !== undefined) state = numbered(state, loaded)
      await options.store.save(state, changes)
      if (state.batch !== undefined)
        await heldOf(
          options.onStored?.({ batch: state.batch, before: loaded, after: state, changes }),
        )
    }
    const service = new TelephonyService(options, state)
    options.recorder?.seed(allCalls(state))
    service.#publishAgain(state.unpublished ?? [])
    service.#arm()
    return service
  }

  /** The state as last stored, for queries; never change it. */
  get state(): TelephonyState {
    return this.#state
  }

  /** Reads of the state as last stored, as users see it (telephony-queries.ts). */
  get queries(): TelephonyQueries {
    return new TelephonyQueries(this.#state, this.#context.directory)
  }

  /**
   * Runs the command after the ones asked before it, at the clock's time; resolves once its state is
   * stored and its events published. Rejects with the engine's PlatformError (nothing changed) or the
   * store's error (nothing changed either: the state goes back to the last one stored).
   */
  execute(command: EngineCommand, requestId?: string): Promise<CommandResult> {
    if (this.#stopped) return Promise.reject(stoppedError())
    // A request already run under this id (a client's retry with its Idempotency-Key, a forwarded request taken
    // again): its answer once its batch is stored, not a second run (docs/idempotency.md).
    if (requestId !== undefined && this.#head.answered !== undefined) {
      const done = this.#head.answered.find((answered) => answered.requestId === requestId)
      if (done !== undefined) return this.#answerAgain(command, requestId)
    }
    const ended = this.#metrics.engineCommandStarted(command.type)
    const now = this.#clock.now()
    let result: EngineResult
    try {
      result = execute(this.#head, command, now, this.#context)
    } catch (error) {
      ended('refused')
      return Promise.reject(error)
    }
    const { callRef, events } = result
    const restored = command.type === 'restoreState'
    // After a reset or restore the log follows the calls restored, as after a restart.
    if (restored) this.#recorder?.restart(allCalls(result.state))
    // A forwarded request is remembered in the state its batch stores (TelephonyState.answered).
    if (requestId !== undefined)
      result = { ...result, state: withAnswered(result.state, requestId, callRef) }
    return new Promise((resolve, reject) => {
      const outcome: Outcome = {
        command: command.type,
        done: () => {
          ended('done')
          resolve(commandResult(callRef, events))
        },
        fail: (error) => {
          ended('failed')
          reject(error)
        },
      }
      if (restored) outcome.restored = true
      this.#run(result, now, outcome)
    })
  }

  /**
   * Publishes the user's telephonic state as an OnTelephonyState event (POST /telephony/state/snapshot;
   * wire facts 6), after the commands asked so far, so that it follows their events on the channel.
   */
  snapshot(loginName: string): Promise<void> {
    if (this.#stopped) return Promise.reject(stoppedError())
    const at = this.#head
    return new Promise((resolve, reject) => {
      this.#push({
        before: at,
        after: at,
        events: [],
        changes: NO_CHANGES,
        drafts: [],
        done: () => {
          const state = new TelephonyQueries(at, this.#context.directory).telephonicState(loginName)
          this.#events.publish({ eventName: 'OnTelephonyState', loginName, state })
          resolve()
        },
        fail: reject,
      })
    })
  }

  /** Resolves once every command asked so far (timers' included) is stored and published, or failed. */
  async idle(): Promise<void> {
    while (this.#flushing !== undefined) await this.#flushing
  }

  /**
   * The answer of a request the head remembers as run: once the batches under way are stored, the call it made
   * as the stored state remembers it; run anew when its batch was not stored after all (the store refused it).
   */
  async #answerAgain(command: EngineCommand, requestId: string): Promise<CommandResult> {
    await this.idle()
    const done = this.#state.answered?.find((answered) => answered.requestId === requestId)
    if (done === undefined) return this.execute(command, requestId)
    return { ...(done.callRef !== undefined && { callRef: done.callRef }), events: [] }
  }

  /** Stops running timers and accepting commands; resolves once the commands already run are done. */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#armed?.timer.cancel()
    this.#armed = undefined
    await this.idle()
  }

  /**
   * Takes a command's result as the new head: follows it for the log and waits for its batch. The step is
   * written field by field, as the answer is (`commandResult`): object spreads into literals cost 40 ns to
   * 1 µs each, through V8's runtime, on a path taken several times a call.
   */
  #run({ state, events, changes }: EngineResult, now: number, outcome: Outcome): void {
    const step: Step = {
      before: this.#head,
      after: state,
      events,
      changes: outcome.restored ? { ...changes, restored: true } : changes,
      drafts: this.#recorder?.observe(events, now) ?? [],
      done: outcome.done,
      fail: outcome.fail,
    }
    if (outcome.command !== undefined) step.command = outcome.command
    if (outcome.restored) step.restored = true
    this.#push(step)
    this.#head = state
    this.#arm()
  }

  #push(step: Step): void {
    this.#pending.push(step)
    this.#flushing ??= this.#batchStart().then(() => this.#flush())
  }

  /**
   * When the first command of a batch is stored. With group commit, at the end of the event loop's turn: the
   * commands asked in the same turn (requests read together) join it. Otherwise (CallStore.groupCommit) once
   * the program's current run is over: the commands it asked join it, and none waits for a turn of the loop.
   */
  #batchStart(): Promise<void> {
    if (!this.#groupCommit) return Promise.resolve()
    return new Promise<void>((resolve) => setImmediate(resolve))
  }

  /** Stores the pending commands batch after batch, until none is left. */
  async #flush(): Promise<void> {
    for (;;) {
      const batch = this.#pending.splice(0, MAX_BATCH)
      if (batch.length === 0) {
        this.#flushing = undefined
        return
      }
      await this.#storeBatch(batch)
    }
  }

  /**
   * Stores the batch's last state, with the log's records of its commands, in one transaction; then, command
   * by command, makes its state current, publishes its events and settles it. Never rejects.
   */
  async #storeBatch(batch: Step[]): Promise<void> {
    const last = batch[batch.length - 1] as Step
    const drafts = batch.length === 1 ? last.drafts : batch.flatMap((step) => step.drafts)
    let records: readonly StoredComRecord[] = []
    const before = this.#state
    // The state stored: the last one of the batch, with its number when batches are numbered.
    let stored = last.after
    let changes: CallChanges | undefined
    // The batch's events, kept in its state until they are known published (cluster mode).
    const outbox = this.#published === undefined ? [] : batch.flatMap((step) => step.events)
    try {
      if (last.after !== before || outbox.length > 0) {
        changes = mergeCallChanges(batch.map((step) => step.changes))
        if (this.#onStored !== undefined) stored = numbered(last.after, before)
        stored = withUnpublished(stored, [
          ...this.#unconfirmed,
          ...(outbox.length > 0 && stored.batch !== undefined
            ? [{ batch: stored.batch, events: outbox }]
            : []),
        ])
        if (drafts.length > 0) records = await this.#store.saveWithRecords(stored, changes, drafts)
        else await this.#store.save(stored, changes)
      }
    } catch (error) {
      this.#revert(batch, error)
      return
    }
    // The origin of each event when the batch keeps them (its index among the batch's events).
    const numberedAs = outbox.length > 0 ? stored.batch : undefined
    // Whether the events went out before the answers (a publication in two steps).
    let told = false
    if (changes !== undefined && stored.batch !== undefined) {
      const publication = this.#onStored?.({ batch: stored.batch, before, after: stored, changes })
      if (isPublication(publication)) {
        // The events' appends follow the feed's entry without waiting for its answer (one round trip less
        // before a channel has them); the state and the answers wait for it.
        await publication.queued
        this.#publishEvents(batch, numberedAs)
        told = true
        await publication.held
      } else await publication
    }
    // The next commands run on the numbered state when none ran since, so that it is not stored again.
    if (stored !== last.after && this.#head === last.after) this.#head = stored
    let first = 0
    let index = 0
    for (const step of batch) {
      const stepRecords = records.slice(first, first + step.drafts.length)
      first += step.drafts.length
      this.#state = step === last ? stored : step.after
      if (!told)
        for (const event of step.events)
          if (numberedAs === undefined) this.#events.publish(event)
          else this.#events.publish(event, eventOrigin(numberedAs, index++))
      if (step.after !== step.before || step.events.length > 0)
        this.#onCommitted?.({
          before: step.before,
          after: step.after,
          events: step.events,
          changes: step.changes,
          records: stepRecords,
          ...(step.command && { command: step.command }),
          ...(step.restored && { restored: true }),
        })
      step.done(stepRecords)
    }
    if (numberedAs !== undefined)
      this.#confirmLater([...this.#unconfirmed, { batch: numberedAs, events: outbox }])
  }

  /** Publishes the batch's events, command after command, each with its origin when the batch keeps them. */
  #publishEvents(batch: readonly Step[], numberedAs: number | undefined): void {
    let index = 0
    for (const step of batch)
      for (const event of step.events)
        if (numberedAs === undefined) this.#events.publish(event)
        else this.#events.publish(event, eventOrigin(numberedAs, index++))
  }

  /**
   * Publishes again, each with its origin, the events a loaded state says may not have been published (its
   * previous owner died between a batch's commit and its events' appends); the logs take those they lack.
   */
  #publishAgain(unpublished: readonly UnpublishedBatch[]): void {
    if (this.#published === undefined || unpublished.length === 0) return
    for (const { batch, events } of unpublished)
      for (const [index, event] of events.entries())
        this.#events.publish(event, eventOrigin(batch, index))
    this.#confirmLater(unpublished)
  }

  /**
   * Keeps `unconfirmed` as the batches the next states store, until the events published so far are known
   * to be in the logs: then the batches published by then are forgotten. An append that failed was reported
   * by the delivery (the events lost for those subscriptions) and is not tried again.
   */
  #confirmLater(unconfirmed: readonly UnpublishedBatch[]): void {
    this.#unconfirmed = unconfirmed
    const through = unconfirmed[unconfirmed.length - 1]?.batch ?? 0
    this.#published?.().then(
      () => {
        this.#unconfirmed = this.#unconfirmed.filter((entry) => entry.batch > through)
      },
      () => {},
    )
  }

  /**
   * Fails the batch that could not be stored and every command run after it, puts the head back to the last
   * state stored and the log's recorder on its calls, and holds the timers for a while.
   */
  #revert(batch: Step[], error: unknown): void {
    const failed = [...batch, ...this.#pending.splice(0)]
    this.#head = this.#state
    this.#recorder?.restart(allCalls(this.#state))
    this.#retryAt = this.#clock.now() + STORE_RETRY_MS
    this.#arm()
    for (const step of failed) step.fail(error)
  }

  /** Keeps one clock timer armed for the earliest pending engine timer of the head state. */
  #arm(): void {
    if (this.#stopped) return
    const due = earliest(this.#head.timers)
    const at = due === undefined ? undefined : Math.max(due, this.#retryAt)
    if (this.#armed?.at === at) return
    this.#armed?.timer.cancel()
    this.#armed = undefined
    if (at === undefined) return
    const timer = this.#clock.setTimer(Math.max(0, at - this.#clock.now()), () => {
      if (this.#armed?.timer === timer) this.#armed = undefined
      this.#runDueTimers()
    })
    this.#armed = { at, timer }
  }

  /** Runs the due timers, earliest first, each as a command of its own; a timer leaves the state as it runs. */
  #runDueTimers(): void {
    for (;;) {
      const now = this.#clock.now()
      if (this.#stopped || now < this.#retryAt) break
      const due = nextDue(this.#head.timers, now)
      if (due === undefined) break
      const base: TelephonyState = {
        ...this.#head,
        timers: this.#head.timers.filter((timer) => timer !== due),
      }
      let ended = this.#metrics.engineCommandStarted(due.command.type)
      let result: EngineResult
      try {
        result = execute(base, due.command, now, this.#context)
      } catch (error) {
        ended('refused')
        ended = () => {}
        this.#onTimerError(error, due)
        // The timer leaves the state all the same (a state that differs by its timers only).
        result = { state: base, events: [], changes: NO_CHANGES }
      }
      this.#run(result, now, {
        command: due.command.type,
        done: () => ended('done'),
        fail: (error) => {
          ended('failed')
          this.#onTimerError(error, due)
        },
      })
    }
    this.#arm()
  }
}

/** A command's answer, without an object spread (see `#run`). */
function commandResult(
  callRef: string | undefined,
  events: readonly PlatformEvent[],
): CommandResult {
  return callRef === undefined ? { events } : { callRef, events }
}

function stoppedError(): Error {
  return new Error('The telephony service is stopped')
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

/** `state` with `unpublished` as the batches whose events it keeps (none: without the field). */
function withUnpublished(
  state: TelephonyState,
  unpublished: readonly UnpublishedBatch[],
): TelephonyState {
  if (unpublished.length > 0) return { ...state, unpublished: [...unpublished] }
  if (state.unpublished === undefined) return state
  const { unpublished: _, ...rest } = state
  return rest
}

/** The state as its batch stores it: numbered one more than the state stored before it. */
function numbered(state: TelephonyState, before: TelephonyState | undefined): TelephonyState {
  return { ...state, batch: (before?.batch ?? 0) + 1 }
}

/**
 * The state with a key for its callRefs when it has none (stored before callRefs were scrambled): stored with
 * it at start, so that every owner of the engine after this one goes on with the same key.
 */
function withCallRefKey(state: TelephonyState, newKey: () => string): TelephonyState {
  return state.callRefKey === undefined ? { ...state, callRefKey: newKey() } : state
}

/** The state with the devices it lacks added (a directory changed between two starts). */
/** The state with the file's hunting groups, everyone logged on, and their digest (engine-groups.ts). */
function withFileGroups(
  state: TelephonyState,
  file: FileHuntingGroups | undefined,
): TelephonyState {
  if (file === undefined) return state
  const { huntingGroups, huntingProvision } = freshEngineState([], file)
  return {
    ...state,
    ...(huntingGroups !== undefined && { huntingGroups }),
    ...(huntingProvision !== undefined && { huntingProvision }),
  }
}

function withDevices(state: TelephonyState, devices: readonly DeviceRecord[]): TelephonyState {
  const missing = devices.filter((device) => !Object.hasOwn(state.devices, device.deviceId))
  if (missing.length === 0) return state
  const added = Object.fromEntries(missing.map((device) => [device.deviceId, device]))
  return { ...state, devices: { ...state.devices, ...added } }
}

/** Whether an `onStored` answer is a publication in two steps. */
function isPublication(
  answer: void | Promise<void> | BatchPublication,
): answer is BatchPublication {
  return answer !== undefined && !(answer instanceof Promise)
}

/** What an `onStored` answer waits for before the answers: its promise, or its publication's `held`. */
function heldOf(answer: void | Promise<void> | BatchPublication): Promise<void> | undefined {
  return isPublication(answer) ? answer.held : answer || undefined
}
