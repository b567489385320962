/**
 * Issue 13, item 2: voice mail over HTTP with the requests the SDKs send (wire facts 8.5): the mailbox, its
 * counters behind the password, the messages listed, downloaded (read) and acknowledged with a Range,
 * deleted one by one or by list, every refusal, and the events of each change.
 */
import { Mailboxes, MailboxInfo, SessionInfo, VoiceMessages } from '@openness/wire'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { readWav } from '../../src/platform/voicemail/wav-audio.js'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { type Login, startTelephonyTest, T, type TelephonyTest } from './telephony/support.js'

const M = '/api/rest/1.0/messaging/mailboxes'

let test: TelephonyTest
let published: PlatformEvent[] = []
const named = (name: string) => published.filter((event) => event.eventName === name)

/** `caller` calls bob, who sends the call to his voice mail; the caller hangs up after `seconds`. */
async function leaveMessage(caller: Login, device: string, seconds: number): Promise<void> {
  const callRef = await test.makeCall(caller, device, '1002')
  const redirected = await test.send('bob', 'POST', `${T}/calls/${callRef}/redirect`, {
    redirectTo: 'VOICEMAIL',
  })
  expect(redirected.statusCode, redirected.body).toBe(204)
  test.service.clock.advance(seconds * 1000)
  expect((await test.send(caller, 'DELETE', `${T}/calls/${callRef}`)).statusCode).toBe(204)
  await test.service.running.voicemailDeposits.idle()
  await test.service.running.platform.eventSummary.idle()
}

async function list(login: Login, query = '', mailbox = 'bob'): Promise<VoiceMessages> {
  const response = await test.send(login, 'GET', `${M}/${mailbox}/voicemails${query}`)
  return expectSchema<VoiceMessages>(VoiceMessages, response)
}

beforeAll(async () => {
  test = await startTelephonyTest()
  const router = test.service.running.events
  const publish = router.publish.bind(router)
  router.publish = (event) => {
    published.push(event)
    publish(event)
  }
  await leaveMessage('alice', '1001', 7)
  await leaveMessage('karim', '1011', 3)
})
afterAll(async () => {
  await test?.close()
})
beforeEach(() => {
  published = []
})

describe('the service in SessionInfo', () => {
  it('is listed as Voicemail at /messaging/mailboxes for a user with MESSAGING, not for dave', async () => {
    const services = async (login: Login) =>
      expectSchema<SessionInfo>(
        SessionInfo,
        await test.send(login, 'GET', '/api/rest/1.0/sessions'),
      ).services ?? []
    expect(await services('bob')).toContainEqual({
      serviceName: 'Voicemail',
      serviceVersion: '1.0',
      relativeUrl: '/messaging/mailboxes',
    })
    expect((await services('dave')).map((service) => service.serviceName)).not.toContain(
      'Voicemail',
    )
  })
})

describe('GET /messaging/mailboxes', () => {
  it("answers the user's own mailbox, its id the login name", async () => {
    const answer = expectSchema<Mailboxes>(Mailboxes, await test.send('bob', 'GET', M))
    expect(answer.mailboxes).toHaveLength(1)
    expect(answer.mailboxes[0]).toMatchObject({
      id: 'bob',
      capabilities: { listMessages: true, getMessages: true, getRecord: true, play: false },
    })
  })

  it('serves an administrator with loginName, and asks for it otherwise', async () => {
    const answer = expectSchema<Mailboxes>(
      Mailboxes,
      await test.send('admin', 'GET', `${M}?loginName=bob`),
    )
    expect(answer.mailboxes.map((mailbox) => mailbox.id)).toStrictEqual(['bob'])
    expectRestError(await test.send('admin', 'GET', M), 400, 'BAD_PARAMETER', /loginName/)
  })

  it('refuses a user without the MESSAGING license', async () => {
    expectRestError(await test.send('dave', 'GET', M), 403, 'NOT_ALLOWED', /MESSAGING/)
  })
})

