/**
 * The replica of the engine's state on a follower node (docs/cluster-engine.md, "The replica"): an owner's
 * TelephonyService numbers and stores its batches and publishes them to a feed; the replica applies them and
 * equals the owner's state after each batch; a replica started late catches up from the stored state; a gap
 * in the feed makes it load the stored state anew.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  devicesOf,
  type TestPerson,
  telephonyDirectoryOf,
} from '../../../test/support/telephony-people.js'
import { VirtualClock } from '../../../test/support/virtual-clock.js'
import { applyEngineBatch } from '../../storage/engine-batch-json.js'
import { EngineBatchPublisher } from '../../storage/engine-batch-publisher.js'
import { MemoryCallStore } from '../../storage/memory/memory-call-store.js'
import { MemoryEngineChangeFeed } from '../../storage/memory/memory-engine-change-feed.js'
import { allCalls } from './call-index.js'
import type {
  EngineBatch,
  EngineBatchPage,
  EngineChangeFeed,
  EngineFeedFollower,
} from './engine-change-feed.js'
import { TelephonyReplica } from './telephony-replica.js'
import { TelephonyService } from './telephony-service.js'
import type { CallIndex, EngineCommand, TelephonyState } from './telephony-state.js'

const people: Record<string, TestPerson> = {
  '1001': { loginName: 'alice', firstName: 'Alice', lastName: 'Martin' },
  '1002': { loginName: 'bob', firstName: 'Bob', lastName: 'Durand' },
  '1003': { loginName: 'carol', firstName: 'Carol', lastName: 'Petit' },
}
const directory = telephonyDirectoryOf(people)
const devices = devicesOf(people)

/** Everything a reader of the state sees: the calls in order, the index as sets, the rest as is. */
function seen(state: TelephonyState) {
  const index = (map: CallIndex) =>
    Object.fromEntries([...map].map(([key, refs]) => [key, [...refs].sort()]).sort())
  const { calls, callsByUser, callsByDevice, ...rest } = state
  return {
    ...rest,
    calls: allCalls(state),
    byUser: index(callsByUser),
    byDevice: index(callsByDevice),
  }
}

describe('TelephonyReplica', () => {
  let clock: VirtualClock
  let store: MemoryCallStore
  let feed: MemoryEngineChangeFeed
  let lossy: LossyFeed
  let publisher: EngineBatchPublisher
  let owner: TelephonyService
  const replicas: TelephonyReplica[] = []

  beforeEach(async () => {
    clock = new VirtualClock()
    store = new MemoryCallStore()
    feed = new MemoryEngineChangeFeed()
    lossy = new LossyFeed(feed)
    publisher = new EngineBatchPublisher(lossy, 1)
    owner = await TelephonyService.start({
      store,
      directory,
      clock,
      events: { publish: () => {} },
      devices,
      onStored: publisher.stored,
    })
  })

  afterEach(async () => {
    await owner.stop()
    for (const replica of replicas.splice(0)) await replica.stop()
  })

  async function replica(): Promise<TelephonyReplica> {
    const started = await TelephonyReplica.start({
      store,
      feed,
      directory,
      clock,
      applyBatch: applyEngineBatch,
    })
    replicas.push(started)
    return started
  }

  /** Runs the command on the owner; resolves to its callRef and the batch that stored it. */
  async function run(command: EngineCommand): Promise<{ callRef: string; batch: number }> {
    const { callRef } = await owner.execute(command)
    await publisher.idle()
    return { callRef: callRef ?? '', batch: owner.state.batch ?? 0 }
  }

  it('numbers the stored states, one more a batch, and keeps the number in the store', async () => {
    expect(owner.state.batch).toBe(1)
    const { batch } = await run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    expect(batch).toBe(2)
    expect((await store.load())?.batch).toBe(2)
  })

  it("equals the owner's state after each batch: make, answer, consult, transfer, release", async () => {
    const follower = await replica()
    const check = async (batch: number) => {
      await follower.waitFor(batch)
      expect(follower.batch).toBe(batch)
      expect(seen(follower.state)).toEqual(seen(owner.state))
      expect(follower.queries.telephonicState('alice')).toEqual(
        owner.queries.telephonicState('alice'),
      )
    }
    const held = await run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    await check(held.batch)
    await check((await run({ type: 'answer', loginName: 'bob', callRef: held.callRef })).batch)
    const consult = await run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1003',
      autoAnswer: false,
    })
    await check(consult.batch)
    expect(follower.state.timers.length).toBeGreaterThan(0)
    await check((await run({ type: 'answer', loginName: 'carol', callRef: consult.callRef })).batch)
    const transferred = await run({
      type: 'transfer',
      loginName: 'alice',
      callRef: consult.callRef,
      heldCallRef: held.callRef,
    })
    await check(transferred.batch)
    const [left] = allCalls(owner.state)
    await check(
      (await run({ type: 'release', loginName: 'bob', callRef: left?.callRef ?? '' })).batch,
    )
    expect(allCalls(follower.state)).toEqual([])
  })

  it('equals the owner after a batch of several commands stored together', async () => {
    const follower = await replica()
    await Promise.all([
      owner.execute({
        type: 'makeCall',
        loginName: 'alice',
        deviceId: '1001',
        callee: '1002',
        autoAnswer: true,
      }),
      owner.execute({ type: 'setDevice', deviceId: '1003', autoAnswer: true }),
    ])
    await publisher.idle()
    await follower.waitFor(owner.state.batch ?? 0)
    expect(owner.state.batch).toBe(2)
    expect(seen(follower.state)).toEqual(seen(owner.state))
  })

  it('started late, loads the stored state and follows from its batch', async () => {
    const made = await run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    const late = await replica()
    expect(late.batch).toBe(made.batch)
    const answered = await run({ type: 'answer', loginName: 'bob', callRef: made.callRef })
    await late.waitFor(answered.batch)
    expect(seen(late.state)).toEqual(seen(owner.state))
  })

  it('loads the stored state anew when a batch is missing from the feed', async () => {
    const follower = await replica()
    const made = await run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    await follower.waitFor(made.batch)
    lossy.dropNext = true
    const answered = await run({ type: 'answer', loginName: 'bob', callRef: made.callRef })
    expect(await feed.read(made.batch, 10)).toEqual({ batches: [], missing: false })
    const held = await run({ type: 'hold', loginName: 'alice', callRef: made.callRef })
    expect(held.batch).toBe(answered.batch + 1)
    await follower.waitFor(held.batch)
    expect(follower.batch).toBe(held.batch)
    expect(seen(follower.state)).toEqual(seen(owner.state))
  })
})

/** The feed as the owner publishes to it, losing the next publication when told to. */
class LossyFeed implements EngineChangeFeed {
  dropNext = false
  constructor(readonly feed: EngineChangeFeed) {}

  async publish(batch: EngineBatch): Promise<void> {
    if (this.dropNext) this.dropNext = false
    else await this.feed.publish(batch)
  }

  read(after: number, max: number): Promise<EngineBatchPage> {
    return this.feed.read(after, max)
  }

  follow(
    after: number,
    onPage: (page: EngineBatchPage) => Promise<number>,
  ): Promise<EngineFeedFollower> {
    return this.feed.follow(after, onPage)
  }
}
