/**
 * The way to the call engine's owner within one process (the embedded mode, where the node owns the engine,
 * and the model the Redis adapter is held to): a request submitted while a consumer runs is handed to it at
 * once, a direct call, so that requests reach the engine in the order they were submitted; one submitted while
 * none runs waits for the next consumer, within its bound. Answers are remembered by request id for a while,
 * and a request taken by a consumer that was abandoned is taken over by the next.
 */
import type { Clock, Timer } from '../../platform/events.js'
import type {
  EngineCommandConsumer,
  EngineCommandQueue,
} from '../../platform/telephony/engine-command-queue.js'
import {
  type EngineAnswer,
  type EngineOutcome,
  type EngineRequest,
  type EngineRequestHandler,
  runEngineRequest,
  settleEngineOutcome,
} from '../../platform/telephony/engine-request.js'
import { EngineRequestTimeoutError } from '../../platform/telephony/engine-request-timeout-error.js'

/** How long a node waits for the owner's answer by default: longer than a failover (~1 s). */
export const DEFAULT_ENGINE_REQUEST_TIMEOUT_MS = 5_000
/**
 * The owner starts a request no later than this before its submitter gives up (its deadline is the bound less
 * this), so that a request it started has the time to be stored and answered: a submitter that answers 503
 * after its bound can tell its client that the command was not run. A batch takes milliseconds; a second is
 * ample, also on a loaded machine.
 */
export const ENGINE_REQUEST_START_MARGIN_MS = 1_000

/** The latest time the owner may start a request submitted at `now` whose submitter waits `timeoutMs`. */
export function requestDeadline(now: number, timeoutMs: number): number {
  return now + Math.max(timeoutMs / 2, timeoutMs - ENGINE_REQUEST_START_MARGIN_MS)
}

/** How long an answer is remembered by default, for a request taken again after its owner died. */
export const DEFAULT_ENGINE_ANSWER_RETENTION_MS = 5 * 60_000

/** The bounds of a queue. */
export interface EngineCommandQueueTiming {
  /** How long a submitter waits for the answer; the owner does not start a request older than that. */
  timeoutMs?: number
  /** How long an answer is remembered by its request id. */
  answerRetentionMs?: number
}

/** A request submitted and not yet acknowledged. */
interface Entry {
  requestId: string
  request: EngineRequest
  deadline: number
  takenBy: MemoryEngineCommandConsumer | undefined
}

interface Waiter {
  resolve(answer: EngineAnswer): void
  reject(error: unknown): void
  timer: Timer
}

export class MemoryEngineCommandQueue implements EngineCommandQueue {
  readonly #clock: Clock
  readonly #timeoutMs: number
  readonly #retentionMs: number
  /** Submitted and not acknowledged, in the order submitted. */
  #entries: Entry[] = []
  /** Answers by request id, oldest first (all are kept equally long). */
  readonly #answers = new Map<string, { outcome: EngineOutcome; forgetAt: number }>()
  readonly #waiters = new Map<string, Waiter>()
  #consumer: MemoryEngineCommandConsumer | undefined
  #closed = false

  constructor(options: { clock: Clock } & EngineCommandQueueTiming) {
    this.#clock = options.clock
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_ENGINE_REQUEST_TIMEOUT_MS
    this.#retentionMs = options.answerRetentionMs ?? DEFAULT_ENGINE_ANSWER_RETENTION_MS
  }

