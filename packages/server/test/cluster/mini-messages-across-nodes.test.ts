/**
 * Mini messages in the cluster mode (docs/telephony-api.md, "Mini messages"): two real nodes over the machine's
 * PostgreSQL and Redis share the queues. Senders on both nodes at once never push a queue past its bound (the
 * refused ones get 403 NOT_EXPECTED, none is dropped), and readers on both nodes at once read each message once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MAX_UNREAD_MINI_MESSAGES } from '../../src/platform/mini-messages/mini-message-service.js'
import { ClusterClient } from '../support/cluster-client.js'
import { type ClusterNode, TestCluster } from '../support/cluster-nodes.js'
import { describeWithPostgres } from '../support/postgres.js'
import { describeWithRedis } from '../support/redis.js'

const PATH = '/1.0/telephony/miniMessages'
/** Sends at once, more than a queue holds. */
const SENDS = MAX_UNREAD_MINI_MESSAGES + 8

describeWithPostgres('cluster mode: mini messages shared by the nodes', (postgres) => {
  describeWithRedis('two nodes', (redis) => {
    let cluster: TestCluster
    let nodes: ClusterNode[]
    beforeAll(async () => {
      cluster = await TestCluster.start(postgres, redis, ['a', 'b'])
      nodes = ['a', 'b'].map((name) => cluster.node(name))
    }, 90_000)
    afterAll(() => cluster?.close(), 30_000)

    it(`keeps ${MAX_UNREAD_MINI_MESSAGES} of ${SENDS} sends through both nodes at once, and reads each once through both`, async () => {
      const [a, b] = nodes as [ClusterNode, ClusterNode]
      const alice = await ClusterClient.login(a, 'alice')
      const bob = await ClusterClient.login(b, 'bob')
      const sends = await Promise.all(
        Array.from({ length: SENDS }, (_, index) =>
          alice.send(index % 2 === 0 ? a : b, 'POST', PATH, {
            recipient: '1002',
            message: `m${index}`,
          }),
        ),
      )
      const statuses = sends.map((answer) => answer.status)
      expect(statuses.filter((status) => status === 204)).toHaveLength(MAX_UNREAD_MINI_MESSAGES)
      for (const refused of sends.filter((answer) => answer.status !== 204))
        expect(refused).toMatchObject({ status: 403, body: { type: 'NOT_EXPECTED' } })

      const reads = await Promise.all(
        Array.from({ length: SENDS }, (_, index) => bob.send(index % 2 === 0 ? a : b, 'GET', PATH)),
      )
      const texts = reads.flatMap((answer) => {
        expect(answer.status).toBe(200)
        return answer.body === null ? [] : [(answer.body as { message: string }).message]
      })
      expect(texts).toHaveLength(MAX_UNREAD_MINI_MESSAGES)
      expect(new Set(texts).size).toBe(MAX_UNREAD_MINI_MESSAGES)
      expect((await bob.send(a, 'GET', PATH)).body).toBeNull()
    }, 60_000)
  })
})
