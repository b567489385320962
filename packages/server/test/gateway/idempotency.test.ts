/**
 * The Idempotency-Key header (issue 32, item 4; docs/idempotency.md; IETF draft-ietf-httpapi-idempotency-key-
 * header): a POST, PUT or DELETE sent with a key runs once per session and key; a retry gets the first outcome
 * again, another request under the key 422, a retry while the first runs 409. Without the header nothing changes.
 */
import { Calls, Subscription } from '@openness/wire'
import type { LightMyRequestResponse } from 'fastify'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { authenticate } from '../support/test-service.js'
import { type Login, startTelephonyTest, T, type TelephonyTest } from './telephony/support.js'

let test: TelephonyTest
beforeEach(async () => {
  test = await startTelephonyTest()
})
afterEach(() => test.close())

/** A request as `login`, with the Idempotency-Key `key` (none when undefined). */
function send(
  login: Login,
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  key: string | undefined,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return test.service.app.inject({
    method,
    url,
    headers: { cookie: test.cookies[login], ...(key !== undefined && { 'idempotency-key': key }) },
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  })
}

async function callsOf(login: Login): Promise<Calls> {
  return expectSchema<Calls>(Calls, await test.send(login, 'GET', `${T}/calls`))
}

const CALL = { deviceId: '1001', callee: '1002' }

describe('POST /telephony/calls with an Idempotency-Key', () => {
  it('places one call for the first request and answers every retry with its 201 and Location', async () => {
    const first = await send('alice', 'POST', `${T}/calls`, 'call-1', CALL)
    const second = await send('alice', 'POST', `${T}/calls`, 'call-1', CALL)
    const third = await send('alice', 'POST', `${T}/calls`, 'call-1', CALL)

    expect(first.statusCode, first.body).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    for (const retry of [second, third]) {
      expect(retry.statusCode, retry.body).toBe(201)
      expect(retry.headers.location).toBe(first.headers.location)
      expect(retry.headers['idempotent-replayed']).toBe('true')
      expect(retry.body).toBe(first.body)
    }
    expect((await callsOf('alice')).calls).toHaveLength(1)
  })

  it('takes the key as the draft writes it, a quoted string, or bare: the same key', async () => {
    const quoted = await send('alice', 'POST', `${T}/calls`, '"call-\\"2\\""', CALL)
    const bare = await send('alice', 'POST', `${T}/calls`, 'call-"2"', CALL)

    expect(quoted.statusCode, quoted.body).toBe(201)
    expect(bare.headers.location).toBe(quoted.headers.location)
    expect(bare.headers['idempotent-replayed']).toBe('true')
    expect((await callsOf('alice')).calls).toHaveLength(1)
  })

  it('refuses the same key with another request 422, changing nothing', async () => {
    await send('alice', 'POST', `${T}/calls`, 'call-3', CALL)

    const other = await send('alice', 'POST', `${T}/calls`, 'call-3', { ...CALL, callee: '1003' })

    const error = expectRestError(
      other,
      422,
      'BAD_PARAMETER',
      /^Idempotency-Key 'call-3' was sent before with another request/,
    )
    expect(error.httpStatus).toBe('UNPROCESSABLE_ENTITY')
    expect((await callsOf('alice')).calls).toHaveLength(1)
  })

  it('answers 409 with Retry-After to a retry sent while the first request still runs', async () => {
    const [first, second] = await Promise.all([
      send('alice', 'POST', `${T}/calls`, 'call-4', CALL),
      send('alice', 'POST', `${T}/calls`, 'call-4', CALL),
    ])

    expect(first.statusCode, first.body).toBe(201)
    const error = expectRestError(second, 409, 'NOT_EXPECTED', /still running/)
    expect(error.httpStatus).toBe('CONFLICT')
    expect(second.headers['retry-after']).toBe('1')
    expect((await callsOf('alice')).calls).toHaveLength(1)
    const later = await send('alice', 'POST', `${T}/calls`, 'call-4', CALL)
    expect(later.headers.location).toBe(first.headers.location)
  })

  it('answers a refusal again as it was, without running the request again', async () => {
    const refused = await send('alice', 'POST', `${T}/calls`, 'call-5', {
      deviceId: '1002',
      callee: '1003',
    })
    const retry = await send('alice', 'POST', `${T}/calls`, 'call-5', {
      deviceId: '1002',
      callee: '1003',
    })

    expect(refused.statusCode).toBe(403)
    expect(retry.statusCode).toBe(403)
    expect(retry.body).toBe(refused.body)
    expect(retry.headers['content-type']).toBe(refused.headers['content-type'])
    expect(retry.headers['idempotent-replayed']).toBe('true')
  })

  it("keeps each session's keys apart: another session's same key places its own call", async () => {
    const alice = await send('alice', 'POST', `${T}/calls`, 'shared-key', CALL)
    const karim = await send('karim', 'POST', `${T}/calls`, 'shared-key', {
      deviceId: '1011',
      callee: '1003',
    })

    expect(alice.statusCode).toBe(201)
    expect(karim.statusCode, karim.body).toBe(201)
    expect(karim.headers['idempotent-replayed']).toBeUndefined()
    expect(karim.headers.location).not.toBe(alice.headers.location)
  })

  it('places a call for each request without a key, as it always did', async () => {
    expect((await send('alice', 'POST', `${T}/calls`, undefined, CALL)).statusCode).toBe(201)
    expect((await send('alice', 'POST', `${T}/calls`, undefined, CALL)).statusCode).toBe(201)
    expect((await callsOf('alice')).calls).toHaveLength(2)
  })

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
  ])('refuses a key that is %s: 400 BAD_PARAMETER, nothing placed', async (_case, key) => {
    const response = await send('alice', 'POST', `${T}/calls`, key, CALL)
    expectRestError(response, 400, 'BAD_PARAMETER', /^Idempotency-Key: /)
    expect((await callsOf('alice')).calls).toHaveLength(0)
  })
})

