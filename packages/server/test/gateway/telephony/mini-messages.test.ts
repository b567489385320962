/**
 * Mini messages over HTTP (docs/telephony-api.md, "Mini messages"): send and read as users, administrators and
 * supervisors do, the most recent first and `null` when none is left, the event summary's count, every refusal
 * changing nothing, a retried request queued once, and the queues in the sandbox's reset and snapshots. The
 * license, session and loginName refusals run with every telephony row in authorization.test.ts.
 */
import { EventSummary, MiniMessage } from '@openness/wire'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../../src/platform/events.js'
import { MAX_UNREAD_MINI_MESSAGES } from '../../../src/platform/mini-messages/mini-message-service.js'
import { SqlPlatformImages } from '../../../src/storage/sql/sql-platform-images.js'
import { expectRestError, expectSchema } from '../../support/assertions.js'
import { openSession, startTestService, type TestService } from '../../support/test-service.js'
import { type Login, startTelephonyTest, T, type TelephonyTest } from './support.js'

const MM = `${T}/miniMessages`

let test: TelephonyTest
let published: PlatformEvent[] = []

beforeAll(async () => {
  test = await startTelephonyTest()
  const router = test.service.running.events
  const publish = router.publish.bind(router)
  router.publish = (event) => {
    published.push(event)
    publish(event)
  }
})
afterAll(() => test?.close())
beforeEach(async () => {
  // Every case starts from empty queues.
  for (const login of ['alice', 'bob', 'carol'])
    while ((await miniMessages().read(login)) !== undefined);
  await test.service.running.platform.eventSummary.idle()
  published = []
})

const miniMessages = () => test.service.running.platform.miniMessages
const texts = async (login: string) =>
  (await miniMessages().unread(login)).map((message) => message.message)

function send(login: Login, body: unknown, query = '') {
  return test.send(login, 'POST', `${MM}${query}`, body)
}

async function sent(login: Login, body: unknown, query = ''): Promise<void> {
  const response = await send(login, body, query)
  expect(response.statusCode, response.body).toBe(204)
  expect(response.body).toBe('')
}

/** What GET answers: the message, or null; checked against the schema and the headers a read needs. */
async function read(login: Login, query = ''): Promise<MiniMessage | null> {
  const response = await test.send(login, 'GET', `${MM}${query}`)
  expect(response.statusCode, response.body).toBe(200)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  expect(response.headers['cache-control']).toBe('no-store')
  if (response.body === 'null') return null
  return expectSchema<MiniMessage>(MiniMessage, response)
}

describe('send and read', () => {
  it('reads the most recent unread first, from its sender, each once; then null', async () => {
    const start = test.service.clock.now()
    await sent('alice', { recipient: '1002', message: 'Call me back' })
    test.service.clock.advance(90_000)
    await sent('carol', { recipient: 'bob', message: 'Lunch at 1?' })
    const newest = await read('bob')
    const at = new Date(start + 90_000).toISOString()
    expect(newest).toStrictEqual({ sender: '1003', dateTime: at, date: at, message: 'Lunch at 1?' })
    expect(await read('bob')).toMatchObject({ sender: '1001', message: 'Call me back' })
    expect(await read('bob')).toBeNull()
    const none = await test.send('bob', 'GET', MM)
    expect(none.body).toBe('null')
  })

  it("names the recipient by company phone, a device of its, or login name; carol's mobile reaches carol", async () => {
    for (const recipient of ['1003', '1103', 'carol'])
      await sent('alice', { recipient, message: recipient })
    expect(await texts('carol')).toEqual(['carol', '1103', '1003'])
  })

  it('lets a user send a mini message to itself', async () => {
    await sent('alice', { recipient: '1001', message: 'note to self' })
    expect(await read('alice')).toMatchObject({ sender: '1001', message: 'note to self' })
  })

  it('takes text of 128 characters, non-Latin and emoji included', async () => {
    const message = `${'é東'.repeat(63)}👋!`
    await sent('alice', { recipient: 'bob', message })
    expect((await read('bob'))?.message).toBe(message)
  })

  it("acts for the user loginName names in an administrator's session, and as the supervised user", async () => {
    await sent('admin', { recipient: '1002', message: 'from alice' }, '?loginName=alice')
    const supervisor = await openSession(test.service.app, 'admin', {
      applicationName: 'test',
      supervisedAccount: { id: 'carol', type: 'LOGIN_NAME' },
    })
    const bySupervisor = await test.service.app.inject({
      method: 'POST',
      url: MM,
      headers: { cookie: supervisor },
      payload: { recipient: '1002', message: 'from carol' },
    })
    expect(bySupervisor.statusCode, bySupervisor.body).toBe(204)
    expect(await read('admin', '?loginName=bob')).toMatchObject({
      sender: '1003',
      message: 'from carol',
    })
    expect(await read('bob')).toMatchObject({ sender: '1001', message: 'from alice' })
  })

  it('answers a HEAD without taking a message away', async () => {
    await sent('alice', { recipient: 'bob', message: 'keep me' })
    const response = await test.service.app.inject({
      method: 'HEAD',
      url: MM,
      headers: { cookie: test.cookies.bob },
    })
    expect(response.statusCode).toBe(405)
    expect(await texts('bob')).toEqual(['keep me'])
  })

  it('queues a request sent again with its Idempotency-Key once', async () => {
    const headers = { cookie: test.cookies.alice, 'idempotency-key': 'mini-1' }
    const request = { method: 'POST' as const, url: MM, headers }
    const payload = { recipient: 'bob', message: 'once' }
    expect((await test.service.app.inject({ ...request, payload })).statusCode).toBe(204)
    const again = await test.service.app.inject({ ...request, payload })
    expect(again.statusCode).toBe(204)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(await texts('bob')).toEqual(['once'])
  })
})

