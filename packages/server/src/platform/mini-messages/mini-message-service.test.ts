/** Mini messages from send to read: the recipient named, the text checked, the queue bounded, the summary told. */
import { describe, expect, it } from 'vitest'
import { MemoryMiniMessageStore } from '../../storage/memory/memory-mini-message-store.js'
import type { UserAccount } from '../directory/account.js'
import type { Clock } from '../events.js'
import { PlatformError } from '../platform-error.js'
import { MiniMessageService, phoneNumberOf } from './mini-message-service.js'

const T0 = Date.UTC(2026, 10, 28, 9, 30)

function user(loginName: string, record: Partial<UserAccount['record']> = {}): UserAccount {
  return {
    kind: 'USER',
    loginName,
    preferences: {},
    record: { loginName, type: 'STANDARD', apiRights: [], clirMode: 'NONE', ...record },
  } as UserAccount
}

const alice = user('alice', {
  companyPhone: '1001',
  devices: [{ id: '1001', type: 'DESKPHONE', role: 'MAIN' }],
})
const bob = user('bob', {
  companyPhone: '1002',
  devices: [
    { id: '1002', type: 'DESKPHONE', role: 'MAIN' },
    { id: '1102', type: 'SOFTPHONE' },
  ],
})
const USERS = [alice, bob]

/** A service over a memory store, its clock at `now`, and the summaries it asked for. */
function fixture(capacity?: number) {
  let now = T0
  const clock = { now: () => now } as Clock
  const changed: string[] = []
  let ids = 0
  const service = new MiniMessageService({
    store: new MemoryMiniMessageStore(),
    directory: {
      findUser: (loginName) => USERS.find((one) => one.loginName === loginName),
      findUserBy: (_key, number) =>
        USERS.find(
          (one) =>
            one.record.companyPhone === number ||
            (one.record.devices ?? []).some((device) => device.id === number),
        ),
    },
    clock,
    summary: { changed: async (loginName) => void changed.push(loginName) },
    newId: () => {
      ids += 1
      return `id${ids}`
    },
    ...(capacity !== undefined && { capacity }),
  })
  const later = (ms: number) => {
    now += ms
  }
  return { service, changed, later }
}

/** The PlatformError `action` rejects with. */
async function refusal(action: Promise<unknown>): Promise<PlatformError> {
  const error = await action.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(PlatformError)
  return error as PlatformError
}

describe('MiniMessageService', () => {
  it('reads the most recent unread first, each once, with the time under both names', async () => {
    const { service, later } = fixture()
    await service.send(alice, '1002', 'first')
    later(60_000)
    await service.send(alice, 'bob', 'second')
    expect(await service.read('bob')).toStrictEqual({
      sender: '1001',
      dateTime: '2026-11-28T09:31:00.000Z',
      date: '2026-11-28T09:31:00.000Z',
      message: 'second',
    })
    expect((await service.read('bob'))?.message).toBe('first')
    expect(await service.read('bob')).toBeUndefined()
  })

  it('names the recipient by company phone, any device, or login name', async () => {
    const { service } = fixture()
    for (const recipient of ['1002', '1102', 'bob'])
      expect(await service.send(alice, recipient, 'hi')).toMatchObject({ recipient: 'bob' })
    expect(await service.unreadCount('bob')).toBe(3)
  })

  it('lets a user send to itself', async () => {
    const { service } = fixture()
    await service.send(alice, '1001', 'note to self')
    expect((await service.read('alice'))?.sender).toBe('1001')
  })

  it('refuses an unknown recipient with 404, and bad text with 400, queueing nothing', async () => {
    const { service, changed } = fixture()
    const unknown = await refusal(service.send(alice, '1999', 'hi'))
    expect([unknown.type, unknown.message]).toEqual([
      'NOT_FOUND',
      "recipient: no user has the number or login name '1999'",
    ])
    for (const [text, message] of [
      ['', /message: is empty/],
      ['   ', /message: is empty/],
      ['x'.repeat(129), /message: at most 128 characters; 129 given/],
      ['two\nlines', /message: holds a control character/],
      [undefined, /message: is required/],
    ] as const) {
      const bad = await refusal(service.send(alice, 'bob', text))
      expect(bad.type).toBe('BAD_PARAMETER')
      expect(bad.message).toMatch(message)
    }
    expect((await refusal(service.send(alice, '', 'hi'))).type).toBe('BAD_PARAMETER')
    expect(await service.unreadCount('bob')).toBe(0)
    expect(changed).toEqual([])
  })

  it('counts characters as code points: 128 emoji fit', async () => {
    const { service } = fixture()
    await service.send(alice, 'bob', '👋'.repeat(128))
    expect((await service.read('bob'))?.message).toBe('👋'.repeat(128))
  })

  it('refuses a send to a full queue with 403 NOT_EXPECTED, dropping nothing', async () => {
    const { service } = fixture(2)
    await service.send(alice, 'bob', 'one')
    await service.send(alice, 'bob', 'two')
    const full = await refusal(service.send(alice, 'bob', 'three'))
    expect(full.type).toBe('NOT_EXPECTED')
    expect(full.message).toMatch(/'bob' already has 2 unread mini messages/)
    expect((await service.unread('bob')).map((message) => message.message)).toEqual(['two', 'one'])
    await service.read('bob')
    await service.send(alice, 'bob', 'three')
    expect((await service.unread('bob')).map((message) => message.message)).toEqual([
      'three',
      'one',
    ])
  })

  it('queues a retried request once (the same message id)', async () => {
    const { service } = fixture()
    await service.send(alice, 'bob', 'hi', 'idempotency:k1')
    expect(await service.send(alice, 'bob', 'hi', 'idempotency:k1')).toEqual({
      recipient: 'bob',
      unread: 1,
    })
  })

  it("tells the event summary of each change of a user's count, and of nothing else", async () => {
    const { service, changed } = fixture()
    await service.send(alice, 'bob', 'hi')
    await service.read('bob')
    await service.read('bob')
    await service.unread('bob')
    expect(changed).toEqual(['bob', 'bob'])
  })
})

describe('phoneNumberOf', () => {
  it('is the company phone, else the main device, else the first device, else the login name', () => {
    expect(phoneNumberOf(bob)).toBe('1002')
    const devices = [
      { id: '2001', type: 'SOFTPHONE' as const },
      { id: '2002', type: 'DESKPHONE' as const, role: 'MAIN' as const },
    ]
    expect(phoneNumberOf(user('x', { devices }))).toBe('2002')
    expect(phoneNumberOf(user('x', { devices: devices.slice(0, 1) }))).toBe('2001')
    expect(phoneNumberOf(user('x'))).toBe('x')
  })
})
