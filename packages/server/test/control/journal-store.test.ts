/**
 * The journal's stores (docs/journal.md, "Size"), the same cases on each: the memory ring, and the Redis
 * stream of the cluster mode against the real Redis (skipped when REDIS_URL is not set): ids in order, reads
 * from either end between ids with a limit, clearing, live readers from now or after an id, a request in
 * progress keeping its place, and on Redis, two nodes sharing one journal.
 */
import type { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import type { JournalRecord, RequestDraft } from '../../src/platform/journal/journal-entry.js'
import type { JournalStore } from '../../src/platform/journal/journal-store.js'
import { MemoryJournalStore } from '../../src/storage/memory/memory-journal-store.js'
import { RedisJournalStore } from '../../src/storage/redis/redis-journal-store.js'
import { describeWithRedis } from '../support/redis.js'

/** A control entry of `path`, recorded at `at`. */
function entry(path: string, at = 0): JournalRecord {
  return { id: 0, at, kind: 'control', method: 'POST', path, status: 204, durationMs: 1 }
}
const all = { match: () => true, limit: Number.POSITIVE_INFINITY }

/** Requests as the gateway records them: what is known on arrival, then the answer's fields. */
const REQUEST_CASES: [string, Partial<RequestDraft>, Partial<RequestDraft>][] = [
  ['the fields every request has', {}, { status: 404, durationMs: 1.25 }],
  [
    'every field a request may have',
    { query: 'loginName=bob&password=***' },
    {
      status: 404,
      durationMs: 3,
      error: { type: 'NOT_FOUND', message: 'No call c1' },
      user: 'alice',
      session: 's-1',
      call: 'c1',
      subscription: 'sub-1',
    },
  ],
  ['an empty operation and status 0', { operation: '' }, { status: 0, durationMs: 0 }],
]

/** A request's entry as the gateway begins it. */
function requestEntry(arrival: Partial<RequestDraft>): RequestDraft & { id: number; at: number } {
  return {
    id: 0,
    at: 1_000,
    kind: 'request',
    method: 'GET',
    path: '/api/rest/1.0/users/alice',
    operation: 'getUser',
    ...arrival,
  }
}

const paths = (records: JournalRecord[]) =>
  records.map((record) => ('path' in record ? record.path : ''))

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5_000) throw new Error('waited too long')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function storeCases(newStore: (size: number) => Promise<JournalStore>) {
  it('numbers records in order, read newest or oldest first, between ids, with a limit', async () => {
    const store = await newStore(100)
    for (const path of ['/a', '/b', '/c', '/d']) store.append(entry(path))
    await store.settled()

    const oldest = await store.read({ ...all, order: 'oldest' })
    expect(paths(oldest.records)).toEqual(['/a', '/b', '/c', '/d'])
    const ids = oldest.records.map((record) => record.id)
    expect(ids[1]).toBe((ids[0] ?? 0) + 1)
    expect(paths((await store.read({ ...all, order: 'newest' })).records)).toEqual([
      '/d',
      '/c',
      '/b',
      '/a',
    ])
    const [first, , , fourth] = ids
    expect(
      await store.read({ ...all, order: 'oldest', after: first ?? 0, before: fourth ?? 0 }),
    ).toMatchObject({ records: [{ path: '/b' }, { path: '/c' }], more: false })
    expect(await store.read({ ...all, order: 'newest', limit: 2 })).toMatchObject({
      records: [{ path: '/d' }, { path: '/c' }],
      more: true,
    })
    const matched = await store.read({
      ...all,
      order: 'oldest',
      match: (record) => 'path' in record && record.path !== '/b',
    })
    expect(paths(matched.records)).toEqual(['/a', '/c', '/d'])
  })

  it('clears: nothing held, ids go on', async () => {
    const store = await newStore(100)
    store.append(entry('/a'))
    await store.settled()
    const [before] = (await store.read({ ...all, order: 'oldest' })).records
    await store.clear()
    expect((await store.read({ ...all, order: 'oldest' })).records).toEqual([])
    store.append(entry('/b'))
    await store.settled()
    const [after] = (await store.read({ ...all, order: 'oldest' })).records
    expect(after?.id).toBe((before?.id ?? 0) + 1)
  })

  it('follows: from now, or after an id (held ones first); closed, tells no more', async () => {
    const store = await newStore(100)
    store.append(entry('/old'))
    await store.settled()
    const [old] = (await store.read({ ...all, order: 'oldest' })).records
    const live: string[] = []
    const replayed: string[] = []
    const fromNow = await store.follow('now', (record) => live.push(paths([record])[0] ?? ''))
    const fromOld = await store.follow((old?.id ?? 1) - 1, (record) =>
      replayed.push(paths([record])[0] ?? ''),
    )
    store.append(entry('/new'))
    await store.settled()
    await until(() => live.length === 1 && replayed.length === 2)
    expect(live).toEqual(['/new'])
    expect(replayed).toEqual(['/old', '/new'])

    await fromNow.close()
    await fromOld.close()
    store.append(entry('/after'))
    await store.settled()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(live).toEqual(['/new'])
  })

  it('a request in progress keeps its place before what was recorded while it ran', async () => {
    const store = await newStore(100)
    const request: JournalRecord = { id: 0, at: 0, kind: 'request', method: 'POST', path: '/req' }
    store.append(request, true)
    store.append(entry('/during'))
    Object.assign(request, { status: 204, durationMs: 3 })
    store.complete(request)
    await store.settled()
    expect((await store.read({ ...all, order: 'oldest' })).records).toEqual([
      expect.objectContaining({ path: '/req', status: 204 }),
      expect.objectContaining({ path: '/during' }),
    ])
  })

  it('gives back the events a queue took: name, the login it is about, its call, its number', async () => {
    const store = await newStore(100)
    store.appendEvent(
      10,
      'sub-1',
      'alice',
      { eventName: 'OnCallModified', loginName: 'alice', callRef: 'c1' },
      '{}',
      1,
    )
    store.appendEvent(
      11,
      'sub-2',
      'admin',
      { eventName: 'OnCallRemoved', loginName: 'bob', callRef: 'c1' },
      '{}',
      2,
    )
    store.appendEvent(
      12,
      'sub-1',
      'alice',
      { eventName: 'OnUserInfoChanged', loginName: 'alice', callRef: 7 },
      '{}',
      3,
    )
    store.appendEvent(
      13,
      'sub-1',
      'alice',
      undefined,
      '{"eventName":"OnChannelInformation","x":1}',
      4,
    )
    await store.settled()
    expect((await store.read({ ...all, order: 'oldest' })).records).toEqual([
      {
        id: expect.any(Number),
        at: 10,
        kind: 'event',
        subscription: 'sub-1',
        user: 'alice',
        event: 'OnCallModified',
        call: 'c1',
        sequence: 1,
      },
      {
        id: expect.any(Number),
        at: 11,
        kind: 'event',
        subscription: 'sub-2',
        user: 'admin',
        event: 'OnCallRemoved',
        about: 'bob',
        call: 'c1',
        sequence: 2,
      },
      {
        id: expect.any(Number),
        at: 12,
        kind: 'event',
        subscription: 'sub-1',
        user: 'alice',
        event: 'OnUserInfoChanged',
        sequence: 3,
      },
      {
        id: expect.any(Number),
        at: 13,
        kind: 'event',
        subscription: 'sub-1',
        user: 'alice',
        event: 'OnChannelInformation',
        sequence: 4,
      },
    ])
  })

  it.each(REQUEST_CASES)(
    'gives back a request with %s, once answered',
    async (_, arrival, answer) => {
      const store = await newStore(100)
      const request = requestEntry(arrival)
      store.append(request, true)
      Object.assign(request, answer)
      store.complete(request)
      await store.settled()
      expect((await store.read({ ...all, order: 'oldest' })).records).toEqual([
        { ...request, id: expect.any(Number) },
      ])
    },
  )
}

