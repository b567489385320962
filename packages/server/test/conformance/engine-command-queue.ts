/**
 * The EngineCommandQueue conformance suite (style guide 6; docs/cluster-engine.md, "Commands from other nodes"): a
 * request submitted on one node is run by the owner on another and answered to the first, refusals come back
 * as the same PlatformError, one node's requests keep their order, a request nobody consumes times out, the
 * next owner takes over what a dead owner never answered and runs it once, an answer is remembered rather than
 * run again, and nothing is left behind but what expires.
 */
import { expect, it } from 'vitest'
import { PlatformError } from '../../src/platform/platform-error.js'
import type { EngineCommandQueue } from '../../src/platform/telephony/engine-command-queue.js'
import type {
  EngineAnswer,
  EngineRequest,
  EngineRequestHandler,
} from '../../src/platform/telephony/engine-request.js'
import { EngineRequestTimeoutError } from '../../src/platform/telephony/engine-request-timeout-error.js'

/** The nodes of one cluster over the adapter, and what the suite needs around them. */
export interface EngineCommandQueueHandle {
  /** The queue of the node named (the same queue for the same name; one process: the same for all). */
  node(name: string): Promise<EngineCommandQueue>
  /** Lets `ms` milliseconds pass for the bounds (a virtual clock, or real time). */
  pass(ms: number): Promise<void>
  /** How many requests were submitted and not acknowledged. */
  unacknowledged(): Promise<number>
  /** The keys the adapter holds, with their time to live in ms (-1: none), where it has keys. */
  keys?: () => Promise<{ key: string; ttlMs: number }[]>
  close(): Promise<void>
}

/** The bounds the suite runs with, in milliseconds. */
export interface EngineCommandQueueBounds {
  timeoutMs: number
  answerRetentionMs: number
}

export type OpenEngineCommandQueues = (
  bounds: EngineCommandQueueBounds,
) => Promise<EngineCommandQueueHandle>

const makeCall = (callee: string): EngineRequest => ({
  kind: 'command',
  command: { type: 'makeCall', loginName: 'alice', deviceId: 'd1', callee, autoAnswer: false },
})

const answerTo = (request: EngineRequest, batch: number): EngineAnswer => ({
  result:
    request.kind === 'command' && request.command.type === 'makeCall'
      ? {
          callRef: `call-${request.command.callee}`,
          events: [{ eventName: 'OnCallCreated', loginName: 'alice' }],
        }
      : { events: [] },
  batch,
})

