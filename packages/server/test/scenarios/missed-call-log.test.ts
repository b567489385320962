/**
 * Issue 12 acceptance, over real sockets: a missed call appears in the caller's and the callee's
 * communication logs and in the callee's missed-call counter, each user told on its own event channel
 * (unifiedComLog and eventSummary packages); the callee acknowledging it lowers the counter.
 */
import { ComRecord, EventSummary } from '@openness/wire'
import { Value } from 'typebox/value'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiWorld, LINE_TIMEOUT_MS } from './api-apps.js'

let world: ApiWorld
beforeEach(async () => {
  world = await ApiWorld.start()
})
afterEach(() => world.close())

/** A user's application, told of its communication log and event summary. */
const app = (loginName: string) => world.app(loginName, ['unifiedComLog', 'eventSummary'])

describe('a missed call', () => {
  it('is logged for both users, counted for the callee, and acknowledged', async () => {
    const alice = await app('alice')
    const bob = await app('bob')
    const made = await alice.call('POST', '/telephony/calls', {
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    expect(made.status).toBe(201)
    const [{ callRef }] = (
      (await alice.call('GET', '/telephony/calls')).body as {
        calls: { callRef: string }[]
      }
    ).calls as [{ callRef: string }]
    expect((await alice.call('DELETE', `/telephony/calls/${callRef}`)).status).toBe(204)

    const aliceCreated = await alice.channel.next(LINE_TIMEOUT_MS)
    expect(aliceCreated).toMatchObject({
      eventName: 'OnComRecordCreated',
      loginName: 'alice',
      record: { comRef: callRef, participants: [{ role: 'CALLER', answered: false }, {}] },
    })
    expect(Value.Check(ComRecord, aliceCreated['record'])).toBe(true)
    const bobCreated = await bob.channel.next(LINE_TIMEOUT_MS)
    expect(bobCreated).toMatchObject({
      eventName: 'OnComRecordCreated',
      loginName: 'bob',
      record: {
        comRef: callRef,
        acknowledged: false,
        participants: [{ role: 'CALLEE', answered: false, reason: 'ABANDONED' }, {}],
      },
    })
    const updated = await bob.channel.next(LINE_TIMEOUT_MS)
    expect(updated).toStrictEqual({
      eventName: 'OnEventSummaryUpdated',
      loginName: 'bob',
      eventSummary: {
        missedCallsNb: 1,
        voiceMessagesNb: 0,
        callBackRequestsNb: 0,
        faxNb: 0,
        newTextNb: 0,
        oldTextNb: 0,
        eventWaiting: true,
      },
    })
    expect(Value.Check(EventSummary, updated['eventSummary'])).toBe(true)

    const logs = await Promise.all([alice, bob].map((each) => each.call('GET', '/comlog/records')))
    for (const log of logs)
      expect(log.body).toMatchObject({ totalCount: 1, count: 1, comHistoryRecords: [{}] })
    const summary = await bob.call('GET', '/eventSummary')
    expect(summary.body).toMatchObject({ missedCallsNb: 1, eventWaiting: true })

    const recordId = (bobCreated['record'] as { recordId: number }).recordId
    const ack = await bob.call('PUT', '/comlog/records?acknowledge=true', {
      recordIds: [String(recordId)],
    })
    expect(ack.status).toBe(204)
    expect(await bob.channel.next(LINE_TIMEOUT_MS)).toStrictEqual({
      eventName: 'OnComRecordsAck',
      loginName: 'bob',
      recordIds: [recordId],
    })
    expect(await bob.channel.next(LINE_TIMEOUT_MS)).toMatchObject({
      eventName: 'OnEventSummaryUpdated',
      eventSummary: { missedCallsNb: 0, eventWaiting: false },
    })
    expect((await bob.call('GET', '/eventSummary')).body).toMatchObject({ missedCallsNb: 0 })
    // Nothing else: alice's counters never changed.
    await expect(alice.channel.next(150)).rejects.toThrow()
    await expect(bob.channel.next(150)).rejects.toThrow()
  })
})
