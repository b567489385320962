/**
 * Two RoutingService nodes over one store, telling each other of their changes through one memory hub
 * (docs/cluster.md, "What each node keeps in memory"): the call engine's lookup on one node follows what the
 * other node stored; a node alone reads nothing more.
 */
import { describe, expect, it, vi } from 'vitest'
import { TrackedChangeNotices } from '../../../test/support/tracked-change-notices.js'
import { MemoryChangeNotices, MemoryNoticeHub } from '../../storage/memory/memory-change-notices.js'
import { MemoryRoutingStore } from '../../storage/memory/memory-routing-store.js'
import { EVERY_KEY, type PlatformEvent, type RoutingStore } from '../ports.js'
import { RoutingService } from './routing-service.js'

const ALICE = { loginName: 'alice', hasMobile: true, hasVoicemail: true, hasAssociate: true }

async function node(store: RoutingStore, hub: MemoryNoticeHub) {
  const notices = new TrackedChangeNotices(new MemoryChangeNotices(hub))
  const events: PlatformEvent[] = []
  const failures: unknown[] = []
  const routing = await RoutingService.start({
    store,
    events: { publish: (event) => void events.push(event) },
    // 1002 is bob's desk phone; nothing else is reached.
    resolve: (dialed) =>
      dialed === '1002' ? { number: dialed, deviceId: dialed, loginName: 'bob' } : undefined,
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

  it('reloads every profile on EVERY_KEY, dropping those no longer stored', async () => {
    const store = new MemoryRoutingStore()
    const hub = new MemoryNoticeHub()
    await store.save('carol', { dnd: true, remoteExtension: false })
    const b = await node(store, hub)
    await store.delete('carol')
    await store.save('alice', { dnd: true, remoteExtension: false })

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
