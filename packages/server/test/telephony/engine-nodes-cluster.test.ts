/**
 * Three engine nodes in one process on the real PostgreSQL and Redis (docs/cluster-engine.md, "The engine on every
 * node"): each with its own lease connection, its own pool on the same schema, its own Redis clients.
 * A call made on a follower, answered through another node, released through the first, every node's state
 * equal after each step; then the owner's lease connection killed: another node owns the engine within two
 * seconds, the call in progress goes on, a ringing timer set before the kill fires once, on the new owner; and
 * commands submitted through followers around a kill are all in the final state once acknowledged. Real time,
 * every wait bounded. Skipped, saying why, without both servers.
 */
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { clusterEngineAdapters } from '../../src/assembly/cluster-engine-adapters.js'
import { startTelephony } from '../../src/assembly/start-telephony.js'
import { SystemClock } from '../../src/clock/system-clock.js'
import type { EventSink, PlatformEvent } from '../../src/platform/events.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import type { EngineNode } from '../../src/platform/telephony/engine-node.js'
import {
  callOf,
  type EngineCommand,
  type TelephonyState,
} from '../../src/platform/telephony/telephony-state.js'
import { RedisSubscriptionEventLog } from '../../src/storage/redis/redis-subscription-event-log.js'
import {
  type CallDatabase,
  callTables,
  type DirectoryDatabase,
  openDatabase,
} from '../../src/storage/sql/database.js'
import { describeWithPostgres, type PostgresTarget, withClient } from '../support/postgres.js'
import { describeWithRedis } from '../support/redis.js'
import {
  devicesOf,
  FOUR_PEOPLE,
  type TestPerson,
  telephonyDirectoryOf,
} from '../support/telephony-people.js'

/** alice, bob, carol, dave, and 50 more users (u00...u49 on devices 2000...2049) for the commands around a kill. */
const people: Record<string, TestPerson> = { ...FOUR_PEOPLE }
const SPARE_DEVICES = Array.from({ length: 50 }, (_, index) => String(2000 + index))
for (const [index, deviceId] of SPARE_DEVICES.entries())
  people[deviceId] = { loginName: `u${index}`, firstName: 'User', lastName: String(index) }
const directory = telephonyDirectoryOf(people)
const RINGING_TIMEOUT_MS = 4_000

class RecordingSink implements EventSink {
  readonly events: PlatformEvent[] = []
  publish(event: PlatformEvent): void {
    this.events.push(event)
  }
  count(eventName: string, loginName: string): number {
    return this.events.filter((e) => e.eventName === eventName && e.loginName === loginName).length
  }
}

interface TestNode {
  name: string
  nodeId: string
  node: EngineNode
  sink: RecordingSink
  db: Kysely<DirectoryDatabase>
}

function makeCall(loginName: string, deviceId: string, callee: string): EngineCommand {
  return { type: 'makeCall', loginName, deviceId, callee, autoAnswer: true }
}

