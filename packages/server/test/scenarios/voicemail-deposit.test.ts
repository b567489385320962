/**
 * Issue 13 acceptance, over real sockets: bob forwards unanswered calls to his voice mail; alice calls
 * him, nobody answers, the voice mail takes the call and alice hangs up after 12 seconds (virtual clock).
 * Bob's channel tells him of the new message and of his event summary; he lists it, downloads a WAV file
 * as long as the message, acknowledges it the Node SDK's way (Range: bytes=0-1) and deletes it.
 */
import { VoiceMessage } from '@openness/wire'
import { Value } from 'typebox/value'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import wavefile from 'wavefile'
import { openSession } from '../support/test-service.js'
import { ApiWorld } from './api-apps.js'

/** The engine's default ringing time (call-engine.ts, DEFAULT_ENGINE_SETTINGS). */
const RINGING_MS = 30_000
const M = '/messaging/mailboxes/bob/voicemails'

let world: ApiWorld
beforeEach(async () => {
  world = await ApiWorld.start()
})
afterEach(() => world.close())

describe('a message left in voice mail', () => {
  it('reaches bob’s channel and counter, downloads as a WAV of its length, is read and deleted', async () => {
    const alice = await world.app('alice', ['telephony'])
    const bob = await world.app('bob', ['messaging', 'eventSummary'])
    const forwarded = await bob.call('POST', '/routing/forwardroute', {
      forwardRoute: { forwardType: 'NO_ANSWER', destinations: [{ type: 'VOICEMAIL' }] },
    })
    expect(forwarded.status, JSON.stringify(forwarded.body)).toBe(204)

    const made = await alice.call('POST', '/telephony/calls', {
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    expect(made.status).toBe(201)
    const { calls } = (await alice.call('GET', '/telephony/calls')).body as {
      calls: { callRef: string }[]
    }
    const callRef = calls[0]?.callRef ?? ''
    await world.service.clock.advance(RINGING_MS)
    expect(await alice.next('OnCallModified')).toMatchObject({ callRef })
    await world.service.clock.advance(12_000)
    expect((await alice.call('DELETE', `/telephony/calls/${callRef}`)).status).toBe(204)

    const added = await bob.next('OnMessageAdded')
    expect(added).toMatchObject({
      loginName: 'bob',
      mailboxId: 'bob',
      voiceMessage: { duration: 12, unread: true, from: { id: { loginName: 'alice' } } },
    })
    expect(Value.Check(VoiceMessage, added['voiceMessage'])).toBe(true)
    expect(await bob.next('OnEventSummaryUpdated')).toMatchObject({
      eventSummary: { voiceMessagesNb: 1, eventWaiting: true },
    })

    const listed = await bob.call('GET', `${M}?newOnly=true`)
    const [message] = (listed.body as { voicemails: VoiceMessage[] }).voicemails
    expect(message).toStrictEqual(added['voiceMessage'])
    const url = `${world.base}/api/rest/1.0${M}/${message?.voicemailId}`
    const cookie = await openSession(world.service.app, 'bob')

    const ack = await fetch(url, { headers: { cookie, range: 'bytes=0-1' } })
    expect(ack.status).toBe(206)
    expect(Buffer.from(await ack.arrayBuffer()).toString('latin1')).toBe('RI')
    expect(await bob.next('OnMessageUpdated')).toMatchObject({
      voiceMessage: { voicemailId: message?.voicemailId, unread: false },
    })
    expect(await bob.next('OnEventSummaryUpdated')).toMatchObject({
      eventSummary: { voiceMessagesNb: 0 },
    })

    const file = await fetch(url, { headers: { cookie } })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('audio/wav')
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename=${message?.voicemailId}.wav`,
    )
    // Read by the WAV library itself: a PCM file whose samples last 12 seconds.
    const wav = new wavefile.WaveFile(new Uint8Array(await file.arrayBuffer()))
    const fmt = wav.fmt as { sampleRate: number; numChannels: number; audioFormat: number }
    expect(fmt).toMatchObject({ sampleRate: 8000, numChannels: 1, audioFormat: 1 })
    expect(wav.getSamples().length / fmt.sampleRate).toBe(12)

    expect((await bob.call('DELETE', `${M}/${message?.voicemailId}`)).status).toBe(204)
    expect(await bob.next('OnMessageDeleted')).toMatchObject({
      voicemailIds: [message?.voicemailId],
    })
    expect((await bob.call('GET', M)).body).toStrictEqual({ voicemails: [] })
  })
})
