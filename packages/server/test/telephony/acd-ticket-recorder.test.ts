/**
 * The ticket recorder (docs/contact-center.md, "Tickets"): the engine's closed tickets reach the ticket store and
 * leave the engine's outbox; a store that fails leaves them in the outbox for the next try.
 */
import { describe, expect, it } from 'vitest'
import type { AcdTicket } from '../../src/platform/acd/acd-ticket.js'
import type { TicketQuery } from '../../src/platform/acd/acd-ticket-store.js'
import { AcdTicketRecorder } from '../../src/platform/telephony/acd-ticket-recorder.js'
import type { Committed } from '../../src/platform/telephony/telephony-service.js'
import { MemoryAcdTicketStore } from '../../src/storage/memory/memory-acd-ticket-store.js'
import { AcdWorld, PILOT } from './acd-world.js'

/** A world whose caller abandoned one call: one ticket in the outbox. */
function worldWithTicket(): AcdWorld {
  const w = new AcdWorld()
  w.logOn('bob', '1002')
  w.run({ type: 'acdPause', loginName: 'bob' })
  w.incoming(PILOT, '0555123456')
  w.run({ type: 'outsidePartyHangsUp', number: '0555123456' })
  return w
}

function engineOf(w: AcdWorld) {
  return {
    get state() {
      return w.state
    },
    execute: async (command: Parameters<AcdWorld['run']>[0]) => ({ events: w.run(command).events }),
  }
}

const ALL: TicketQuery = { from: 0, to: Number.MAX_SAFE_INTEGER }

describe('AcdTicketRecorder', () => {
  it('appends the outbox to the store, then the engine forgets it', async () => {
    const w = worldWithTicket()
    const store = new MemoryAcdTicketStore()
    const errors: string[] = []
    const recorder = new AcdTicketRecorder({
      store,
      engine: () => engineOf(w),
      onError: (_error, what) => errors.push(what),
    })
    expect(w.tickets()).toHaveLength(1)
    recorder.engineCommitted({ after: w.state } as Committed)
    await recorder.drain()
    expect((await store.list(ALL)).map((ticket) => ticket.outcome)).toEqual(['ABANDONED'])
    expect(w.tickets()).toEqual([])
    expect(errors).toEqual([])
  })

  it('a store that fails leaves the tickets in the outbox, and the next drain stores them once', async () => {
    const w = worldWithTicket()
    const store = new MemoryAcdTicketStore()
    let fail = true
    const failing = {
      append: async (tickets: readonly AcdTicket[]) => {
        if (fail) throw new Error('store down')
        await store.append(tickets)
      },
      list: (query: TicketQuery) => store.list(query),
      prune: (before: number) => store.prune(before),
    }
    const errors: string[] = []
    const recorder = new AcdTicketRecorder({
      store: failing,
      engine: () => engineOf(w),
      onError: (_error, what) => errors.push(what),
    })
    await recorder.drain()
    expect(errors).toEqual(['the ACD tickets were not stored (they stay in the outbox)'])
    expect(w.tickets()).toHaveLength(1)
    fail = false
    await recorder.drain()
    expect(await store.list(ALL)).toHaveLength(1)
    expect(w.tickets()).toEqual([])
  })
})
