/**
 * Runs the EngineLease conformance suite on the single-node lease and on PostgreSQL, and the election on
 * PostgreSQL (docs/cluster-engine.md, "Engine lease and fencing"): two nodes contend, the owner's connection is
 * killed or given up, the other takes over under a greater epoch, and the old owner's saves are refused.
 * Real timers, with intervals of tens of milliseconds; every wait is bounded.
 */
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SystemClock } from '../../src/clock/system-clock.js'
import { callChanges } from '../../src/platform/telephony/call-changes.js'
import { withCalls } from '../../src/platform/telephony/call-index.js'
import { EngineFencedError } from '../../src/platform/telephony/engine-fenced-error.js'
import type { EngineOwnership } from '../../src/platform/telephony/engine-lease.js'
import type { CallRecord } from '../../src/platform/telephony/telephony-state.js'
import { SingleNodeEngineLease } from '../../src/storage/memory/single-node-engine-lease.js'
import { type CallDatabase, callTables, openDatabase } from '../../src/storage/sql/database.js'
import { fenceOf } from '../../src/storage/sql/engine-fence.js'
import { SqlCallStore } from '../../src/storage/sql/sql-call-store.js'
import { SqlEngineLease } from '../../src/storage/sql/sql-engine-lease.js'
import { describeWithPostgres, type PostgresTarget, withClient } from '../support/postgres.js'
import { engineLeaseConformance } from './engine-lease.js'

const RETRY_MS = 20
const CHECK_MS = 40
/** How late a takeover may be past the retry interval on a busy machine (a try is two round trips). */
const SLACK_MS = 500

engineLeaseConformance('SingleNodeEngineLease', async () => new SingleNodeEngineLease())

describe('SingleNodeEngineLease', () => {
  it('owns the engine at once, under epoch 1', async () => {
    const lease = new SingleNodeEngineLease()

    const term = await lease.acquire()

    expect(term.epoch).toBe(1)
    expect(term.isHeld).toBe(true)
    await lease.close()
  })
})

/** Resolves as `promise` does, or rejects once `ms` passed without it settling. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** True when `promise` has settled by the time the current macrotask queue drains. */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false
  promise.then(
    () => {
      settled = true
    },
    () => {
      settled = true
    },
  )
  await new Promise((resolve) => setImmediate(resolve))
  return settled
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Kills the backend of a node's lease connection, from a third connection, as a crash of the node would. */
async function killConnectionOf(target: PostgresTarget, nodeId: string): Promise<void> {
  const { rowCount } = await withClient(target, (client) =>
    client.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
      [`openness engine lease (${nodeId})`],
    ),
  )
  expect(rowCount).toBe(1)
}

/** A call of one outside party, for saves whose content the fencing cases read back. */
function call(callRef: string): CallRecord {
  return {
    callRef,
    callUUID: `${callRef}-uuid`,
    connections: [{ endpoint: { number: '0612345678' }, state: 'RINGING_INCOMING' }],
    initialCalled: { number: '0612345678' },
    createdAt: 1_767_225_600_000,
  }
}

