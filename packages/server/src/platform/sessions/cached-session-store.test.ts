/**
 * The cluster mode's session cache: what it answers from memory and when it goes to the store, and how a close
 * anywhere reaches every node's cache (the conformance suite runs over it too, and sees no difference).
 */
import { describe, expect, it } from 'vitest'
import { TIMING } from '../../../test/conformance/session-store.js'
import { MemoryChangeNotices, MemoryNoticeHub } from '../../storage/memory/memory-change-notices.js'
import { MemorySessionStore } from '../../storage/memory/memory-session-store.js'
import { EVERY_KEY } from '../change-notices.js'
import { CachedSessionStore } from './cached-session-store.js'
import type { SessionStore } from './session-store.js'

const T0 = 1_700_000_000_000
const TTL_MS = TIMING.timeToLiveSeconds * 1000

/** A memory store that counts its uses and can hold one back until released. */
class CountingStore extends MemorySessionStore {
  uses = 0
  gate: Promise<void> | undefined
  override async use(...args: Parameters<SessionStore['use']>) {
    this.uses += 1
    const used = await super.use(...args)
    if (this.gate !== undefined) await this.gate
    return used
  }
}

async function setUp() {
  const store = new CountingStore(TIMING)
  const hub = new MemoryNoticeHub()
  const notices = [new MemoryChangeNotices(hub), new MemoryChangeNotices(hub)]
  const [a, b] = notices.map(
    (each) => new CachedSessionStore(store, { timing: TIMING, notices: each }),
  )
  await store.issueCredential('t1', 'alice', T0)
  await store.open(
    {
      sessionId: 's1',
      token: 't1',
      kind: 'USER',
      owner: 'alice',
      actingAs: 'alice',
      admin: false,
      applicationName: 'crm',
      rights: [],
    },
    T0,
  )
  return { store, hub, a: a as CachedSessionStore, b: b as CachedSessionStore, notices }
}

/** Lets the notices' microtasks run. */
const heard = () => new Promise((resolve) => setImmediate(resolve))

describe('CachedSessionStore', () => {
  it('answers the uses of the next second from memory, its timer restarted at each, then renews in the store', async () => {
    const { store, a } = await setUp()
    expect(await a.use('t1', T0 + 100)).toMatchObject({
      state: 'OPEN',
      session: { sessionId: 's1' },
    })
    const cached = await a.use('t1', T0 + 900)
    expect(cached).toMatchObject({ state: 'OPEN', session: { expiresAt: T0 + 900 + TTL_MS } })
    expect(store.uses).toBe(1)
    // The store's timer is the one of the last renewal: at most a second behind.
    expect((await store.session('s1', T0 + 900))?.expiresAt).toBe(T0 + 100 + TTL_MS)
    await a.use('t1', T0 + 1_100)
    expect(store.uses).toBe(2)
    expect((await store.session('s1', T0 + 1_100))?.expiresAt).toBe(T0 + 1_100 + TTL_MS)
    // A clock put back goes to the store too.
    await a.use('t1', T0 + 1_000)
    expect(store.uses).toBe(3)
  })

  it('refuses at once on every node a session closed through one of them', async () => {
    const { store, a, b } = await setUp()
    await a.use('t1', T0 + 100)
    await b.use('t1', T0 + 100)
    expect(await b.close('s1', 'CLOSED_BY_CLIENT', T0 + 200)).toMatchObject({ state: 'CLOSED' })
    await heard()
    expect(await a.use('t1', T0 + 300)).toEqual({ state: 'NONE' })
    expect(await b.use('t1', T0 + 300)).toEqual({ state: 'NONE' })
    expect(store.uses).toBe(4)
    expect(a.size + b.size).toBe(0)
  })

  it('tells the other nodes of a session that a use found expired', async () => {
    const { a, b } = await setUp()
    await a.use('t1', T0 + 100)
    const late = T0 + 100 + TTL_MS + TIMING.graceSeconds * 1000
    expect(await b.use('t1', late)).toMatchObject({ state: 'EXPIRED' })
    await heard()
    expect(a.size).toBe(0)
  })

  it('forgets everything when notices may have been missed', async () => {
    const { store, a, notices } = await setUp()
    await a.use('t1', T0 + 100)
    await notices[1]?.announce('sessions', EVERY_KEY)
    await heard()
    expect(a.size).toBe(0)
    await a.use('t1', T0 + 200)
    expect(store.uses).toBe(2)
  })

  it('does not keep a use the store answered before a close that came meanwhile', async () => {
    const { store, a, b } = await setUp()
    let release = () => {}
    store.gate = new Promise((resolve) => {
      release = resolve
    })
    const using = a.use('t1', T0 + 100)
    await heard()
    store.gate = undefined
    await b.close('s1', 'CLOSED_BY_CLIENT', T0 + 150)
    await heard()
    release()
    // The use began before the close: it may answer OPEN, as a request under way does, but is not kept.
    expect(await using).toMatchObject({ state: 'OPEN' })
    expect(await a.use('t1', T0 + 200)).toEqual({ state: 'NONE' })
  })

  it('holds only the sessions used in about the last second', async () => {
    const { store, a } = await setUp()
    await store.issueCredential('t2', 'bob', T0)
    await a.use('t1', T0 + 100)
    expect(a.size).toBe(1)
    // A use of another token two seconds later drops the stale entry.
    await a.use('t2', T0 + 2_100)
    expect(a.size).toBe(0)
  })
})
