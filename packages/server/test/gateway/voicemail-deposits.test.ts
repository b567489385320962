/**
 * Issue 13, item 4: the calls that leave a voice message (docs/voicemail.md, "Deposit"): redirected or
 * overflowed to a user's voice mail, ended by the caller or at the maximum length; a user dialing the
 * voice-mail number consults it and leaves nothing; the communication log still says VOICEMAIL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTelephonyTest, T, type TelephonyTest } from './telephony/support.js'

const M = '/api/rest/1.0/messaging/mailboxes'
let test: TelephonyTest

async function messages(login: 'alice' | 'bob') {
  await test.service.running.voicemailDeposits.idle()
  const response = await test.send(login, 'GET', `${M}/${login}/voicemails`)
  expect(response.statusCode, response.body).toBe(200)
  return response.json().voicemails as { duration: number; from: { id: { loginName?: string } } }[]
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
