/**
 * Reading the journal (docs/journal.md, "Reading"): every filter of `GET /control/v1/journal`, alone and
 * combined; pages newest or oldest first with their `next`; bad filters refused naming the field.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { JournalEntry } from '../../src/platform/journal/journal-entry.js'
import { expectRestError } from '../support/assertions.js'
import { API, type JournalService, startJournalService } from './journal-fixture.js'

let test: JournalService
/** alice calls bob, who answers; bob subscribed first; a typo, an error, a control action, spread in time. */
let callRef: string
let subscription: string
beforeEach(async () => {
  test = await startJournalService()
  subscription = await test.subscribe('bob')
  test.service.clock.advance(1_000)
  callRef = await test.call()
  test.service.clock.advance(1_000)
  await test.api('bob', 'POST', `${API}/telephony/calls/${callRef}/answer`, { deviceId: '1002' })
  test.service.clock.advance(1_000)
  await test.api('alice', 'GET', `${API}/telephony/calee`)
  await test.api('alice', 'GET', `${API}/telephony/calls/unknown`)
  await test.operator('PUT', '/users/alice/routing', { dndState: { activate: true } })
})
afterEach(() => test.close())

const field = (entries: JournalEntry[], name: string) =>
  entries.map((entry) => (entry as unknown as Record<string, unknown>)[name])

describe('filters', () => {
  it('kind: one, a comma list, or repeated', async () => {
    expect(new Set(field(await test.entries('kind=event'), 'kind'))).toEqual(new Set(['event']))
    const two = await test.entries('kind=control,near-miss')
    expect(field(two, 'kind').sort()).toEqual(['control', 'near-miss'])
    expect(await test.entries('kind=control&kind=near-miss')).toEqual(two)
  })

  it('user: the requests of a user, the events of its subscriptions, the actions naming it', async () => {
    const bobs = await test.entries('user=bob')
    expect(new Set(field(bobs, 'user'))).toEqual(new Set(['bob']))
    expect(new Set(field(bobs, 'kind'))).toEqual(new Set(['request', 'event']))
    expect(await test.entries('user=alice&kind=control')).toEqual([
      expect.objectContaining({ path: '/control/v1/users/alice/routing' }),
    ])
  })

  it('call, subscription, operation and event', async () => {
    const calls = await test.entries(`call=${callRef}`)
    expect(new Set(field(calls, 'call'))).toEqual(new Set([callRef]))
    expect(new Set(field(calls, 'kind'))).toEqual(new Set(['request', 'event']))
    const subscribed = await test.entries(`subscription=${subscription}`)
    expect(subscribed.length).toBeGreaterThan(1)
    expect(new Set(field(subscribed, 'subscription'))).toEqual(new Set([subscription]))
    expect(field(await test.entries('operation=answerCall'), 'user')).toEqual(['bob'])
    const modified = await test.entries('event=OnCallModified')
    expect(modified.length).toBeGreaterThan(0)
    expect(new Set(field(modified, 'event'))).toEqual(new Set(['OnCallModified']))
  })

  it('status: exact or a class; error: the RestErrorInfo type; method and path', async () => {
    expect(field(await test.entries('status=404'), 'path').sort()).toEqual([
      `${API}/telephony/calee`,
      `${API}/telephony/calls/unknown`,
    ])
    expect(field(await test.entries('status=2xx&operation=answerCall'), 'status')).toEqual([204])
    expect(await test.entries('status=5xx')).toEqual([])
    expect(field(await test.entries('error=NOT_FOUND&kind=request'), 'call')).toEqual(['unknown'])
    expect(field(await test.entries(`method=PUT`), 'kind')).toEqual(['control'])
    expect(field(await test.entries(`path=${API}/telephony/calee`), 'kind')).toEqual(['near-miss'])
  })

  it("since and until: times of the service's clock, both included", async () => {
    const at1 = '2026-01-01T00:00:01.000Z'
    const during = await test.entries(`since=${at1}&until=${at1}`)
    expect(new Set(field(during, 'at'))).toEqual(new Set([at1]))
    expect(field(during, 'operation')).toContain('makeCall')
    const late = await test.entries('since=2026-01-01T00:00:03Z')
    expect(new Set(field(late, 'at'))).toEqual(new Set(['2026-01-01T00:00:03.000Z']))
    expect(await test.entries('until=2025-12-31T23:59:59Z')).toEqual([])
  })

  it('after and before: entry ids, both excluded', async () => {
    const all = await test.entries('order=oldest&limit=1000')
    const ids = field(all, 'id') as number[]
    const [, second, third, fourth] = ids
    expect(field(await test.entries(`after=${second}&before=${fourth}`), 'id')).toEqual([third])
  })

  it('filters combine: every one must hold', async () => {
    const entries = await test.entries(`kind=event&user=bob&event=OnCallModified&call=${callRef}`)
    expect(entries.length).toBeGreaterThan(0)
    for (const entry of entries)
      expect(entry).toMatchObject({
        kind: 'event',
        user: 'bob',
        event: 'OnCallModified',
        call: callRef,
      })
  })
})

describe('pages', () => {
  it('newest first by default, oldest first when asked, ids growing as recorded', async () => {
    const newest = field(await test.entries('limit=1000'), 'id') as number[]
    const oldest = field(await test.entries('order=oldest&limit=1000'), 'id') as number[]
    expect(oldest).toEqual([...newest].reverse())
    expect(oldest).toEqual([...oldest].sort((a, b) => a - b))
    expect(new Set(oldest).size).toBe(oldest.length)
  })

  it('limit, and next: the filter of the following page', async () => {
    const all = field(await test.entries('limit=1000'), 'id')
    const first = await test.operator('GET', '/journal?limit=2')
    const page = first.json() as { entries: JournalEntry[]; next: { before: number } }
    expect(field(page.entries, 'id')).toEqual(all.slice(0, 2))
    expect(page.next).toEqual({ before: all[1] })
    const second = await test.entries(`limit=2&before=${page.next.before}`)
    expect(field(second, 'id')).toEqual(all.slice(2, 4))

    const forward = (await test.operator('GET', '/journal?limit=3&order=oldest')).json()
    expect(forward.next).toEqual({ after: [...all].reverse()[2] })
    const last = (await test.operator('GET', '/journal?limit=1000')).json()
    expect(last).not.toHaveProperty('next')
  })

  it('answers 100 entries when the query does not say', async () => {
    for (let index = 0; index < 100; index++) await test.api('alice', 'GET', `${API}/sessions`)
    expect(await test.entries()).toHaveLength(100)
  })
})

describe('bad filters', () => {
  it.each([
    ['kind=requests', /^kind: 'requests' is not one of request, event, control, near-miss$/],
    ['status=40', /^status: '40' is not an HTTP status/],
    ['since=yesterday', /^since: 'yesterday' is not an ISO date-time/],
    ['until=2026-13-45T00:00:00Z', /^until: /],
    ['after=-1', /^after: '-1' is not a whole number/],
    ['limit=0', /^limit: '0' is not a whole number from 1 to 1000$/],
    ['limit=1001', /^limit: /],
    ['order=random', /^order: 'random' is not one of newest, oldest$/],
    ['user=alice&user=bob', /^user: given more than once$/],
    ['colour=red', /^colour: not a known field \(known fields: kind, user, /],
    ['since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z', /^until: before since/],
  ])('%s: 400 BAD_PARAMETER naming the field', async (query, message) => {
    expectRestError(await test.operator('GET', `/journal?${query}`), 400, 'BAD_PARAMETER', message)
  })
})
