/**
 * Verification of the journal (docs/journal.md, "Verification"): `POST /control/v1/journal/verify` with an
 * ordered list of patterns: matched in order, or the first pattern that failed with the entries closest to it;
 * a window (`within`); bad bodies refused naming the field.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectRestError } from '../support/assertions.js'
import { API, type JournalService, startJournalService } from './journal-fixture.js'

let test: JournalService
/** bob calls alice; bob's application subscribed first; alice's application answers. */
let callRef: string
beforeEach(async () => {
  test = await startJournalService()
  await test.subscribe('bob')
  callRef = await test.call('bob', '1002', '1001')
  test.service.clock.advance(5_000)
  const answer = await test.api('alice', 'POST', `${API}/telephony/calls/${callRef}/answer`, {
    deviceId: '1001',
  })
  expect(answer.statusCode, answer.body).toBe(204)
})
afterEach(() => test.close())

async function verify(body: unknown) {
  await test.service.running.platform.journal?.settled()
  return test.operator('POST', '/journal/verify', body)
}

const ANSWERED_THEN_TOLD = [
  { kind: 'request', user: 'alice', operation: 'answerCall', status: 204 },
  { kind: 'event', user: 'bob', event: 'OnCallModified' },
]

describe('matched', () => {
  it("alice's application called answerCall, then bob's received OnCallModified", async () => {
    const response = await verify({ patterns: ANSWERED_THEN_TOLD })

    expect(response.statusCode, response.body).toBe(200)
    const verdict = response.json()
    expect(verdict).toEqual({
      matched: true,
      entries: [
        expect.objectContaining({ kind: 'request', operation: 'answerCall', call: callRef }),
        expect.objectContaining({ kind: 'event', event: 'OnCallModified', call: callRef }),
      ],
    })
    expect(verdict.entries[1].id).toBeGreaterThan(verdict.entries[0].id)
  })

  it('a status class, an error type and a call in a pattern', async () => {
    await test.api('alice', 'GET', `${API}/telephony/calls/gone`)
    const response = await verify({
      patterns: [
        { operation: 'makeCall', status: '2xx', user: 'bob' },
        { call: callRef, operation: 'answerCall' },
        { error: 'NOT_FOUND', call: 'gone', status: 404 },
      ],
    })
    expect(response.json()).toMatchObject({ matched: true })
  })

  it('within: only the entries of the window count', async () => {
    const later = { since: '2026-01-01T00:00:05Z' }
    expect(
      (await verify({ patterns: [{ operation: 'answerCall' }], within: later })).json(),
    ).toMatchObject({ matched: true })
    expect(
      (await verify({ patterns: [{ operation: 'makeCall' }], within: later })).json(),
    ).toMatchObject({ matched: false, failedAt: 0 })
    expect(
      (await verify({ patterns: [{ operation: 'answerCall' }], within: { user: 'bob' } })).json(),
    ).toMatchObject({ matched: false })
  })
})

describe('not matched', () => {
  it('order matters: the same patterns reversed fail at the second, the entry out of order named', async () => {
    const response = await verify({ patterns: [...ANSWERED_THEN_TOLD].reverse() })

    expect(response.statusCode).toBe(200)
    const verdict = response.json()
    expect(verdict).toMatchObject({
      matched: false,
      failedAt: 1,
      pattern: ANSWERED_THEN_TOLD[0],
      entries: [expect.objectContaining({ kind: 'event', event: 'OnCallModified' })],
    })
    expect(verdict.candidates[0]).toEqual({
      entry: expect.objectContaining({ operation: 'answerCall', user: 'alice' }),
      differences: [expect.stringMatching(/^order: it comes before entry \d+/)],
    })
  })

  it('names the first pattern that found nothing, and the closest entries with their differences', async () => {
    const response = await verify({
      patterns: [
        { operation: 'makeCall' },
        { kind: 'request', user: 'alice', operation: 'holdCall' },
        { event: 'OnCallRemoved' },
      ],
    })

    const verdict = response.json()
    expect(verdict).toMatchObject({
      matched: false,
      failedAt: 1,
      pattern: { kind: 'request', user: 'alice', operation: 'holdCall' },
      entries: [expect.objectContaining({ operation: 'makeCall' })],
    })
    expect(verdict.candidates.length).toBeGreaterThan(0)
    expect(verdict.candidates.length).toBeLessThanOrEqual(3)
    expect(verdict.candidates[0].differences).toEqual([
      expect.stringMatching(/^operation: expected holdCall, got /),
    ])
    expect(verdict.candidates[0].entry).toMatchObject({ kind: 'request', user: 'alice' })
  })

  it('a pattern no entry comes close to has no candidates', async () => {
    const verdict = (await verify({ patterns: [{ event: 'OnVoiceMessageAdded' }] })).json()
    expect(verdict).toEqual({
      matched: false,
      failedAt: 0,
      pattern: { event: 'OnVoiceMessageAdded' },
      entries: [],
      candidates: [],
    })
  })
})

describe('bad bodies', () => {
  it.each([
    [undefined, /patterns: required/],
    [{ patterns: [] }, /^patterns: required, a list of 1 to 100 patterns$/],
    [{ patterns: [{}] }, /^patterns\[0\]: an object with at least one of kind, /],
    [{ patterns: [{ colour: 'red' }] }, /^patterns\[0\]\.colour: not a known field/],
    [{ patterns: [{ kind: 'requests' }] }, /^patterns\[0\]\.kind: 'requests' is not one of/],
    [{ patterns: [{ operation: 'a' }, { status: 99 }] }, /^patterns\[1\]\.status: '99'/],
    [{ patterns: [{ operation: 'a' }], within: { since: 'now' } }, /^within\.since: 'now'/],
    [{ patterns: [{ operation: 'a' }], within: { limit: 3 } }, /^within\.limit: not a known field/],
    [{ patterns: [{ operation: 'a' }], times: 2 }, /^times: not a known field/],
  ])('%j: 400 BAD_PARAMETER naming the field', async (body, message) => {
    expectRestError(await verify(body), 400, 'BAD_PARAMETER', message)
  })
})
