/**
 * The call engine on every node (docs/cluster-engine.md, "The engine on every node"), over memory adapters: a
 * shared command queue, change feed and call store, and an election the test drives. The owner runs commands
 * on its engine; a follower forwards them and resolves once its replica shows their effect; a refusal comes
 * back as the same PlatformError; a term lost hands the engine over with its calls and timers, and a command
 * caught under way is run by the next owner; a stop gives the engine up. A virtual clock drives time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { embeddedEngineAdapters, startTelephony } from '../../src/assembly/start-telephony.js'
import type { EventSink, PlatformEvent } from '../../src/platform/events.js'
import { PlatformError } from '../../src/platform/platform-error.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import type { CallStore } from '../../src/platform/telephony/call-store.js'
import type { EngineChangeFeed } from '../../src/platform/telephony/engine-change-feed.js'
import type { EngineCommandQueue } from '../../src/platform/telephony/engine-command-queue.js'
import type { EngineOwnership } from '../../src/platform/telephony/engine-lease.js'
import {
  DEFAULT_RETRY_MS,
  type EngineNode,
  type EngineNodeRole,
} from '../../src/platform/telephony/engine-node.js'
import type { EngineRequest } from '../../src/platform/telephony/engine-request.js'
import {
  callOf,
  type EngineCommand,
  type TelephonyState,
} from '../../src/platform/telephony/telephony-state.js'
import { withResolvers } from '../../src/platform/with-resolvers.js'
import { MemoryCallStore } from '../../src/storage/memory/memory-call-store.js'
import { MemoryEngineChangeFeed } from '../../src/storage/memory/memory-engine-change-feed.js'
import { MemoryEngineCommandQueue } from '../../src/storage/memory/memory-engine-command-queue.js'
import { devicesOf, FOUR_PEOPLE, telephonyDirectoryOf } from '../support/telephony-people.js'
import { fencedStore, TestEngineElection } from '../support/test-engine-election.js'
import { VirtualClock } from '../support/virtual-clock.js'

const people = FOUR_PEOPLE
const directory = telephonyDirectoryOf(people)
const RINGING_TIMEOUT_MS = 20_000

class RecordingSink implements EventSink {
  readonly events: PlatformEvent[] = []
  publish(event: PlatformEvent): void {
    this.events.push(event)
  }
  /** `eventName loginName` of each event, in order. */
  get lines(): string[] {
    return this.events.map((event) => `${event.eventName} ${event.loginName}`)
  }
}

/** The queue, counting what each node submits. */
class CountingQueue implements EngineCommandQueue {
  readonly submitted: EngineRequest[] = []
  constructor(readonly queue: MemoryEngineCommandQueue) {}
  submit(requestId: string, request: EngineRequest) {
    this.submitted.push(request)
    return this.queue.submit(requestId, request)
  }
  consume(...args: Parameters<EngineCommandQueue['consume']>) {
    return this.queue.consume(...args)
  }
  async close() {}
}

/** A call the caller's device answers at once: it rings on the callee's. */
function makeCall(loginName: string, deviceId: string, callee: string): EngineCommand {
  return { type: 'makeCall', loginName, deviceId, callee, autoAnswer: true }
}

/** What every reader of a state sees: the calls in order, and the rest (the index is derived from the calls). */
function seen(state: TelephonyState) {
  const { calls: _calls, callsByUser: _byUser, callsByDevice: _byDevice, ...rest } = state
  return { ...rest, calls: allCalls(state) }
}

/** True when `promise` has settled by the end of the event loop's turn. */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false
  const mark = () => {
    settled = true
  }
  promise.then(mark, mark)
  await new Promise((resolve) => setImmediate(resolve))
  return settled
}

