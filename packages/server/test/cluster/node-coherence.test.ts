/**
 * Two nodes in one process over one PostgreSQL schema and one Redis (docs/cluster.md, "What each node keeps in
 * memory"): each node holds its own copy of the directory, its search index and verified passwords, users'
 * routing and the clock's offset, and follows what the other node changes through the change notices on Redis.
 * Each case waits for the notice to be applied on B (TrackedChangeNotices), never for a time.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AdjustableClock } from '../../src/clock/adjustable-clock.js'
import type { AdjustableTime } from '../../src/clock/adjustable-time.js'
import { keptClock } from '../../src/clock/kept-clock.js'
import { buildControlApp } from '../../src/control/control-app.js'
import { PasswordHasher } from '../../src/platform/auth/password-hasher.js'
import { VerifiedPasswords } from '../../src/platform/auth/verified-passwords.js'
import { Directory } from '../../src/platform/directory/directory.js'
import { importDirectory } from '../../src/platform/directory/directory-import.js'
import { DirectoryIndex } from '../../src/platform/directory-search/directory-index.js'
import { RoutingService } from '../../src/platform/routing/routing-service.js'
import { routingUserOf } from '../../src/platform/routing/routing-user.js'
import { DirectoryTelephony } from '../../src/platform/telephony/directory-telephony.js'
import { RedisChangeNotices } from '../../src/storage/redis/redis-change-notices.js'
import {
  type DatabaseTarget,
  openDatabase,
  routingTables,
  serviceTables,
} from '../../src/storage/sql/database.js'
import { SqlClockOffsetStore } from '../../src/storage/sql/sql-clock-offset-store.js'
import { SqlDirectoryStore } from '../../src/storage/sql/sql-directory-store.js'
import { SqlRoutingStore } from '../../src/storage/sql/sql-routing-store.js'
import { testDocument, testUser } from '../support/directory-documents.js'
import { describeWithPostgres } from '../support/postgres.js'
import { describeWithRedis, type TestRedis } from '../support/redis.js'
import { TEST_SCRYPT_COST } from '../support/test-service.js'
import { TrackedChangeNotices } from '../support/tracked-change-notices.js'

const TOKEN = 'coherence-test-token-0123456789'
const AUTH = { authorization: `Bearer ${TOKEN}` } as const
const hasher = new PasswordHasher(TEST_SCRYPT_COST)

/** One node: what it keeps in memory, its control plane, and its notices. */
interface Node {
  directory: Directory
  index: DirectoryIndex
  verified: VerifiedPasswords
  routing: RoutingService
  clock: AdjustableTime
  notices: TrackedChangeNotices
  control: FastifyInstance
  failures: unknown[]
  close(): Promise<void>
}

/** Starts a node as assembly/service.ts assembles these parts, its notices subscribed before it loads anything. */
async function startNode(target: DatabaseTarget, redis: TestRedis, nodeId: string): Promise<Node> {
  const failures: unknown[] = []
  const onError = (error: unknown) => void failures.push(error)
  const notices = new TrackedChangeNotices(
    await RedisChangeNotices.open(await redis.client(), { nodeId, onError }),
  )
  const db = await openDatabase(target)
  const store = new SqlDirectoryStore(db)
  const snapshot = await store.load()
  if (snapshot === undefined) throw new Error('the directory is not stored')
  const verified = new VerifiedPasswords(new AdjustableClock(), 600)
  const systemClock = new AdjustableClock()
  const directory = new Directory(
    store,
    snapshot,
    hasher,
    systemClock,
    { publish: () => {} },
    {
      verified,
      notices,
      onReloadFailure: onError,
    },
  )
  const index = new DirectoryIndex(directory.accounts())
  directory.watch(index)
  const telephonyDirectory = new DirectoryTelephony(directory)
  const routing = await RoutingService.start({
    store: new SqlRoutingStore(routingTables(db)),
    events: { publish: () => {} },
    resolve: (dialed) => telephonyDirectory.resolve(dialed),
    notices,
    onReloadFailure: onError,
  })
  const clock = await keptClock(systemClock, new SqlClockOffsetStore(serviceTables(db)), {
    notices,
    onReloadFailure: onError,
  })
  const control = await buildControlApp(
    { directory, product: { version: '0.1.0' }, routing, adjustableClock: clock },
    { token: TOKEN },
  )
  return {
    directory,
    index,
    verified,
    routing,
    clock,
    notices,
    control,
    failures,
    close: async () => {
      await control.close()
      await notices.close()
      await store.close()
    },
  }
}

/** The login names B's directory search finds by login name. */
function found(node: Node, loginName: string): (string | undefined)[] {
  return node.index
    .search(
      { kind: 'leaf', field: 'id.loginName', operation: 'EQUAL_IGNORE_CASE', key: loginName },
      10,
    )
    .map((contact) => contact.id.loginName)
}

