/**
 * Two RoutingService nodes over one store, telling each other of their changes through one memory hub
 * (docs/cluster.md, "What each node keeps in memory"): the call engine's lookup on one node follows what the
 * other node stored; a node alone reads nothing more.
 */
import { describe, expect, it, vi } from 'vitest'
import { TrackedChangeNotices } from '../../../test/support/tracked-change-notices.js'
import { MemoryChangeNotices, MemoryNoticeHub } from '../../storage/memory/memory-change-notices.js'
import { MemoryRoutingStore } from '../../storage/memory/memory-routing-store.js'
import { EVERY_KEY } from '../change-notices.js'
import type { PlatformEvent } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { RoutingProfile } from './routing-profile.js'
import { RoutingService } from './routing-service.js'
import type { RoutingStore, RoutingWrite } from './routing-store.js'

const ALICE = { loginName: 'alice', hasMobile: true, hasVoicemail: true, hasAssociate: true }
const BOB = { ...ALICE, loginName: 'bob' }

/** A first profile for the user, or none, written straight to the store (another node's change). */
function write(loginName: string, profile: RoutingProfile | undefined): RoutingWrite {
  return { loginName, profile, revision: undefined, read: new Map() }
}

async function node(store: RoutingStore, hub: MemoryNoticeHub) {
  const notices = new TrackedChangeNotices(new MemoryChangeNotices(hub))
  const events: PlatformEvent[] = []
  const failures: unknown[] = []
  const routing = await RoutingService.start({
    store,
    events: { publish: (event) => void events.push(event) },
    // 1001 is alice's desk phone, 1002 bob's; nothing else is reached.
    resolve: (dialed) => {
      const loginName = { '1001': 'alice', '1002': 'bob' }[dialed]
      return loginName === undefined ? undefined : { number: dialed, deviceId: dialed, loginName }
    },
    notices,
    onReloadFailure: (error) => failures.push(error),
  })
  return { routing, notices, events, failures }
}

describe('RoutingService across nodes', () => {
  it("follows on B's lookup each profile A stores or clears, and publishes nothing on B", async () => {
    const store = new MemoryRoutingStore()
    const hub = new MemoryNoticeHub()
    const a = await node(store, hub)
    const b = await node(store, hub)

    let reloaded = b.notices.next('routing', 'alice')
    await a.routing.setForward(ALICE, { destinations: [{ type: 'NUMBER', number: '1002' }] })
    await reloaded
    expect(b.routing.lookup('alice')).toStrictEqual({
      dnd: false,
      remoteExtension: false,
      forward: { condition: 'IMMEDIATE', target: { type: 'NUMBER', number: '1002' } },
    })
    expect(b.routing.forwardRoute('alice')?.destinations).toStrictEqual([
      { type: 'NUMBER', number: '1002' },
    ])

    reloaded = b.notices.next('routing', 'alice')
    await a.routing.cancelForward(ALICE)
    await reloaded
    expect(b.routing.lookup('alice')).toBeUndefined()
    expect(a.events.map((event) => event.eventName)).toStrictEqual([
      'OnRoutingStateChanged',
      'OnRoutingStateChanged',
    ])
    expect(b.events).toStrictEqual([])
  })

  it("keeps both of two nodes' changes of one user's routing made at the same moment", async () => {
    const store = new MemoryRoutingStore()
    const hub = new MemoryNoticeHub()
    const a = await node(store, hub)
    const b = await node(store, hub)

    // Planned on the same profile (none): B's is stored second, over A's, so it is planned again on it.
    await Promise.all([
      a.routing.setDnd(ALICE, true),
      b.routing.setForward(ALICE, { destinations: [{ type: 'NUMBER', number: '1002' }] }),
    ])

    const both = {
      dnd: true,
      remoteExtension: false,
      forward: { condition: 'IMMEDIATE', target: { type: 'NUMBER', number: '1002' } },
    }
    expect((await store.load('alice'))?.profile).toStrictEqual(both)
    expect(a.routing.lookup('alice')).toStrictEqual(both)
    expect(b.routing.lookup('alice')).toStrictEqual(both)
    // Each node's event carries the state its change left: B's has A's do not disturb too.
    expect(a.events.at(-1)?.['routingState']).toMatchObject({ dndState: { activate: true } })
    expect(b.events.at(-1)?.['routingState']).toMatchObject({
      dndState: { activate: true },
      forwardRoutes: [{ destinations: [{ type: 'NUMBER', number: '1002' }] }],
    })
  })

  it('refuses one of two forwards that make a loop together, each checked on its own node', async () => {
    const store = new MemoryRoutingStore()
    const hub = new MemoryNoticeHub()
    const a = await node(store, hub)
    const b = await node(store, hub)

    const outcomes = await Promise.allSettled([
      a.routing.setForward(ALICE, { destinations: [{ type: 'NUMBER', number: '1002' }] }),
      b.routing.setForward(BOB, { destinations: [{ type: 'NUMBER', number: '1001' }] }),
    ])

    const refused = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
    )
    expect(refused).toHaveLength(1)
    expect(refused[0]).toBeInstanceOf(PlatformError)
    expect((refused[0] as PlatformError).message).toMatch(/forwards back: a loop/)
    expect((await store.loadAll()).size).toBe(1)
  })

  it('reloads every profile on EVERY_KEY, dropping those no longer stored', async () => {
    const store = new MemoryRoutingStore()
    const hub = new MemoryNoticeHub()
    await store.commit(write('carol', { dnd: true, remoteExtension: false }))
    const b = await node(store, hub)
    const carol = await store.load('carol')
    await store.commit({ ...write('carol', undefined), revision: carol?.revision })
    await store.commit(write('alice', { dnd: true, remoteExtension: false }))

    const reloaded = b.notices.next('routing', EVERY_KEY)
    await new MemoryChangeNotices(hub).announce('routing', EVERY_KEY)
    await reloaded

    expect(b.routing.lookup('carol')).toBeUndefined()
    expect(b.routing.lookup('alice')).toStrictEqual({ dnd: true, remoteExtension: false })
  })

  it('tells the reporter of a reload that failed, and keeps its copy', async () => {
    const store = new MemoryRoutingStore()
    const hub = new MemoryNoticeHub()
    const a = await node(store, hub)
    const b = await node(store, hub)
    vi.spyOn(store, 'load').mockRejectedValueOnce(new Error('database gone'))

    await a.routing.setDnd(ALICE, true)

    await vi.waitFor(() => expect(b.failures).toHaveLength(1))
    expect(b.routing.lookup('alice')).toBeUndefined()
  })

  it('reads nothing more from its store when it is alone (the embedded mode)', async () => {
    const store = new MemoryRoutingStore()
    const alone = await node(store, new MemoryNoticeHub())
    const load = vi.spyOn(store, 'load')
    const loadAll = vi.spyOn(store, 'loadAll')

    await alone.routing.setDnd(ALICE, true)
    await alone.routing.setDnd(ALICE, false)
    await new Promise((resolve) => setImmediate(resolve))

    expect(load).not.toHaveBeenCalled()
    expect(loadAll).not.toHaveBeenCalled()
    expect(alone.notices.applied).toStrictEqual([])
  })
})
