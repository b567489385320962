/** The RoutingStore conformance suite (style guide 6): every adapter passes the same cases. */
import { expect, it } from 'vitest'
import type { Revision } from '../../src/platform/change-notices.js'
import type { RoutingProfile } from '../../src/platform/routing/routing-profile.js'
import type { RoutingStore } from '../../src/platform/routing/routing-store.js'

/** A store to test, and how to release it. */
export interface RoutingStoreHandle {
  store: RoutingStore
  /** A second store over the same data (a restart), where the adapter has one. */
  reopen?: () => Promise<RoutingStoreHandle>
  /**
   * Another store over the same data that writes at the same moment as this one (another node), where the
   * adapter serves several writers (PostgreSQL); the cases that need it run on this one store otherwise.
   */
  concurrent?: () => Promise<RoutingStoreHandle>
  close(): Promise<void>
}

const FORWARDED: RoutingProfile = {
  dnd: false,
  remoteExtension: false,
  forward: { condition: 'IMMEDIATE', target: { type: 'NUMBER', number: '1003' } },
}
const EVERYTHING: RoutingProfile = {
  dnd: true,
  remoteExtension: true,
  forward: { condition: 'BUSY_NO_ANSWER', target: { type: 'VOICEMAIL' } },
  overflow: { condition: 'NO_ANSWER', target: 'ASSOCIATE' },
}

/** Stores the user's profile over whatever the store holds of it now; answers its new revision. */
async function save(
  store: RoutingStore,
  loginName: string,
  profile: RoutingProfile,
): Promise<Revision> {
  const current = await store.load(loginName)
  const outcome = await store.commit({
    loginName,
    profile,
    revision: current?.revision,
    read: new Map(),
  })
  if (outcome.stale !== undefined || outcome.revision === undefined)
    throw new Error(`${loginName} moved on under the test`)
  return outcome.revision
}

/** Deletes the user's profile as the store holds it now (nothing when none is stored). */
async function remove(store: RoutingStore, loginName: string): Promise<void> {
  const current = await store.load(loginName)
  const outcome = await store.commit({
    loginName,
    profile: undefined,
    revision: current?.revision,
    read: new Map(),
  })
  if (outcome.stale !== undefined) throw new Error(`${loginName} moved on under the test`)
}

/** The profiles of a loadAll, without their revisions. */
async function profilesOf(store: RoutingStore): Promise<Map<string, RoutingProfile>> {
  return new Map([...(await store.loadAll())].map(([login, { profile }]) => [login, profile]))
}