/** What every reader of a state sees: the calls in order and the rest (the index is derived from the calls). */
function seen(state: TelephonyState) {
  const { calls: _calls, callsByUser: _byUser, callsByDevice: _byDevice, ...rest } = state
  return { ...rest, calls: allCalls(state) }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Polls `condition` every 10 ms until it holds; fails once `ms` passed. */
async function until(ms: number, condition: () => boolean, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`)
    await sleep(10)
  }
}

describeWithPostgres('Engine nodes on PostgreSQL', (target: PostgresTarget) => {
  describeWithRedis('and Redis: three nodes, one engine', (redis) => {
    const clock = new SystemClock()
    const suffix = Math.random().toString(16).slice(2, 8)
    const nodes: TestNode[] = []
    const errors: string[] = []

    async function startNode(name: string): Promise<TestNode> {
      const nodeId = `${name}-${suffix}`
      const db = await openDatabase(target)
      const onError = (error: unknown, what: string) =>
        errors.push(`${name}: ${what}: ${error instanceof Error ? error.message : String(error)}`)
      const adapters = await clusterEngineAdapters({
        target,
        db: callTables(db) as Kysely<CallDatabase>,
        eventLog: new RedisSubscriptionEventLog(await redis.client()),
        nodeId,
        lease: { retryIntervalMs: 50, checkIntervalMs: 200, checkTimeoutMs: 2_000 },
        onError,
      })
      const sink = new RecordingSink()
      const node = await startTelephony({
        adapters,
        engine: {
          directory,
          clock,
          events: sink,
          devices: devicesOf(people),
          settings: { ringingTimeoutMs: RINGING_TIMEOUT_MS },
        },
        onError,
      })
      const started = { name, nodeId, node, sink, db }
      nodes.push(started)
      return started
    }

    function owner(): TestNode | undefined {
      const owners = nodes.filter((entry) => entry.node.role === 'owner')
      expect(owners.length).toBeLessThanOrEqual(1)
      return owners[0]
    }

    function followers(): TestNode[] {
      return nodes.filter((entry) => entry.node.role !== 'owner')
    }

    /** Waits until every node shows the owner's last batch, then checks that they all see the same state. */
    async function expectAllEqual(): Promise<void> {
      const batch = owner()?.node.state.batch ?? 0
      await until(
        2_000,
        () => nodes.every((entry) => (entry.node.state.batch ?? 0) >= batch),
        `every node at batch ${batch}`,
      )
      const [first, ...others] = nodes.map((entry) => seen(entry.node.state))
      for (const other of others) expect(other).toStrictEqual(first)
    }

    /** Kills the backend of a node's lease connection, as the node's death would drop it. */
    async function killLeaseOf(entry: TestNode): Promise<void> {
      const { rows } = await withClient(target, (client) =>
        client.query(
          'select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = $1',
          [`openness engine lease (${entry.nodeId})`],
        ),
      )
      expect(rows).toStrictEqual([{ killed: true }])
    }

    /** The epoch in the lease's row. */
    async function epoch(): Promise<number> {
      const { rows } = await withClient(target, (client) =>
        client.query(
          `select epoch from "${target.schema}".engine_lease where name = 'call-engine'`,
        ),
      )
      return Number(rows[0]?.epoch)
    }

    beforeAll(async () => {
      await startNode('a')
      await until(5_000, () => nodes[0]?.node.role === 'owner', 'a owns the engine')
      await startNode('b')
      await startNode('c')
    }, 20_000)

    afterAll(async () => {
      await Promise.all(nodes.map((entry) => entry.node.stop()))
      await Promise.all(nodes.map((entry) => entry.db.destroy()))
    })

    it('elects one owner; the other two follow, caught up', async () => {
      expect(nodes.map((entry) => entry.node.role)).toStrictEqual(['owner', 'follower', 'follower'])
      expect(nodes.every((entry) => entry.node.isCaughtUp)).toBe(true)
      await expectAllEqual()
    })

    it('runs a call made on a follower, answered through another, released through the first', async () => {
      const [, b, c] = nodes as [TestNode, TestNode, TestNode]

      const { callRef = '' } = await b.node.execute(makeCall('alice', '1001', '1002'))
      expect(callOf(b.node.state, callRef)?.connections.map((x) => x.state)).toStrictEqual([
        'RINGING_OUTGOING',
        'RINGING_INCOMING',
      ])
      await expectAllEqual()

      await c.node.execute({ type: 'answer', loginName: 'bob', callRef })
      expect(callOf(c.node.state, callRef)?.connections.map((x) => x.state)).toStrictEqual([
        'ACTIVE',
        'ACTIVE',
      ])
      await expectAllEqual()

      await b.node.execute({ type: 'release', loginName: 'alice', callRef })
      expect(callOf(b.node.state, callRef)).toBeUndefined()
      await expectAllEqual()
      // The events are published once, on the owner.
      expect(nodes.map((entry) => entry.sink.count('OnCallRemoved', 'bob'))).toStrictEqual([
        1, 0, 0,
      ])
      expect(errors).toStrictEqual([])
    })

    it("hands the engine over when the owner's lease connection dies: calls and timers go on", async () => {
      const old = owner() as TestNode
      const [b, c] = followers() as [TestNode, TestNode]
      const { callRef = '' } = await b.node.execute(makeCall('alice', '1001', '1002'))
      await c.node.execute({ type: 'answer', loginName: 'bob', callRef })
      // A ringing timeout armed by the old owner, due after the takeover.
      const ringing = await b.node.execute(makeCall('carol', '1003', '1004'))
      const epochBefore = await epoch()

      const killedAt = Date.now()
      await killLeaseOf(old)
      await until(
        2_000,
        () => owner() !== undefined && owner() !== old,
        'another node owns the engine',
      )
      const next = owner() as TestNode
      expect(Date.now() - killedAt).toBeLessThan(2_000)
      expect(await epoch()).toBe(epochBefore + 1)
      await until(2_000, () => old.node.role === 'follower', 'the old owner follows')

      // The call in progress goes on: held through the old owner, released through the third node.
      const third = nodes.find((entry) => entry !== old && entry !== next) as TestNode
      await old.node.execute({ type: 'hold', loginName: 'alice', callRef })
      expect(callOf(old.node.state, callRef)?.connections.map((x) => x.state)).toStrictEqual([
        'HELD',
        'ACTIVE',
      ])
      await third.node.execute({ type: 'release', loginName: 'bob', callRef })
      await expectAllEqual()

      // The ringing timeout fires once, on the new owner.
      await until(
        RINGING_TIMEOUT_MS + 2_000,
        () => callOf(next.node.state, ringing.callRef ?? '') === undefined,
        'the ringing timeout',
      )
      await expectAllEqual()
      expect(nodes.map((entry) => entry.sink.count('OnCallRemoved', 'carol'))).toStrictEqual(
        nodes.map((entry) => (entry === next ? 1 : 0)),
      )
      expect(allCalls(next.node.state)).toStrictEqual([])
    }, 15_000)

    it('loses no acknowledged command: 50 sent through followers around a kill of the owner', async () => {
      const old = owner() as TestNode
      const senders = followers()
      const sent = SPARE_DEVICES.map((deviceId, index) => {
        const through = senders[index % senders.length] as TestNode
        return { deviceId, through, outcome: undefined as Promise<unknown> | undefined }
      })
      const settledAt: number[] = []
      const send = (entry: (typeof sent)[number]) => {
        entry.outcome = entry.through.node
          .execute({ type: 'setDevice', deviceId: entry.deviceId, autoAnswer: true })
          .finally(() => settledAt.push(Date.now()))
      }

      for (const entry of sent.slice(0, 25)) send(entry)
      await sleep(5)
      // Some of the first 25 are under way when the owner's connection dies.
      const settledBeforeKill = settledAt.length
      await killLeaseOf(old)
      for (const entry of sent.slice(25)) {
        send(entry)
        await sleep(10)
      }
      const outcomes = await Promise.allSettled(sent.map((entry) => entry.outcome))

      const rejected = sent.flatMap((entry, index) => {
        const outcome = outcomes[index]
        return outcome?.status === 'rejected'
          ? [`${entry.deviceId}: ${String(outcome.reason)}`]
          : []
      })
      const acknowledged = sent.filter((_, index) => outcomes[index]?.status === 'fulfilled')
      await until(2_000, () => owner() !== undefined, 'an owner')
      await expectAllEqual()
      const final = (owner() as TestNode).node.state
      const lost = acknowledged
        .filter((entry) => final.devices[entry.deviceId]?.autoAnswer !== true)
        .map((entry) => entry.deviceId)
      expect(lost, `rejected: ${rejected.join('; ') || 'none'}`).toStrictEqual([])
      expect(rejected).toStrictEqual([])
      expect(settledBeforeKill).toBeLessThan(25)
      expect(errors).toStrictEqual([])
    }, 20_000)
  })
})