describe('MemoryJournalStore', () => {
  storeCases(async (size) => new MemoryJournalStore(size))

  it('holds `size` records, the oldest overwritten', async () => {
    const store = new MemoryJournalStore(3)
    for (const path of ['/a', '/b', '/c', '/d', '/e']) store.append(entry(path))
    const { records } = await store.read({ ...all, order: 'oldest' })
    expect(paths(records)).toEqual(['/c', '/d', '/e'])
    expect(records.map((record) => record.id)).toEqual([3, 4, 5])
  })

  it.each(REQUEST_CASES)(
    'reads a request with %s in progress as it arrived',
    async (_, arrival) => {
      const store = new MemoryJournalStore(10)
      const request = requestEntry(arrival)
      store.append(request, true)
      expect((await store.read({ ...all, order: 'oldest' })).records).toEqual([{ ...request }])
    },
  )

  it('shows an event as its queue took it, whatever becomes of the event after', async () => {
    const store = new MemoryJournalStore(10)
    const event = { eventName: 'OnCallModified', loginName: 'alice', callRef: 'c1' }
    store.appendEvent(10, 'sub-1', 'alice', event, '{}', 1)
    Object.assign(event, { eventName: 'OnCallRemoved', loginName: 'bob', callRef: 'c2' })
    expect((await store.read({ ...all, order: 'oldest' })).records).toMatchObject([
      { event: 'OnCallModified', call: 'c1', sequence: 1 },
    ])
  })

  it('tells live readers of a request answered after the ring dropped its entry', async () => {
    const store = new MemoryJournalStore(2)
    const live: string[] = []
    await store.follow('now', (record) =>
      live.push(`${paths([record])[0]} ${'status' in record ? record.status : 'in progress'}`),
    )
    const request = requestEntry({ path: '/held' })
    store.append(request, true)
    // As many requests as the ring holds, answered: the late answer must not land in a slot one of them took.
    for (const path of ['/a', '/b'])
      store.append({ ...requestEntry({ path }), status: 204, durationMs: 1 })
    Object.assign(request, { status: 200, durationMs: 2 })
    store.complete(request)
    expect(live).toEqual(['/a 204', '/b 204', '/held 200'])
    const { records } = await store.read({ ...all, order: 'oldest' })
    expect(records).toMatchObject([
      { path: '/a', status: 204, durationMs: 1 },
      { path: '/b', status: 204, durationMs: 1 },
    ])
  })

  it('refuses a size of 0 (no journal: no store)', () => {
    expect(() => new MemoryJournalStore(0)).toThrow(/above 0/)
  })
})

