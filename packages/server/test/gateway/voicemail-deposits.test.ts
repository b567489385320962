/**
 * Issue 13, item 4: the calls that leave a voice message (docs/voicemail.md, "Deposit"): redirected or
 * overflowed to a user's voice mail, ended by the caller or at the maximum length; a user dialing the
 * voice-mail number consults it and leaves nothing; the communication log still says VOICEMAIL. An outside
 * caller leaves one too (the engine keeps its call with the voice mail: docs/call-model.md).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTelephonyTest, T, type TelephonyTest } from './telephony/support.js'

const M = '/api/rest/1.0/messaging/mailboxes'
let test: TelephonyTest

async function messages(login: 'alice' | 'bob') {
  await test.service.running.voicemailDeposits.idle()
  const response = await test.send(login, 'GET', `${M}/${login}/voicemails`)
  expect(response.statusCode, response.body).toBe(200)
  return response.json().voicemails as {
    duration: number
    from: { id: { loginName?: string; phoneNumber?: string } }
  }[]
}

beforeEach(async () => {
  test = await startTelephonyTest({ maxVoiceMessageSeconds: 10 })
})
afterEach(async () => {
  await test?.close()
})

describe('a message is left', () => {
  it('when the caller overflows to the callee’s voice mail and hangs up; the log says VOICEMAIL', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    const overflow = await test.send('alice', 'POST', `${T}/calls/${callRef}/overflowToVoiceMail`)
    expect(overflow.statusCode, overflow.body).toBe(204)
    test.service.clock.advance(6_400)
    expect((await test.send('alice', 'DELETE', `${T}/calls/${callRef}`)).statusCode).toBe(204)
    expect(await messages('bob')).toMatchObject([
      { duration: 6, from: { id: { loginName: 'alice' } } },
    ])
    const log = await test.send('alice', 'GET', '/api/rest/1.0/comlog/records')
    expect(log.json().records[0].participants[0]).toMatchObject({
      role: 'CALLER',
      reason: 'VOICEMAIL',
    })
  })

  it('at the maximum length, when the voice mail hangs up the call', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    await test.send('bob', 'POST', `${T}/calls/${callRef}/redirect`, { redirectTo: 'VOICEMAIL' })
    test.service.clock.advance(9_000)
    expect(await messages('bob')).toStrictEqual([])
    test.service.clock.advance(1_000)
    await test.service.running.telephony.idle()
    expect(await messages('bob')).toMatchObject([{ duration: 10 }])
    const calls = await test.send('alice', 'GET', `${T}/calls`)
    expect(calls.json()).toStrictEqual({ calls: [] })
  })
})

describe('a message is left by an outside caller', () => {
  const CALLER = '0698765432'

  it('whom bob’s overflow on no answer sends to his voice mail, who hangs up; bob’s log says VOICEMAIL', async () => {
    const overflow = await test.send('bob', 'POST', '/api/rest/1.0/routing/overflowroute', {
      overflowRoutes: { overflowType: 'NO_ANSWER', destinations: [{ type: 'VOICEMAIL' }] },
    })
    expect(overflow.statusCode, overflow.body).toBe(204)
    const { telephony } = test.service.running
    await telephony.execute({ type: 'incomingCall', from: CALLER, to: '1002' })
    await test.service.clock.advance(30_000)
    await telephony.idle()
    expect((await test.send('bob', 'GET', `${T}/calls`)).json()).toStrictEqual({ calls: [] })
    await test.service.clock.advance(8_000)
    await telephony.execute({ type: 'outsidePartyHangsUp', number: CALLER })
    expect(telephony.state.calls.size).toBe(0)
    expect(await messages('bob')).toMatchObject([
      { duration: 8, from: { id: { phoneNumber: CALLER } } },
    ])
    const log = await test.send('bob', 'GET', '/api/rest/1.0/comlog/records')
    expect(log.json().records).toHaveLength(1)
    expect(log.json().records[0].participants[0]).toMatchObject({
      role: 'CALLEE',
      answered: false,
      reason: 'VOICEMAIL',
    })
  })

  it('whom bob’s immediate forward sends to his voice mail at once (no event reaches any user)', async () => {
    const forward = await test.send('bob', 'POST', '/api/rest/1.0/routing/forwardroute', {
      forwardRoute: { destinations: [{ type: 'VOICEMAIL' }] },
    })
    expect(forward.statusCode, forward.body).toBe(204)
    const { telephony } = test.service.running
    const { events } = await telephony.execute({ type: 'incomingCall', from: CALLER, to: '1002' })
    expect(events.filter((event) => 'callRef' in event)).toStrictEqual([])
    expect(telephony.state.calls.size).toBe(1)
    await test.service.clock.advance(5_000)
    await telephony.execute({ type: 'outsidePartyHangsUp', number: CALLER })
    expect(await messages('bob')).toMatchObject([
      { duration: 5, from: { id: { phoneNumber: CALLER } } },
    ])
  })

  it('whom bob redirects to his voice mail, at the maximum length: the voice mail ends the call', async () => {
    const { telephony } = test.service.running
    const { callRef } = await telephony.execute({ type: 'incomingCall', from: CALLER, to: '1002' })
    const redirected = await test.send('bob', 'POST', `${T}/calls/${callRef}/redirect`, {
      redirectTo: 'VOICEMAIL',
    })
    expect(redirected.statusCode, redirected.body).toBe(204)
    await test.service.clock.advance(9_000)
    expect(await messages('bob')).toStrictEqual([])
    expect(telephony.state.calls.size).toBe(1)
    await test.service.clock.advance(1_000)
    await telephony.idle()
    expect(await messages('bob')).toMatchObject([
      { duration: 10, from: { id: { phoneNumber: CALLER } } },
    ])
    expect(telephony.state.calls.size).toBe(0)
  })
})

describe('no message is left', () => {
  it('when a user dials the voice-mail number (consulting their own mailbox)', async () => {
    const callRef = await test.makeCall('alice', '1001', '8000')
    test.service.clock.advance(5_000)
    expect((await test.send('alice', 'DELETE', `${T}/calls/${callRef}`)).statusCode).toBe(204)
    expect(await messages('alice')).toStrictEqual([])
    expect(await messages('bob')).toStrictEqual([])
  })

  it('when the callee answers', async () => {
    const callRef = await test.makeCall('alice', '1001', '1002')
    await test.answer('bob', callRef, '1002')
    test.service.clock.advance(5_000)
    expect((await test.send('alice', 'DELETE', `${T}/calls/${callRef}`)).statusCode).toBe(204)
    expect(await messages('bob')).toStrictEqual([])
  })
})

describe('a message that cannot be stored', () => {
  it('is reported as lost, not dropped silently', async () => {
    const reported: string[] = []
    const failing = await startTelephonyTest({
      onBackgroundError: (error, what) => reported.push(`${what}: ${(error as Error).message}`),
    })
    try {
      failing.service.running.platform.voicemail.deposit = () =>
        Promise.reject(new Error('disk full'))
      const callRef = await failing.makeCall('alice', '1001', '1002')
      await failing.send('alice', 'POST', `${T}/calls/${callRef}/overflowToVoiceMail`)
      failing.service.clock.advance(6_000)
      expect((await failing.send('alice', 'DELETE', `${T}/calls/${callRef}`)).statusCode).toBe(204)
      await failing.service.running.voicemailDeposits.idle()
      expect(reported).toStrictEqual([
        `a voice message of 6 s for bob was lost (call ${callRef}): disk full`,
      ])
    } finally {
      await failing.close()
    }
  })
})
