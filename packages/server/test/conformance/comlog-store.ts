/**
 * The behaviour every ComlogStore adapter must show, with the CallStore that appends its records
 * (`saveWithRecords`), run once per adapter by its test file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ComRecordDraft, StoredComRecord } from '../../src/platform/comlog/com-record.js'
import type { ComlogStore } from '../../src/platform/comlog/comlog-store.js'
import type { CallStore } from '../../src/platform/telephony/call-store.js'
import { initialState } from '../../src/platform/telephony/telephony-state.js'

/** A fresh, empty log, and, for durable adapters, a way to open it again after close(). */
export interface ComlogStoreUnderTest {
  store: ComlogStore
  calls: CallStore
  reopen?: () => Promise<{ store: ComlogStore; calls: CallStore }>
  /** Another store over the same log that writes at the same moment (another node), where the adapter serves several. */
  concurrent?: () => Promise<{ store: ComlogStore; calls: CallStore }>
}

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)
const NO_CHANGES = { changedCallRefs: [], removedCallRefs: [] }

/** A record of `loginName` about a call with `other`, `day` days after T0. */
function draft(
  loginName: string,
  other: string,
  day: number,
  overrides: Partial<ComRecordDraft> = {},
): ComRecordDraft {
  const role = overrides.role ?? 'CALLEE'
  const answered = overrides.answered ?? false
  const beginAt = T0 + day * DAY
  return {
    loginName,
    beginAt,
    role,
    answered,
    reason: answered ? 'NORMAL' : 'ABANDONED',
    missed: role === 'CALLEE' && !answered,
    remotePartyIds: [other, `10${day}`],
    record: {
      comRef: `call-${day}`,
      participants: [
        {
          role,
          answered,
          identity: { id: { loginName, phoneNumber: '1001' }, firstName: 'Émile 東京' },
          reason: answered ? 'NORMAL' : 'ABANDONED',
          leg: '1001',
        },
        {
          role: role === 'CALLER' ? 'CALLEE' : 'CALLER',
          answered,
          identity: { id: { loginName: other } },
          reason: answered ? 'NORMAL' : 'ABANDONED',
        },
      ],
      beginDate: new Date(beginAt).toISOString(),
      endDate: new Date(beginAt + 60_000).toISOString(),
      holdDuration: 0,
    },
    ...overrides,
  }
}

