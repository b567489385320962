/**
 * The mailbox password is the owner's login password (docs/voicemail.md): wrong guesses through
 * POST /messaging/mailboxes/{id} count toward the same lock as failed logins, so the mailbox is no way around it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ThrottlePolicy } from '../../src/platform/auth/login-throttle.js'
import { expectRestError } from '../support/assertions.js'
import { basic } from '../support/test-service.js'
import { startTelephonyTest, type TelephonyTest } from './telephony/support.js'

const M = '/api/rest/1.0/messaging/mailboxes'
/** No delays (the test clock does not run by itself); the login locked at the third failure. */
const POLICY: ThrottlePolicy = {
  freeFailures: 5,
  baseDelayMs: 1000,
  maxDelayMs: 8000,
  lockAfterFailures: 3,
  lockMs: 60_000,
  windowMs: 15 * 60_000,
  maxKeys: 1000,
}

let test: TelephonyTest
beforeEach(async () => {
  test = await startTelephonyTest({
    throttlePolicies: { login: POLICY, address: { ...POLICY, lockAfterFailures: 50 } },
  })
})
afterEach(async () => {
  await test?.close()
})

describe('the mailbox password', () => {
  it('locks the account after repeated wrong guesses, for the mailbox and for logins alike', async () => {
    for (let guess = 0; guess < 3; guess++)
      expectRestError(
        await test.send('bob', 'POST', `${M}/bob`, { password: `guess-${guess}` }),
        403,
        'NOT_ALLOWED',
        /not the password of mailbox 'bob'/,
      )
    const locked = await test.send('bob', 'POST', `${M}/bob`, { password: 'demo-bob' })
    expectRestError(locked, 403, 'NOT_ALLOWED', /locked for 60 s/)
    expect(locked.headers['retry-after']).toBe('60')
    const login = await test.service.app.inject({
      url: '/api/rest/authenticate?version=1.0',
      headers: { authorization: basic('bob') },
    })
    expect(login.statusCode).toBe(401)
    expect(login.json()).toMatchObject({ type: 'NOT_ALLOWED' })
    // withUserPwd (the session's own password) needs no guess and is not locked out.
    expect((await test.send('bob', 'POST', `${M}/bob?withUserPwd`)).statusCode).toBe(200)
  })

  it('does not charge a guess to an unknown mailbox: it is not found first', async () => {
    for (let guess = 0; guess < 4; guess++)
      expectRestError(
        await test.send('bob', 'POST', `${M}/nobody`, { password: 'x' }),
        404,
        'NOT_FOUND',
      )
    expect((await test.send('bob', 'POST', `${M}/bob`, { password: 'demo-bob' })).statusCode).toBe(
      200,
    )
  })
})