/** Turns the event loop until `condition` holds (a bounded number of turns). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 200; turn += 1) {
    if (condition()) return
    await new Promise((resolve) => setImmediate(resolve))
  }
  throw new Error(`never: ${what}`)
}

describe('EngineNode over memory adapters', () => {
  let clock: VirtualClock
  let store: MemoryCallStore
  let feed: MemoryEngineChangeFeed
  let queue: MemoryEngineCommandQueue
  let election: TestEngineElection
  let errors: string[]
  const nodes: EngineNode[] = []

  beforeEach(() => {
    clock = new VirtualClock()
    store = new MemoryCallStore()
    feed = new MemoryEngineChangeFeed()
    queue = new MemoryEngineCommandQueue({ clock })
    election = new TestEngineElection()
    errors = []
  })

  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((node) => node.stop()))
    // Nothing failed unseen: no term that could not start, no replica left behind.
    expect(errors).toStrictEqual([])
  })

  /** The suite's feed with `changed` in place of some of its methods (the others go to the feed). */
  function feedWith(changed: Partial<EngineChangeFeed>): EngineChangeFeed {
    return {
      publish: (batch, onQueued) => feed.publish(batch, onQueued),
      read: (after, max) => feed.read(after, max),
      follow: (after, onPage) => feed.follow(after, onPage),
      ...changed,
    }
  }

  /** Starts a node named `name`; its events are those its engine publishes while it owns the engine. */
  async function node(
    name: string,
    openCallStore: (term: EngineOwnership) => CallStore = (term) => fencedStore(store, term),
    ownFeed: EngineChangeFeed = feed,
  ): Promise<{ node: EngineNode; sink: RecordingSink; queue: CountingQueue }> {
    const sink = new RecordingSink()
    const counting = new CountingQueue(queue)
    const started = await startTelephony({
      adapters: {
        lease: election.lease(name),
        queue: counting,
        openCallStore,
        replication: { feed: ownFeed, store },
      },
      engine: {
        directory,
        clock,
        events: sink,
        devices: devicesOf(people),
        settings: { ringingTimeoutMs: RINGING_TIMEOUT_MS },
      },
      onError: (error, what) =>
        errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`),
    })
    nodes.push(started)
    return { node: started, sink, queue: counting }
  }

  async function roleOf(node: EngineNode, role: EngineNodeRole): Promise<void> {
    await until(() => node.role === role, `the node becomes ${role}`)
  }

  it('runs the commands of the owner on its engine, not through the queue', async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')

    const { callRef = '' } = await a.node.execute(makeCall('alice', '1001', '1002'))

    expect(a.queue.submitted).toStrictEqual([])
    expect(callOf(a.node.state, callRef)?.connections.map((c) => c.state)).toStrictEqual([
      'RINGING_OUTGOING',
      'RINGING_INCOMING',
    ])
    expect(a.sink.lines).toContain('OnCallCreated bob')
  })

  it("forwards a follower's command to the owner, and resolves once its replica shows it", async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')
    const b = await node('b')
    expect(b.node.role).toBe('follower')

    const { callRef = '' } = await b.node.execute(makeCall('alice', '1001', '1002'))

    expect(b.queue.submitted).toStrictEqual([
      { kind: 'command', command: makeCall('alice', '1001', '1002') },
    ])
    expect(callOf(b.node.state, callRef)).toBeDefined()
    expect(seen(b.node.state)).toStrictEqual(seen(a.node.state))
    expect(b.node.queries.telephonicState('bob')).toStrictEqual(
      a.node.queries.telephonicState('bob'),
    )
    // The events are the owner's to publish; the follower's sink hears nothing.
    expect(a.sink.lines).toContain('OnCallCreated bob')
    expect(b.sink.events).toStrictEqual([])

    await b.node.execute({ type: 'answer', loginName: 'bob', callRef })
    expect(callOf(b.node.state, callRef)?.connections.map((c) => c.state)).toStrictEqual([
      'ACTIVE',
      'ACTIVE',
    ])
  })

  it('catches a follower up with what the feed holds when asked (a call made elsewhere, its event seen first)', async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')
    // The follower's replica hears of the feed's batches only while the gate is open.
    let open = true
    const { promise: gate, resolve: opened } = withResolvers()
    const late = feedWith({
      follow: (after, onPage) =>
        feed.follow(after, async (page) => {
          if (!open) await gate
          return onPage(page)
        }),
    })
    const b = await node('b', undefined, late)
    expect(b.node.role).toBe('follower')
    open = false

    const { callRef = '' } = await a.node.execute(makeCall('alice', '1001', '1002'))
    await until(() => a.node.queries.isInCall('bob', callRef), 'the owner shows the call')
    expect(b.node.queries.isInCall('bob', callRef)).toBe(false)

    const caughtUp = b.node.catchUp()
    expect(await hasSettled(caughtUp)).toBe(false)
    open = true
    opened()
    await caughtUp
    expect(b.node.queries.isInCall('bob', callRef)).toBe(true)
    // Caught up already: at once, with nothing to wait for.
    expect(await hasSettled(b.node.catchUp())).toBe(true)
    // The owner needs nothing of the feed.
    expect(await hasSettled(a.node.catchUp())).toBe(true)
  })

  it('tells nobody of a batch before it is on the feed: the owner’s answer and events wait for its publication', async () => {
    // The owner's publications reach the feed only once the gate opens.
    const { promise: gate, resolve: opened } = withResolvers()
    let holding = false
    const slow = feedWith({
      publish: async (batch) => {
        if (holding) await gate
        return feed.publish(batch)
      },
    })
    const a = await node('a', undefined, slow)
    await roleOf(a.node, 'owner')
    holding = true

    const made = a.node.execute(makeCall('alice', '1001', '1002'))
    expect(await hasSettled(made)).toBe(false)
    expect(a.sink.lines).toStrictEqual([])
    opened()
    const { callRef = '' } = await made
    // Once answered, any node that catches up with the feed finds the call.
    const page = await feed.read(0, 100)
    expect(page.batches.at(-1)?.batch).toBe(a.node.state.batch)
    expect(a.sink.lines).toContain('OnCallCreated bob')
    expect(callOf(a.node.state, callRef)).toBeDefined()
  })

  it('appends a batch’s events once its feed entry is queued, and answers only once the feed holds it', async () => {
    // The entry is held at once and queued, but the feed's answer waits for the gate.
    const { promise: gate, resolve: opened } = withResolvers()
    let holding = false
    const queuedFirst = feedWith({
      publish: async (batch, onQueued) => {
        const held = feed.publish(batch, onQueued)
        if (holding) await gate
        return held
      },
    })
    const a = await node('a', undefined, queuedFirst)
    await roleOf(a.node, 'owner')
    holding = true

    const made = a.node.execute(makeCall('alice', '1001', '1002'))
    await until(() => a.sink.lines.includes('OnCallCreated bob'), 'the events are published')
    // Told to the subscriptions' logs, which take them after the entry; nobody answered or shown the call yet.
    expect(await hasSettled(made)).toBe(false)
    expect(allCalls(a.node.state)).toStrictEqual([])
    opened()
    const { callRef = '' } = await made
    expect(callOf(a.node.state, callRef)).toBeDefined()
  })

  it("gives a follower's snapshot to the owner, which publishes it", async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')
    const b = await node('b')

    await b.node.snapshot('carol')

    expect(a.sink.lines).toStrictEqual(['OnTelephonyState carol'])
    expect(b.queue.submitted).toStrictEqual([{ kind: 'snapshot', loginName: 'carol' }])
  })

  it("refuses a follower's command with the owner's PlatformError, changing nothing", async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')
    const b = await node('b')
    const before = seen(b.node.state)
    const command: EngineCommand = { type: 'answer', loginName: 'bob', callRef: 'nope' }

    const onOwner = await a.node.execute(command).catch((error: unknown) => error)
    const onFollower = await b.node.execute(command).catch((error: unknown) => error)

    expect(onOwner).toBeInstanceOf(PlatformError)
    expect(onFollower).toBeInstanceOf(PlatformError)
    expect(onFollower).toMatchObject({
      type: (onOwner as PlatformError).type,
      message: (onOwner as PlatformError).message,
    })
    expect(seen(b.node.state)).toStrictEqual(before)
  })

  it('hands the engine over when the term is lost: the calls and their timers go on on the new owner', async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')
    const b = await node('b')
    const { callRef = '' } = await b.node.execute(makeCall('alice', '1001', '1002'))
    const ringing = await b.node.execute(makeCall('carol', '1003', '1004'))
    await clock.advance(RINGING_TIMEOUT_MS / 2)

    election.loseTerm()
    await roleOf(b.node, 'owner')
    await roleOf(a.node, 'follower')
    expect(election.owner).toBe('b')
    expect(election.epoch).toBe(2)

    // The call made before goes on, answered through the old owner, now a follower.
    await a.node.execute({ type: 'answer', loginName: 'bob', callRef })
    expect(callOf(a.node.state, callRef)?.connections.map((c) => c.state)).toStrictEqual([
      'ACTIVE',
      'ACTIVE',
    ])
    expect(seen(a.node.state)).toStrictEqual(seen(b.node.state))
    // The ringing timeout set by the old owner fires once, on the new owner.
    a.sink.events.length = 0
    await clock.advance(RINGING_TIMEOUT_MS / 2)
    await b.node.idle()
    expect(callOf(b.node.state, ringing.callRef ?? '')).toBeUndefined()
    expect(b.sink.lines.filter((line) => line === 'OnCallRemoved carol')).toStrictEqual([
      'OnCallRemoved carol',
    ])
    expect(a.sink.events).toStrictEqual([])
    await until(() => seen(a.node.state).calls.length === 1, "the old owner's replica follows")
    expect(seen(a.node.state)).toStrictEqual(seen(b.node.state))
  })

  it('runs a command caught under way by the term loss on the next owner, once', async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')
    const b = await node('b')

    // The command runs on a's engine; its batch is stored in a later turn, after the term ended.
    const executing = a.node.execute(makeCall('alice', '1001', '1002'))
    election.loseTerm()
    const { callRef = '' } = await executing

    expect(election.owner).toBe('b')
    expect(a.queue.submitted).toStrictEqual([
      { kind: 'command', command: makeCall('alice', '1001', '1002') },
    ])
    expect(allCalls(b.node.state).map((call) => call.callRef)).toStrictEqual([callRef])
    expect(seen(a.node.state)).toStrictEqual(seen(b.node.state))
    expect(errors).toStrictEqual([])
  })

  it('takes the engine again after losing it, when no other node does', async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')
    const { callRef = '' } = await a.node.execute(makeCall('alice', '1001', '1002'))

    election.loseTerm()
    await roleOf(a.node, 'follower')
    // It lets other nodes take over first, then contends again.
    expect(election.owner).toBeUndefined()
    await clock.advance(DEFAULT_RETRY_MS)
    await until(() => election.epoch === 2 && a.node.role === 'owner', 'a owns the engine again')

    expect(callOf(a.node.state, callRef)).toBeDefined()
    await a.node.execute({ type: 'answer', loginName: 'bob', callRef })
    expect(callOf((await store.load()) as TelephonyState, callRef)?.connections[1]?.state).toBe(
      'ACTIVE',
    )
    expect(a.queue.submitted).toStrictEqual([])
  })

  it('gives the engine up on stop, having stored what it ran; another node takes over at once', async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')
    const b = await node('b')
    const executing = b.node.execute(makeCall('alice', '1001', '1002'))

    await a.node.stop()
    const { callRef = '' } = await executing

    expect(election.owner).toBe('b')
    await roleOf(b.node, 'owner')
    expect(callOf(b.node.state, callRef)).toBeDefined()
    expect(
      await a.node.execute(makeCall('carol', '1003', '1001')).catch((e: Error) => e.message),
    ).toBe('The telephony service is stopped')
  })

  it("is not held up by a lost term's engine whose save hangs (a database out of reach)", async () => {
    let hang = false
    const hanging: CallStore = {
      load: () => store.load(),
      save: (state, changes) => (hang ? new Promise(() => {}) : store.save(state, changes)),
      saveWithRecords: (state, changes, records) => store.saveWithRecords(state, changes, records),
      close: async () => {},
    }
    const a = await node('a', () => hanging)
    await roleOf(a.node, 'owner')
    hang = true
    const executing = a.node.execute(makeCall('alice', '1001', '1002'))
    await new Promise((resolve) => setImmediate(resolve))

    election.loseTerm()
    await roleOf(a.node, 'follower')
    let stopped = false
    const stopping = a.node.stop().then(() => {
      stopped = true
    })
    for (let step = 0; step < 20 && !stopped; step += 1) await clock.advance(1_000)

    await stopping
    expect(stopped).toBe(true)
    expect(await hasSettled(executing)).toBe(false)
    expect(errors.splice(0)).toStrictEqual([
      'stopping the call engine: The engine of a lost term did not stop within 5000 ms',
    ])
  })

  it('stops a follower waiting for the lease without taking the engine', async () => {
    const a = await node('a')
    await roleOf(a.node, 'owner')
    const b = await node('b')

    await b.node.stop()

    expect(election.owner).toBe('a')
    expect(
      await b.node.execute(makeCall('alice', '1001', '1002')).catch((e: Error) => e.message),
    ).toBe('The call engine is stopped')
    await a.node.execute(makeCall('alice', '1001', '1002'))
  })
})

describe('EngineNode in the embedded mode', () => {
  it('fails to start, as the engine did, when the stored state cannot be loaded; the lease is closed', async () => {
    const clock = new VirtualClock()
    const broken: CallStore = {
      load: async () => {
        throw new Error('database unreachable')
      },
      save: async () => {},
      saveWithRecords: async () => [],
      close: async () => {},
    }
    const adapters = embeddedEngineAdapters(broken, clock)

    const starting = startTelephony({
      adapters,
      engine: { directory, clock, events: new RecordingSink(), devices: devicesOf(people) },
      onError: () => {},
    })

    await expect(starting).rejects.toThrow('database unreachable')
    await expect(adapters.lease.acquire()).rejects.toThrow('closed')
  })

  it('owns the engine once started and runs commands on it; a stop gives it up', async () => {
    const clock = new VirtualClock()
    const store = new MemoryCallStore()
    const sink = new RecordingSink()
    const adapters = embeddedEngineAdapters(store, clock)
    const node = await startTelephony({
      adapters,
      engine: { directory, clock, events: sink, devices: devicesOf(people) },
      onError: () => {},
    })
    expect(node.role).toBe('owner')
    expect(node.isCaughtUp).toBe(true)

    const { callRef = '' } = await node.execute(makeCall('alice', '1001', '1002'))

    expect(callOf(node.state, callRef)).toBeDefined()
    expect(callOf((await store.load()) as TelephonyState, callRef)).toBeDefined()
    // Nothing numbers the batches: no replica follows.
    expect(node.state.batch).toBeUndefined()
    await node.stop()
    await expect(adapters.lease.acquire()).rejects.toThrow('closed')
  })
})
