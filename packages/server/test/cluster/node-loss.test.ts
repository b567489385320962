/**
 * The loss of a node (issue 14, item 5): three real node processes under a load of calls; the engine's owner is
 * killed with SIGKILL in the middle of it. Clients that retry their request on another node keep their session,
 * their subscription and their channel (reopened on another node); the call in progress goes on; every call a
 * client was told was made is in its events, none lost.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Answer, ClusterClient } from '../support/cluster-client.js'
import {
  CLUSTER_CONTROL_TOKEN,
  type ClusterNode,
  engineOwner,
  TestCluster,
} from '../support/cluster-nodes.js'
import { FollowingChannel } from '../support/following-channel.js'
import { describeWithPostgres } from '../support/postgres.js'
import { describeWithRedis } from '../support/redis.js'

/** Calls made in all; the owner is killed while the call of this number rings. */
const CALLS = 12
const KILL_AT = 4

describeWithPostgres('cluster mode: the loss of a node', (postgres) => {
  describeWithRedis('three nodes, the engine owner killed', (redis) => {
    let cluster: TestCluster
    beforeAll(async () => {
      cluster = await TestCluster.start(postgres, redis, ['a', 'b', 'c'])
    }, 90_000)
    afterAll(() => cluster?.close(), 30_000)

    it('goes on through a SIGKILL of the engine owner: sessions, subscriptions, calls and events kept', async () => {
      const owner = await engineOwner(postgres)
      expect(['a', 'b', 'c']).toContain(owner)
      const others = ['a', 'b', 'c'].filter((name) => name !== owner)
      const living = (): ClusterNode[] => [...cluster.nodes.values()]
      // Alice talks to the nodes that stay; Bob's channel is on the owner, and must move when it dies.
      const alice = await ClusterClient.login(cluster.node(others[0] ?? ''), 'alice')
      const bob = await ClusterClient.login(cluster.node(others[1] ?? ''), 'bob')
      const subscribed = await bob.send(cluster.node(owner), 'POST', '/1.0/subscriptions', {
        filter: { selectors: [{ names: ['telephony'] }] },
        version: '1.0',
      })
      expect(subscribed.status).toBe(200)
      const subscriptionId = (subscribed.body as { subscriptionId: string }).subscriptionId
      const channel = new FollowingChannel(subscriptionId, living, cluster.node(owner))

      const made: string[] = []
      const retried: string[] = []
      let killed: Promise<void> | undefined
      const expectDone = (what: string, answer: Answer & { retries: number }, status: number) => {
        expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(status)
        if (answer.retries > 0) retried.push(`${what} (${answer.retries} retries)`)
      }
      for (let index = 0; index < CALLS; index++) {
        const call = await alice.sendToAny(living, 'POST', '/1.0/telephony/calls', {
          deviceId: '1001',
          callee: '1002',
          autoAnswer: true,
        })
        expectDone(`call ${index}`, call, 201)
        const location = String(call.headers.get('location'))
        const callRef = location.slice(location.lastIndexOf('/') + 1)
        made.push(callRef)
        // The owner dies while this call rings: its answer and release go to the next owner.
        if (index === KILL_AT) killed = cluster.kill(owner)
        const answered = await bob.sendToAny(
          living,
          'POST',
          `/1.0/telephony/calls/${callRef}/answer`,
          {
            deviceId: '1002',
          },
        )
        expectDone(`answer ${index}`, answered, 204)
        const released = await alice.sendToAny(living, 'DELETE', `/1.0/telephony/calls/${callRef}`)
        expectDone(`release ${index}`, released, 204)
      }
      await killed
      expect(cluster.nodes.has(owner)).toBe(false)
      // The engine has a new owner, one of the living nodes, and no call is left anywhere.
      expect(others).toContain(await engineOwner(postgres))
      for (const node of living())
        expect((await bob.send(node, 'GET', '/1.0/telephony/calls')).body, node.name).toEqual({
          calls: [],
        })

      // Every call made reached Bob's channel, created and removed, in order, across the move.
      const deadline = Date.now() + 10_000
      while (channel.callRefs('OnCallRemoved').length < made.length && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100))
      await channel.stop()
      expect(channel.reopened).toBeGreaterThanOrEqual(1)
      expect(channel.callRefs('OnCallCreated')).toEqual(made)
      expect(channel.callRefs('OnCallRemoved')).toEqual(made)
      process.stderr.write(
        `node loss: ${made.length} calls, owner ${owner} killed at call ${KILL_AT}; retried: ${retried.join(', ') || 'none'}; ` +
          `channel reopened ${channel.reopened} times; ${channel.events.length} events\n`,
      )
    }, 120_000)

    it('takes the killed node back: it starts, follows the engine and serves the sessions made meanwhile', async () => {
      const gone = ['a', 'b', 'c'].find((name) => !cluster.nodes.has(name)) ?? ''
      expect(gone).not.toBe('')
      const carol = await ClusterClient.login(
        [...cluster.nodes.values()][0] as ClusterNode,
        'carol',
      )
      const node = await cluster.startNode(gone)
      const read = await carol.send(node, 'GET', '/1.0/users/carol')
      expect(read.status).toBe(200)
      expect((await carol.send(node, 'GET', '/1.0/telephony/calls')).body).toEqual({ calls: [] })
    }, 60_000)

    it("makes the control plane's switch-over a real loss: the node asked ends, sessions live on", async () => {
      const [victim, survivor] = [...cluster.nodes.values()] as [ClusterNode, ClusterNode]
      const dave = await ClusterClient.login(victim, 'dave')
      const exited = new Promise<number | null>((resolve) =>
        victim.process.once('exit', (code, signal) => resolve(signal === 'SIGKILL' ? -9 : code)),
      )
      const response = await fetch(`${victim.controlOrigin}/control/v1/faults/switch-over`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${CLUSTER_CONTROL_TOKEN}`,
          'content-type': 'application/json',
        },
        body: '{}',
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({
        sessionsClosed: 0,
        nodeLost: victim.name,
        fault: { type: 'SWITCH_OVER', remainingSeconds: 0 },
      })
      expect(await exited).toBe(-9)
      await cluster.kill(victim.name)
      const read = await dave.send(survivor, 'GET', '/1.0/users/dave')
      expect(read.status).toBe(200)
    }, 60_000)
  })
})
