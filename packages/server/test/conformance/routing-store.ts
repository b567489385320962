/** The RoutingStore conformance suite (style guide 6): every adapter passes the same cases. */
import { expect, it } from 'vitest'
import type { RoutingStore } from '../../src/platform/ports.js'
import type { RoutingProfile } from '../../src/platform/routing/routing-profile.js'

/** A store to test, and how to release it. */
export interface RoutingStoreHandle {
  store: RoutingStore
  /** A second store over the same data (a restart), where the adapter has one. */
  reopen?: () => Promise<RoutingStoreHandle>
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

/** Declares the cases, each on a fresh, empty store from `create`. */
export function routingStoreConformance(create: () => Promise<RoutingStoreHandle>): void {
  it('loads nothing from an empty store', async () => {
    const handle = await create()
    try {
      expect(await handle.store.loadAll()).toEqual(new Map())
    } finally {
      await handle.close()
    }
  })

  it('loads every saved profile as saved, the last save of a user winning', async () => {
    const handle = await create()
    try {
      await handle.store.save('bob', FORWARDED)
      await handle.store.save('alice', { dnd: true, remoteExtension: false })
      await handle.store.save('alice', EVERYTHING)
      const loaded = await handle.store.loadAll()
      expect([...loaded.keys()]).toEqual(['alice', 'bob'])
      expect(loaded.get('alice')).toEqual(EVERYTHING)
      expect(loaded.get('bob')).toEqual(FORWARDED)
    } finally {
      await handle.close()
    }
  })

  it('deletes one profile, and deleting a missing one does nothing', async () => {
    const handle = await create()
    try {
      await handle.store.save('alice', EVERYTHING)
      await handle.store.save('bob', FORWARDED)
      await handle.store.delete('alice')
      await handle.store.delete('nobody')
      expect([...(await handle.store.loadAll()).keys()]).toEqual(['bob'])
    } finally {
      await handle.close()
    }
  })

  it("loads one user's profile as last saved, and none once deleted or never saved", async () => {
    const handle = await create()
    try {
      await handle.store.save('alice', FORWARDED)
      await handle.store.save('alice', EVERYTHING)
      await handle.store.save('bob', FORWARDED)
      await handle.store.delete('bob')
      expect(await handle.store.load('alice')).toEqual(EVERYTHING)
      expect(await handle.store.load('bob')).toBeUndefined()
      expect(await handle.store.load('nobody')).toBeUndefined()
      expect(await handle.store.load('ALICE')).toBeUndefined()
    } finally {
      await handle.close()
    }
  })

  it('keeps a copy: changing a saved object afterwards changes nothing stored', async () => {
    const handle = await create()
    try {
      const profile: RoutingProfile = { dnd: true, remoteExtension: false }
      await handle.store.save('alice', profile)
      profile.dnd = false
      expect((await handle.store.loadAll()).get('alice')).toEqual({
        dnd: true,
        remoteExtension: false,
      })
    } finally {
      await handle.close()
    }
  })

  it('keeps profiles across a reopen, as across a restart (adapters that can reopen)', async () => {
    const handle = await create()
    if (handle.reopen === undefined) {
      await handle.close()
      return
    }
    await handle.store.save('carol', EVERYTHING)
    const again = await handle.reopen()
    await handle.close()
    try {
      expect((await again.store.loadAll()).get('carol')).toEqual(EVERYTHING)
    } finally {
      await again.close()
    }
  })
}
