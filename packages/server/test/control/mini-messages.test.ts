/**
 * Mini messages through the control plane (docs/control-plane.md, "Mini messages"): a user's set gets one from
 * another user, as if typed there, which the user then reads through the API; the queue is read without taking
 * anything away; every refusal is the API's and changes nothing; the command line does the same.
 */
import type { AddressInfo } from 'node:net'
import { MiniMessage } from '@openness/wire'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { MAX_UNREAD_MINI_MESSAGES } from '../../src/platform/mini-messages/mini-message-service.js'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { openSession } from '../support/test-service.js'
import { AUTH, type ControlService, runCli, startControlService } from './control-fixture.js'

const U = '/control/v1/users'
let fixture: ControlService
let url: string

beforeAll(async () => {
  fixture = await startControlService()
  await fixture.control.listen({ host: '127.0.0.1', port: 0 })
  url = `http://127.0.0.1:${(fixture.control.server.address() as AddressInfo).port}`
})
afterAll(() => fixture?.close())
beforeEach(async () => {
  const { miniMessages } = fixture.service.running.platform
  while ((await miniMessages.read('bob')) !== undefined);
})

function post(loginName: string, body: unknown) {
  return fixture.control.inject({
    method: 'POST',
    url: `${U}/${loginName}/miniMessages`,
    headers: AUTH,
    payload: body as Record<string, unknown>,
  })
}

async function queue(loginName: string): Promise<MiniMessage[]> {
  const response = await fixture.control.inject({
    method: 'GET',
    url: `${U}/${loginName}/miniMessages`,
    headers: AUTH,
  })
  expect(response.statusCode, response.body).toBe(200)
  const { miniMessages } = response.json() as { miniMessages: MiniMessage[] }
  for (const message of miniMessages) expect(Value.Check(MiniMessage, message)).toBe(true)
  return miniMessages
}

describe('the control plane', () => {
  it("sends from another user's set (by number or login name); the user reads it through the API", async () => {
    const first = await post('bob', { from: '1003', message: 'Meeting moved to 3 pm' })
    expect(first.statusCode, first.body).toBe(201)
    expect(first.json()).toStrictEqual({ unread: 1 })
    expect((await post('bob', { from: 'alice', message: 'Coffee?' })).json()).toStrictEqual({
      unread: 2,
    })
    expect((await queue('bob')).map(({ sender, message }) => [sender, message])).toEqual([
      ['1001', 'Coffee?'],
      ['1003', 'Meeting moved to 3 pm'],
    ])
    // Reading the queue here takes nothing away: the API reads both, the most recent first.
    const bob = await openSession(fixture.service.app, 'bob')
    const read = await fixture.service.app.inject({
      method: 'GET',
      url: '/api/rest/1.0/telephony/miniMessages',
      headers: { cookie: bob },
    })
    expect(expectSchema<MiniMessage>(MiniMessage, read)).toMatchObject({ message: 'Coffee?' })
    expect((await queue('bob')).map((message) => message.message)).toEqual([
      'Meeting moved to 3 pm',
    ])
  })

  it.each([
    ['an unknown user', 'nobody', { from: '1001', message: 'hi' }, 404, 'NOT_FOUND', /nobody/],
    ['an unknown sender', 'bob', { from: '0612345678', message: 'hi' }, 404, 'NOT_FOUND', /from:/],
    ['no sender', 'bob', { message: 'hi' }, 400, 'BAD_PARAMETER', /from: is required/],
    ['no message', 'bob', { from: '1001' }, 400, 'BAD_PARAMETER', /message: is required/],
    ['a blank message', 'bob', { from: '1001', message: ' ' }, 400, 'BAD_PARAMETER', /empty/],
    [
      'a message too long',
      'bob',
      { from: '1001', message: 'x'.repeat(129) },
      400,
      'BAD_PARAMETER',
      /at most 128 characters; 129 given/,
    ],
    ['a tab', 'bob', { from: '1001', message: 'a\tb' }, 400, 'BAD_PARAMETER', /control/],
    [
      'an unknown field',
      'bob',
      { from: '1001', message: 'hi', to: 'x' },
      400,
      'BAD_PARAMETER',
      /to:/,
    ],
    ['a body that is a list', 'bob', ['1001', 'hi'], 400, 'BAD_PARAMETER', /body/],
  ] as const)('refuses %s, changing nothing', async (_name, login, body, status, type, message) => {
    expectRestError(await post(login, body), status, type, message)
    expect(await queue('bob')).toEqual([])
  })

  it(`refuses a message to a queue of ${MAX_UNREAD_MINI_MESSAGES}: 403 NOT_EXPECTED`, async () => {
    for (let index = 0; index < MAX_UNREAD_MINI_MESSAGES; index += 1)
      expect((await post('bob', { from: '1001', message: `m${index}` })).statusCode).toBe(201)
    expectRestError(await post('bob', { from: '1001', message: 'more' }), 403, 'NOT_EXPECTED')
    expect(await queue('bob')).toHaveLength(MAX_UNREAD_MINI_MESSAGES)
  })

  it('reads the queue of an unknown user as 404 NOT_FOUND', async () => {
    const response = await fixture.control.inject({
      method: 'GET',
      url: `${U}/nobody/miniMessages`,
      headers: AUTH,
    })
    expectRestError(response, 404, 'NOT_FOUND')
  })
})

describe('openness-control mini-messages', () => {
  it('lists the commands in its help', async () => {
    const { out } = await runCli(url, ['--help'])
    expect(out).toContain('mini-messages list <login>')
    expect(out).toContain('mini-messages send <login> <from> <text>')
  })

  it('sends one, and lists the queue as YAML', async () => {
    const sent = await runCli(url, ['mini-messages', 'send', 'bob', 'carol', 'Back in 5 minutes'])
    expect(sent).toMatchObject({ code: 0, err: '' })
    expect(parse(sent.out)).toEqual({ unread: 1 })
    const listed = await runCli(url, ['mini-messages', 'list', 'bob'])
    expect(listed.code).toBe(0)
    const { miniMessages } = parse(listed.out) as { miniMessages: MiniMessage[] }
    expect(miniMessages).toMatchObject([{ sender: '1003', message: 'Back in 5 minutes' }])
  })

  it('exits 1 with the helpMessage when the control plane refuses', async () => {
    const refused = await runCli(url, ['mini-messages', 'send', 'bob', 'nobody', 'hi'])
    expect(refused.code).toBe(1)
    expect(refused.err).toContain("from: no user has the number or login name 'nobody'")
  })
})