describeWithPostgres('SqlEngineLease on PostgreSQL', (target) => {
  const clock = new SystemClock()
  const suffix = randomBytes(4).toString('hex')
  let db: Kysely<CallDatabase>
  let leases: SqlEngineLease[] = []
  let cases = 0

  beforeAll(async () => {
    db = callTables(await openDatabase(target))
  })

  afterAll(async () => {
    await db.destroy()
  })

  afterEach(async () => {
    await Promise.all(leases.map((lease) => lease.close()))
    leases = []
  })

  /** A node's lease on the case's own lease row and lock, so that cases never meet. */
  function leaseOf(node: string, lease: string): { lease: SqlEngineLease; nodeId: string } {
    const nodeId = `${node}-${suffix}-${cases}`
    const created = new SqlEngineLease({
      target,
      nodeId,
      clock,
      lease,
      retryIntervalMs: RETRY_MS,
      checkIntervalMs: CHECK_MS,
      checkTimeoutMs: 1_000,
    })
    leases.push(created)
    return { lease: created, nodeId }
  }

  /** Two nodes contending for the case's lease row. */
  function contenders() {
    cases += 1
    const name = `engine-${suffix}-${cases}`
    return { name, a: leaseOf('a', name), b: leaseOf('b', name) }
  }

  engineLeaseConformance('SqlEngineLease on PostgreSQL', async () => contenders().a.lease)

  it('gives the engine to exactly one of two contenders, and writes it in the lease row', async () => {
    const { name, a, b } = contenders()
    const acquiring = [a.lease.acquire(), b.lease.acquire()]

    const [index, owner] = await within(
      2_000,
      Promise.race(acquiring.map((p, i) => p.then((term) => [i, term] as const))),
      'the election',
    )
    await sleep(5 * RETRY_MS)

    const other = acquiring[1 - index] as Promise<EngineOwnership>
    expect(await hasSettled(other)).toBe(false)
    expect(owner.isHeld).toBe(true)
    const row = await db
      .selectFrom('engine_lease')
      .select(['epoch', 'owner_node'])
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
    expect({ epoch: Number(row.epoch), owner: row.owner_node }).toStrictEqual({
      epoch: owner.epoch,
      owner: (index === 0 ? a : b).nodeId,
    })
  })

  it("hands the engine over, under a greater epoch, when the owner's connection is killed", async () => {
    const { a, b } = contenders()
    const old = await within(2_000, a.lease.acquire(), "a's acquire")
    const taking = b.lease.acquire()
    await sleep(2 * RETRY_MS)
    expect(await hasSettled(taking)).toBe(false)

    const killedAt = Date.now()
    await killConnectionOf(target, a.nodeId)

    const loss = await within(1_000, old.lost, "the old owner's loss")
    expect(loss.reason).toBe('connection-lost')
    expect(old.isHeld).toBe(false)
    const term = await within(RETRY_MS + SLACK_MS, taking, 'the takeover')
    expect(Date.now() - killedAt).toBeLessThanOrEqual(RETRY_MS + SLACK_MS)
    expect(term.epoch).toBeGreaterThan(old.epoch)
    expect(term.isHeld).toBe(true)
  })

  it("refuses the old owner's saves under its stale epoch, writing nothing; the new owner's pass", async () => {
    await db.deleteFrom('telephony_call').execute()
    await db.deleteFrom('telephony_device').execute()
    await db.deleteFrom('telephony_state').execute()
    const { name, a, b } = contenders()
    const old = await within(2_000, a.lease.acquire(), "a's acquire")
    // As a partitioned owner would, the old store goes on saving under its epoch, not knowing it lost.
    const oldStore = new SqlCallStore(db, {
      ownsDatabase: false,
      fence: { epoch: () => old.epoch, lease: name },
    })
    const first = withCalls({ sequence: 1, devices: {}, timers: [] }, [call('1')])
    await oldStore.save(first, callChanges(undefined, first))
    const taking = b.lease.acquire()

    await killConnectionOf(target, a.nodeId)
    const term = await within(RETRY_MS + SLACK_MS, taking, 'the takeover')
    const newStore = new SqlCallStore(db, { ownsDatabase: false, fence: fenceOf(term, name) })
    const loaded = await newStore.load()
    expect(loaded).toStrictEqual(first)

    const stale = withCalls({ sequence: 2, devices: {}, timers: [] }, [call('1'), call('2')])
    const refusal = await oldStore.save(stale, callChanges(first, stale)).catch((error) => error)
    expect(refusal).toBeInstanceOf(EngineFencedError)
    expect(refusal).toMatchObject({ epoch: old.epoch, current: term.epoch })
    expect(await new SqlCallStore(db, { ownsDatabase: false }).load()).toStrictEqual(first)

    const next = withCalls({ sequence: 3, devices: {}, timers: [] }, [call('3')])
    await newStore.save(next, callChanges(loaded, next))
    expect(await new SqlCallStore(db, { ownsDatabase: false }).load()).toStrictEqual(next)
  })

  it('hands the engine over within a retry interval when the owner gives it up', async () => {
    const { name, a, b } = contenders()
    const old = await within(2_000, a.lease.acquire(), "a's acquire")
    const taking = b.lease.acquire()
    await sleep(2 * RETRY_MS)
    expect(await hasSettled(taking)).toBe(false)

    const releasedAt = Date.now()
    await old.release()

    expect(await old.lost).toStrictEqual({ reason: 'released' })
    const term = await within(RETRY_MS + SLACK_MS, taking, 'the takeover')
    expect(Date.now() - releasedAt).toBeLessThanOrEqual(RETRY_MS + SLACK_MS)
    expect(term.epoch).toBe(old.epoch + 1)
    const row = await db
      .selectFrom('engine_lease')
      .select('owner_node')
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
    expect(row.owner_node).toBe(b.nodeId)
  })

  it("ends the owner's term as superseded when its check finds another epoch, and frees the lock", async () => {
    const { name, a, b } = contenders()
    const old = await within(2_000, a.lease.acquire(), "a's acquire")
    const taking = b.lease.acquire()

    await db
      .updateTable('engine_lease')
      .set((eb) => ({ epoch: eb('epoch', '+', 10) }))
      .where('name', '=', name)
      .execute()

    const loss = await within(CHECK_MS + SLACK_MS, old.lost, "the owner's check")
    expect(loss.reason).toBe('superseded')
    const term = await within(RETRY_MS + SLACK_MS, taking, 'the takeover')
    expect(term.epoch).toBe(old.epoch + 11)
  })
})