describe('POST /messaging/mailboxes/{mailboxId}', () => {
  const counters = { totalVoiceMsg: 2, newVoiceMsg: 2, storageUsage: 1 }

  it('answers the counters with the password, or withUserPwd and no body', async () => {
    const withPassword = await test.send('bob', 'POST', `${M}/bob`, { password: 'demo-bob' })
    expect(expectSchema<MailboxInfo>(MailboxInfo, withPassword)).toStrictEqual(counters)
    const withUser = await test.send('bob', 'POST', `${M}/bob?withUserPwd`)
    expect(expectSchema<MailboxInfo>(MailboxInfo, withUser)).toStrictEqual(counters)
  })

  it('refuses a wrong password, a missing one, and a mailbox that is not the user’s', async () => {
    expectRestError(
      await test.send('bob', 'POST', `${M}/bob`, { password: 'wrong' }),
      403,
      'NOT_ALLOWED',
      /password/,
    )
    expectRestError(
      await test.send('bob', 'POST', `${M}/bob`, {}),
      400,
      'BAD_PARAMETER',
      /password/,
    )
    expectRestError(
      await test.send('alice', 'POST', `${M}/bob?withUserPwd`),
      404,
      'NOT_FOUND',
      /bob/,
    )
    expectRestError(await test.send('bob', 'POST', `${M}/nobody?withUserPwd`), 404, 'NOT_FOUND')
  })
})

describe('GET /messaging/mailboxes/{mailboxId}/voicemails', () => {
  it('lists the messages newest first: caller, duration on the platform clock, date, flags', async () => {
    const { voicemails } = await list('bob')
    expect(
      voicemails.map((message) => [message.from.id.loginName, message.duration]),
    ).toStrictEqual([
      ['karim', 3],
      ['alice', 7],
    ])
    expect(voicemails[1]).toMatchObject({
      from: { id: { loginName: 'alice', phoneNumber: '1001' }, type: { main: 'USER' } },
      unread: true,
      highPriority: false,
    })
    expect(new Date(voicemails[1]?.date ?? '').toISOString()).toBe(voicemails[1]?.date)
  })

  it('pages with offset and limit, and the Java SDK’s newOnly=false lists all', async () => {
    expect(
      (await list('bob', '?offset=1&limit=1')).voicemails.map((m) => m.duration),
    ).toStrictEqual([7])
    expect((await list('bob', '?newOnly=false')).voicemails).toHaveLength(2)
    expectRestError(
      await test.send('bob', 'GET', `${M}/bob/voicemails?limit=-1`),
      400,
      'BAD_PARAMETER',
      /limit/,
    )
  })

  it('serves an administrator acting for bob with loginName', async () => {
    const response = await test.send('admin', 'GET', `${M}/bob/voicemails?loginName=bob`)
    expect(expectSchema<VoiceMessages>(VoiceMessages, response).voicemails).toHaveLength(2)
    expectRestError(
      await test.send('admin', 'GET', `${M}/bob/voicemails?loginName=alice`),
      404,
      'NOT_FOUND',
    )
  })

  it('refuses another user’s mailbox as not found', async () => {
    expectRestError(await test.send('alice', 'GET', `${M}/bob/voicemails`), 404, 'NOT_FOUND')
  })
})

