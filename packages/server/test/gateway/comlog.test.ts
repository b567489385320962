/**
 * Issue 12, items 1 and 2: the communication log and the event summary over HTTP, with the requests the
 * SDKs send (wire facts 8.1 and 8.2): both spellings of the query answer, string and number ids in the
 * acknowledge body, every filter, one user's records only, and the events of each change.
 */
import { ComRecord, ComRecords, EventSummary } from '@openness/wire'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { startTelephonyTest, T, type TelephonyTest } from './telephony/support.js'

const C = '/api/rest/1.0/comlog/records'
const S = '/api/rest/1.0/eventSummary'

let test: TelephonyTest
let published: PlatformEvent[] = []
/** alice called bob, who did not answer; then carol called alice, who answered. */
const calls = { missed: '', answered: '' }

async function records(login: 'alice' | 'bob' | 'admin', query = ''): Promise<ComRecords> {
  return expectSchema<ComRecords>(ComRecords, await test.send(login, 'GET', `${C}${query}`))
}

async function summary(login: 'alice' | 'bob' | 'admin', query = ''): Promise<EventSummary> {
  return expectSchema<EventSummary>(EventSummary, await test.send(login, 'GET', `${S}${query}`))
}

const named = (name: string) => published.filter((event) => event.eventName === name)

beforeAll(async () => {
  test = await startTelephonyTest()
  const router = test.service.running.events
  const publish = router.publish.bind(router)
  router.publish = (event) => {
    published.push(event)
    publish(event)
  }
  calls.missed = await test.makeCall('alice', '1001', '1002')
  test.service.clock.advance(5_000)
  expect((await test.send('alice', 'DELETE', `${T}/calls/${calls.missed}`)).statusCode).toBe(204)
  calls.answered = await test.makeCall('carol', '1003', '1001')
  await test.answer('alice', calls.answered, '1001')
  expect((await test.send('carol', 'DELETE', `${T}/calls/${calls.answered}`)).statusCode).toBe(204)
  await test.service.running.platform.eventSummary.idle()
})
afterAll(async () => {
  await test?.close()
})
beforeEach(() => {
  published = []
})

describe('GET /comlog/records', () => {
  it('answers both spellings, newest first, with the participants of each record', async () => {
    const page = await records('alice')
    expect(page).toMatchObject({ offset: 0, limit: 100, totalCount: 2, count: 2 })
    expect(page.records).toStrictEqual(page.comHistoryRecords)
    expect(page.records.map((record) => record.comRef)).toStrictEqual([
      calls.answered,
      calls.missed,
    ])
    const [answered, missed] = page.records
    expect(missed).toMatchObject({
      acknowledged: false,
      participants: [
        { role: 'CALLER', answered: false, reason: 'ABANDONED', leg: '1001' },
        { role: 'CALLEE', identity: { id: { loginName: 'bob', phoneNumber: '1002' } } },
      ],
    })
    expect(answered?.participants[0]).toMatchObject({ role: 'CALLEE', answered: true })
    expect(answered?.convDate).toBeDefined()
    expect(typeof answered?.recordId).toBe('number')
  })

  it('filters as the SDKs ask', async () => {
    const count = async (query: string) => (await records('alice', query)).totalCount
    expect(await count('?role=CALLER')).toBe(1)
    expect(await count('?role=CALLEE')).toBe(1)
    expect(await count('?unanswered=true')).toBe(1)
    expect(await count('?unacknowledged=true')).toBe(2)
    expect(await count(`?comRef=${calls.missed}`)).toBe(1)
    expect(await count('?remotePartyId=bob')).toBe(1)
    expect(await count('?remotePartyId=1003')).toBe(1)
    expect(await count('?remotePartyId=b%25')).toBe(0)
    expect(await count('?afterDate=2100-01-01T00:00:00.000Z')).toBe(0)
    expect(await count('?beforeDate=2100-01-01T00:00:00.000Z&optimized=true')).toBe(2)
    // The C# SDK sends a .NET DateTime's locale text.
    expect(await count('?afterDate=1%2F1%2F2000+10%3A00%3A00+PM')).toBe(2)
    const paged = await records('alice', '?offset=1&limit=1')
    expect(paged).toMatchObject({ offset: 1, limit: 1, totalCount: 2 })
    expect(paged.records.map((record) => record.comRef)).toStrictEqual([calls.missed])
  })

  it('refuses a date no Date reads (400 BAD_PARAMETER)', async () => {
    const response = await test.send('alice', 'GET', `${C}?afterDate=yesterday`)
    expectRestError(response, 400, 'BAD_PARAMETER', /afterDate/)
  })

  it("shows a user its own records, an administrator the named user's", async () => {
    expect((await records('bob')).totalCount).toBe(1)
    expect((await records('bob', '?loginName=alice')).totalCount).toBe(1)
    expect((await records('admin', '?loginName=alice')).totalCount).toBe(2)
    expectRestError(await test.send('admin', 'GET', C), 400, 'BAD_PARAMETER', /loginName/)
  })
})