  submit(requestId: string, request: EngineRequest): Promise<EngineAnswer> {
    if (this.#closed) return Promise.reject(new Error('The engine command queue is closed'))
    if (this.#waiters.has(requestId))
      return Promise.reject(new Error(`Request ${requestId} is waiting for its answer already`))
    return new Promise((resolve, reject) => {
      const timer = this.#clock.setTimer(this.#timeoutMs, () => {
        this.#waiters.delete(requestId)
        reject(new EngineRequestTimeoutError(requestId, this.#timeoutMs))
      })
      this.#waiters.set(requestId, { resolve, reject, timer })
      const entry: Entry = {
        requestId,
        request,
        deadline: requestDeadline(this.#clock.now(), this.#timeoutMs),
        takenBy: undefined,
      }
      this.#entries.push(entry)
      if (this.#consumer?.isRunning) this.#consumer.take(entry)
    })
  }

  async consume(handler: EngineRequestHandler): Promise<EngineCommandConsumer> {
    if (this.#closed) throw new Error('The engine command queue is closed')
    if (this.#consumer?.isRunning) throw new Error('A consumer runs already')
    const consumer = new MemoryEngineCommandConsumer(this, handler)
    this.#consumer = consumer
    // The requests a consumer took and will never answer (abandoned), then those none took, in order.
    for (const entry of this.#entries)
      if (entry.takenBy === undefined || entry.takenBy.isAbandoned) consumer.take(entry)
    return consumer
  }

  async close(): Promise<void> {
    this.#closed = true
    await this.#consumer?.abandon()
    for (const [requestId, waiter] of this.#waiters) {
      waiter.timer.cancel()
      waiter.reject(
        new Error(`The engine command queue closed before request ${requestId} was answered`),
      )
    }
    this.#waiters.clear()
  }

  /** @internal The answer remembered for the request, if any. */
  remembered(requestId: string): EngineOutcome | undefined {
    this.#forgetOld()
    return this.#answers.get(requestId)?.outcome
  }

  /** @internal Whether the owner may still start the request (its submitter still waits). */
  isDue(entry: Entry): boolean {
    return this.#clock.now() < entry.deadline
  }

  /** @internal Remembers the answer, acknowledges the request and tells its submitter. */
  answer(entry: Entry, outcome: EngineOutcome): void {
    this.#forgetOld()
    this.#answers.delete(entry.requestId)
    this.#answers.set(entry.requestId, {
      outcome,
      forgetAt: this.#clock.now() + this.#retentionMs,
    })
    this.acknowledge(entry)
    const waiter = this.#waiters.get(entry.requestId)
    if (waiter === undefined) return
    this.#waiters.delete(entry.requestId)
    waiter.timer.cancel()
    try {
      waiter.resolve(settleEngineOutcome(outcome))
    } catch (error) {
      waiter.reject(error)
    }
  }

  /** @internal Forgets the request, answered or not to be run. */
  acknowledge(entry: Entry): void {
    this.#entries = this.#entries.filter((other) => other !== entry)
  }

  /** How many requests were submitted and not acknowledged (tests). */
  get unacknowledged(): number {
    return this.#entries.length
  }

  /** How many answers are remembered (tests). */
  get rememberedCount(): number {
    this.#forgetOld()
    return this.#answers.size
  }

  #forgetOld(): void {
    const now = this.#clock.now()
    for (const [requestId, { forgetAt }] of this.#answers) {
      if (forgetAt > now) return
      this.#answers.delete(requestId)
    }
  }
}

/** One term of consuming: runs each request it takes and answers it, until stopped or abandoned. */
class MemoryEngineCommandConsumer implements EngineCommandConsumer {
  readonly #queue: MemoryEngineCommandQueue
  readonly #handler: EngineRequestHandler
  readonly #underWay = new Set<Promise<void>>()
  #state: 'running' | 'stopping' | 'abandoned' = 'running'

  constructor(queue: MemoryEngineCommandQueue, handler: EngineRequestHandler) {
    this.#queue = queue
    this.#handler = handler
  }

  get isRunning(): boolean {
    return this.#state === 'running'
  }

  get isAbandoned(): boolean {
    return this.#state === 'abandoned'
  }

  /** Runs the request now (the handler is called before this returns: order is kept) and answers it later. */
  take(entry: Entry): void {
    entry.takenBy = this
    const remembered = this.#queue.remembered(entry.requestId)
    if (remembered === undefined && !this.#queue.isDue(entry)) {
      this.#queue.acknowledge(entry)
      return
    }
    const outcome =
      remembered === undefined
        ? runEngineRequest(this.#handler, entry.request, entry.requestId)
        : Promise.resolve(remembered)
    const finishing = outcome.then((settled) => {
      this.#underWay.delete(finishing)
      if (this.#state === 'abandoned' || settled === undefined) {
        if (entry.takenBy === this) entry.takenBy = undefined
        return
      }
      this.#queue.answer(entry, settled)
    })
    this.#underWay.add(finishing)
  }

  async stop(): Promise<void> {
    if (this.#state === 'running') this.#state = 'stopping'
    while (this.#underWay.size > 0) await Promise.all(this.#underWay)
  }

  async abandon(): Promise<void> {
    this.#state = 'abandoned'
  }
}
