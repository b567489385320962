/** The behaviour every AcdTicketStore adapter must show, run once per adapter by its test file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AcdTicket } from '../../src/platform/acd/acd-ticket.js'
import {
  type AcdTicketStore,
  DEFAULT_TICKET_LIMIT,
  MAX_TICKET_LIMIT,
  type TicketQuery,
} from '../../src/platform/acd/acd-ticket-store.js'

/** A fresh, empty store, and, for durable adapters, a way to open it again after close(). */
export interface AcdTicketStoreUnderTest {
  store: AcdTicketStore
  close(): Promise<void>
  reopen?: () => Promise<{ store: AcdTicketStore; close(): Promise<void> }>
  /** Another store over the same data that writes at the same moment (another node), where the adapter serves several. */
  concurrent?: () => Promise<{ store: AcdTicketStore; close(): Promise<void> }>
}

/** A time past 2^32 ms, so that a store keeping times in 32 bits would show it. */
const T0 = Date.UTC(2026, 0, 1)
const SECOND = 1000
/** A query over every ticket the cases append. */
const EVERYTHING: TicketQuery = { from: 0, to: T0 + 1_000_000 * SECOND }

/** Ticket `ticketId` of `pilot`, closed `second` seconds after T0, unanswered: its optional fields absent. */
function ticket(ticketId: string, second = 0, pilot = '3000'): AcdTicket {
  const closedAt = T0 + second * SECOND
  return {
    ticketId,
    pilot,
    caller: '+33 1 23 45 67 89',
    callRef: `call-${ticketId}`,
    arrivedAt: closedAt - 40 * SECOND,
    endedAt: closedAt,
    closedAt,
    offers: 0,
    refusals: 0,
    waitMs: 40 * SECOND,
    queueWaitMs: 0,
    handlingMs: 0,
    wrapUpMs: 0,
    outcome: 'DISSUADED',
  }
}

/** Ticket `ticketId` of `pilot` that `agent` answered, closed `second` seconds after T0: every field set. */
function served(ticketId: string, second: number, agent: string, pilot = '3000'): AcdTicket {
  const closedAt = T0 + second * SECOND
  return {
    ...ticket(ticketId, second, pilot),
    queue: '3100',
    processingGroup: 'Élysée 東京 👋',
    arrivedAt: closedAt - 400 * SECOND,
    queuedAt: closedAt - 399 * SECOND,
    answeredAt: closedAt - 300 * SECOND,
    endedAt: closedAt - 20 * SECOND,
    agent,
    offers: 3,
    refusals: 2,
    waitMs: 100 * SECOND,
    queueWaitMs: 99 * SECOND,
    // Past 2^31 ms: a duration kept in 32 bits would show it.
    handlingMs: 2 ** 31 + 7,
    wrapUpMs: 20 * SECOND,
    outcome: 'SERVED',
    transactionCode: 'ACCOUNT-42',
  }
}

/** The ids of the tickets, in the order given. */
function ids(tickets: readonly AcdTicket[]): string[] {
  return tickets.map((held) => held.ticketId)
}