describeWithRedis('RedisJournalStore', (redis) => {
  const errors: unknown[] = []
  const clients: Redis[] = []
  afterAll(() => {
    for (const client of clients) client.disconnect()
  })
  /** A client whose keys are under `prefix`, below the suite's. */
  const scopedClient = async (prefix: string) => {
    const client = (await redis.client()).duplicate({
      keyPrefix: `${redis.target.keyPrefix}${prefix}`,
    })
    clients.push(client)
    return client
  }
  // Each case its own journal: a prefix of its own.
  const newStore = async (size: number) =>
    new RedisJournalStore(await scopedClient(`case${Math.random().toString(36).slice(2)}:`), {
      size,
      onError: (error) => errors.push(error),
    })
  storeCases(newStore)

  it('is one journal for every node: each reads what the other appended, ids across both', async () => {
    const onError = (error: unknown) => errors.push(error)
    const one = new RedisJournalStore(await scopedClient('shared:'), { size: 100, onError })
    const two = new RedisJournalStore(await scopedClient('shared:'), { size: 100, onError })
    const seen: string[] = []
    const follower = await two.follow('now', (record) => seen.push(paths([record])[0] ?? ''))
    one.append(entry('/from-one'))
    await one.settled()
    two.append(entry('/from-two'))
    await two.settled()

    expect(paths((await one.read({ ...all, order: 'oldest' })).records)).toEqual([
      '/from-one',
      '/from-two',
    ])
    await until(() => seen.length === 2)
    expect(seen).toEqual(['/from-one', '/from-two'])
    await follower.close()
  })

  it('keeps the answer of a request written while still in progress (a channel open), read with its entry', async () => {
    const client = await scopedClient(`case${Math.random().toString(36).slice(2)}:`)
    const store = new RedisJournalStore(client, {
      size: 100,
      pendingMs: 20,
      onError: (error) => errors.push(error),
    })
    const request: JournalRecord = {
      id: 0,
      at: 0,
      kind: 'request',
      method: 'GET',
      path: '/channel',
    }
    store.append(request, true)
    store.append(entry('/during'))
    // Past pendingMs the request is written as it is, the entries after it with it.
    await new Promise((resolve) => setTimeout(resolve, 100))
    await store.settled()
    const before = (await store.read({ ...all, order: 'oldest' })).records
    expect(before).toEqual([
      expect.objectContaining({ path: '/channel' }),
      expect.objectContaining({ path: '/during' }),
    ])
    expect(before[0]).not.toHaveProperty('status')

    Object.assign(request, { status: 200, durationMs: 250 })
    store.complete(request)
    await store.settled()

    const after = (await store.read({ ...all, order: 'oldest' })).records
    expect(after).toEqual([
      expect.objectContaining({
        id: before[0]?.id,
        path: '/channel',
        status: 200,
        durationMs: 250,
      }),
      expect.objectContaining({ id: before[1]?.id, path: '/during' }),
    ])
    // Filters see the answer: the entry is found by its status.
    const answered = await store.read({
      match: (record) => 'status' in record && record.status === 200,
      limit: 10,
      order: 'newest',
    })
    expect(paths(answered.records)).toEqual(['/channel'])
    // Cleared with the stream.
    await store.clear()
    expect(await client.hlen('journal:completed')).toBe(0)
    expect(await client.zcard('journal:completed-ids')).toBe(0)
    expect(errors).toEqual([])
  })

  it('drops the answers of entries the stream no longer holds', async () => {
    const client = await scopedClient(`case${Math.random().toString(36).slice(2)}:`)
    const store = new RedisJournalStore(client, {
      size: 10,
      pendingMs: 20,
      onError: (error) => errors.push(error),
    })
    const first: JournalRecord = { id: 0, at: 0, kind: 'request', method: 'GET', path: '/first' }
    store.append(first, true)
    // An entry behind it: written with it once it waited pendingMs (alone, it would wait for its answer).
    store.append(entry('/behind-first'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    await store.settled()
    Object.assign(first, { status: 200 })
    store.complete(first)
    await store.settled()
    expect(await client.hlen('journal:completed')).toBe(1)
    // The stream trimmed well past the first entry; the next answer kept drops the first's.
    for (let index = 0; index < 1000; index++) store.append(entry(`/${index}`))
    const last: JournalRecord = { id: 0, at: 0, kind: 'request', method: 'GET', path: '/last' }
    store.append(last, true)
    store.append(entry('/behind-last'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    await store.settled()
    Object.assign(last, { status: 200 })
    store.complete(last)
    await store.settled()
    expect(await client.hlen('journal:completed')).toBe(1)
    expect(await client.zcard('journal:completed-ids')).toBe(1)
    const { records } = await store.read({ ...all, order: 'newest' })
    expect(records.slice(0, 2)).toEqual([
      expect.objectContaining({ path: '/behind-last' }),
      expect.objectContaining({ path: '/last', status: 200 }),
    ])
    expect(errors).toEqual([])
  })

  it('trims the stream to about its size', async () => {
    const store = await newStore(10)
    for (let index = 0; index < 1000; index++) store.append(entry(`/${index}`))
    await store.settled()
    const { records } = await store.read({ ...all, order: 'newest' })
    // MAXLEN ~ trims whole nodes of the stream: about the size, never everything.
    expect(records.length).toBeGreaterThanOrEqual(10)
    expect(records.length).toBeLessThan(1000)
    expect(paths(records)[0]).toBe('/999')
    expect(errors).toEqual([])
  })
})
