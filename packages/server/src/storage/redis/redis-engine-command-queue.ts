/**
 * The way to the call engine's owner across nodes (docs/cluster-engine.md, "Commands from other nodes"): a node
 * adds each request to the stream `engine:commands` (`XADD`, on its ordinary client, so that its requests keep the
 * order it submitted them in) and waits for the answer on its reply channel, `node:{nodeId}:replies`, to which it
 * holds one subscribed connection; the owner reads the stream (redis-engine-command-consumer.ts). Nodes need no
 * address of each other. An answer published while the subscription was down is not lost for good: at its bound, a
 * request still waiting reads the answer remembered under its id before it gives up.
 */
import type { Redis } from 'ioredis'
import { SystemClock } from '../../clock/system-clock.js'
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
  settleEngineOutcome,
} from '../../platform/telephony/engine-request.js'
import { EngineRequestTimeoutError } from '../../platform/telephony/engine-request-timeout-error.js'
import {
  DEFAULT_ENGINE_ANSWER_RETENTION_MS,
  DEFAULT_ENGINE_REQUEST_TIMEOUT_MS,
  type EngineCommandQueueTiming,
  requestDeadline,
} from '../memory/memory-engine-command-queue.js'
import {
  ENGINE_COMMANDS_KEY,
  engineAnswerKey,
  entryFields,
  type Reply,
  replyChannel,
} from './engine-command-stream.js'
import { RedisEngineCommandConsumer } from './redis-engine-command-consumer.js'

/** A node's side of the queue. */
export interface RedisEngineCommandQueueOptions extends EngineCommandQueueTiming {
  /** This node's id: its reply channel, and its name as the group's consumer. */
  nodeId: string
  /**
   * The clock of the bounds: the system's (the default), never the service's adjustable clock, which the
   * control plane moves ahead and which would time every waiting request out at once.
   */
  clock?: Clock
  /** Longest time the owner's read blocks before it is sent again; 30 s by default. */
  blockMs?: number
  /** Told of a failed read, answer or reply; the queue goes on. */
  onError?: (error: unknown) => void
}

interface Waiter {
  resolve(answer: EngineAnswer): void
  reject(error: unknown): void
  timer: Timer
}

export class RedisEngineCommandQueue implements EngineCommandQueue {
  readonly #waiters = new Map<string, Waiter>()
  readonly #clock: Clock
  readonly #timeoutMs: number
  #consumer: RedisEngineCommandConsumer | undefined
  #closed = false

  private constructor(
    private readonly client: Redis,
    private readonly subscriber: Redis,
    private readonly options: RedisEngineCommandQueueOptions,
  ) {
    this.#clock = options.clock ?? new SystemClock()
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_ENGINE_REQUEST_TIMEOUT_MS
  }

  /** Subscribes the node's reply channel on a connection of its own. */
  static async open(
    client: Redis,
    options: RedisEngineCommandQueueOptions,
  ): Promise<RedisEngineCommandQueue> {
    const subscriber = client.duplicate({
      connectionName: `openness-engine-replies-${options.nodeId}`,
      lazyConnect: true,
    })
    await subscriber.connect()
    const queue = new RedisEngineCommandQueue(client, subscriber, options)
    subscriber.on('message', (_channel: string, message: string) => queue.#onReply(message))
    await subscriber.subscribe(replyChannel(client, options.nodeId))
    return queue
  }

  submit(requestId: string, request: EngineRequest): Promise<EngineAnswer> {
    if (this.#closed) return Promise.reject(new Error('The engine command queue is closed'))
    if (this.#waiters.has(requestId))
      return Promise.reject(new Error(`Request ${requestId} is waiting for its answer already`))
    return new Promise((resolve, reject) => {
      const timer = this.#clock.setTimer(this.#timeoutMs, () => void this.#onTimeout(requestId))
      this.#waiters.set(requestId, { resolve, reject, timer })
      const deadline = requestDeadline(this.#clock.now(), this.#timeoutMs)
      const fields = entryFields({ requestId, nodeId: this.options.nodeId, deadline, request })
      this.client.xadd(ENGINE_COMMANDS_KEY, '*', ...fields).catch((error: unknown) => {
        this.#take(requestId)
        reject(error)
      })
    })
  }

  async consume(handler: EngineRequestHandler): Promise<EngineCommandConsumer> {
    if (this.#closed) throw new Error('The engine command queue is closed')
    const consumer = await RedisEngineCommandConsumer.start(this.client, handler, {
      nodeId: this.options.nodeId,
      clock: this.#clock,
      answerRetentionMs: this.options.answerRetentionMs ?? DEFAULT_ENGINE_ANSWER_RETENTION_MS,
      blockMs: this.options.blockMs ?? 30_000,
      connectionName: `openness-engine-commands-${this.options.nodeId}`,
      onError: this.options.onError ?? (() => {}),
    })
    this.#consumer = consumer
    return consumer
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#consumer?.abandon()
    this.subscriber.disconnect()
    for (const requestId of [...this.#waiters.keys()])
      this.#take(requestId)?.reject(
        new Error(`The engine command queue closed before request ${requestId} was answered`),
      )
  }

  #onReply(message: string): void {
    let reply: Reply
    try {
      reply = JSON.parse(message) as Reply
    } catch (error) {
      this.options.onError?.(error)
      return
    }
    this.#settle(reply.requestId, reply.outcome)
  }

  /** At the bound: the answer remembered, if the reply was missed, else the timeout. */
  async #onTimeout(requestId: string): Promise<void> {
    if (!this.#waiters.has(requestId)) return
    let remembered: string | null = null
    try {
      remembered = await this.client.get(engineAnswerKey(requestId))
    } catch (error) {
      this.options.onError?.(error)
    }
    if (remembered !== null) this.#settle(requestId, JSON.parse(remembered) as EngineOutcome)
    else this.#take(requestId)?.reject(new EngineRequestTimeoutError(requestId, this.#timeoutMs))
  }

  #settle(requestId: string, outcome: EngineOutcome): void {
    const waiter = this.#take(requestId)
    if (waiter === undefined) return
    try {
      waiter.resolve(settleEngineOutcome(outcome))
    } catch (error) {
      waiter.reject(error)
    }
  }

  /** The request's waiter, no longer waiting. */
  #take(requestId: string): Waiter | undefined {
    const waiter = this.#waiters.get(requestId)
    if (waiter === undefined) return undefined
    this.#waiters.delete(requestId)
    waiter.timer.cancel()
    return waiter
  }
}