describe('the event summary', () => {
  it("counts the recipient's unread messages as newTextNb, and no mini-message event is sent", async () => {
    await sent('alice', { recipient: 'bob', message: 'one' })
    await sent('alice', { recipient: 'bob', message: 'two' })
    const shown = await test.send('bob', 'GET', '/api/rest/1.0/eventSummary')
    expect(expectSchema<EventSummary>(EventSummary, shown)).toMatchObject({
      newTextNb: 2,
      oldTextNb: 0,
      eventWaiting: true,
    })
    await read('bob')
    await read('bob')
    await test.service.running.platform.eventSummary.idle()
    const counts = published.map((event) => [
      event.eventName,
      event.loginName,
      (event['eventSummary'] as EventSummary).newTextNb,
    ])
    expect(counts).toEqual([
      ['OnEventSummaryUpdated', 'bob', 1],
      ['OnEventSummaryUpdated', 'bob', 2],
      ['OnEventSummaryUpdated', 'bob', 1],
      ['OnEventSummaryUpdated', 'bob', 0],
    ])
  })
})

describe('refusals change nothing', () => {
  beforeEach(async () => {
    await sent('alice', { recipient: 'bob', message: 'already there' })
    published = []
  })

  it.each([
    ['no message', { recipient: 'bob' }, /message: is required/],
    ['no recipient', { message: 'hi' }, /recipient: is required/],
    ['an empty message', { recipient: 'bob', message: '' }, /message/],
    ['a message of spaces', { recipient: 'bob', message: '   ' }, /message: is empty/],
    ['129 characters', { recipient: 'bob', message: 'x'.repeat(129) }, /message/],
    ['a line break', { recipient: 'bob', message: 'a\nb' }, /message: holds a control/],
    ['an unknown field', { recipient: 'bob', message: 'hi', urgent: true }, /urgent/],
    ['a message that is no text', { recipient: 'bob', message: { text: 'hi' } }, /message/],
  ])('%s: 400 BAD_PARAMETER', async (_name, body, helpMessage) => {
    expectRestError(await send('alice', body), 400, 'BAD_PARAMETER', helpMessage)
    expect(await texts('bob')).toEqual(['already there'])
    expect(published).toEqual([])
  })

  it.each([
    ['an outside number', '0612345678'],
    ['the voice-mail number', '8000'],
    ["an administrator's login name", 'admin'],
    ['no one', 'nobody'],
  ])('%s as recipient: 404 NOT_FOUND', async (_name, recipient) => {
    expectRestError(
      await send('alice', { recipient, message: 'hi' }),
      404,
      'NOT_FOUND',
      new RegExp(`recipient: no user has the number or login name '${recipient}'`),
    )
    expect(await texts('bob')).toEqual(['already there'])
  })

  it('an administrator acting for an unknown user: 404 NOT_FOUND', async () => {
    expectRestError(
      await send('admin', { recipient: 'bob', message: 'hi' }, '?loginName=nobody'),
      404,
      'NOT_FOUND',
    )
    expectRestError(await test.send('admin', 'GET', `${MM}?loginName=nobody`), 404, 'NOT_FOUND')
    expect(await texts('bob')).toEqual(['already there'])
  })

  it(`a recipient with ${MAX_UNREAD_MINI_MESSAGES} unread: 403 NOT_EXPECTED, nothing dropped; accepted again once one is read`, async () => {
    for (let index = 1; index < MAX_UNREAD_MINI_MESSAGES; index += 1)
      await sent('alice', { recipient: 'bob', message: `m${index}` })
    expectRestError(
      await send('carol', { recipient: '1002', message: 'one too many' }),
      403,
      'NOT_EXPECTED',
      /'bob' already has 32 unread mini messages/,
    )
    const held = await texts('bob')
    expect(held).toHaveLength(MAX_UNREAD_MINI_MESSAGES)
    expect(held.at(-1)).toBe('already there')
    await read('bob')
    await sent('carol', { recipient: '1002', message: 'now it fits' })
    expect((await texts('bob'))[0]).toBe('now it fits')
  })
})

describe('the sandbox', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService()
  })
  afterAll(() => service?.close())

  const queue = async (login: string) =>
    (await service.running.platform.miniMessages.unread(login)).map((message) => message.message)
  const fromAlice = (text: string) => {
    const { directory, miniMessages } = service.running.platform
    const alice = directory.findUser('alice')
    if (alice === undefined) throw new Error('no alice')
    return miniMessages.send(alice, 'bob', text)
  }

  it('a reset empties every queue; a snapshot keeps them and its restore puts them back', async () => {
    const { states } = service.running
    await fromAlice('kept')
    await fromAlice('kept too')
    await states.snapshot('with-mini-messages')
    await service.running.platform.miniMessages.read('bob')
    await fromAlice('after the snapshot')
    await states.reset()
    expect(await queue('bob')).toEqual([])
    await states.restore('with-mini-messages')
    expect(await queue('bob')).toEqual(['kept too', 'kept'])
  })

  it('an image taken before mini messages existed restores with empty queues', async () => {
    const images = new SqlPlatformImages(service.running.database)
    const { mini_message: _dropped, ...older } = (await images.capture()).tables as Record<
      string,
      unknown
    >
    const image = { ...(await images.capture()), tables: older }
    await fromAlice('newer than the image')
    await images.restore(image)
    expect(await queue('bob')).toEqual([])
  })
})
