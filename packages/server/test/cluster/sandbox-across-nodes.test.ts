/**
 * Directory changes and restores across the nodes of a cluster (three real node processes over the machine's
 * PostgreSQL and Redis): a user created through a node that does not own the call engine gets its devices in the
 * engine (docs/call-model.md, "Devices follow the directory"); a snapshot saved through one node, changed
 * through a second and restored through the third is what every node then shows, with every session closed and
 * the engine's calls those of the snapshot (docs/sandbox.md, "In a cluster").
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Answer, ClusterClient } from '../support/cluster-client.js'
import {
  CLUSTER_CONTROL_TOKEN,
  type ClusterNode,
  engineOwner,
  TestCluster,
} from '../support/cluster-nodes.js'
import { describeWithPostgres } from '../support/postgres.js'
import { describeWithRedis } from '../support/redis.js'

/** How long a node may take to follow what another node did (its notices, the engine's change feed). */
const FOLLOW_MS = 10_000
const NODES = ['a', 'b', 'c'] as const

describeWithPostgres('cluster mode: directory changes and restores across nodes', (postgres) => {
  describeWithRedis('three nodes', (redis) => {
    let cluster: TestCluster
    beforeAll(async () => {
      cluster = await TestCluster.start(postgres, redis, NODES)
    }, 90_000)
    afterAll(() => cluster?.close(), 30_000)

    /** A control-plane request to `node`, with the cluster's operator token. */
    async function control(
      node: ClusterNode,
      method: string,
      path: string,
      body?: unknown,
    ): Promise<Answer> {
      const response = await fetch(`${node.controlOrigin}/control/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${CLUSTER_CONTROL_TOKEN}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      })
      const text = await response.text()
      return {
        status: response.status,
        body: text === '' ? null : JSON.parse(text),
        headers: response.headers,
      }
    }

    /** Asks `read` again until `accept` takes its answer, for at most FOLLOW_MS; returns the last answer. */
    async function eventually<T>(
      read: () => Promise<T>,
      accept: (value: T) => boolean,
    ): Promise<T> {
      const deadline = Date.now() + FOLLOW_MS
      for (;;) {
        const value = await read()
        if (accept(value) || Date.now() > deadline) return value
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }

    /** The calls in progress as `node` shows them: each call's parties as `number:STATE`. */
    async function callsOn(node: ClusterNode): Promise<string[][]> {
      const answer = await control(node, 'GET', '/calls')
      expect(answer.status).toBe(200)
      const { calls } = answer.body as { calls: { parties: { number: string; state: string }[] }[] }
      return calls.map((call) => call.parties.map((party) => `${party.number}:${party.state}`))
    }

    /** Expects every node to show these calls, once it followed the engine. */
    async function expectCallsEverywhere(expected: string[][]): Promise<void> {
      for (const name of NODES) {
        const node = cluster.node(name)
        const shown = await eventually(
          () => callsOn(node),
          (calls) => JSON.stringify(calls) === JSON.stringify(expected),
        )
        expect(shown, `calls on node ${name}`).toEqual(expected)
      }
    }

    it('gives the engine the devices of a user created, renumbered and deleted through nodes that do not own it', async () => {
      const owner = await engineOwner(postgres)
      const [creator, caller] = NODES.filter((name) => name !== owner).map((name) =>
        cluster.node(name),
      ) as [ClusterNode, ClusterNode]
      const created = await control(creator, 'POST', '/users', {
        loginName: 'mona',
        password: 'demo-mona',
        salutation: 'MRS',
        firstName: 'Mona',
        lastName: 'Lambert',
        type: 'STANDARD',
        companyPhone: '1013',
        apiRights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED'],
        devices: [{ type: 'DESKPHONE', id: '1013', role: 'MAIN' }],
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)

      // Alice calls her from a third node; the owner rings the device once it reloaded the account.
      const alice = await ClusterClient.login(caller, 'alice')
      const call = (callee: string) =>
        eventually(
          () =>
            alice.send(caller, 'POST', '/1.0/telephony/calls', {
              deviceId: '1001',
              callee,
              autoAnswer: true,
            }),
          (answer) => answer.status === 201,
        )
      expect((await call('1013')).status).toBe(201)
      await expectCallsEverywhere([['1001:RINGING_OUTGOING', '1013:RINGING_INCOMING']])
      // Her device answers (the simulated phone, told through the creating node: forwarded to the owner).
      expect((await control(creator, 'POST', '/devices/1013/answer')).status).toBe(204)
      await expectCallsEverywhere([['1001:ACTIVE', '1013:ACTIVE']])

      // A new number: the call on the old one is released, the new one rings.
      const renumbered = await control(caller, 'PATCH', '/users/mona', {
        companyPhone: '1014',
        devices: [{ type: 'DESKPHONE', id: '1014', role: 'MAIN' }],
      })
      expect(renumbered.status, JSON.stringify(renumbered.body)).toBe(200)
      await expectCallsEverywhere([])
      expect((await call('1014')).status).toBe(201)
      await expectCallsEverywhere([['1001:RINGING_OUTGOING', '1014:RINGING_INCOMING']])

      // Deleted while it rings: the call is released on every node, and the device is gone.
      expect((await control(creator, 'DELETE', '/users/mona')).status).toBe(204)
      await expectCallsEverywhere([])
      const answered = await eventually(
        () => control(caller, 'POST', '/devices/1014/answer'),
        (answer) => answer.status === 404,
      )
      expect(answered.status).toBe(404)
    })

    it('restores through one node a snapshot saved through another and changed through a third, on every node', async () => {
      const [a, b, c] = NODES.map((name) => cluster.node(name)) as [
        ClusterNode,
        ClusterNode,
        ClusterNode,
      ]
      // The state kept: a call ringing on bob's phone, alice's language, carol without DND.
      const aliceOnA = await ClusterClient.login(a, 'alice')
      expect(
        (await aliceOnA.send(a, 'POST', '/1.0/users/alice/preferences', { guiLanguage: 'fr' }))
          .status,
      ).toBe(204)
      const kept = await control(a, 'POST', '/calls', { from: '+33612345678', to: '1002' })
      expect(kept.status, JSON.stringify(kept.body)).toBe(201)
      const keptCallRef = (kept.body as { callRef: string }).callRef
      const saved = await control(a, 'PUT', '/snapshots/across-nodes')
      expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300)

      // Changed through B: alice's language, carol's routing, the calls (the kept one ended, another made).
      const aliceOnB = await ClusterClient.login(b, 'alice')
      expect(
        (await aliceOnB.send(b, 'POST', '/1.0/users/alice/preferences', { guiLanguage: 'de' }))
          .status,
      ).toBe(204)
      const dnd = await control(b, 'PUT', '/users/carol/routing', { dndState: { activate: true } })
      expect(dnd.status, JSON.stringify(dnd.body)).toBeLessThan(300)
      expect((await control(b, 'POST', '/outside/+33612345678/hangup')).status).toBe(204)
      expect((await control(b, 'POST', '/calls', { from: '1003', to: '1004' })).status).toBe(201)
      await expectCallsEverywhere([['1003:RINGING_OUTGOING', '1004:RINGING_INCOMING']])
      const bobOnC = await ClusterClient.login(c, 'bob')

      const restored = await control(c, 'POST', '/snapshots/across-nodes/restore')
      expect(restored.status, JSON.stringify(restored.body)).toBe(200)
      expect(restored.body).toMatchObject({ snapshot: 'across-nodes', callsEnded: 1, calls: 1 })

      // Every session is closed, whichever node opened it and whichever node it is used on.
      for (const client of [aliceOnA, aliceOnB, bobOnC])
        for (const node of [a, b, c]) {
          const refused = await client.send(node, 'GET', '/1.0/users/alice')
          expect(refused.status, node.name).toBe(403)
          expect(refused.body, node.name).toMatchObject({ type: 'INVALID_SESSION' })
        }
      // Every node shows the state saved: the engine's calls, alice's language, carol's routing.
      await expectCallsEverywhere([['+33612345678:RINGING_OUTGOING', '1002:RINGING_INCOMING']])
      for (const node of [a, b, c]) {
        const alice = await ClusterClient.login(node, 'alice')
        const preferences = await eventually(
          () => alice.send(node, 'GET', '/1.0/users/alice/preferences'),
          (answer) => (answer.body as { guiLanguage?: string }).guiLanguage === 'fr',
        )
        expect(preferences.body, node.name).toMatchObject({ guiLanguage: 'fr' })
        const routing = await eventually(
          () => control(node, 'GET', '/users/carol/routing'),
          (answer) =>
            (answer.body as { dndState?: { activate?: boolean } }).dndState?.activate === false,
        )
        expect(routing.body, node.name).toMatchObject({ dndState: { activate: false } })
      }
      // The engine, on whichever node owns it, has the call restored: answered through a node, it connects.
      const listed = (await control(b, 'GET', '/calls')).body as { calls: { callRef: string }[] }
      expect(listed.calls.map((call) => call.callRef)).toEqual([keptCallRef])
      expect((await control(b, 'POST', '/devices/1002/answer')).status).toBe(204)
      await expectCallsEverywhere([['+33612345678:ACTIVE', '1002:ACTIVE']])
      expect((await control(a, 'POST', '/outside/+33612345678/hangup')).status).toBe(204)
      await expectCallsEverywhere([])
    })
  })
})
