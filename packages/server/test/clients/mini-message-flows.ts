/**
 * Client flows of mini messages (client census 2, 5a; docs/telephony-api.md, "Mini messages"): each SDK sends
 * `{recipient, message}` to `<telephony>/miniMessages` (with `?loginName=` when the application gives one, an
 * administrator's case) and reads a GET as its code does: N `JSON.parse`s the text and keeps `dateTime` as a Date,
 * J gives the text to Gson and `Instant.parse`s `date`, C# deserializes `dateTime` as a DateTime (an empty body:
 * null), JS `JSON.parse`s the text. A message left is read the most recent first; none left reads as null.
 */
import { expect } from 'vitest'
import { covered, type Flow } from './flow-support.js'
import { type Answer, type ClientProfile, SdkClient } from './sdk-client.js'
import { object } from './sdk-readers.js'

/** What an SDK makes of a mini message: its sender, its time (ms since the epoch) and its text. */
interface MiniMessageRead {
  sender: unknown
  time: number
  message: unknown
}

/** java.time.Instant.parse (ISO_INSTANT): a UTC instant in extended ISO 8601, seconds required. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/
/** What System.Text.Json takes for a DateTime: extended ISO 8601 (here always with a UTC designator). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})?$/

/** The JSON an SDK parses from a 2xx body: N and JS `JSON.parse` the text (an empty one throws); J and C# take it as null. */
function parsed(answer: Answer, profile: ClientProfile): unknown {
  if (answer.text === '') {
    expect(['J', 'C#'], `the ${profile.tag} SDK cannot parse an empty body`).toContain(profile.tag)
    return null
  }
  return JSON.parse(answer.text) as unknown
}

/** getMiniMessage / GetMiniMessageAsync: the message the SDK returns, or null; fails where the SDK would throw. */
export function readMiniMessage(answer: Answer, profile: ClientProfile): MiniMessageRead | null {
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(200)
  expect(answer.status, answer.text).toBeLessThan(300)
  const json = parsed(answer, profile)
  if (json === null) return null
  const message = object(json, 'MiniMessage')
  const field = profile.tag === 'J' ? 'date' : 'dateTime'
  const time = String(message[field])
  expect(time, `MiniMessage.${field}`).toMatch(profile.tag === 'J' ? INSTANT : ISO_DATE_TIME)
  for (const key of ['sender', 'message'])
    expect(message[key], `MiniMessage.${key}`).toBeTypeOf('string')
  return { sender: message['sender'], time: Date.parse(time), message: message['message'] }
}

/** The query each SDK adds when the application gives a login name. */
const forUser = (loginName?: string) => (loginName === undefined ? {} : { query: { loginName } })

/** sendMiniMessage: `{recipient, message}` (C#: camel-cased properties, nulls left out: the same JSON). */
function sendMiniMessage(
  client: SdkClient,
  recipient: string,
  message: string,
  loginName?: string,
) {
  return client.request('POST', 'telephony', '/miniMessages', {
    body: { recipient, message },
    ...forUser(loginName),
  })
}

function getMiniMessage(client: SdkClient, loginName?: string) {
  return client.request('GET', 'telephony', '/miniMessages', forUser(loginName))
}

export const MINI_MESSAGE_FLOWS: readonly Flow[] = [
  {
    name: 'mini messages: sent by number, read the most recent first, none left read as null',
    async run(world, profile, coverage) {
      const alice = await SdkClient.login(world, profile, 'alice')
      const bob = await SdkClient.login(world, profile, 'bob')
      const first = world.service.clock.now()
      covered(coverage, 'POST /telephony/miniMessages', await sendMiniMessage(alice, '1002', 'Hi'))
      world.service.clock.advance(60_000)
      covered(
        coverage,
        'POST /telephony/miniMessages',
        await sendMiniMessage(alice, '1002', 'Call me back, s’il te plaît 👋'),
      )
      const newest = readMiniMessage(
        covered(coverage, 'GET /telephony/miniMessages', await getMiniMessage(bob)),
        profile,
      )
      expect(newest).toStrictEqual({
        sender: '1001',
        time: first + 60_000,
        message: 'Call me back, s’il te plaît 👋',
      })
      expect(readMiniMessage(await getMiniMessage(bob), profile)).toStrictEqual({
        sender: '1001',
        time: first,
        message: 'Hi',
      })
      expect(readMiniMessage(await getMiniMessage(bob), profile)).toBeNull()
    },
  },
  {
    name: 'mini messages of an administrator session, for the users loginName names',
    async run(world, profile, coverage) {
      const admin = await SdkClient.login(world, profile, 'admin')
      covered(
        coverage,
        'POST /telephony/miniMessages',
        await sendMiniMessage(admin, '1003', 'From alice', 'alice'),
      )
      const read = readMiniMessage(
        covered(coverage, 'GET /telephony/miniMessages', await getMiniMessage(admin, 'carol')),
        profile,
      )
      expect(read).toMatchObject({ sender: '1001', message: 'From alice' })
      expect(readMiniMessage(await getMiniMessage(admin, 'carol'), profile)).toBeNull()
      // Without loginName an administrator's request is refused: each SDK counts it a failure (null, false).
      const refused = await sendMiniMessage(admin, '1003', 'From whom?')
      expect(refused.status).toBe(400)
      expect(object(refused.body, 'RestErrorInfo')['type']).toBe('BAD_PARAMETER')
    },
  },
]
