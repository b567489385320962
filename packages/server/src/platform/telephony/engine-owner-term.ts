/**
 * One term of a node as the call engine's owner (docs/cluster-engine.md, "The engine on every node"): the
 * engine's runtime over the call store fenced by the term, the publisher of its stored batches on the change
 * feed, and the consumer of the requests other nodes forward, each answered with the batch that stored it. A
 * term ends gracefully (a stop: the requests taken are answered, the commands under way stored, the term given
 * up) or is abandoned (the lease lost it: nothing more is answered, and the engine's saves are refused by the
 * fence, so what is under way is the next owner's to run).
 */
import type { CallLogRecorder } from '../comlog/call-log-recorder.js'
import type { CallStore } from './call-store.js'
import type { EngineCommandConsumer, EngineCommandQueue } from './engine-command-queue.js'
import { EngineFencedError } from './engine-fenced-error.js'
import type { EngineOwnership } from './engine-lease.js'
import type { EngineRequestHandler } from './engine-request.js'
import {
  type BatchPublication,
  type StoredBatch,
  TelephonyService,
  type TelephonyServiceOptions,
} from './telephony-service.js'

/** The engine's settings and hooks, the same for every term. */
export interface EngineOptions
  extends Omit<TelephonyServiceOptions, 'store' | 'onStored' | 'recorder'> {
  /** A new recorder of the communication log for each term: each engine seeds its own from what it loads. */
  recorder?: () => CallLogRecorder
}

/** Publishes a term's stored batches on the change feed (storage/engine-batch-publisher.ts). */
export interface BatchPublisher {
  /**
   * Told of each batch once stored (TelephonyServiceOptions.onStored): its publication, queued (its events
   * may be appended) then held (its clients may be told).
   */
  readonly stored: (stored: StoredBatch) => BatchPublication
  /** Resolves once every batch told so far is published (or reported as failed). */
  idle(): Promise<void>
}

/** Told of a failure no caller waits for, with what failed. */
export type ErrorReporter = (error: unknown, what: string) => void

/** What a term runs on. */
export interface OwnerTermParts {
  term: EngineOwnership
  /** The call store of the term: fenced by it in cluster mode. */
  store: CallStore
  engine: EngineOptions
  queue: EngineCommandQueue
  /** The term's publisher; none in the embedded mode, where no node follows. */
  publisher?: BatchPublisher
  report: ErrorReporter
}

export class OwnerTerm {
  readonly term: EngineOwnership
  /** The engine the node runs commands on directly while the term lasts. */
  readonly service: TelephonyService
  readonly #parts: OwnerTermParts
  readonly #consumer: EngineCommandConsumer

  private constructor(
    parts: OwnerTermParts,
    service: TelephonyService,
    consumer: EngineCommandConsumer,
  ) {
    this.term = parts.term
    this.#parts = parts
    this.service = service
    this.#consumer = consumer
  }

  /**
   * Starts the engine on the stored state (TelephonyService.start loads it: every batch an earlier owner
   * answered is in it), then consumes the requests of other nodes, those an earlier owner left first. Rejects,
   * having stopped what it started, when either fails.
   */
  static async start(parts: OwnerTermParts): Promise<OwnerTerm> {
    const { recorder, onTimerError, ...engine } = parts.engine
    let service: TelephonyService | undefined
    try {
      service = await TelephonyService.start({
        ...engine,
        store: parts.store,
        ...(recorder && { recorder: recorder() }),
        ...(parts.publisher && { onStored: parts.publisher.stored }),
        // A timer whose batch the fence refused is the next owner's: it loads it, and fires it.
        onTimerError: (error, timer) => {
          if (!(error instanceof EngineFencedError)) onTimerError?.(error, timer)
        },
      })
      const consumer = await parts.queue.consume(answerOn(service))
      return new OwnerTerm(parts, service, consumer)
    } catch (error) {
      if (service !== undefined) await settle(service.stop(), parts.report, 'stopping the engine')
      await settle(parts.store.close(), parts.report, "closing the term's call store")
      throw error
    }
  }

  /** A graceful end: answers the requests taken, stores the commands under way, then gives the term up. */
  async resign(): Promise<void> {
    const { report } = this.#parts
    await settle(this.#consumer.stop(), report, 'stopping the engine command consumer')
    await this.#stopEngine()
    await settle(this.term.release(), report, 'giving the engine lease up')
  }

  /**
   * The term was lost: takes no more requests and answers none of those under way (the next owner runs them),
   * and stops the engine, whose saves under way the fence refuses, failing their commands with
   * EngineFencedError. Never rejects: failures are reported.
   */
  async abandon(): Promise<void> {
    await settle(this.#consumer.abandon(), this.#parts.report, 'abandoning the engine commands')
    await this.#stopEngine()
  }

  async #stopEngine(): Promise<void> {
    const { report, publisher, store } = this.#parts
    await settle(this.service.stop(), report, 'stopping the engine')
    if (publisher !== undefined) await publisher.idle()
    await settle(store.close(), report, "closing the term's call store")
  }
}

/**
 * The owner's handler of forwarded requests: runs each on the engine and answers with the number of the batch
 * that stored it; a request the stored state remembers as run (TelephonyState.answered) is answered from there. When a command resolves, its whole batch is the engine's state (the batch's commands are
 * settled in one step), so the state's number is the command's batch, or a later one: a replica that shows it
 * shows the command.
 */
export function answerOn(service: TelephonyService): EngineRequestHandler {
  return async (request, requestId) => {
    // Run already, by an owner that stored it and died before answering: its answer, not a second run.
    const done = service.state.answered?.find((answered) => answered.requestId === requestId)
    if (done !== undefined) {
      const result = { ...(done.callRef !== undefined && { callRef: done.callRef }), events: [] }
      return { result, batch: service.state.batch ?? 0 }
    }
    const result =
      request.kind === 'command'
        ? await service.execute(request.command, requestId)
        : await service.snapshot(request.loginName).then(() => ({ events: [] }))
    return { result, batch: service.state.batch ?? 0 }
  }
}

/** Awaits `promise`, telling `report` of its failure rather than throwing it. */
export async function settle(
  promise: Promise<unknown>,
  report: ErrorReporter,
  what: string,
): Promise<void> {
  try {
    await promise
  } catch (error) {
    report(error, `${what} failed`)
  }
}
