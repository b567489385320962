/** The control plane's recordings for the next voice messages of a mailbox (docs/control-plane.md). */

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import wavefile from 'wavefile'
import { MAX_VOICE_MESSAGE_BYTES } from '../../src/platform/voicemail/wav-audio.js'
import { expectRestError } from '../support/assertions.js'
import { openSession } from '../support/test-service.js'
import { AUTH, type ControlService, startControlService } from './control-fixture.js'

const U = '/control/v1/users'
const M = '/api/rest/1.0/messaging/mailboxes'
let fixture: ControlService

/** A WAV file of `seconds` seconds of silence at 16 kHz (not what the platform makes). */
function silence(seconds: number): Buffer {
  const wave = new wavefile.WaveFile()
  wave.fromScratch(1, 16000, '16', new Int16Array(16000 * seconds))
  return Buffer.from(wave.toBuffer())
}

function upload(loginName: string, body: Buffer, query = '', type = 'audio/wav') {
  return fixture.control.inject({
    method: 'POST',
    url: `${U}/${loginName}/voicemail/recordings${query}`,
    headers: { ...AUTH, 'content-type': type },
    payload: body,
  })
}

/** `caller` calls bob, who sends the call to voice mail; the caller hangs up 4 s later. */
async function leaveMessage(caller: string, device: string): Promise<void> {
  const { app, clock, running } = fixture.service
  const cookie = await openSession(app, caller)
  const made = await app.inject({
    method: 'POST',
    url: '/api/rest/1.0/telephony/calls',
    headers: { cookie },
    payload: { deviceId: device, callee: '1002', autoAnswer: true },
  })
  expect(made.statusCode, made.body).toBe(201)
  const location = String(made.headers.location)
  const callRef = location.slice(location.lastIndexOf('/') + 1)
  const bob = await openSession(app, 'bob')
  const redirected = await app.inject({
    method: 'POST',
    url: `/api/rest/1.0/telephony/calls/${callRef}/redirect`,
    headers: { cookie: bob },
    payload: { redirectTo: 'VOICEMAIL' },
  })
  expect(redirected.statusCode, redirected.body).toBe(204)
  clock.advance(4000)
  expect(
    (await app.inject({ method: 'DELETE', url: location, headers: { cookie } })).statusCode,
  ).toBe(204)
  await running.voicemailDeposits.idle()
}

/** bob's messages, newest first, with their audio. */
async function bobsMessages(): Promise<{ from?: string; duration: number; audio: Buffer }[]> {
  const cookie = await openSession(fixture.service.app, 'bob')
  const list = await fixture.service.app.inject({ url: `${M}/bob/voicemails`, headers: { cookie } })
  const messages = list.json().voicemails as {
    voicemailId: string
    duration: number
    from: { id: { loginName?: string } }
  }[]
  return Promise.all(
    messages.map(async (message) => {
      const file = await fixture.service.app.inject({
        url: `${M}/bob/voicemails/${message.voicemailId}`,
        headers: { cookie },
      })
      return {
        ...(message.from.id.loginName !== undefined && { from: message.from.id.loginName }),
        duration: message.duration,
        audio: file.rawPayload,
      }
    }),
  )
}

beforeAll(async () => {
  fixture = await startControlService()
})
afterAll(() => fixture?.close())

describe('/control/v1/users/{loginName}/voicemail/recordings', () => {
  it('refuses what is not a WAV file, a file too large, an unknown user and one without a mailbox', async () => {
    expectRestError(
      await upload('bob', Buffer.from('not a wav file')),
      400,
      'BAD_PARAMETER',
      /body: not a WAV file/,
    )
    expectRestError(
      await upload('bob', Buffer.alloc(MAX_VOICE_MESSAGE_BYTES + 1)),
      400,
      'BAD_PARAMETER',
      /larger than/,
    )
    expectRestError(await upload('nobody', silence(1)), 404, 'NOT_FOUND', /nobody/)
    expectRestError(await upload('dave', silence(1)), 404, 'NOT_FOUND', /mailbox 'dave'/)
  })

  it('gives the next message its recording; one for a caller waits for that caller', async () => {
    const forKarim = silence(1)
    const forAnyone = silence(2)
    const first = await upload('bob', forKarim, '?from=karim')
    expect(first.statusCode, first.body).toBe(201)
    expect(first.json()).toStrictEqual({ pending: 1, seconds: 1 })
    expect((await upload('bob', forAnyone, '', 'audio/x-wav')).json()).toStrictEqual({
      pending: 2,
      seconds: 2,
    })
    await leaveMessage('alice', '1001')
    await leaveMessage('karim', '1011')
    await leaveMessage('alice', '1001')
    const [third, second, firstMessage] = await bobsMessages()
    expect(firstMessage?.from).toBe('alice')
    expect(firstMessage?.audio.equals(forAnyone)).toBe(true)
    expect(second?.from).toBe('karim')
    expect(second?.audio.equals(forKarim)).toBe(true)
    // None left: the platform's own tones, as long as the message (4 s).
    expect(third?.duration).toBe(4)
    const wave = new wavefile.WaveFile(third?.audio ?? Buffer.alloc(0))
    expect((wave.data as { chunkSize: number }).chunkSize).toBe(4 * 8000 * 2)
  })
})