export function comlogStoreConformance(
  name: string,
  create: () => Promise<ComlogStoreUnderTest>,
): void {
  describe(`ComlogStore conformance: ${name}`, () => {
    let underTest: ComlogStoreUnderTest
    let store: ComlogStore
    const state = initialState([], '5ca1ab1e'.repeat(8))

    const append = (drafts: ComRecordDraft[], calls = underTest.calls) =>
      calls.saveWithRecords(state, NO_CHANGES, drafts)
    const ids = (records: StoredComRecord[]) => records.map((stored) => stored.record.recordId)

    beforeEach(async () => {
      underTest = await create()
      store = underTest.store
    })
    afterEach(async () => {
      await underTest.calls.close()
    })

    it('appends records with ids in order, unacknowledged, and reads them back whole', async () => {
      const stored = await append([draft('émile', 'bob', 1), draft('bob', 'émile', 1)])
      const [first, second] = ids(stored)
      expect(second).toBe((first ?? 0) + 1)
      expect(stored[0]?.record.acknowledged).toBe(false)
      expect(await store.findRecord('émile', first ?? 0)).toStrictEqual(stored[0])
    })

    it("reads one user's records, newest first, a page at a time, with the count of all", async () => {
      const stored = await append([
        draft('émile', 'bob', 1),
        draft('émile', 'bob', 3),
        draft('émile', 'carol', 2),
        draft('bob', 'émile', 4),
      ])
      const page = await store.findRecords('émile', {}, { offset: 0, limit: 2 })
      expect(page.totalCount).toBe(3)
      expect(page.records.map((stored) => stored.record.comRef)).toStrictEqual(['call-3', 'call-2'])
      const next = await store.findRecords('émile', {}, { offset: 2, limit: 2 })
      expect(next.records.map((stored) => stored.record.comRef)).toStrictEqual(['call-1'])
      expect(await store.findRecord('émile', ids(stored)[3] ?? 0)).toBeUndefined()
    })

    it('selects by date, acknowledgement, answer, role, comRef and remote party', async () => {
      await append([
        draft('émile', 'bob', 1, { role: 'CALLER', answered: true }),
        draft('émile', 'carol_x', 2),
        draft('émile', 'bob', 3, { answered: true }),
      ])
      const count = async (filter: Parameters<ComlogStore['findRecords']>[1]) =>
        (await store.findRecords('émile', filter, { offset: 0, limit: 10 })).totalCount
      expect(await count({ after: T0 + 2 * DAY })).toBe(2)
      expect(await count({ before: T0 + 2 * DAY })).toBe(2)
      expect(await count({ unansweredOnly: true })).toBe(1)
      expect(await count({ role: 'CALLER' })).toBe(1)
      expect(await count({ role: 'CALLEE' })).toBe(2)
      expect(await count({ comRef: 'call-2' })).toBe(1)
      expect(await count({ remotePartyId: 'bob' })).toBe(2)
      expect(await count({ remotePartyId: '102' })).toBe(1)
      expect(await count({ remotePartyId: 'carol_x' })).toBe(1)
      // LIKE's wild cards match only themselves.
      expect(await count({ remotePartyId: 'carol%' })).toBe(0)
      expect(await count({ remotePartyId: 'b_b' })).toBe(0)
      expect(await count({ remotePartyId: 'bo' })).toBe(0)
      expect(await count({ unacknowledgedOnly: true })).toBe(3)
    })

    it("acknowledges the user's records whose flag differs, and says which", async () => {
      const stored = await append([draft('émile', 'bob', 1), draft('bob', 'émile', 1)])
      const [mine, theirs] = ids(stored) as [number, number]
      expect(await store.countUnacknowledgedMissed('émile')).toBe(1)
      expect(await store.acknowledge('émile', [mine, theirs], true)).toStrictEqual([
        { recordId: mine, missed: true, wasAcknowledged: false },
      ])
      expect(await store.acknowledge('émile', [mine], true)).toStrictEqual([])
      expect((await store.findRecord('émile', mine))?.record.acknowledged).toBe(true)
      expect((await store.findRecord('bob', theirs))?.record.acknowledged).toBe(false)
      expect(await store.countUnacknowledgedMissed('émile')).toBe(0)
      expect(await store.acknowledge('émile', [mine], false)).toStrictEqual([
        { recordId: mine, missed: true, wasAcknowledged: true },
      ])
      expect(await store.countUnacknowledgedMissed('émile')).toBe(1)
    })

    it('tells one change of a record that two writers acknowledge or delete at the same moment', async (context) => {
      const other = await underTest.concurrent?.()
      if (other === undefined) return context.skip('the adapter serves one writer at a time')
      try {
        const stored = await append(
          Array.from({ length: 20 }, (_, day) => draft('émile', 'bob', day)),
        )
        const all = ids(stored)
        const acknowledged = await Promise.all([
          store.acknowledge('émile', all, true),
          other.store.acknowledge('émile', all, true),
        ])
        expect(
          acknowledged
            .flat()
            .map((change) => change.recordId)
            .sort(),
        ).toEqual([...all].sort())
        const deleted = await Promise.all([
          store.deleteRecords('émile', all.slice(0, 10)),
          other.store.deleteMatching('émile', {}),
          store.deleteRecords('émile', all),
        ])
        expect(
          deleted
            .flat()
            .map((change) => change.recordId)
            .sort(),
        ).toEqual([...all].sort())
      } finally {
        await other.calls.close()
      }
    })

    it("deletes the user's records by id and by filter, and says which", async () => {
      const stored = await append([
        draft('émile', 'bob', 1),
        draft('émile', 'bob', 2, { role: 'CALLER', answered: true }),
        draft('émile', 'carol', 3),
        draft('bob', 'émile', 1),
      ])
      const [first, second, third, bobs] = ids(stored) as [number, number, number, number]
      expect(await store.deleteRecords('émile', [first, bobs])).toStrictEqual([
        { recordId: first, missed: true, wasAcknowledged: false },
      ])
      expect(await store.deleteMatching('émile', { role: 'CALLER' })).toStrictEqual([
        { recordId: second, missed: false, wasAcknowledged: false },
      ])
      expect(ids((await store.findRecords('émile', {}, { offset: 0, limit: 9 })).records)).toEqual([
        third,
      ])
      expect(await store.deleteMatching('émile', {})).toHaveLength(1)
      expect((await store.findRecords('bob', {}, { offset: 0, limit: 9 })).totalCount).toBe(1)
    })

    it('finds every record, past the batches that index them, and never the deleted ones', async () => {
      // More records than one indexing batch (comlog-user-index.ts), in several appends, some past the last
      // batch: the query sees them all, newest first.
      const appended: StoredComRecord[] = []
      for (let day = 0; day < 300; day += 3)
        appended.push(
          ...(await append([
            draft('émile', 'bob', day),
            draft('émile', 'carol', day + 1),
            draft('bob', 'émile', day + 2),
          ])),
        )
      const page = await store.findRecords('émile', {}, { offset: 0, limit: 3 })
      expect(page.totalCount).toBe(200)
      expect(page.records.map((stored) => stored.record.comRef)).toStrictEqual([
        'call-298',
        'call-297',
        'call-295',
      ])
      const newest = appended.at(-2)?.record.recordId ?? 0
      expect(await store.deleteRecords('émile', [newest])).toHaveLength(1)
      const after = await store.findRecords('émile', {}, { offset: 0, limit: 1 })
      expect(after.totalCount).toBe(199)
      expect(after.records.map((stored) => stored.record.comRef)).toStrictEqual(['call-297'])
      expect(
        (await store.findRecords('émile', { role: 'CALLEE' }, { offset: 0, limit: 1 })).totalCount,
      ).toBe(199)
    })

    it('never gives the id of a deleted record again, also once opened again', async (context) => {
      const [first, second] = ids(
        await append([draft('émile', 'bob', 1), draft('émile', 'bob', 2)]),
      )
      expect(await store.deleteRecords('émile', [second ?? 0])).toHaveLength(1)
      const [third] = ids(await append([draft('émile', 'bob', 3)]))
      expect(third).toBe((second ?? 0) + 1)
      if (underTest.reopen === undefined) {
        context.skip('the adapter keeps nothing once closed')
        return
      }
      expect(await store.deleteRecords('émile', [third ?? 0])).toHaveLength(1)
      await underTest.calls.close()
      const reopened = await underTest.reopen()
      underTest = { ...underTest, ...reopened }
      const [fourth] = ids(await append([draft('émile', 'bob', 4)], reopened.calls))
      expect(fourth).toBe((third ?? 0) + 1)
      const page = await reopened.store.findRecords('émile', {}, { offset: 0, limit: 9 })
      expect(page.records.map((stored) => stored.record.recordId)).toStrictEqual([fourth, first])
    })

    it('reads the next id again after a restore wrote the log under the store that appends', async (context) => {
      if (underTest.reopen === undefined) {
        context.skip('the adapter has one connection to its storage')
        return
      }
      const [first] = ids(await append([draft('émile', 'bob', 1)]))
      // Another writer (a restore, on any node) puts records after the one this store knows of.
      const other = await underTest.reopen()
      try {
        const theirs = ids(
          await append([draft('émile', 'bob', 2), draft('émile', 'bob', 3)], other.calls),
        )
        expect(theirs).toStrictEqual([(first ?? 0) + 1, (first ?? 0) + 2])
        const [next] = ids(
          await underTest.calls.saveWithRecords(state, { ...NO_CHANGES, restored: true }, [
            draft('émile', 'bob', 4),
          ]),
        )
        expect(next).toBe((first ?? 0) + 3)
      } finally {
        await other.calls.close()
      }
    })

    it('numbers records after the highest id when opened again', async (context) => {
      if (underTest.reopen === undefined) {
        context.skip('the adapter keeps nothing once closed')
        return
      }
      const [first] = ids(await append([draft('émile', 'bob', 1)]))
      await underTest.calls.close()
      const reopened = await underTest.reopen()
      underTest = { ...underTest, ...reopened }
      const [next] = ids(await append([draft('émile', 'bob', 2)], reopened.calls))
      expect(next).toBe((first ?? 0) + 1)
      expect((await reopened.store.findRecord('émile', first ?? 0))?.record.comRef).toBe('call-1')
    })
  })
}
