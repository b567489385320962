/**
 * The failure of a request forwarded to the call engine's owner that got no answer within its bound
 * (docs/cluster-engine.md, "Commands from other nodes"): no node owns the engine right now (a failover under way),
 * or the owner is too slow. The owner does not start a request past its bound, so a request that timed out was not
 * run, unless the owner started it just before the bound: the gateway answers 503 with Retry-After.
 */
export class EngineRequestTimeoutError extends Error {
  override readonly name = 'EngineRequestTimeoutError'

  /**
   * @param requestId the request that got no answer
   * @param timeoutMs how long its node waited
   */
  constructor(
    readonly requestId: string,
    readonly timeoutMs: number,
  ) {
    super(`The call engine did not answer request ${requestId} within ${timeoutMs} ms`)
  }
}
