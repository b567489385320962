/**
 * Issue 32, item 4: a make-call whose node is killed (SIGKILL) while it runs, retried by the client on another node
 * with the same Idempotency-Key, places one call: the first attempt's when it ran, else the retry's
 * (docs/idempotency.md). Each round kills the node the request went to a few milliseconds after it was sent, so
 * that some rounds cut it before it reached the engine, some after the engine ran it and before it answered.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ClusterClient } from '../support/cluster-client.js'
import { type ClusterNode, engineOwner, TestCluster } from '../support/cluster-nodes.js'
import { describeWithPostgres } from '../support/postgres.js'
import { describeWithRedis } from '../support/redis.js'

/** Rounds, each a node killed under a make-call and started again. */
const ROUNDS = 12

interface Calls {
  calls: { callRef: string }[]
}

describeWithPostgres('cluster mode: a make-call retried after its node died', (postgres) => {
  describeWithRedis('three nodes, the requests node killed under the request', (redis) => {
    let cluster: TestCluster
    let alice: ClusterClient
    beforeAll(async () => {
      cluster = await TestCluster.start(postgres, redis, ['a', 'b', 'c'])
      alice = await ClusterClient.login(cluster.node('a'), 'alice')
    }, 90_000)
    afterAll(() => cluster?.close(), 30_000)

    const living = (): ClusterNode[] =>
      ['a', 'b', 'c']
        .map((name) => cluster.nodes.get(name))
        .filter((node): node is ClusterNode => node !== undefined)
    /**
     * The calls placed, read on the engine's owner: it holds every stored batch, where another node's replica may
     * be a few milliseconds behind (docs/cluster-engine.md, "Catching up on a miss"), and a read there could miss
     * a call just placed.
     */
    const callsOf = async (): Promise<string[]> => {
      const deadline = Date.now() + 5_000
      for (;;) {
        const owner = cluster.nodes.get(await engineOwner(postgres))
        if (owner !== undefined) {
          const answer = await alice.send(owner, 'GET', '/1.0/telephony/calls')
          if (answer.status === 200) return (answer.body as Calls).calls.map((call) => call.callRef)
        }
        if (Date.now() > deadline)
          throw new Error('no living owner of the engine answered within 5 s')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }

    it(`places one call in each of ${ROUNDS} rounds, whatever the kill cut`, async () => {
      const placedTwice: string[] = []
      let ranBeforeTheKill = 0
      for (let round = 0; round < ROUNDS; round += 1) {
        const owner = await engineOwner(postgres)
        // The request goes to a node that does not own the engine, or to the owner every third round.
        const victim =
          round % 3 === 2 ? owner : (['a', 'b', 'c'].find((name) => name !== owner) as string)
        const key = randomUUID()
        const body = { deviceId: '1001', callee: '1002' }
        const first = alice
          .send(cluster.node(victim), 'POST', '/1.0/telephony/calls', body, {
            'idempotency-key': key,
          })
          .catch((error: Error) => error)
        await new Promise((resolve) => setTimeout(resolve, (round * 7) % 40))
        await cluster.kill(victim)
        const cut = await first
        if (!(cut instanceof Error) && cut.status === 201) ranBeforeTheKill += 1
        const retried = await alice.sendToAny(
          living,
          'POST',
          '/1.0/telephony/calls',
          body,
          20_000,
          key,
        )
        expect(retried.status, JSON.stringify(retried.body)).toBe(201)
        const location = String(retried.headers.get('location'))
        const callRef = location.slice(location.lastIndexOf('/') + 1)
        const calls = await callsOf()
        if (calls.length !== 1 || calls[0] !== callRef)
          placedTwice.push(`round ${round}: ${calls.join(', ')} for ${callRef}`)
        for (const each of calls)
          await alice.sendToAny(living, 'DELETE', `/1.0/telephony/calls/${each}`)
        await cluster.startNode(victim)
      }
      process.stderr.write(
        `idempotent retries: ${ROUNDS} rounds, ${ranBeforeTheKill} answered before the kill, ` +
          `${placedTwice.length} placed twice\n`,
      )
      expect(placedTwice).toEqual([])
    }, 300_000)
  })
})
