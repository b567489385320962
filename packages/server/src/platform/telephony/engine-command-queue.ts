/**
 * The port of the requests other nodes forward to the call engine's owner (docs/cluster-engine.md, "Commands from
 * other nodes").
 */
import type { EngineAnswer, EngineRequest, EngineRequestHandler } from './engine-request.js'

/**
 * The way to the call engine's owner (docs/cluster-engine.md, "Commands from other nodes"): any node submits
 * engine requests, the owner consumes them in the order each node submitted them, runs each once and answers the
 * node that submitted it. A request submitted while no node consumes waits for the next owner, within its bound;
 * one the owner took but never answered (it died) is taken over by the next owner, and one answered already is
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
   * docs/cluster-engine.md, "Commands from other nodes", says how rare that is).
   */
  abandon(): Promise<void>
}