export function acdTicketStoreConformance(
  label: string,
  open: () => Promise<AcdTicketStoreUnderTest>,
): void {
  describe(label, () => {
    let subject: AcdTicketStoreUnderTest
    let store: AcdTicketStore
    beforeEach(async () => {
      subject = await open()
      store = subject.store
    })
    afterEach(async () => {
      await subject.close()
    })

    it('an empty store lists nothing and prunes nothing', async () => {
      expect(await store.list(EVERYTHING)).toEqual([])
      expect(await store.prune(T0 + 1_000_000 * SECOND)).toBe(0)
    })

    it('reads back every field of a ticket, and leaves the fields a ticket lacks absent, not null', async () => {
      const full = served('t-full', 1, 'alice')
      const overflowed: AcdTicket = {
        ...ticket('t-overflowed', 2),
        outcome: 'OVERFLOWED',
        overflowTo: '3999',
      }
      const bare = ticket('t-bare', 3)
      await store.append([full, overflowed, bare])

      const listed = await store.list(EVERYTHING)
      // Strict: a field stored as null and read back as null or undefined would differ.
      expect(listed).toStrictEqual([full, overflowed, bare])
      expect(Object.keys(listed[2] ?? {}).sort()).toEqual(Object.keys(bare).sort())
      for (const field of [
        'queue',
        'processingGroup',
        'queuedAt',
        'answeredAt',
        'agent',
        'overflowTo',
        'transactionCode',
      ])
        expect(listed[2]).not.toHaveProperty(field)
    })

    it('appending an empty list writes nothing and changes nothing', async () => {
      await store.append([])
      expect(await store.list(EVERYTHING)).toEqual([])
      await store.append([ticket('t1', 1)])
      await store.append([])
      expect(await store.list(EVERYTHING)).toStrictEqual([ticket('t1', 1)])
    })

    it('skips a ticket whose id is stored already, keeping the stored one', async () => {
      await store.append([ticket('t1', 1), ticket('t2', 2)])
      // A retry, and a ticket of the same id with other contents: neither changes what is stored.
      await store.append([ticket('t1', 1), ticket('t3', 3)])
      await store.append([served('t2', 9, 'alice')])
      expect(await store.list(EVERYTHING)).toStrictEqual([
        ticket('t1', 1),
        ticket('t2', 2),
        ticket('t3', 3),
      ])
    })

    it('stores the first of the tickets of one append that share an id', async () => {
      await store.append([ticket('t1', 1), served('t1', 5, 'alice'), ticket('t2', 2)])
      expect(await store.list(EVERYTHING)).toStrictEqual([ticket('t1', 1), ticket('t2', 2)])
    })

    it('lists the tickets with from <= closedAt < to, by closedAt then ticketId in code point order', async () => {
      // Appended out of order; at second 10, ids a language's collation would order otherwise
      // ("T-b" before "Ta", "TB" before "Ta").
      await store.append([
        ticket('Ta', 10),
        ticket('t-late', 20),
        ticket('t-before', 4),
        ticket('T-b', 10),
        ticket('t-first', 5),
        ticket('TB', 10),
        ticket('t-last', 19),
      ])
      const from = T0 + 5 * SECOND
      const to = T0 + 20 * SECOND
      expect(ids(await store.list({ from, to }))).toEqual(['t-first', 'T-b', 'TB', 'Ta', 't-last'])
      expect(await store.list({ from: to, to: from })).toEqual([])
      expect(await store.list({ from, to: from })).toEqual([])
    })

    it('keeps only the tickets of the pilots named, and of the agents named', async () => {
      await store.append([
        served('a1', 1, 'alice', '3000'),
        served('b1', 2, 'bob', '3001'),
        ticket('none1', 3, '3000'),
        served('c1', 4, 'carol', '3002'),
        served('a2', 5, 'alice', '3001'),
      ])
      expect(ids(await store.list({ ...EVERYTHING, pilots: ['3000'] }))).toEqual(['a1', 'none1'])
      expect(ids(await store.list({ ...EVERYTHING, pilots: ['3001', '3002'] }))).toEqual([
        'b1',
        'c1',
        'a2',
      ])
      // A ticket no agent answered matches no agent.
      expect(ids(await store.list({ ...EVERYTHING, agents: ['alice', 'carol'] }))).toEqual([
        'a1',
        'c1',
        'a2',
      ])
      expect(ids(await store.list({ ...EVERYTHING, pilots: ['3001'], agents: ['alice'] }))).toEqual(
        ['a2'],
      )
      expect(await store.list({ ...EVERYTHING, pilots: ['9999'] })).toEqual([])
      // An empty list names no pilot, no agent.
      expect(await store.list({ ...EVERYTHING, pilots: [] })).toEqual([])
      expect(await store.list({ ...EVERYTHING, agents: [] })).toEqual([])
    })

    it('answers at most the limit: the first tickets in order', async () => {
      await store.append([ticket('t3', 3), ticket('t1', 1), ticket('t2', 2), ticket('t4', 4)])
      expect(ids(await store.list({ ...EVERYTHING, limit: 3 }))).toEqual(['t1', 't2', 't3'])
      expect(ids(await store.list({ ...EVERYTHING, limit: 1 }))).toEqual(['t1'])
    })

    it(`answers ${DEFAULT_TICKET_LIMIT} tickets without a limit, and never more than ${MAX_TICKET_LIMIT}`, async () => {
      const many = Array.from({ length: MAX_TICKET_LIMIT + 1 }, (_, index) =>
        ticket(`t${String(index).padStart(5, '0')}`, index),
      )
      await store.append(many)
      const byDefault = await store.list(EVERYTHING)
      expect(byDefault).toHaveLength(DEFAULT_TICKET_LIMIT)
      expect(byDefault.at(-1)?.ticketId).toBe(many[DEFAULT_TICKET_LIMIT - 1]?.ticketId)
      const bounded = await store.list({ ...EVERYTHING, limit: MAX_TICKET_LIMIT * 2 })
      expect(bounded).toHaveLength(MAX_TICKET_LIMIT)
      expect(bounded.at(-1)?.ticketId).toBe(many[MAX_TICKET_LIMIT - 1]?.ticketId)
    })

    it('pages with the after cursor through tickets of one closedAt, each ticket once', async () => {
      const appended = [
        ticket('t0', 1),
        ...['e4', 'e1', 'e5', 'e3', 'e2'].map((id) => ticket(id, 2)),
        ticket('t9', 3),
      ]
      await store.append(appended)
      const pages: string[][] = []
      let after: string | undefined
      for (;;) {
        const page = await store.list({ ...EVERYTHING, limit: 2, ...(after && { after }) })
        if (page.length === 0) break
        pages.push(ids(page))
        after = page.at(-1)?.ticketId
      }
      expect(pages).toEqual([['t0', 'e1'], ['e2', 'e3'], ['e4', 'e5'], ['t9']])
    })

    it('places the cursor by its ticket even when the filters or the range leave that ticket out', async () => {
      await store.append([
        ticket('a', 1, '3000'),
        ticket('b', 2, '3001'),
        ticket('c', 2, '3000'),
        ticket('d', 3, '3000'),
      ])
      expect(ids(await store.list({ ...EVERYTHING, pilots: ['3000'], after: 'b' }))).toEqual([
        'c',
        'd',
      ])
      expect(
        ids(await store.list({ from: T0 + 3 * SECOND, to: EVERYTHING.to, after: 'a' })),
      ).toEqual(['d'])
      // A cursor stored nowhere (pruned, or never stored) has no place in the order.
      expect(await store.list({ ...EVERYTHING, after: 'unknown' })).toEqual([])
    })

    it('prunes the tickets closed before the bound, only them, and counts them', async () => {
      await store.append([
        ticket('old1', 1),
        ticket('old2', 9),
        ticket('at', 10),
        ticket('new', 11),
      ])
      expect(await store.prune(T0 + 10 * SECOND)).toBe(2)
      expect(ids(await store.list(EVERYTHING))).toEqual(['at', 'new'])
      expect(await store.prune(T0 + 10 * SECOND)).toBe(0)
      expect(ids(await store.list(EVERYTHING))).toEqual(['at', 'new'])
      // A pruned ticket appended again is stored again: the store keeps no trace of it.
      await store.append([ticket('old1', 1)])
      expect(ids(await store.list(EVERYTHING))).toEqual(['old1', 'at', 'new'])
    })

    it('two writers appending the same tickets at once store each once, and neither fails', async (context) => {
      const other = await subject.concurrent?.()
      if (other === undefined) return context.skip('the adapter serves one writer at a time')
      try {
        const tickets = Array.from({ length: 120 }, (_, index) =>
          ticket(`t${String(index).padStart(3, '0')}`, index % 7),
        )
        const reversed = [...tickets].reverse()
        await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            [store, other.store][index % 2]?.append(index % 4 < 2 ? tickets : reversed),
          ),
        )
        const listed = await store.list(EVERYTHING)
        expect(listed).toHaveLength(tickets.length)
        expect(new Set(ids(listed)).size).toBe(tickets.length)
      } finally {
        await other.close()
      }
    })

    it('tickets survive a reopen', async (context) => {
      if (subject.reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await store.append([served('t1', 1, 'alice'), ticket('t2', 2)])
      await subject.close()
      subject = { ...(await subject.reopen()), reopen: subject.reopen }
      store = subject.store
      expect(await store.list(EVERYTHING)).toStrictEqual([
        served('t1', 1, 'alice'),
        ticket('t2', 2),
      ])
    })
  })
}
