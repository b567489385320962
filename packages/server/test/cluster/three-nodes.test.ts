/**
 * The cluster mode as clients meet it (issue 14, "What must be shown"): three real node processes over the
 * machine's PostgreSQL and Redis. A session moves between nodes; a subscription made on one node is served by a
 * channel on another, and the channel moved to a third receives every event queued meanwhile, once and in order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { ClusterClient } from '../support/cluster-client.js'
import { TestCluster } from '../support/cluster-nodes.js'
import { describeWithPostgres } from '../support/postgres.js'
import { describeWithRedis } from '../support/redis.js'

describeWithPostgres('cluster mode: three nodes serving one platform', (postgres) => {
  describeWithRedis('three nodes', (redis) => {
    let cluster: TestCluster
    beforeAll(async () => {
      cluster = await TestCluster.start(postgres, redis, ['a', 'b', 'c'])
    }, 90_000)
    afterAll(() => cluster?.close(), 30_000)

    it('reports haMode on every node', async () => {
      for (const name of ['a', 'b', 'c']) {
        const root = (await (await fetch(`${cluster.node(name).origin}/api/rest`)).json()) as {
          serverInfo: { haMode: boolean }
        }
        expect(root.serverInfo.haMode, name).toBe(true)
      }
    })

    it('opens a session on one node, uses and keeps it alive on another, closes it on a third', async () => {
      const [a, b, c] = [cluster.node('a'), cluster.node('b'), cluster.node('c')]
      const alice = await ClusterClient.login(a, 'alice')
      const user = await alice.send(b, 'GET', '/1.0/users/alice')
      expect(user.status).toBe(200)
      expect(user.body).toMatchObject({ loginName: 'alice' })
      expect((await alice.send(c, 'POST', '/1.0/sessions/keepalive')).status).toBe(204)
      const session = await alice.send(b, 'GET', '/1.0/sessions')
      expect(session.status).toBe(200)
      expect(session.body).toMatchObject({ login: 'alice' })
      expect((await alice.send(c, 'DELETE', '/1.0/sessions')).status).toBe(204)
      for (const node of [a, b, c]) {
        const refused = await alice.send(node, 'GET', '/1.0/users/alice')
        expect(refused.status, node.name).toBe(403)
        expect(refused.body, node.name).toMatchObject({ type: 'INVALID_SESSION' })
      }
    })

    it('ends on every node, at once, the sessions of an account whose password changed through another', async () => {
      const [a, b, c] = [cluster.node('a'), cluster.node('b'), cluster.node('c')]
      const changer = await ClusterClient.login(a, 'dave')
      const other = await ClusterClient.login(b, 'dave')
      // Used on B and C first: each node holds it in its sessions' cache.
      expect((await other.send(b, 'GET', '/1.0/users/dave')).status).toBe(200)
      expect((await other.send(c, 'GET', '/1.0/users/dave')).status).toBe(200)
      const changed = await changer.send(a, 'PUT', '/1.0/users/dave/password', {
        oldPassword: 'demo-dave',
        newPassword: 'dave-new-secret',
      })
      expect(changed.status).toBe(204)
      for (const node of [a, b, c]) {
        const refused = await other.send(node, 'GET', '/1.0/users/dave')
        expect(refused.status, node.name).toBe(403)
        expect((await changer.send(node, 'GET', '/1.0/users/dave')).status, node.name).toBe(200)
      }
      // Back to the demo password for the other cases.
      expect(
        (
          await changer.send(b, 'PUT', '/1.0/users/dave/password', {
            oldPassword: 'dave-new-secret',
            newPassword: 'demo-dave',
          })
        ).status,
      ).toBe(204)
    })

    it('lists the sessions an account opened through other nodes as its other sessions', async () => {
      const first = await ClusterClient.login(cluster.node('a'), 'bob')
      const second = await ClusterClient.login(cluster.node('c'), 'bob')
      const info = await second.send(cluster.node('b'), 'GET', '/1.0/sessions')
      expect(info.status).toBe(200)
      const { otherSessions } = info.body as { otherSessions: { sessionId: string }[] }
      const firstInfo = (await first.send(cluster.node('a'), 'GET', '/1.0/sessions')).body as {
        sessionId: string
      }
      expect(otherSessions.map((other) => other.sessionId)).toEqual([firstInfo.sessionId])
    })

    /** Alice's subscription to her user events, made on `node`. */
    async function subscribe(client: ClusterClient, node: string): Promise<string> {
      const subscribed = await client.send(cluster.node(node), 'POST', '/1.0/subscriptions', {
        filter: { selectors: [{ names: ['user'] }] },
        version: '1.0',
      })
      expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200)
      return (subscribed.body as { subscriptionId: string }).subscriptionId
    }

    const channelOn = (node: string, subscriptionId: string): Promise<ChannelClient> =>
      openChannel(`${cluster.node(node).origin}/api/rest/1.0/notifications/${subscriptionId}`)

    const setLanguage = (client: ClusterClient, node: string, guiLanguage: string) =>
      client.send(cluster.node(node), 'POST', '/1.0/users/carol/preferences', { guiLanguage })

    /** The guiLanguage of the next OnPreferencesChanged on the channel. */
    async function nextLanguage(channel: ChannelClient): Promise<string> {
      const event = await channel.next(5_000)
      expect(event).toMatchObject({ eventName: 'OnPreferencesChanged', loginName: 'carol' })
      return String((event['preferences'] as Record<string, unknown>)['guiLanguage'])
    }

    it('serves a subscription made on one node from a channel on another, with events made on a third', async () => {
      const carol = await ClusterClient.login(cluster.node('a'), 'carol')
      const subscriptionId = await subscribe(carol, 'a')
      const channel = await channelOn('b', subscriptionId)
      expect(channel.status).toBe(200)
      expect(await channel.next(5_000)).toMatchObject({ eventName: 'OnChannelInformation' })
      expect((await setLanguage(carol, 'c', 'fr')).status).toBe(204)
      expect(await nextLanguage(channel)).toBe('fr')
      channel.close()
    })

    it('moves a channel to another node: every event queued meanwhile arrives once, in order', async () => {
      const carol = await ClusterClient.login(cluster.node('b'), 'carol')
      const subscriptionId = await subscribe(carol, 'b')
      const first = await channelOn('a', subscriptionId)
      await first.next(5_000)
      // The demo directory's languages, each change to another than the last (so each is an event).
      const languages = ['fr', 'de', 'es', 'it', 'en', 'fr', 'de', 'es', 'it', 'en']
      for (const language of languages.slice(0, 3)) await setLanguage(carol, 'c', language)
      for (const language of languages.slice(0, 3)) expect(await nextLanguage(first)).toBe(language)
      // The client goes away (its node is drained, or the connection breaks) and events go on meanwhile.
      first.close()
      await first.ended
      for (const language of languages.slice(3)) await setLanguage(carol, 'a', language)
      const second = await channelOn('c', subscriptionId)
      await second.next(5_000)
      // The first channel was cut, not ended by its node: what it delivered may not have reached the client.
      expect(await second.next(5_000)).toMatchObject({
        eventName: 'OnChannelInformation',
        firstSequence: 1,
        lastSequence: 3,
      })
      for (const language of languages.slice(3)) expect(await nextLanguage(second)).toBe(language)
      await setLanguage(carol, 'b', 'fr')
      expect(await nextLanguage(second)).toBe('fr')
      second.close()
    })

    /** `login`'s telephony subscription, made on `node`; its id. */
    async function subscribeTelephony(client: ClusterClient, node: string): Promise<string> {
      const subscribed = await client.send(cluster.node(node), 'POST', '/1.0/subscriptions', {
        filter: { selectors: [{ names: ['telephony'] }] },
        version: '1.0',
      })
      expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200)
      return (subscribed.body as { subscriptionId: string }).subscriptionId
    }

    /** The next event named `eventName` on the channel, skipping others. */
    async function nextNamed(channel: ChannelClient, eventName: string) {
      for (;;) {
        const event = await channel.next(5_000)
        if (event['eventName'] === eventName) return event
      }
    }

    /** The callRef of a 201's Location. */
    const callRefOf = (location: string | null): string =>
      String(location).slice(String(location).lastIndexOf('/') + 1)

    it('runs a call whose commands and events go through three nodes', async () => {
      const alice = await ClusterClient.login(cluster.node('a'), 'alice')
      const bob = await ClusterClient.login(cluster.node('c'), 'bob')
      const aliceChannel = await channelOn('c', await subscribeTelephony(alice, 'b'))
      const bobChannel = await channelOn('b', await subscribeTelephony(bob, 'a'))
      await aliceChannel.next(5_000)
      await bobChannel.next(5_000)

      const made = await alice.send(cluster.node('b'), 'POST', '/1.0/telephony/calls', {
        deviceId: '1001',
        callee: '1002',
        autoAnswer: true,
      })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      const callRef = callRefOf(made.headers.get('location'))
      // The events' payloads are the scenarios' business (test/scenarios): here, that each reaches its channel.
      expect(await nextNamed(aliceChannel, 'OnCallCreated')).toMatchObject({ callRef })
      expect(await nextNamed(bobChannel, 'OnCallCreated')).toMatchObject({ callRef })
      // Read on a third node right after the command: the command's node answered once it was applied there.
      const ringing = await bob.send(cluster.node('b'), 'GET', '/1.0/telephony/calls')
      expect(ringing.body).toMatchObject({ calls: [{ callRef }] })

      const answered = await bob.send(
        cluster.node('c'),
        'POST',
        `/1.0/telephony/calls/${callRef}/answer`,
        {
          deviceId: '1002',
        },
      )
      expect(answered.status, JSON.stringify(answered.body)).toBe(204)
      expect(await nextNamed(aliceChannel, 'OnCallModified')).toMatchObject({ callRef })
      expect(await nextNamed(bobChannel, 'OnCallModified')).toMatchObject({ callRef })

      const released = await alice.send(
        cluster.node('a'),
        'DELETE',
        `/1.0/telephony/calls/${callRef}`,
      )
      expect(released.status, JSON.stringify(released.body)).toBe(204)
      expect(await nextNamed(aliceChannel, 'OnCallRemoved')).toMatchObject({ callRef })
      expect(await nextNamed(bobChannel, 'OnCallRemoved')).toMatchObject({ callRef })
      for (const name of ['a', 'b', 'c']) {
        expect(
          (await alice.send(cluster.node(name), 'GET', '/1.0/telephony/calls')).body,
          name,
        ).toEqual({
          calls: [],
        })
      }
      aliceChannel.close()
      bobChannel.close()
    })

    it('answers calls on a node right after another node made them, before that node could have heard of them', async () => {
      // Three pairs at once, each answering through another node than the one that made the call, at once
      // (a client may act on a call's event before this node's replica applied it): none is refused.
      const pairs = [
        ['alice', '1001', 'bob', '1002'],
        ['franck', '1006', 'gaelle', '1007'],
        ['ines', '1009', 'karim', '1011'],
      ] as const
      const refused: string[] = []
      await Promise.all(
        pairs.map(async ([caller, from, callee, to], index) => {
          const calling = await ClusterClient.login(cluster.node('a'), caller)
          const called = await ClusterClient.login(cluster.node('b'), callee)
          const nodes = ['a', 'b', 'c'].map((name) => cluster.node(name))
          for (let cycle = 0; cycle < 15; cycle++) {
            const at = (offset: number) =>
              nodes[(index + cycle + offset) % 3] as (typeof nodes)[number]
            const made = await calling.send(at(0), 'POST', '/1.0/telephony/calls', {
              deviceId: from,
              callee: to,
              autoAnswer: true,
            })
            expect(made.status, JSON.stringify(made.body)).toBe(201)
            const callRef = callRefOf(made.headers.get('location'))
            const answered = await called.send(
              at(1),
              'POST',
              `/1.0/telephony/calls/${callRef}/answer`,
              {
                deviceId: to,
              },
            )
            if (answered.status !== 204) refused.push(`${callee} answer: ${answered.status}`)
            const released = await calling.send(at(2), 'DELETE', `/1.0/telephony/calls/${callRef}`)
            if (released.status !== 204) refused.push(`${caller} release: ${released.status}`)
          }
        }),
      )
      expect(refused).toEqual([])
    })
  })
})
