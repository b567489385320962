/**
 * Client flows of voice mail (wire facts 8.5; census 6.1): the requests as each SDK sends them for the
 * mailboxes, their counters, the list, the download (and the Node SDK's acknowledge, a Range request) and
 * the deletes, and what each reads of the answers. The messages are left by calls bob sends to his voice
 * mail; the messaging events are parsed by no SDK, so only their names and ids are checked, and the C# SDK
 * gets none of them (its reader would give up on an event it does not know: client-dialect.ts).
 */
import { expect } from 'vitest'
import wavefile from 'wavefile'
import { covered, type Flow, hangUp, makeCallBody, onlyCall } from './flow-support.js'
import { type ClientProfile, nextEvent, SdkClient } from './sdk-client.js'
import { object, readPartyInfo } from './sdk-readers.js'

type Json = Record<string, unknown>
const MB = 'voicemail'

/** The subscription body of each SDK for the messaging and event summary packages of its own user. */
function messagingSubscription(profile: ClientProfile): unknown {
  const selectors = ['messaging', 'eventSummary'].map((name) => ({
    names: [name],
    ...(profile.tag === 'N' && { ids: [] }),
  }))
  return { filter: { selectors }, version: '1.0', timeout: profile.tag === 'N' ? 0 : 10 }
}

/** VoiceMessage as the SDKs read it. */
function readVoiceMessage(value: unknown): Json {
  const message = object(value, 'VoiceMessage')
  expect(message['voicemailId'], 'voicemailId').toBeTypeOf('string')
  readPartyInfo(message['from'], 'VoiceMessage.from')
  expect(Number.isInteger(message['duration']), 'duration').toBe(true)
  expect(Number.isNaN(Date.parse(String(message['date']))), 'date').toBe(false)
  expect(message['unread'], 'unread').toBeTypeOf('boolean')
  expect(message['highPriority'], 'highPriority').toBeTypeOf('boolean')
  return message
}

/** The list query each SDK sends: J always says newOnly, N only when true, with a page. */
function listQuery(profile: ClientProfile): Record<string, string> | undefined {
  switch (profile.tag) {
    case 'N':
      return { newOnly: 'true', limit: '10' }
    case 'J':
      return { newOnly: 'false' }
    default:
      return undefined
  }
}

/** alice calls bob, who sends the call to his voice mail; alice hangs up `seconds` later. */
async function leaveMessage(
  alice: SdkClient,
  bob: SdkClient,
  profile: ClientProfile,
  seconds: number,
): Promise<void> {
  await alice.request('POST', 'telephony', '/calls', {
    body: makeCallBody(profile, '1001', '1002'),
  })
  const callRef = await onlyCall(alice)
  const redirected = await bob.request('POST', 'telephony', `/calls/${callRef}/redirect`, {
    body: { redirectTo: 'VOICEMAIL', anonymous: false },
  })
  expect(redirected.status, redirected.text).toBe(204)
  await alice.world.service.clock.advance(seconds * 1000)
  await hangUp(alice, callRef)
}

export const VOICEMAIL_FLOWS: readonly Flow[] = [
  {
    name: 'voice mail: mailboxes, counters, list, download and acknowledge, delete',
    async run(world, profile, coverage) {
      const alice = await SdkClient.login(world, profile, 'alice')
      const bob = await SdkClient.login(world, profile, 'bob')
      const channel = await bob.subscribe(messagingSubscription(profile))
      const messagingEvents = profile.tag !== 'C#'
      await leaveMessage(alice, bob, profile, 5)
      if (messagingEvents) {
        const added = await nextEvent(channel, 'OnMessageAdded')
        expect(readVoiceMessage(added['voiceMessage'])['duration']).toBe(5)
      }
      const summary = await nextEvent(channel, 'OnEventSummaryUpdated', (event) =>
        Boolean((event['eventSummary'] as Json | undefined)?.['voiceMessagesNb']),
      )
      expect((summary['eventSummary'] as Json)['voiceMessagesNb']).toBe(1)
      await leaveMessage(alice, bob, profile, 3)

      const mailboxes = covered(coverage, 'GET /messaging/mailboxes', await bob.request('GET', MB))
      const [mailbox] = (object(mailboxes.body, 'mailboxes')['mailboxes'] as Json[]) ?? []
      const id = String(object(mailbox, 'MailBox')['id'])
      expect(id).toBe('bob')
      expect(object(mailbox?.['capabilities'], 'capabilities')['listMessages']).toBe(true)

      const withUserPwd = profile.tag === 'N' || profile.tag === 'JS'
      const info = covered(
        coverage,
        'POST /messaging/mailboxes/{}',
        await bob.request(
          'POST',
          MB,
          `/${id}`,
          withUserPwd ? { rawQuery: '?withUserPwd' } : { body: { password: 'demo-bob' } },
        ),
      )
      expect(info.body).toMatchObject({ totalVoiceMsg: 2, newVoiceMsg: 2 })
      expect(object(info.body, 'MailBoxInfo')['storageUsage']).toBeTypeOf('number')

      const query = listQuery(profile)
      const listed = covered(
        coverage,
        'GET /messaging/mailboxes/{}/voicemails',
        await bob.request('GET', MB, `/${id}/voicemails`, query ? { query } : {}),
      )
      const messages = (object(listed.body, 'voicemails')['voicemails'] as unknown[]).map(
        readVoiceMessage,
      )
      expect(messages.map((message) => message['duration'])).toStrictEqual([3, 5])
      const [newest, oldest] = messages.map((message) => String(message['voicemailId']))

      const file = covered(
        coverage,
        'GET /messaging/mailboxes/{}/voicemails/{}',
        await bob.request('GET', MB, `/${id}/voicemails/${oldest}`),
      )
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename=${oldest}.wav`)
      const wave = new wavefile.WaveFile(file.bytes)
      expect(wave.getSamples().length / (wave.fmt as { sampleRate: number }).sampleRate).toBe(5)
      if (profile.tag === 'N') {
        const ack = covered(
          coverage,
          'GET /messaging/mailboxes/{}/voicemails/{}',
          await bob.request('GET', MB, `/${id}/voicemails/${newest}`, {
            headers: { Range: 'bytes=0-1' },
          }),
        )
        expect(ack.status).toBe(206)
      }
      if (messagingEvents) {
        const updated = await nextEvent(channel, 'OnMessageUpdated')
        expect(object(updated['voiceMessage'], 'voiceMessage')['voicemailId']).toBe(oldest)
      }
      if (profile.tag === 'JS') return

      covered(
        coverage,
        'DELETE /messaging/mailboxes/{}/voicemails/{}',
        await bob.request('DELETE', MB, `/${id}/voicemails/${oldest}`),
      )
      if (messagingEvents)
        expect((await nextEvent(channel, 'OnMessageDeleted'))['voicemailIds']).toEqual([oldest])
      await leaveMessage(alice, bob, profile, 2)
      const remaining = (
        object((await bob.request('GET', MB, `/${id}/voicemails`)).body, 'voicemails')[
          'voicemails'
        ] as Json[]
      ).map((message) => String(message['voicemailId']))
      expect(remaining).toHaveLength(2)
      covered(
        coverage,
        'DELETE /messaging/mailboxes/{}/voicemails',
        await bob.request('DELETE', MB, `/${id}/voicemails`, {
          query: { msgIds: remaining.join(';') },
        }),
      )
      const emptied = await bob.request('GET', MB, `/${id}/voicemails`)
      expect(emptied.body).toStrictEqual({ voicemails: [] })
    },
  },
]