describe('GET and DELETE /comlog/records/{recordId}', () => {
  it("reads one record, and never another user's", async () => {
    const [bobs] = (await records('bob')).records
    const id = bobs?.recordId
    const one = expectSchema<ComRecord>(ComRecord, await test.send('bob', 'GET', `${C}/${id}`))
    expect(one).toStrictEqual(bobs)
    expectRestError(await test.send('alice', 'GET', `${C}/${id}`), 404, 'NOT_FOUND')
    expectRestError(await test.send('alice', 'DELETE', `${C}/${id}`), 404, 'NOT_FOUND')
  })
})

describe('the missed-call counter', () => {
  it('counts the unanswered incoming call until acknowledged (Node SDK: string ids)', async () => {
    expect(await summary('bob')).toStrictEqual({
      missedCallsNb: 1,
      voiceMessagesNb: 0,
      callBackRequestsNb: 0,
      faxNb: 0,
      newTextNb: 0,
      oldTextNb: 0,
      eventWaiting: true,
    })
    expect((await summary('alice')).eventWaiting).toBe(false)
    const [missed] = (await records('bob')).records
    const id = missed?.recordId ?? 0
    const ack = await test.send('bob', 'PUT', `${C}?acknowledge=true`, { recordIds: [String(id)] })
    expect(ack.statusCode, ack.body).toBe(204)
    expect(named('OnComRecordsAck')).toStrictEqual([
      { eventName: 'OnComRecordsAck', loginName: 'bob', recordIds: [id] },
    ])
    expect(named('OnEventSummaryUpdated')).toMatchObject([
      { loginName: 'bob', eventSummary: { missedCallsNb: 0, eventWaiting: false } },
    ])
    expect((await summary('bob')).missedCallsNb).toBe(0)
    expect((await records('bob', '?unacknowledged=true')).totalCount).toBe(0)

    // Acknowledging again changes nothing: no event.
    published = []
    await test.send('bob', 'PUT', `${C}?acknowledge=true`, { recordIds: [id] })
    expect(published).toStrictEqual([])

    // The Java and C# SDKs send numbers; an administrator names the user.
    const unack = await test.send('admin', 'PUT', `${C}?acknowledge=false&loginName=bob`, {
      recordIds: [id],
    })
    expect(unack.statusCode, unack.body).toBe(204)
    expect(named('OnComRecordsUnAck')).toMatchObject([{ loginName: 'bob', recordIds: [id] }])
    expect(named('OnEventSummaryUpdated')).toMatchObject([
      { loginName: 'bob', eventSummary: { missedCallsNb: 1 } },
    ])
    expect((await summary('admin', '?loginName=bob')).missedCallsNb).toBe(1)
  })

  it('counts the call back requests waiting', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    published = []
    const asked = await test.send('alice', 'POST', `${T}/calls/${callRef}/callback`)
    expect(asked.statusCode, asked.body).toBe(204)
    await test.service.running.platform.eventSummary.idle()
    expect((await summary('bob')).callBackRequestsNb).toBe(1)
    expect(named('OnEventSummaryUpdated')).toMatchObject([
      { loginName: 'bob', eventSummary: { callBackRequestsNb: 1, eventWaiting: true } },
    ])
  })
})

describe('DELETE /comlog/records', () => {
  it('deletes by id list, then by filter, telling the user the ids', async () => {
    const before = await records('alice')
    const [first, ...rest] = before.records
    const byList = await test.send('alice', 'DELETE', `${C}?recordIdList=${first?.recordId},999999`)
    expect(byList.statusCode, byList.body).toBe(204)
    expect(named('OnComRecordsDeleted')).toStrictEqual([
      { eventName: 'OnComRecordsDeleted', loginName: 'alice', recordIds: [first?.recordId] },
    ])
    expectRestError(
      await test.send('alice', 'DELETE', `${C}?recordIdList=1,x`),
      400,
      'BAD_PARAMETER',
    )
    const callers = rest.filter((record) => record.participants[0]?.role === 'CALLER')
    const byFilter = await test.send('alice', 'DELETE', `${C}?role=CALLER`)
    expect(byFilter.statusCode).toBe(204)
    expect(named('OnComRecordsDeleted').at(-1)).toMatchObject({
      recordIds: callers.map((record) => record.recordId),
    })
    expect((await records('alice')).totalCount).toBe(rest.length - callers.length)
    expect((await test.send('alice', 'DELETE', C)).statusCode).toBe(204)
    expect((await records('alice')).totalCount).toBe(0)
    const one = (await records('bob')).records[0]?.recordId
    expect((await test.send('bob', 'DELETE', `${C}/${one}`)).statusCode).toBe(204)
    expect((await test.send('bob', 'DELETE', C)).statusCode).toBe(204)
    expect((await summary('bob')).missedCallsNb).toBe(0)
  })
})
