/**
 * The journal of a cluster (three real node processes over the machine's PostgreSQL and Redis): what one node
 * served and delivered is read, verified and followed through another (docs/journal.md, "Size": in a cluster
 * the entries are in one Redis stream that every node writes).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ClusterClient } from '../support/cluster-client.js'
import { CLUSTER_CONTROL_TOKEN, type ClusterNode, TestCluster } from '../support/cluster-nodes.js'
import { describeWithPostgres } from '../support/postgres.js'
import { describeWithRedis } from '../support/redis.js'

/** How long a node's entries may take to reach the shared stream (they go after the answers). */
const FOLLOW_MS = 10_000
const NODES = ['a', 'b', 'c'] as const

interface Entry {
  id: number
  kind: string
  user?: string
  method?: string
  path?: string
  status?: number
  event?: string
  subscription?: string
  suggestions?: { method: string; path: string }[]
}

describeWithPostgres('cluster mode: the journal across nodes', (postgres) => {
  describeWithRedis('three nodes', (redis) => {
    let cluster: TestCluster
    beforeAll(async () => {
      cluster = await TestCluster.start(postgres, redis, NODES)
    }, 90_000)
    afterAll(() => cluster?.close(), 30_000)

    const control = (node: ClusterNode, path: string, init: RequestInit = {}) =>
      fetch(`${node.controlOrigin}/control/v1${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${CLUSTER_CONTROL_TOKEN}`,
          ...(init.body !== undefined && { 'content-type': 'application/json' }),
        },
      })

    /** The entries `node` reads with `query`, asked again until `accept` takes them or FOLLOW_MS passed. */
    async function entriesOn(
      node: ClusterNode,
      query: string,
      accept: (entries: Entry[]) => boolean,
    ): Promise<Entry[]> {
      const deadline = Date.now() + FOLLOW_MS
      for (;;) {
        const response = await control(node, `/journal?${query}`)
        expect(response.status).toBe(200)
        const { entries } = (await response.json()) as { entries: Entry[] }
        if (accept(entries) || Date.now() > deadline) return entries
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }

    it('a request served by one node, the event a second delivered and a near-miss of the third, read on each', async () => {
      const [a, b, c] = NODES.map((name) => cluster.node(name)) as [
        ClusterNode,
        ClusterNode,
        ClusterNode,
      ]
      const alice = await ClusterClient.login(a, 'alice')
      const subscribed = await alice.send(b, 'POST', '/1.0/subscriptions', {
        filter: { selectors: [{ names: ['user'] }] },
        version: '1.0',
        timeout: 0,
      })
      expect(subscribed.status).toBe(200)
      const { subscriptionId } = subscribed.body as { subscriptionId: string }
      const changed = await alice.send(c, 'POST', '/1.0/users/alice/preferences', {
        guiLanguage: 'it',
      })
      expect(changed.status).toBe(204)
      const missed = await fetch(`${b.origin}/api/rest/1.0/telephony/calee`, { method: 'POST' })
      expect(missed.status).toBe(404)

      for (const node of [a, b, c]) {
        const requests = await entriesOn(node, 'user=alice&kind=request&order=oldest', (entries) =>
          entries.some((entry) => entry.path === '/api/rest/1.0/users/alice/preferences'),
        )
        expect(requests.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(
          expect.arrayContaining([
            'POST /api/rest/1.0/sessions 200',
            'POST /api/rest/1.0/subscriptions 200',
            'POST /api/rest/1.0/users/alice/preferences 204',
          ]),
        )
        const events = await entriesOn(
          node,
          `subscription=${subscriptionId}&kind=event`,
          (entries) => entries.some((entry) => entry.event === 'OnPreferencesChanged'),
        )
        expect(events.map((entry) => entry.event)).toContain('OnPreferencesChanged')
        const misses = await entriesOn(node, 'kind=near-miss', (entries) => entries.length > 0)
        expect(misses[0]).toMatchObject({
          method: 'POST',
          path: '/api/rest/1.0/telephony/calee',
          status: 404,
        })
        expect(misses[0]?.suggestions?.[0]).toEqual(
          expect.objectContaining({ method: 'POST', path: '/api/rest/1.0/telephony/calls' }),
        )
      }

      // Cause then effect, verified on a node that served neither.
      const verified = await control(a, '/journal/verify', {
        method: 'POST',
        body: JSON.stringify({
          patterns: [
            { kind: 'request', user: 'alice', path: '/api/rest/1.0/users/alice/preferences' },
            { kind: 'event', subscription: subscriptionId, event: 'OnPreferencesChanged' },
          ],
        }),
      })
      expect(verified.status).toBe(200)
      expect(await verified.json()).toMatchObject({ matched: true })
    }, 60_000)

    it('a stream opened on one node shows the entries of another', async () => {
      const [a, b] = [cluster.node('a'), cluster.node('b')]
      const stream = await control(a, '/journal/stream?kind=near-miss')
      expect(stream.status).toBe(200)
      expect(stream.headers.get('content-type')).toContain('application/x-ndjson')
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
      const missed = await fetch(`${b.origin}/api/rest/1.0/telephony/callz`, { method: 'GET' })
      expect(missed.status).toBe(404)
      const decoder = new TextDecoder()
      let text = ''
      const deadline = Date.now() + FOLLOW_MS
      while (!text.includes('/telephony/callz') && Date.now() < deadline) {
        const { value, done } = await reader.read()
        if (done) break
        text += decoder.decode(value, { stream: true })
      }
      await reader.cancel()
      const lines = text.split('\n').filter((line) => line.includes('/telephony/callz'))
      expect(lines).toHaveLength(1)
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ kind: 'near-miss', status: 404 })
    }, 60_000)
  })
})