/** Declares the cases, each on a fresh, empty store from `create`. */
export function routingStoreConformance(create: () => Promise<RoutingStoreHandle>): void {
  /** Runs `body` on a fresh store, released afterwards whatever happens. */
  async function withStore(body: (handle: RoutingStoreHandle) => Promise<void>): Promise<void> {
    const handle = await create()
    try {
      await body(handle)
    } finally {
      await handle.close()
    }
  }

  it('loads nothing from an empty store', () =>
    withStore(async ({ store }) => {
      expect(await store.loadAll()).toEqual(new Map())
    }))

  it('loads every saved profile as saved, the last save of a user winning', () =>
    withStore(async ({ store }) => {
      await save(store, 'bob', FORWARDED)
      await save(store, 'alice', { dnd: true, remoteExtension: false })
      const revision = await save(store, 'alice', EVERYTHING)
      const loaded = await store.loadAll()
      expect([...loaded.keys()]).toEqual(['alice', 'bob'])
      expect(loaded.get('alice')).toEqual({ profile: EVERYTHING, revision })
      expect(loaded.get('bob')?.profile).toEqual(FORWARDED)
    }))

  it('deletes one profile, and deleting a missing one does nothing', () =>
    withStore(async ({ store }) => {
      await save(store, 'alice', EVERYTHING)
      await save(store, 'bob', FORWARDED)
      await remove(store, 'alice')
      await remove(store, 'nobody')
      expect([...(await store.loadAll()).keys()]).toEqual(['bob'])
    }))

  it("loads one user's profile as last saved, and none once deleted or never saved", () =>
    withStore(async ({ store }) => {
      await save(store, 'alice', FORWARDED)
      const revision = await save(store, 'alice', EVERYTHING)
      await save(store, 'bob', FORWARDED)
      await remove(store, 'bob')
      expect(await store.load('alice')).toEqual({ profile: EVERYTHING, revision })
      expect(await store.load('bob')).toBeUndefined()
      expect(await store.load('nobody')).toBeUndefined()
      expect(await store.load('ALICE')).toBeUndefined()
    }))

  it('keeps a copy: changing a saved object afterwards changes nothing stored', () =>
    withStore(async ({ store }) => {
      const profile: RoutingProfile = { dnd: true, remoteExtension: false }
      await save(store, 'alice', profile)
      profile.dnd = false
      expect((await profilesOf(store)).get('alice')).toEqual({ dnd: true, remoteExtension: false })
    }))

  it('gives a profile a new revision at each commit that writes it', () =>
    withStore(async ({ store }) => {
      const first = await save(store, 'alice', FORWARDED)
      const second = await save(store, 'alice', EVERYTHING)
      expect(first).not.toBe(second)
      expect((await store.load('alice'))?.revision).toBe(second)
    }))

  it('writes nothing over a revision that moved on, and names the user', () =>
    withStore(async ({ store }) => {
      const read = await save(store, 'alice', FORWARDED)
      await save(store, 'alice', { dnd: true, remoteExtension: false })
      const late = { loginName: 'alice', revision: read, read: new Map() }
      expect(await store.commit({ ...late, profile: EVERYTHING })).toEqual({ stale: ['alice'] })
      expect(await store.commit({ ...late, profile: undefined })).toEqual({ stale: ['alice'] })
      expect((await store.load('alice'))?.profile).toEqual({ dnd: true, remoteExtension: false })
    }))

  it('refuses a first profile when another writer stored one meanwhile, keeping theirs', () =>
    withStore(async ({ store }) => {
      await save(store, 'bob', FORWARDED)
      const outcome = await store.commit({
        loginName: 'bob',
        profile: EVERYTHING,
        revision: undefined,
        read: new Map(),
      })
      expect(outcome).toEqual({ stale: ['bob'] })
      expect((await store.load('bob'))?.profile).toEqual(FORWARDED)
    }))

  it('writes nothing when a profile the change read moved on since, or appeared', () =>
    withStore(async ({ store }) => {
      const bob = await save(store, 'bob', { dnd: false, remoteExtension: false })
      await save(store, 'bob', FORWARDED)
      const moved = await store.commit({
        loginName: 'alice',
        profile: EVERYTHING,
        revision: undefined,
        read: new Map([['bob', bob]]),
      })
      await save(store, 'carol', FORWARDED)
      const appeared = await store.commit({
        loginName: 'alice',
        profile: EVERYTHING,
        revision: undefined,
        read: new Map([['carol', undefined]]),
      })
      expect([moved, appeared]).toEqual([{ stale: ['bob'] }, { stale: ['carol'] }])
      expect(await store.load('alice')).toBeUndefined()
    }))

  it('writes when the profiles the change read are as it read them, absent ones included', () =>
    withStore(async ({ store }) => {
      const bob = await save(store, 'bob', FORWARDED)
      const outcome = await store.commit({
        loginName: 'alice',
        profile: EVERYTHING,
        revision: undefined,
        read: new Map([
          ['bob', bob],
          ['carol', undefined],
        ]),
      })
      expect(outcome.stale).toBeUndefined()
      expect((await store.load('alice'))?.profile).toEqual(EVERYTHING)
    }))

  it('lets only one of two changes commit when each read what the other writes, at the same moment', () =>
    withStore(async (handle) => {
      const other = handle.concurrent === undefined ? undefined : await handle.concurrent()
      try {
        const second = other?.store ?? handle.store
        // alice forwards to bob after checking bob forwards nowhere; bob to alice after checking alice.
        const toBob = handle.store.commit({
          loginName: 'alice',
          profile: FORWARDED,
          revision: undefined,
          read: new Map([['bob', undefined]]),
        })
        const toAlice = second.commit({
          loginName: 'bob',
          profile: {
            ...FORWARDED,
            forward: { condition: 'IMMEDIATE', target: { type: 'NUMBER', number: '1001' } },
          },
          revision: undefined,
          read: new Map([['alice', undefined]]),
        })
        const outcomes = await Promise.all([toBob, toAlice])
        expect(outcomes.filter((outcome) => outcome.stale === undefined)).toHaveLength(1)
        expect((await handle.store.loadAll()).size).toBe(1)
      } finally {
        await other?.close()
      }
    }))

  it('keeps both parts of 1,000 pairs of changes two writers plan on copies of their own, each read back', () =>
    withStore(async (handle) => {
      const other = handle.concurrent === undefined ? undefined : await handle.concurrent()
      try {
        const second = other?.store ?? handle.store
        type Copy = { profile: RoutingProfile; revision: Revision | undefined }
        const copyOf = async (writer: RoutingStore): Promise<Copy> => {
          const stored = await writer.load('alice')
          return stored ?? { profile: { dnd: false, remoteExtension: false }, revision: undefined }
        }
        /** Plans the change on the writer's copy; when the store refuses it, reloads and plans again. */
        const write = async (
          writer: RoutingStore,
          copy: Copy,
          change: (profile: RoutingProfile) => RoutingProfile,
        ): Promise<Copy> => {
          for (let from = copy; ; from = await copyOf(writer)) {
            const profile = change(from.profile)
            const outcome = await writer.commit({
              loginName: 'alice',
              profile,
              revision: from.revision,
              read: new Map(),
            })
            if (outcome.stale === undefined) return { profile, revision: outcome.revision }
          }
        }
        let mine = await copyOf(handle.store)
        let theirs = await copyOf(second)
        const wrong: string[] = []
        for (let pair = 0; pair < 1_000; pair += 1) {
          const dnd = pair % 2 === 0
          const number = `${1000 + pair}`
          mine = await write(handle.store, mine, (profile) => ({ ...profile, dnd }))
          theirs = await write(second, theirs, (profile) => ({
            ...profile,
            forward: { condition: 'IMMEDIATE', target: { type: 'NUMBER', number } },
          }))
          for (const reader of [handle.store, second]) {
            const { profile } = await copyOf(reader)
            const forwarded = profile.forward?.target
            if (profile.dnd !== dnd) wrong.push(`dnd of pair ${pair}`)
            if (forwarded?.type !== 'NUMBER' || forwarded.number !== number)
              wrong.push(`forward of pair ${pair}`)
          }
        }
        expect(wrong).toEqual([])
      } finally {
        await other?.close()
      }
    }))

  it('keeps profiles across a reopen, as across a restart (adapters that can reopen)', async () => {
    const handle = await create()
    if (handle.reopen === undefined) {
      await handle.close()
      return
    }
    await save(handle.store, 'carol', EVERYTHING)
    const again = await handle.reopen()
    await handle.close()
    try {
      expect((await profilesOf(again.store)).get('carol')).toEqual(EVERYTHING)
    } finally {
      await again.close()
    }
  })
}
