/**
 * The search context's state machine (search-context.ts), one test per row of the table in
 * docs/directory-search.md: each request in each state, the idle minute on the virtual clock, the
 * limit of five searches, and a closed session.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { VirtualClock } from '../../../test/support/virtual-clock.js'
import { MemorySearchContextStore } from '../../storage/memory/memory-search-context-store.js'
import type { UserAccount } from '../directory/account.js'
import { DirectoryIndex } from './directory-index.js'
import { DirectorySearchService } from './directory-search-service.js'
import { SEARCH_BATCH_SIZE, SEARCH_IDLE_MS } from './search-context.js'

/** 45 users named Smith: three batches of 20, 20 and 5. */
const SMITHS = Array.from(
  { length: 45 },
  (_, at) =>
    ({
      kind: 'USER',
      loginName: `smith${String(at).padStart(2, '0')}`,
      preferences: {},
      record: { loginName: `smith${at}`, firstName: `F${at}`, lastName: 'Smith' },
    }) as unknown as UserAccount,
)
const SMITH = { field: 'lastName', operation: 'EQUAL_IGNORE_CASE', operand: 'smith' }
const NOBODY = { field: 'lastName', operation: 'EQUAL_IGNORE_CASE', operand: 'nobody' }

let clock: VirtualClock
let store: MemorySearchContextStore
let service: DirectorySearchService
const alice = { sessionId: 's1', loginName: 'alice' }

beforeEach(() => {
  clock = new VirtualClock()
  store = new MemorySearchContextStore()
  service = new DirectorySearchService(new DirectoryIndex(SMITHS), store, clock)
})

const codes = async (owner = alice, polls = 1) => {
  const seen: string[] = []
  for (let at = 0; at < polls; at++) {
    const result = await service.poll(owner)
    seen.push(
      result.resultCode === 'OK'
        ? `OK ${result.resultElements?.[0]?.contacts.length}`
        : result.resultCode,
    )
  }
  return seen
}

describe('DirectorySearchService: the search context', () => {
  it('no context + GET → TIMEOUT (nothing stored)', async () => {
    expect(await codes()).toEqual(['TIMEOUT'])
    expect(await store.contexts('s1', clock.now())).toEqual([])
  })

  it('no context + POST → SEARCHING; GETs answer OK per batch, then FINISH, then FINISH again', async () => {
    await service.start(alice, SMITH)
    expect((await store.find('s1', 'alice', clock.now()))?.state).toBe('SEARCHING')
    expect(await codes(alice, 5)).toEqual([
      `OK ${SEARCH_BATCH_SIZE}`,
      `OK ${SEARCH_BATCH_SIZE}`,
      'OK 5',
      'FINISH',
      'FINISH',
    ])
    expect((await store.find('s1', 'alice', clock.now()))?.state).toBe('FINISHED')
  })

  it('SEARCHING with nothing found + GET → FINISH at once', async () => {
    await service.start(alice, NOBODY)
    expect(await codes(alice, 2)).toEqual(['FINISH', 'FINISH'])
  })

  it('`limit` caps the contacts, a batch never exceeds it', async () => {
    await service.start(alice, SMITH, 7)
    expect(await codes(alice, 2)).toEqual(['OK 7', 'FINISH'])
  })

  it('SEARCHING + POST → the new search replaces the old one', async () => {
    await service.start(alice, SMITH)
    await service.poll(alice)
    await service.start(alice, NOBODY)
    expect(await codes()).toEqual(['FINISH'])
  })

  it('FINISHED + POST → SEARCHING again', async () => {
    await service.start(alice, NOBODY)
    await service.poll(alice)
    await service.start(alice, SMITH, 3)
    expect(await codes(alice, 2)).toEqual(['OK 3', 'FINISH'])
  })

  it('SEARCHING + DELETE → no context: GET answers TIMEOUT; DELETE again is harmless', async () => {
    await service.start(alice, SMITH)
    await service.cancel(alice)
    expect(await codes()).toEqual(['TIMEOUT'])
    await service.cancel(alice)
    expect(await store.contexts('s1', clock.now())).toEqual([])
  })

  it('SEARCHING idle for a minute → freed: GET answers TIMEOUT', async () => {
    await service.start(alice, SMITH)
    await clock.advance(SEARCH_IDLE_MS - 1)
    expect(await codes()).toEqual([`OK ${SEARCH_BATCH_SIZE}`])
    // The poll restarted the minute.
    await clock.advance(SEARCH_IDLE_MS - 1)
    expect(await codes()).toEqual([`OK ${SEARCH_BATCH_SIZE}`])
    await clock.advance(SEARCH_IDLE_MS)
    expect(await codes()).toEqual(['TIMEOUT'])
  })

  it('FINISHED idle for a minute → freed too', async () => {
    await service.start(alice, NOBODY)
    await service.poll(alice)
    await clock.advance(SEARCH_IDLE_MS)
    expect(await codes()).toEqual(['TIMEOUT'])
  })

  it('a session runs five searches at once; a sixth is NOT_EXPECTED and changes nothing', async () => {
    const owners = ['u1', 'u2', 'u3', 'u4', 'u5'].map((loginName) => ({
      sessionId: 'a',
      loginName,
    }))
    for (const owner of owners) await service.start(owner, SMITH)
    const sixth = { sessionId: 'a', loginName: 'u6' }
    await expect(service.start(sixth, SMITH)).rejects.toMatchObject({
      type: 'NOT_EXPECTED',
      message: expect.stringContaining('already runs 5 directory searches'),
    })
    expect(await codes(sixth)).toEqual(['TIMEOUT'])
    expect(await store.contexts('a', clock.now())).toHaveLength(5)
    // Replacing one of the five is not a sixth; another session has its own five.
    await service.start(owners[0] ?? sixth, NOBODY)
    await service.start({ sessionId: 'b', loginName: 'u6' }, SMITH)
    // A finished search no longer counts, nor does a cancelled or expired one.
    await service.poll(owners[0] ?? sixth)
    await service.start(sixth, SMITH)
    await service.cancel(owners[1] ?? sixth)
    await service.start({ sessionId: 'a', loginName: 'u7' }, SMITH)
    await clock.advance(SEARCH_IDLE_MS)
    await service.start({ sessionId: 'a', loginName: 'u8' }, SMITH)
  })

  it('a bad criterion is BAD_PARAMETER and leaves the running search as it was', async () => {
    await service.start(alice, SMITH, 3)
    await expect(service.start(alice, { operation: 'OR', operand: [] })).rejects.toMatchObject({
      type: 'BAD_PARAMETER',
    })
    expect(await codes()).toEqual(['OK 3'])
  })

  it('a closed session frees its contexts', async () => {
    await service.start(alice, SMITH)
    await service.sessionClosed('s1')
    expect(await codes()).toEqual(['TIMEOUT'])
  })
})