describeWithPostgres('Two nodes over one PostgreSQL', (target) => {
  describeWithRedis('and one Redis', (redis) => {
    let a: Node
    let b: Node

    beforeAll(async () => {
      // The directory as a first start stores it; then both nodes start from it.
      const first = new SqlDirectoryStore(await openDatabase(target))
      await first.replace(await importDirectory(testDocument(), 'digest', undefined, hasher))
      await first.close()
      a = await startNode(target, redis, 'node-a')
      b = await startNode(target, redis, 'node-b')
    })

    afterAll(async () => {
      await a?.close()
      await b?.close()
    })

    it("refuses on B at once a password changed through A, and B's verified password is forgotten", async () => {
      expect(await b.directory.verifyPassword('alice', 'demo-alice')).toBeDefined()
      const oldHash = b.directory.findAccount('alice')?.passwordHash ?? ''
      expect(b.verified.has(oldHash, 'demo-alice')).toBe(true)

      const reloaded = b.notices.next('directory', 'alice')
      await a.directory.changePassword('alice', 'demo-alice', 'alice-new-password')
      await reloaded

      expect(await b.directory.verifyPassword('alice', 'demo-alice')).toBeUndefined()
      expect(b.verified.has(oldHash, 'demo-alice')).toBe(false)
      expect(await b.directory.verifyPassword('alice', 'alice-new-password')).toBeDefined()
    })

    it('reads on B the preferences changed through A', async () => {
      const bob = a.directory.findUser('bob')
      if (bob === undefined) throw new Error('no bob on A')

      const reloaded = b.notices.next('directory', 'bob')
      await a.directory.updatePreferences(bob, {
        guiLanguage: 'fr',
        personalMobile: '+33600000002',
      })
      await reloaded

      const onB = b.directory.findUser('bob')
      if (onB === undefined) throw new Error('no bob on B')
      expect(b.directory.preferences(onB)).toMatchObject({
        guiLanguage: 'fr',
        personalMobile: '+33600000002',
      })
    })

    it("sees in B's routing lookup a forward set through A's control plane, and its clearing", async () => {
      let reloaded = b.notices.next('routing', 'alice')
      const set = await a.control.inject({
        method: 'PUT',
        url: '/control/v1/users/alice/routing',
        headers: AUTH,
        payload: { forwardRoutes: [{ destinations: [{ type: 'NUMBER', number: '1002' }] }] },
      })
      expect(set.statusCode).toBe(200)
      await reloaded
      expect(b.routing.lookup('alice')?.forward).toStrictEqual({
        condition: 'IMMEDIATE',
        target: { type: 'NUMBER', number: '1002' },
      })
      const alice = b.directory.findUser('alice')
      if (alice === undefined) throw new Error('no alice on B')
      expect(b.routing.state(routingUserOf(alice)).forwardRoutes).toHaveLength(1)

      reloaded = b.notices.next('routing', 'alice')
      const cleared = await a.control.inject({
        method: 'PUT',
        url: '/control/v1/users/alice/routing',
        headers: AUTH,
        payload: {},
      })
      expect(cleared.statusCode).toBe(200)
      await reloaded
      expect(b.routing.lookup('alice')).toBeUndefined()
    })

    it("reads on B's clock an advance made through A's control plane", async () => {
      const before = b.clock.offsetMs ?? 0
      const reloaded = b.notices.next('clock', 'offset')
      const advanced = await a.control.inject({
        method: 'POST',
        url: '/control/v1/clock/advance',
        headers: AUTH,
        payload: { seconds: 3600 },
      })
      expect(advanced.statusCode).toBe(200)
      await reloaded

      expect(b.clock.offsetMs).toBe(a.clock.offsetMs)
      expect(b.clock.offsetMs).toBe(before + 3_600_000)
      expect(Math.abs(b.clock.now() - a.clock.now())).toBeLessThan(1_000)
    })

    it("knows on B, and finds in B's search, a user added through A's control plane; no longer once removed", async () => {
      const created = b.notices.next('directory', 'erin')
      const added = await a.control.inject({
        method: 'POST',
        url: '/control/v1/users',
        headers: AUTH,
        payload: { ...testUser('erin', '1005'), password: 'erin-password' },
      })
      expect(added.statusCode).toBe(201)
      await created
      expect(b.directory.findUser('erin')?.record.companyPhone).toBe('1005')
      expect(found(b, 'erin')).toStrictEqual(['erin'])
      expect(await b.directory.verifyPassword('erin', 'erin-password')).toBeDefined()
      const onB = await b.control.inject({
        method: 'GET',
        url: '/control/v1/users/erin',
        headers: AUTH,
      })
      expect(onB.statusCode).toBe(200)

      const deleted = b.notices.next('directory', 'erin')
      const removed = await a.control.inject({
        method: 'DELETE',
        url: '/control/v1/users/erin',
        headers: AUTH,
      })
      expect(removed.statusCode).toBe(204)
      await deleted
      expect(b.directory.findUser('erin')).toBeUndefined()
      expect(found(b, 'erin')).toStrictEqual([])
      expect(await b.directory.verifyPassword('erin', 'erin-password')).toBeUndefined()
      const goneOnB = await b.control.inject({
        method: 'GET',
        url: '/control/v1/users/erin',
        headers: AUTH,
      })
      expect(goneOnB.statusCode).toBe(404)
    })

    it('told nothing on either node failed, and neither node applied its own notices', () => {
      expect(a.failures).toStrictEqual([])
      expect(b.failures).toStrictEqual([])
      expect(a.notices.applied).toStrictEqual([])
    })
  })
})
