/**
 * Client flows of the communication log and the event summary (wire facts 8.1 and 8.2; census 6.1): the
 * requests as each SDK sends them, and what each reads of the answers and events: N and JS read
 * `comHistoryRecords`/`totalCount`, J `records`/`count`; N sends the ids it acknowledges as strings.
 */
import { expect } from 'vitest'
import { covered, type Flow, hangUp, makeCallBody, onlyCall } from './flow-support.js'
import { type ClientProfile, nextEvent, SdkClient } from './sdk-client.js'
import { object, readPartyInfo } from './sdk-readers.js'

type Json = Record<string, unknown>

/** The subscription body of each SDK for the comlog and event summary packages of its own user. */
function comlogSubscription(profile: ClientProfile): unknown {
  const selectors = ['unifiedComLog', 'eventSummary'].map((name) => ({
    names: [name],
    ...(profile.tag === 'N' && { ids: [] }),
  }))
  return profile.tag === 'N'
    ? { filter: { selectors }, version: '1.0', timeout: 0 }
    : { filter: { selectors }, version: '1.0', timeout: 10 }
}

/** ComRecord as the SDKs read it: `identity` of every participant is required by N. */
function readComRecord(value: unknown): Json {
  const record = object(value, 'ComRecord')
  expect(record['recordId'], 'ComRecord.recordId').toBeTypeOf('number')
  expect(record['comRef'], 'ComRecord.comRef').toBeTypeOf('string')
  expect(record['acknowledged'], 'ComRecord.acknowledged').toBeTypeOf('boolean')
  const participants = record['participants'] as unknown[]
  expect(Array.isArray(participants)).toBe(true)
  for (const participant of participants) {
    const read = object(participant, 'ComRecordParticipant')
    readPartyInfo(read['identity'], 'ComRecordParticipant.identity')
    expect(['CALLER', 'CALLEE', 'UNKNOWN']).toContain(read['role'])
  }
  for (const key of ['beginDate', 'endDate'])
    expect(Number.isNaN(Date.parse(String(record[key]))), key).toBe(false)
  return record
}

/** The records of a query answer, under the keys the SDK reads. */
function readComRecords(
  value: unknown,
  profile: ClientProfile,
): { total: number; records: Json[] } {
  const body = object(value, 'query answer')
  const [listKey, countKey] =
    profile.tag === 'J' ? ['records', 'count'] : ['comHistoryRecords', 'totalCount']
  expect(Array.isArray(body[listKey]), listKey).toBe(true)
  expect(body[countKey], countKey).toBeTypeOf('number')
  return {
    total: body[countKey] as number,
    records: (body[listKey] as unknown[]).map(readComRecord),
  }
}

/** EventSummary: every counter an int, `eventWaiting` a boolean. */
function readEventSummary(value: unknown): Json {
  const summary = object(value, 'EventSummary')
  for (const key of [
    'missedCallsNb',
    'voiceMessagesNb',
    'callBackRequestsNb',
    'faxNb',
    'newTextNb',
    'oldTextNb',
  ])
    expect(Number.isInteger(summary[key]), key).toBe(true)
  expect(summary['eventWaiting']).toBeTypeOf('boolean')
  return summary
}

/** The query parameters one SDK sends for its user's unacknowledged records (wire facts 8.2). */
function queryOf(profile: ClientProfile): Record<string, string> {
  switch (profile.tag) {
    case 'N':
      return { unacknowledged: 'true', offset: '0', limit: '20', optimized: 'true' }
    case 'J':
      return { unacknowledged: 'true', role: 'CALLEE', optimized: 'true' }
    case 'C#':
      // A .NET DateTime in its locale text.
      return { afterDate: '1/1/2000 10:00:00 PM', unacknowledged: 'true' }
    case 'JS':
      return { unacknowledged: 'true', unanswered: 'true', limit: '20' }
  }
}

export const COMLOG_FLOWS: readonly Flow[] = [
  {
    name: 'a missed call in the communication log and the event summary: query, read, acknowledge, delete',
    async run(world, profile, coverage) {
      const alice = await SdkClient.login(world, profile, 'alice')
      const bob = await SdkClient.login(world, profile, 'bob')
      const channel = await bob.subscribe(comlogSubscription(profile))
      await alice.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1001', '1002'),
      })
      await hangUp(alice, await onlyCall(alice))

      const created = await nextEvent(channel, 'OnComRecordCreated')
      expect(created['loginName']).toBe('bob')
      const record = readComRecord(created['record'])
      const updated = await nextEvent(channel, 'OnEventSummaryUpdated')
      expect(readEventSummary(updated['eventSummary'])['missedCallsNb']).toBe(1)

      const query = readComRecords(
        covered(
          coverage,
          'GET /comlog/records',
          await bob.request('GET', 'comlog', '', { query: queryOf(profile) }),
        ).body,
        profile,
      )
      expect(query.total).toBe(1)
      expect(query.records[0]?.['recordId']).toBe(record['recordId'])
      const recordId = Number(record['recordId'])
      readComRecord(
        covered(
          coverage,
          'GET /comlog/records/{}',
          await bob.request('GET', 'comlog', `/${recordId}`),
        ).body,
      )
      const summary = covered(
        coverage,
        'GET /eventSummary',
        await bob.request('GET', 'eventSummary'),
      )
      expect(readEventSummary(summary.body)).toMatchObject({ missedCallsNb: 1, eventWaiting: true })

      const recordIds = profile.tag === 'N' ? [String(recordId)] : [recordId]
      covered(
        coverage,
        'PUT /comlog/records',
        await bob.request('PUT', 'comlog', '', {
          query: { acknowledge: 'true' },
          body: { recordIds },
        }),
      )
      const ack = await nextEvent(channel, 'OnComRecordsAck')
      expect(ack['recordIds']).toEqual([recordId])
      const lowered = await nextEvent(channel, 'OnEventSummaryUpdated')
      expect(readEventSummary(lowered['eventSummary'])['missedCallsNb']).toBe(0)

      covered(
        coverage,
        'DELETE /comlog/records/{}',
        await bob.request('DELETE', 'comlog', `/${recordId}`),
      )
      expect((await nextEvent(channel, 'OnComRecordsDeleted'))['recordIds']).toEqual([recordId])
      const aliceRecords = readComRecords((await alice.request('GET', 'comlog')).body, profile)
      expect(aliceRecords.total).toBe(1)
      const aliceRecord = aliceRecords.records[0]?.['recordId']
      covered(
        coverage,
        'DELETE /comlog/records',
        await alice.request('DELETE', 'comlog', '', {
          query: { recordIdList: String(aliceRecord) },
        }),
      )
      covered(
        coverage,
        'DELETE /comlog/records',
        await alice.request('DELETE', 'comlog', '', { query: { role: 'CALLER' } }),
      )
      expect(readComRecords((await alice.request('GET', 'comlog')).body, profile).total).toBe(0)
    },
  },
]
