/**
 * The SearchContextStore conformance suite (style guide 6): every adapter passes the same cases, which are
 * what DirectorySearchService relies on (docs/directory-search.md): a context by session and login name,
 * replaced by each save, never answered once expired, freed one by one or a whole session at once.
 */
import { expect, it } from 'vitest'
import type { SearchContext } from '../../src/platform/directory-search/search-context.js'
import type { SearchContextStore } from '../../src/platform/directory-search/search-context-store.js'
import type { Clock } from '../../src/platform/events.js'

/** A store to test, and how to release it. */
export interface SearchContextStoreHandle {
  store: SearchContextStore
  close(): Promise<void>
}

/** The platform's time in every case: the clock given to `create` answers it. */
export const NOW = Date.UTC(2026, 0, 1, 9, 30)
const MINUTE = 60_000

/** A context of `loginName` expiring `lifeMs` after NOW, with two batches of unicode contacts. */
function context(loginName: string, lifeMs = MINUTE, changes: Partial<SearchContext> = {}) {
  return {
    loginName,
    state: 'SEARCHING',
    batches: [
      [
        {
          id: { loginName: 'zoe', phoneNumber: '+33 1 23 45 67 89' },
          firstName: 'Zoë',
          lastName: 'Ångström-Łukasiewicz',
          displayName: '王小明 🎧 "the \\ desk"',
          type: { main: 'USER', subType: 'INTERNAL' },
          vcardPath: 'users/zoe.vcf',
        },
      ],
      [{ id: { phoneNumber: '1003' } }],
    ],
    expiresAt: NOW + lifeMs,
    ...changes,
  } satisfies SearchContext as SearchContext
}

/** By login name: the port gives no order. */
function byLoginName(contexts: SearchContext[]): SearchContext[] {
  return [...contexts].sort((a, b) => (a.loginName < b.loginName ? -1 : 1))
}

