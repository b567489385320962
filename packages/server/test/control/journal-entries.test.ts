/**
 * The journal's entries (docs/journal.md, "Entries"): an API request with its operationId, status, time, user,
 * session and call; an error with its RestErrorInfo; an event a subscription's queue took; a control-plane
 * action; a near-miss with the routes it may have meant. Health probes and reads of the control plane are not
 * recorded; a reset is, and does not empty the journal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { API, type JournalService, startJournalService } from './journal-fixture.js'

let test: JournalService
beforeEach(async () => {
  test = await startJournalService()
})
afterEach(() => test.close())

describe('request entries', () => {
  it("record the route's operationId, status, time, user, session and the call the path names", async () => {
    const callRef = await test.call()
    const answer = await test.api('bob', 'POST', `${API}/telephony/calls/${callRef}/answer`, {
      deviceId: '1002',
    })
    expect(answer.statusCode, answer.body).toBe(204)
    const session = (await test.api('bob', 'GET', `${API}/sessions`)).json() as {
      sessionId: string
    }

    const [entry] = await test.entries('kind=request&operation=answerCall')
    expect(entry).toEqual({
      id: expect.any(Number),
      at: '2026-01-01T00:00:00.000Z',
      kind: 'request',
      method: 'POST',
      path: `${API}/telephony/calls/${callRef}/answer`,
      status: 204,
      durationMs: expect.any(Number),
      operation: 'answerCall',
      user: 'bob',
      session: session.sessionId,
      call: callRef,
    })
    expect(entry && 'durationMs' in entry && entry.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('record an error with its RestErrorInfo type and message', async () => {
    await test.api('alice', 'GET', `${API}/telephony/calls/nosuchcall`)

    const [entry] = await test.entries('status=404')
    expect(entry).toMatchObject({
      kind: 'request',
      operation: 'getCall',
      status: 404,
      user: 'alice',
      call: 'nosuchcall',
      error: { type: 'NOT_FOUND', message: expect.stringMatching(/nosuchcall|call/) },
    })
  })

  it('record the login of an authentication and of the session it opens, never the password', async () => {
    await test.login('carol')

    const entries = await test.entries('user=carol&order=oldest')
    expect(entries.map((entry) => [entry.kind, 'operation' in entry && entry.operation])).toEqual([
      ['request', 'authenticate'],
      ['request', 'openSession'],
    ])
    expect(JSON.stringify(entries)).not.toContain('demo-carol')
  })

  it('record a request without a session (refused) without a user', async () => {
    await test.api(undefined, 'GET', `${API}/telephony/calls`)

    const [entry] = await test.entries('status=403')
    expect(entry).toMatchObject({ kind: 'request', operation: 'getCalls', status: 403 })
    expect(entry && 'error' in entry && entry.error?.type).toBe('INVALID_SESSION')
    expect(entry).not.toHaveProperty('user')
  })

  it('leave the health probes out', async () => {
    for (const path of ['/health/live', '/health/ready', '/healthz'])
      await test.service.app.inject({ method: 'GET', url: path })

    expect(await test.entries('kind=request,near-miss&path=/healthz')).toEqual([])
    expect(await test.entries('path=/health/live')).toEqual([])
  })
})

describe('event entries', () => {
  it("record each event a subscription's queue took: subscription, user, name, call, sequence", async () => {
    const subscription = await test.subscribe('bob')
    const callRef = await test.call()

    const events = await test.entries(`kind=event&subscription=${subscription}&order=oldest`)
    expect(events.length).toBeGreaterThan(0)
    expect(events[0]).toEqual({
      id: expect.any(Number),
      at: '2026-01-01T00:00:00.000Z',
      kind: 'event',
      subscription,
      user: 'bob',
      event: expect.stringMatching(/^On/),
      call: callRef,
      sequence: 1,
    })
    expect(events.map((entry) => 'sequence' in entry && entry.sequence)).toEqual(
      events.map((_, index) => index + 1),
    )
    expect(events.some((entry) => 'event' in entry && entry.event === 'OnCallCreated')).toBe(true)
  })

  it('record one entry per subscription an event reaches', async () => {
    const bobs = await test.subscribe('bob')
    const alices = await test.subscribe('alice')
    await test.call()

    const created = await test.entries('event=OnCallCreated')
    expect(created.map((entry) => 'subscription' in entry && entry.subscription).sort()).toEqual(
      [alices, bobs].sort(),
    )
  })
})

describe('control entries', () => {
  it('record an action with its operationId, summary, status and the user its path names', async () => {
    const response = await test.operator('PUT', '/users/bob/routing', {
      dndState: { activate: true },
    })
    expect(response.statusCode, response.body).toBe(200)
    await test.operator('POST', '/clock/advance', { seconds: 60 })

    const entries = await test.entries('kind=control&order=oldest')
    expect(entries).toEqual([
      {
        id: expect.any(Number),
        at: '2026-01-01T00:00:00.000Z',
        kind: 'control',
        method: 'PUT',
        path: '/control/v1/users/bob/routing',
        status: 200,
        durationMs: expect.any(Number),
        operation: 'putUsersByLoginNameRouting',
        summary: expect.any(String),
        user: 'bob',
      },
      // When it arrived: before the clock moved.
      expect.objectContaining({
        operation: 'postClockAdvance',
        status: 200,
        at: '2026-01-01T00:00:00.000Z',
      }),
    ])
    await test.operator('POST', '/clock/advance', { seconds: 1 })
    expect(await test.entries('kind=control&limit=1')).toEqual([
      expect.objectContaining({ at: '2026-01-01T00:01:00.000Z' }),
    ])
  })

  it('record a refused action with its error; reads are not recorded', async () => {
    await test.operator('POST', '/clock/advance', { seconds: -1 })
    await test.operator('GET', '/clock')
    await test.operator('GET', '/users')

    const entries = await test.entries('kind=control')
    expect(entries).toEqual([
      expect.objectContaining({
        operation: 'postClockAdvance',
        status: 400,
        error: { type: 'BAD_PARAMETER', message: expect.stringMatching(/^seconds:/) },
      }),
    ])
  })

  it('record a reset, which keeps what the journal held', async () => {
    await test.call()
    const before = await test.entries('order=oldest&limit=1000')
    const reset = await test.operator('POST', '/reset')
    expect(reset.statusCode, reset.body).toBe(200)

    const after = await test.entries('order=oldest&limit=1000')
    expect(after.slice(0, before.length)).toEqual(before)
    expect(after.at(-1)).toMatchObject({ kind: 'control', operation: 'postReset', status: 200 })
  })
})

describe('near-miss entries', () => {
  it('record a request no route matched, with the closest routes', async () => {
    const response = await test.api('alice', 'POST', `${API}/telephony/calee`, { callee: '1002' })
    expect(response.statusCode).toBe(404)

    const [entry] = await test.entries('kind=near-miss')
    expect(entry).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      kind: 'near-miss',
      method: 'POST',
      path: `${API}/telephony/calee`,
      status: 404,
      durationMs: expect.any(Number),
      error: { type: 'NOT_FOUND', message: `No resource at POST ${API}/telephony/calee` },
      suggestions: expect.arrayContaining([
        { method: 'POST', path: `${API}/telephony/calls`, operation: 'makeCall' },
      ]),
    })
    expect(entry && 'suggestions' in entry && entry.suggestions[0]).toEqual({
      method: 'POST',
      path: `${API}/telephony/calls`,
      operation: 'makeCall',
    })
  })

  it('record a wrong method on a known path (405), the right methods first', async () => {
    const response = await test.api('alice', 'DELETE', `${API}/telephony/calls`)
    expect(response.statusCode).toBe(405)

    const [entry] = await test.entries('kind=near-miss')
    expect(entry).toMatchObject({ status: 405, error: { type: 'NOT_SUPPORTED' } })
    const suggested = entry && 'suggestions' in entry ? entry.suggestions : []
    expect(
      suggested
        .slice(0, 2)
        .map((one) => `${one.method} ${one.path}`)
        .sort(),
    ).toEqual([`GET ${API}/telephony/calls`, `POST ${API}/telephony/calls`])
  })

  it('suggest nothing for a path far from every route', async () => {
    await test.api(undefined, 'GET', '/favicon.ico')

    const [entry] = await test.entries('kind=near-miss')
    expect(entry).toMatchObject({ path: '/favicon.ico', status: 404, suggestions: [] })
  })

  it('a 404 a route answers is a request, not a near-miss', async () => {
    await test.api('alice', 'GET', `${API}/users/nobody`)

    expect(await test.entries('kind=near-miss')).toEqual([])
    expect(await test.entries('status=404')).toEqual([
      expect.objectContaining({ kind: 'request', path: `${API}/users/nobody` }),
    ])
  })
})
