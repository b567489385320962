/**
 * An outside caller leaves bob a message (docs/voicemail.md, "Deposit"; docs/call-model.md, "Calls with no
 * user left after a diversion"), over real sockets with the control plane playing the outside world: bob
 * forwards unanswered calls to his voice mail, an outside number calls him, nobody answers, the voice mail
 * takes the call (which bob no longer sees), the caller hangs up 8 seconds later (virtual clock). Bob's
 * channel tells him of the message, from that number, 8 s long, with a WAV file of 8 s.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import wavefile from 'wavefile'
import { buildControlApp } from '../../src/control/control-app.js'
import { openSession } from '../support/test-service.js'
import { ApiWorld, type App } from './api-apps.js'

/** The engine's default ringing time (call-engine.ts, DEFAULT_ENGINE_SETTINGS). */
const RINGING_MS = 30_000
const CALLER = '0698765432'
const TOKEN = 'control-test-token-0123456789'
const M = '/messaging/mailboxes/bob/voicemails'

let world: ApiWorld
let control: Awaited<ReturnType<typeof buildControlApp>>

beforeEach(async () => {
  world = await ApiWorld.start()
  const { platform, telephony } = world.service.running
  control = await buildControlApp(
    { ...platform, telephony, adjustableClock: world.service.clock },
    { token: TOKEN },
  )
})
afterEach(async () => {
  await control.close()
  await world.close()
})

function operator(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  return control.inject({
    method,
    url: `/control/v1${url}`,
    headers: { authorization: `Bearer ${TOKEN}` },
    ...(payload !== undefined && { payload }),
  })
}

/** bob forwards on no answer to his voice mail; the outside number calls him and nobody answers. */
async function outsideCallerAtVoicemail(bob: App): Promise<string> {
  const forwarded = await bob.call('POST', '/routing/forwardroute', {
    forwardRoute: { forwardType: 'NO_ANSWER', destinations: [{ type: 'VOICEMAIL' }] },
  })
  expect(forwarded.status, JSON.stringify(forwarded.body)).toBe(204)
  const placed = await operator('POST', '/calls', { from: CALLER, to: '1002' })
  expect(placed.statusCode, placed.body).toBe(201)
  const { callRef } = placed.json() as { callRef: string }
  expect(await bob.next('OnCallCreated')).toMatchObject({ callRef })
  await world.service.clock.advance(RINGING_MS)
  expect(await bob.next('OnCallRemoved')).toMatchObject({ callRef, cause: 'FORWARDED' })
  // The call goes on with the voice mail, which bob no longer sees; the operator does.
  expect((await bob.call('GET', '/telephony/calls')).body).toStrictEqual({ calls: [] })
  expect((await operator('GET', '/calls')).json()).toMatchObject({
    calls: [
      {
        callRef,
        parties: [
          { number: CALLER, state: 'ACTIVE' },
          { number: '8000', state: 'ACTIVE', service: 'VOICEMAIL' },
        ],
      },
    ],
  })
  return callRef
}

describe('an outside caller sent to bob’s voice mail', () => {
  it('leaves a message of the time it stayed when it hangs up (control plane)', async () => {
    const bob = await world.app('bob', ['telephony', 'messaging'])
    await outsideCallerAtVoicemail(bob)
    await world.service.clock.advance(8_000)
    const hungUp = await operator('POST', `/outside/${CALLER}/hangup`)
    expect(hungUp.statusCode, hungUp.body).toBe(204)
    expect((await operator('GET', '/calls')).json()).toStrictEqual({ calls: [] })

    const added = await bob.next('OnMessageAdded')
    expect(added).toMatchObject({
      loginName: 'bob',
      mailboxId: 'bob',
      voiceMessage: {
        duration: 8,
        unread: true,
        from: { id: { phoneNumber: CALLER }, type: { main: 'EXTERNAL' } },
      },
    })
    const listed = (await bob.call('GET', M)).body as {
      voicemails: { voicemailId: string; duration: number; from: unknown }[]
    }
    expect(listed.voicemails).toHaveLength(1)
    expect(listed.voicemails[0]).toStrictEqual(added['voiceMessage'])

    const cookie = await openSession(world.service.app, 'bob')
    const file = await fetch(
      `${world.base}/api/rest/1.0${M}/${listed.voicemails[0]?.voicemailId}`,
      {
        headers: { cookie },
      },
    )
    expect(file.status).toBe(200)
    const wav = new wavefile.WaveFile(new Uint8Array(await file.arrayBuffer()))
    const fmt = wav.fmt as { sampleRate: number }
    expect(wav.getSamples().length / fmt.sampleRate).toBe(8)
  })

  it('leaves a message of the maximum length when the voice mail hangs up, and the call ends', async () => {
    const bob = await world.app('bob', ['telephony', 'messaging'])
    await outsideCallerAtVoicemail(bob)
    // DEFAULT_MAX_MESSAGE_SECONDS: the voice mail hangs up at 120 s.
    await world.service.clock.advance(120_000)
    expect(await bob.next('OnMessageAdded')).toMatchObject({
      voiceMessage: { duration: 120, from: { id: { phoneNumber: CALLER } } },
    })
    await world.service.running.telephony.idle()
    expect((await operator('GET', '/calls')).json()).toStrictEqual({ calls: [] })
    // The outside party is in no call any more.
    expect((await operator('POST', `/outside/${CALLER}/hangup`)).statusCode).toBe(404)
  })
})