/** Declares the cases, each on a fresh, empty store from `create`, whose clock is at NOW. */
export function searchContextStoreConformance(
  create: (clock: Pick<Clock, 'now'>) => Promise<SearchContextStoreHandle>,
): void {
  async function withStore(run: (store: SearchContextStore) => Promise<void>) {
    const handle = await create({ now: () => NOW })
    try {
      await run(handle.store)
    } finally {
      await handle.close()
    }
  }

  it('has no context for a session that never searched', () =>
    withStore(async (store) => {
      expect(await store.contexts('s1', NOW)).toStrictEqual([])
      expect(await store.find('s1', 'alice', NOW)).toBeUndefined()
    }))

  it('answers a context as saved: contacts with unicode, optional fields, empty batches', () =>
    withStore(async (store) => {
      const saved = context('alice')
      const finished = context('bob', MINUTE, { state: 'FINISHED', batches: [] })
      await store.save('s1', saved)
      await store.save('s1', finished)
      expect(await store.find('s1', 'alice', NOW)).toStrictEqual(saved)
      expect(await store.find('s1', 'bob', NOW)).toStrictEqual(finished)
      expect(byLoginName(await store.contexts('s1', NOW))).toStrictEqual([saved, finished])
    }))

  it("replaces the session's context for the same user: state, batches and expiry", () =>
    withStore(async (store) => {
      await store.save('s1', context('alice'))
      const next = context('alice', 2 * MINUTE, { state: 'FINISHED', batches: [] })
      await store.save('s1', next)
      expect(await store.find('s1', 'alice', NOW)).toStrictEqual(next)
      expect(await store.contexts('s1', NOW)).toStrictEqual([next])
    }))

  it('keeps the contexts of one session apart from those of another, for the same user', () =>
    withStore(async (store) => {
      const first = context('alice')
      const second = context('alice', MINUTE, { batches: [[{ id: { loginName: 'other' } }]] })
      await store.save('s1', first)
      await store.save('s2', second)
      expect(await store.find('s1', 'alice', NOW)).toStrictEqual(first)
      expect(await store.find('s2', 'alice', NOW)).toStrictEqual(second)
      expect(await store.contexts('s3', NOW)).toStrictEqual([])
    }))

  it("frees one user's context and leaves the others; freeing a missing one does nothing", () =>
    withStore(async (store) => {
      await store.save('s1', context('alice'))
      await store.save('s1', context('bob'))
      await store.save('s2', context('alice'))
      await store.delete('s1', 'alice')
      await store.delete('s1', 'nobody')
      await store.delete('s9', 'alice')
      expect(await store.find('s1', 'alice', NOW)).toBeUndefined()
      expect(await store.contexts('s1', NOW)).toStrictEqual([context('bob')])
      expect(await store.contexts('s2', NOW)).toStrictEqual([context('alice')])
    }))

  it("frees every context of a closed session and none of another's", () =>
    withStore(async (store) => {
      await store.save('s1', context('alice'))
      await store.save('s1', context('bob'))
      await store.save('s2', context('alice'))
      await store.deleteSession('s1')
      await store.deleteSession('never-searched')
      expect(await store.contexts('s1', NOW)).toStrictEqual([])
      expect(await store.find('s1', 'bob', NOW)).toBeUndefined()
      expect(await store.contexts('s2', NOW)).toStrictEqual([context('alice')])
    }))

  it('answers a context until the instant it expires, and never from that instant on', () =>
    withStore(async (store) => {
      await store.save('s1', context('alice'))
      const expiresAt = NOW + MINUTE
      expect(await store.find('s1', 'alice', expiresAt - 1)).toStrictEqual(context('alice'))
      expect(await store.contexts('s1', expiresAt - 1)).toStrictEqual([context('alice')])
      expect(await store.find('s1', 'alice', expiresAt)).toBeUndefined()
      expect(await store.contexts('s1', expiresAt)).toStrictEqual([])
    }))

  it("answers a session's live contexts among its expired ones", () =>
    withStore(async (store) => {
      await store.save('s1', context('alice', MINUTE))
      await store.save('s1', context('bob', 3 * MINUTE))
      await store.save('s1', context('carol', 2 * MINUTE))
      const later = NOW + 2 * MINUTE
      expect(await store.contexts('s1', later)).toStrictEqual([context('bob', 3 * MINUTE)])
      expect(await store.find('s1', 'alice', later)).toBeUndefined()
      expect(await store.find('s1', 'bob', later)).toStrictEqual(context('bob', 3 * MINUTE))
    }))

  it('answers a renewed context past its former expiry', () =>
    withStore(async (store) => {
      await store.save('s1', context('alice', MINUTE))
      await store.save('s1', context('alice', 5 * MINUTE, { batches: [] }))
      expect(await store.find('s1', 'alice', NOW + 4 * MINUTE)).toStrictEqual(
        context('alice', 5 * MINUTE, { batches: [] }),
      )
    }))

  it('answers nothing for a user whose context was replaced by one already expired', () =>
    withStore(async (store) => {
      await store.save('s1', context('alice'))
      await store.save('s1', context('bob'))
      await store.save('s1', context('alice', 0))
      expect(await store.find('s1', 'alice', NOW)).toBeUndefined()
      expect(await store.contexts('s1', NOW)).toStrictEqual([context('bob')])
    }))

  it('takes contexts again for a session after it was freed', () =>
    withStore(async (store) => {
      await store.save('s1', context('alice'))
      await store.deleteSession('s1')
      await store.save('s1', context('bob'))
      expect(await store.contexts('s1', NOW)).toStrictEqual([context('bob')])
    }))

  it('replaces a context with the next one while it is as it was read', () =>
    withStore(async (store) => {
      await store.save('s1', context('alice'))
      const read = await store.find('s1', 'alice', NOW)
      if (read === undefined) throw new Error('no context')
      const next = context('alice', 2 * MINUTE, { state: 'FINISHED', batches: [] })
      expect(await store.replace('s1', read, next)).toBe(true)
      expect(await store.find('s1', 'alice', NOW)).toStrictEqual(next)
    }))

  it('replaces nothing once another writer changed, replaced or freed the context read', () =>
    withStore(async (store) => {
      const next = context('alice', 2 * MINUTE, { batches: [] })
      for (const meanwhile of [
        () =>
          store.save('s1', context('alice', MINUTE, { batches: [[{ id: { loginName: 'x' } }]] })),
        () => store.delete('s1', 'alice'),
      ]) {
        await store.save('s1', context('alice'))
        const read = await store.find('s1', 'alice', NOW)
        if (read === undefined) throw new Error('no context')
        await meanwhile()
        const before = await store.find('s1', 'alice', NOW)
        expect(await store.replace('s1', read, next)).toBe(false)
        expect(await store.find('s1', 'alice', NOW)).toStrictEqual(before)
      }
    }))

  it('lets one of two polls that read the same context move it on', () =>
    withStore(async (store) => {
      await store.save('s1', context('alice'))
      const [one, two] = [
        await store.find('s1', 'alice', NOW),
        await store.find('s1', 'alice', NOW),
      ]
      if (one === undefined || two === undefined) throw new Error('no context')
      const outcomes = await Promise.all([
        store.replace('s1', one, context('alice', MINUTE, { batches: [] })),
        store.replace('s1', two, context('alice', MINUTE, { batches: [] })),
      ])
      expect(outcomes.filter(Boolean)).toHaveLength(1)
    }))
}