/** An owner's engine: records what it runs and answers each with the next batch number. */
class RecordingEngine {
  readonly ran: EngineRequest[] = []
  #batch = 0
  readonly handler: EngineRequestHandler = async (request) => {
    this.ran.push(request)
    this.#batch += 1
    return answerTo(request, this.#batch)
  }
}

/** An engine that takes requests and settles none until told: an owner that dies in the middle. */
class StalledEngine {
  readonly ran: EngineRequest[] = []
  readonly #took: (() => void)[] = []
  readonly handler: EngineRequestHandler = (request) => {
    this.ran.push(request)
    for (const resolve of this.#took.splice(0)) resolve()
    return new Promise<EngineAnswer>(() => {})
  }

  /** Resolves once the engine took a request. */
  took(): Promise<void> {
    if (this.ran.length > 0) return Promise.resolve()
    return new Promise((resolve) => this.#took.push(resolve))
  }
}

/** Waits, in small steps of the handle's time, until `done` holds (or fails after `steps`). */
async function until(
  handle: EngineCommandQueueHandle,
  done: () => boolean | Promise<boolean>,
  steps = 100,
): Promise<void> {
  for (let step = 0; step < steps; step++) {
    if (await done()) return
    await handle.pass(10)
  }
  throw new Error('the condition never held')
}

export function engineCommandQueueConformance(open: OpenEngineCommandQueues): void {
  const bounds: EngineCommandQueueBounds = { timeoutMs: 1_000, answerRetentionMs: 60_000 }

  async function withQueues(
    test: (handle: EngineCommandQueueHandle) => Promise<void>,
    given: EngineCommandQueueBounds = bounds,
  ): Promise<void> {
    const handle = await open(given)
    try {
      await test(handle)
    } finally {
      await handle.close()
    }
  }

  it('answers a request submitted on one node with what the owner on another ran', () =>
    withQueues(async (handle) => {
      const engine = new RecordingEngine()
      const owner = await (await handle.node('a')).consume(engine.handler)
      const answer = await (await handle.node('b')).submit('r1', makeCall('201'))
      expect(answer).toEqual(answerTo(makeCall('201'), 1))
      expect(engine.ran).toEqual([makeCall('201')])
      const snapshot = await (await handle.node('b')).submit('r2', {
        kind: 'snapshot',
        loginName: 'bob',
      })
      expect(snapshot).toEqual({ result: { events: [] }, batch: 2 })
      await owner.stop()
      expect(await handle.unacknowledged()).toBe(0)
    }))

  it('rejects a refused request with the PlatformError the engine threw', () =>
    withQueues(async (handle) => {
      const owner = await (await handle.node('a')).consume(async () => {
        throw new PlatformError('NOT_FOUND', 'No call call-9 for alice', 'callRef unknown', {
          loginName: 'alice',
        } as never)
      })
      const refusal = await (await handle.node('b'))
        .submit('r1', makeCall('202'))
        .catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(PlatformError)
      expect(refusal).toMatchObject({
        type: 'NOT_FOUND',
        message: 'No call call-9 for alice',
        innerMessage: 'callRef unknown',
        routing: { loginName: 'alice' },
      })
      await owner.stop()
      expect(await handle.unacknowledged()).toBe(0)
    }))

  it('rejects with an Error saying why when the owner failed the request', () =>
    withQueues(async (handle) => {
      const owner = await (await handle.node('a')).consume(async () => {
        throw new Error('disk full')
      })
      const failure = await (await handle.node('b'))
        .submit('r1', makeCall('203'))
        .catch((error: unknown) => error)
      expect(failure).not.toBeInstanceOf(PlatformError)
      expect((failure as Error).message).toMatch(/disk full/)
      await owner.stop()
    }))

  it("runs one node's requests in the order it submitted them", () =>
    withQueues(async (handle) => {
      const engine = new RecordingEngine()
      const owner = await (await handle.node('a')).consume(engine.handler)
      const submitter = await handle.node('b')
      const callees = Array.from({ length: 40 }, (_, index) => `${300 + index}`)
      const answers = await Promise.all(
        callees.map((callee, index) => submitter.submit(`r${index}`, makeCall(callee))),
      )
      expect(engine.ran).toEqual(callees.map(makeCall))
      expect(answers.map((answer) => answer.result.callRef)).toEqual(
        callees.map((callee) => `call-${callee}`),
      )
      await owner.stop()
    }))

  it('times a request out when no owner consumes, and the next owner does not start it', () =>
    withQueues(async (handle) => {
      const waiting = (await handle.node('b')).submit('r1', makeCall('204'))
      const outcome = waiting.catch((error: unknown) => error)
      await handle.pass(bounds.timeoutMs + 50)
      const timeout = await outcome
      expect(timeout).toBeInstanceOf(EngineRequestTimeoutError)
      expect(timeout).toMatchObject({ requestId: 'r1', timeoutMs: bounds.timeoutMs })
      const engine = new RecordingEngine()
      const owner = await (await handle.node('a')).consume(engine.handler)
      await until(handle, async () => (await handle.unacknowledged()) === 0)
      expect(engine.ran).toEqual([])
      await owner.stop()
    }))

  it('answers a request submitted before an owner consumes once one does', () =>
    withQueues(async (handle) => {
      const waiting = (await handle.node('b')).submit('r1', makeCall('205'))
      await handle.pass(20)
      const engine = new RecordingEngine()
      const owner = await (await handle.node('a')).consume(engine.handler)
      expect(await waiting).toEqual(answerTo(makeCall('205'), 1))
      await owner.stop()
    }))

  it('leaves what a dead owner took to the next owner, which runs it once and answers', () =>
    withQueues(async (handle) => {
      const dying = new StalledEngine()
      const first = await (await handle.node('a')).consume(dying.handler)
      const waiting = (await handle.node('b')).submit('r1', makeCall('206'))
      await dying.took()
      await first.abandon()
      const engine = new RecordingEngine()
      const next = await (await handle.node('c')).consume(engine.handler)
      expect(await waiting).toEqual(answerTo(makeCall('206'), 1))
      expect(dying.ran).toEqual([makeCall('206')])
      expect(engine.ran).toEqual([makeCall('206')])
      await next.stop()
      expect(await handle.unacknowledged()).toBe(0)
    }))

  it('answers a request answered already from memory when it comes again, without running it', () =>
    withQueues(async (handle) => {
      const engine = new RecordingEngine()
      const owner = await (await handle.node('a')).consume(engine.handler)
      const submitter = await handle.node('b')
      const first = await submitter.submit('r1', makeCall('207'))
      const again = await submitter.submit('r1', makeCall('207'))
      expect(again).toEqual(first)
      expect(engine.ran).toEqual([makeCall('207')])
      await owner.stop()
      // A new owner (after a failover) remembers it too.
      const other = new RecordingEngine()
      const next = await (await handle.node('c')).consume(other.handler)
      expect(await submitter.submit('r1', makeCall('207'))).toEqual(first)
      expect(other.ran).toEqual([])
      await next.stop()
    }))

  it('forgets an answer after the retention: the id runs again', () =>
    withQueues(
      async (handle) => {
        const engine = new RecordingEngine()
        const owner = await (await handle.node('a')).consume(engine.handler)
        const submitter = await handle.node('b')
        await submitter.submit('r1', makeCall('208'))
        await handle.pass(400)
        expect((await submitter.submit('r1', makeCall('208'))).batch).toBe(2)
        expect(engine.ran).toEqual([makeCall('208'), makeCall('208')])
        await owner.stop()
      },
      { timeoutMs: 1_000, answerRetentionMs: 300 },
    ))

  it('waits, on a graceful stop, for the requests under way to be answered', () =>
    withQueues(async (handle) => {
      let finish: (() => void) | undefined
      const owner = await (await handle.node('a')).consume(
        (request) =>
          new Promise((resolve) => {
            finish = () => resolve(answerTo(request, 1))
          }),
      )
      const waiting = (await handle.node('b')).submit('r1', makeCall('209'))
      await until(handle, () => finish !== undefined)
      let stopped = false
      const stopping = owner.stop().then(() => {
        stopped = true
      })
      await handle.pass(20)
      expect(stopped).toBe(false)
      finish?.()
      await stopping
      expect(await waiting).toEqual(answerTo(makeCall('209'), 1))
      expect(await handle.unacknowledged()).toBe(0)
    }))

  it('leaves no key but the empty request stream and the answers, which expire', async () => {
    const handle = await open(bounds)
    try {
      if (handle.keys === undefined) return
      const engine = new RecordingEngine()
      const owner = await (await handle.node('a')).consume(engine.handler)
      await (await handle.node('b')).submit('r1', makeCall('210'))
      await (await handle.node('b')).submit('r2', makeCall('211'))
      await owner.stop()
      const keys = await handle.keys()
      expect(keys.map(({ key }) => key)).toEqual([
        'engine-answer:r1',
        'engine-answer:r2',
        'engine:commands',
      ])
      for (const { key, ttlMs } of keys)
        if (key.startsWith('engine-answer:')) {
          expect(ttlMs).toBeGreaterThan(0)
          expect(ttlMs).toBeLessThanOrEqual(bounds.answerRetentionMs)
        } else expect(ttlMs).toBe(-1)
      expect(await handle.unacknowledged()).toBe(0)
    } finally {
      await handle.close()
    }
  })
}