describe('what a key does not keep', () => {
  it('frees the key of a request the server failed (5xx): the retry runs it', async () => {
    const { telephony } = test.service.running.platform
    vi.spyOn(telephony, 'execute').mockRejectedValueOnce(new Error('the database went away'))

    const failed = await send('alice', 'POST', `${T}/calls`, 'call-6', CALL)
    const retry = await send('alice', 'POST', `${T}/calls`, 'call-6', CALL)

    expect(failed.statusCode).toBe(500)
    expect(retry.statusCode, retry.body).toBe(201)
    expect(retry.headers['idempotent-replayed']).toBeUndefined()
    expect((await callsOf('alice')).calls).toHaveLength(1)
  })

  it('claims nothing for a request the schemas refused: the key is still free for a good one', async () => {
    const refused = await send('alice', 'POST', `${T}/calls`, 'call-7', { deviceId: 1001 })
    const good = await send('alice', 'POST', `${T}/calls`, 'call-7', CALL)

    expect(refused.statusCode).toBe(400)
    expect(good.statusCode, good.body).toBe(201)
  })
})

describe('the call engine under a request id', () => {
  it('answers a command run again under the same id with what the first run did, running it once', async () => {
    const { telephony } = test.service.running.platform
    const command = {
      type: 'makeCall' as const,
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    }
    const first = await telephony.execute(command, 'idempotency:engine-1')
    const second = await telephony.execute(command, 'idempotency:engine-1')
    const [third, fourth] = await Promise.all([
      telephony.execute(command, 'idempotency:engine-2'),
      telephony.execute(command, 'idempotency:engine-2'),
    ])

    expect(second.callRef).toBe(first.callRef)
    expect(fourth.callRef).toBe(third.callRef)
    expect(second.events).toStrictEqual([])
    expect((await callsOf('alice')).calls).toHaveLength(2)
  })
})

describe('other requests that create or change something, with an Idempotency-Key', () => {
  it('POST /subscriptions: one subscription, its answer again to the retry', async () => {
    const request = { filter: { selectors: [{ names: ['telephony'] }] }, version: '1.0' }
    const first = await send('alice', 'POST', '/api/rest/1.0/subscriptions', 'sub-1', request)
    const retry = await send('alice', 'POST', '/api/rest/1.0/subscriptions', 'sub-1', request)

    const subscription = expectSchema<Subscription>(Subscription, first)
    expect(retry.statusCode).toBe(200)
    expect(retry.json<Subscription>().subscriptionId).toBe(subscription.subscriptionId)
    expect(await test.service.running.platform.subscriptions.count()).toBe(1)
  })

  it('POST /sessions: the session opened once, its SessionInfo again instead of 403 "already open"', async () => {
    const credential = await authenticate(test.service.app, 'bob')
    const open = () =>
      test.service.app.inject({
        method: 'POST',
        url: '/api/rest/1.0/sessions',
        headers: { cookie: `SvcUserId=${credential}`, 'idempotency-key': 'open-1' },
        payload: { applicationName: 'retrying-client' },
      })
    const first = await open()
    const retry = await open()

    expect(first.statusCode, first.body).toBe(200)
    expect(retry.statusCode).toBe(200)
    expect(retry.body).toBe(first.body)
    expect(retry.headers['idempotent-replayed']).toBe('true')
  })

  it('DELETE /telephony/calls/{callRef}: 204, and 204 again to the retry instead of 404', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    const first = await send('alice', 'DELETE', `${T}/calls/${callRef}`, 'hang-up-1')
    const retry = await send('alice', 'DELETE', `${T}/calls/${callRef}`, 'hang-up-1')
    const withoutKey = await send('alice', 'DELETE', `${T}/calls/${callRef}`, undefined)

    expect([first.statusCode, retry.statusCode, withoutKey.statusCode]).toEqual([204, 204, 404])
    expect(retry.headers['idempotent-replayed']).toBe('true')
  })
})