describe('GET /messaging/mailboxes/{mailboxId}/voicemails/{voicemailId}', () => {
  it('answers a WAV file as long as the message, and marks it read (event, summary)', async () => {
    const [, alices] = (await list('bob')).voicemails
    const id = alices?.voicemailId ?? ''
    const response = await test.send('bob', 'GET', `${M}/bob/voicemails/${id}`)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('audio/wav')
    expect(response.headers['content-disposition']).toBe(`attachment; filename=${id}.wav`)
    const wav = readWav(response.rawPayload)
    expect(wav).toMatchObject({ sampleRate: 8000, channels: 1, bitsPerSample: 16 })
    expect(wav.seconds).toBe(7)
    expect(named('OnMessageUpdated')).toMatchObject([
      { loginName: 'bob', mailboxId: 'bob', voiceMessage: { voicemailId: id, unread: false } },
    ])
    expect(named('OnEventSummaryUpdated')).toMatchObject([
      { loginName: 'bob', eventSummary: { voiceMessagesNb: 1 } },
    ])
    // Read again: the same bytes, and no event (nothing changed).
    published = []
    const again = await test.send('bob', 'GET', `${M}/bob/voicemails/${id}`)
    expect(again.rawPayload.equals(response.rawPayload)).toBe(true)
    expect(published).toStrictEqual([])
  })

  it('acknowledges with Range: bytes=0-1 (206, two bytes), a bad Range changing nothing', async () => {
    const [karims] = (await list('bob', '?newOnly=true')).voicemails
    const id = karims?.voicemailId ?? ''
    const url = `${M}/bob/voicemails/${id}`
    const bad = await test.service.app.inject({
      url,
      headers: { cookie: test.cookies.bob, range: 'bytes=99999999-' },
    })
    expectRestError(bad, 400, 'BAD_PARAMETER', /Range/)
    expect((await list('bob', '?newOnly=true')).voicemails).toHaveLength(1)
    const ack = await test.service.app.inject({
      url,
      headers: { cookie: test.cookies.bob, range: 'bytes=0-1' },
    })
    expect(ack.statusCode).toBe(206)
    expect(ack.headers['content-range']).toMatch(/^bytes 0-1\/\d+$/)
    expect(ack.rawPayload.toString('latin1')).toBe('RI')
    expect((await list('bob', '?newOnly=true')).voicemails).toStrictEqual([])
    expect(named('OnEventSummaryUpdated')).toMatchObject([
      { loginName: 'bob', eventSummary: { voiceMessagesNb: 0 } },
    ])
  })

  it('refuses an unknown message and another user’s', async () => {
    expectRestError(
      await test.send('bob', 'GET', `${M}/bob/voicemails/nope`),
      404,
      'NOT_FOUND',
      /nope/,
    )
    const [message] = (await list('bob')).voicemails
    expectRestError(
      await test.send('alice', 'GET', `${M}/bob/voicemails/${message?.voicemailId}`),
      404,
      'NOT_FOUND',
    )
  })
})

describe('DELETE', () => {
  it('refuses an empty msgIds and an unknown id, deleting nothing', async () => {
    const [first] = (await list('bob')).voicemails
    expectRestError(
      await test.send('bob', 'DELETE', `${M}/bob/voicemails?msgIds=`),
      400,
      'BAD_PARAMETER',
      /msgIds/,
    )
    expectRestError(
      await test.send('bob', 'DELETE', `${M}/bob/voicemails?msgIds=${first?.voicemailId};nope`),
      404,
      'NOT_FOUND',
      /nope/,
    )
    expect((await list('bob')).voicemails).toHaveLength(2)
    expect(published).toStrictEqual([])
  })

  it('deletes one message, then a list (OnMessageDeleted each time)', async () => {
    const [first, second] = (await list('bob')).voicemails
    const one = await test.send('bob', 'DELETE', `${M}/bob/voicemails/${first?.voicemailId}`)
    expect(one.statusCode).toBe(204)
    expect(named('OnMessageDeleted')).toStrictEqual([
      {
        eventName: 'OnMessageDeleted',
        loginName: 'bob',
        mailboxId: 'bob',
        voicemailIds: [first?.voicemailId],
      },
    ])
    expectRestError(
      await test.send('bob', 'DELETE', `${M}/bob/voicemails/${first?.voicemailId}`),
      404,
      'NOT_FOUND',
    )
    await leaveMessage('alice', '1001', 2)
    const ids = (await list('bob')).voicemails.map((message) => message.voicemailId)
    expect(ids).toContain(second?.voicemailId)
    const many = await test.send('bob', 'DELETE', `${M}/bob/voicemails?msgIds=${ids.join(';')}`)
    expect(many.statusCode).toBe(204)
    expect((await list('bob')).voicemails).toStrictEqual([])
    expect(named('OnEventSummaryUpdated').at(-1)).toMatchObject({
      eventSummary: { voiceMessagesNb: 0 },
    })
  })
})
