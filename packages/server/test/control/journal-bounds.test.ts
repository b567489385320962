/**
 * The journal's bound and its secrets (docs/journal.md): JOURNAL_SIZE keeps the newest entries only, ids going
 * on; JOURNAL_SIZE=0 turns it off and its routes say so; `DELETE /journal` empties it; no password, cookie,
 * Authorization or body is ever recorded.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { JOURNAL_OFF } from '../../src/platform/journal/journal.js'
import { expectRestError } from '../support/assertions.js'
import { basic } from '../support/test-service.js'
import { API, type JournalService, startJournalService } from './journal-fixture.js'

let test: JournalService
afterEach(() => test.close())

describe('JOURNAL_SIZE', () => {
  it('keeps the newest entries: the oldest go, ids go on', async () => {
    test = await startJournalService({ journalSize: 5 })
    for (let index = 0; index < 8; index++) await test.api('alice', 'GET', `${API}/sessions`)

    const held = await test.entries('order=oldest')
    expect(held).toHaveLength(5)
    const ids = held.map((entry) => entry.id)
    // alice and bob logged in (4 entries), then the 8 reads: 12 recorded, the last 5 held.
    expect(ids).toEqual([8, 9, 10, 11, 12])
  })

  it('0 turns the journal off: nothing recorded, every route answers 404 saying so', async () => {
    test = await startJournalService({ journalSize: 0 })
    await test.subscribe('bob')
    await test.call()
    expect(test.service.running.platform.journal?.enabled).toBe(false)

    for (const [method, url, payload] of [
      ['GET', '/journal', undefined],
      ['GET', '/journal/stream', undefined],
      ['DELETE', '/journal', undefined],
      ['POST', '/journal/verify', { patterns: [{ kind: 'request' }] }],
    ] as const)
      expectRestError(await test.operator(method, url, payload), 404, 'NOT_FOUND', /JOURNAL_SIZE=0/)
    expect(JOURNAL_OFF).toMatch(/^The journal is off \(JOURNAL_SIZE=0\)/)
  })
})

describe('DELETE /journal', () => {
  it('empties the journal, and is not recorded itself; ids go on', async () => {
    test = await startJournalService()
    const before = await test.entries()
    const cleared = await test.operator('DELETE', '/journal')
    expect(cleared.statusCode).toBe(204)
    expect(await test.entries()).toEqual([])

    await test.api('alice', 'GET', `${API}/sessions`)
    const [after] = await test.entries()
    expect(after?.id).toBe((before[0]?.id ?? 0) + 1)
  })
})

describe('secrets', () => {
  it('no password, cookie or Authorization; the value of a secret-looking query parameter masked', async () => {
    test = await startJournalService()
    const cookie = test.cookies['alice'] ?? ''
    await test.service.app.inject({
      method: 'GET',
      url: `${API}/sessions?password=hunter2&token=abc123&applicationName=crm&apiKey=k-9`,
      headers: { cookie, authorization: basic('alice', 'hunter3') },
    })
    await test.service.app.inject({
      method: 'GET',
      url: '/api/rest/authenticate?version=1.0',
      headers: { authorization: basic('bob', 'wrong-secret') },
    })
    await test.api('alice', 'PUT', `${API}/users/alice/password`, {
      oldPassword: 'demo-alice',
      newPassword: 'new-secret-1',
    })
    await test.operator('POST', '/users', {
      loginName: 'mona',
      password: 'operator-secret',
      salutation: 'MRS',
      firstName: 'Mona',
      lastName: 'Lambert',
      type: 'STANDARD',
      apiRights: [],
    })

    const entries = await test.entries('limit=1000')
    const text = JSON.stringify(entries)
    for (const secret of [
      'hunter2',
      'hunter3',
      'abc123',
      'k-9',
      'wrong-secret',
      'demo-alice',
      'new-secret-1',
      'operator-secret',
      cookie.split('=')[1] ?? 'no cookie',
      'Basic ',
    ])
      expect(text).not.toContain(secret)
    expect(entries).toContainEqual(
      expect.objectContaining({
        operation: 'getSessionInfo',
        query: 'password=***&token=***&applicationName=crm&apiKey=***',
      }),
    )
    // The login the credentials claimed, not their password.
    expect(entries).toContainEqual(
      expect.objectContaining({ operation: 'authenticate', user: 'bob', status: 401 }),
    )
    expect(entries).toContainEqual(
      expect.objectContaining({ kind: 'control', operation: 'postUsers', status: 201 }),
    )
  })
})
