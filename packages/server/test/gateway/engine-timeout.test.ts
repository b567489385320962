/**
 * A command the call engine's owner does not answer in time (cluster mode: docs/cluster-engine.md, "The engine on
 * every node"): the node that forwarded it answers 503 NOT_READY with Retry-After, and the command is not run
 * later. The service's engine is swapped for a follower node whose owner (another node) answers nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTelephony } from '../../src/assembly/start-telephony.js'
import { DirectoryTelephony } from '../../src/platform/telephony/directory-telephony.js'
import type { EngineNode } from '../../src/platform/telephony/engine-node.js'
import { MemoryCallStore } from '../../src/storage/memory/memory-call-store.js'
import { MemoryEngineChangeFeed } from '../../src/storage/memory/memory-engine-change-feed.js'
import { MemoryEngineCommandQueue } from '../../src/storage/memory/memory-engine-command-queue.js'
import { expectRestError } from '../support/assertions.js'
import { TestEngineElection } from '../support/test-engine-election.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const TIMEOUT_MS = 5_000

describe('a command the call engine does not answer in time', () => {
  let service: TestService
  let queue: MemoryEngineCommandQueue
  let follower: EngineNode

  beforeEach(async () => {
    service = await startTestService()
    const election = new TestEngineElection()
    // Another node owns the engine and consumes nothing.
    await election.lease('silent-owner').acquire()
    queue = new MemoryEngineCommandQueue({ clock: service.clock, timeoutMs: TIMEOUT_MS })
    const store = new MemoryCallStore()
    follower = await startTelephony({
      adapters: {
        lease: election.lease('follower'),
        queue,
        openCallStore: () => store,
        replication: { feed: new MemoryEngineChangeFeed(), store },
      },
      engine: {
        directory: new DirectoryTelephony(service.running.platform.directory),
        clock: service.clock,
        events: service.running.events,
        devices: [],
      },
      onError: () => {},
    })
    service.running.platform.telephony = follower
  })

  afterEach(async () => {
    await follower.stop()
    await service.close()
  })

  it('answers 503 NOT_READY with Retry-After, and the command is not run later', async () => {
    const cookie = await openSession(service.app, 'alice')
    const answering = service.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/telephony/calls',
      headers: { cookie },
      payload: { deviceId: '1001', callee: '1002', autoAnswer: true },
    })
    for (let turn = 0; turn < 100 && queue.unacknowledged === 0; turn += 1)
      await new Promise((resolve) => setImmediate(resolve))
    expect(queue.unacknowledged).toBe(1)

    await service.clock.advance(TIMEOUT_MS)
    const response = await answering

    expectRestError(response, 503, 'NOT_READY', /did not answer in time; retry in 1 s/)
    expect(response.headers['retry-after']).toBe('1')
    // The next owner does not start a request its node gave up on.
    const ran: unknown[] = []
    const consumer = await queue.consume(async (request) => {
      ran.push(request)
      return { result: { events: [] }, batch: 0 }
    })
    await consumer.stop()
    expect(ran).toStrictEqual([])
    expect(queue.unacknowledged).toBe(0)
  })
})
