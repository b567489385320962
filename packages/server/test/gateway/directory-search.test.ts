/**
 * Issue 13, item 1: directory search over HTTP with the requests the SDKs send (wire facts 8.4): start,
 * poll batch by batch to FINISH, cancel, TIMEOUT after the idle minute on the virtual clock, the sixth
 * search of a session, bad criteria naming their bad part, an administrator acting for users, and the
 * index following the directory's changes.
 */
import { SearchResult } from '@openness/wire'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { startTelephonyTest, type TelephonyTest } from './telephony/support.js'

const D = '/api/rest/1.0/directory/search'

let test: TelephonyTest
type Login = Parameters<TelephonyTest['send']>[0]

const leaf = (field: string, operation: string, operand: string) => ({ field, operation, operand })

async function start(login: Login, body: unknown, query = ''): Promise<void> {
  const response = await test.send(login, 'POST', `${D}${query}`, body)
  expect(response.statusCode, response.body).toBe(204)
}

async function poll(login: Login, query = ''): Promise<SearchResult> {
  return expectSchema<SearchResult>(SearchResult, await test.send(login, 'GET', `${D}${query}`))
}

/** Polls to the end; returns the login names found, in order, and the result codes seen. */
async function drain(login: Login, query = ''): Promise<{ logins: string[]; codes: string[] }> {
  const logins: string[] = []
  const codes: string[] = []
  for (let at = 0; at < 20; at++) {
    const result = await poll(login, query)
    codes.push(result.resultCode)
    for (const element of result.resultElements ?? [])
      for (const contact of element.contacts) logins.push(String(contact.id.loginName))
    if (result.resultCode !== 'OK') break
  }
  return { logins, codes }
}

beforeAll(async () => {
  test = await startTelephonyTest()
})
afterAll(async () => {
  await test?.close()
})
beforeEach(async () => {
  for (const login of ['alice', 'bob'] as const)
    expect((await test.send(login, 'DELETE', D)).statusCode).toBe(204)
})

describe('POST then GET /directory/search', () => {
  it('lists the Directory service in SessionInfo', async () => {
    const response = await test.send('alice', 'GET', '/api/rest/1.0/sessions')
    expect(response.json().services).toContainEqual({
      serviceName: 'Directory',
      serviceVersion: '1.0',
      relativeUrl: '/directory',
    })
  })

  it('answers at the service URL what a search may ask', async () => {
    const response = await test.send('alice', 'GET', '/api/rest/1.0/directory')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      attributes: ['lastName', 'firstName', 'id.phoneNumber', 'id.loginName'],
      operations: ['EQUAL_IGNORE_CASE', 'BEGIN_WITH', 'CONTAIN', 'END_WITH', 'AND', 'OR'],
      maxLimit: 100,
    })
  })

  it('answers the contacts found as PartyInfo with their vCard path, then FINISH', async () => {
    await start('alice', { filter: leaf('firstName', 'EQUAL_IGNORE_CASE', 'LEA') })
    const first = await poll('alice')
    expect(first).toEqual({
      resultCode: 'OK',
      resultElements: [
        {
          contacts: [
            {
              id: { loginName: 'lea', phoneNumber: '1012' },
              firstName: 'Léa',
              lastName: 'Garnier',
              type: { main: 'USER' },
              vcardPath: 'lea.vcf',
            },
          ],
        },
      ],
    })
    expect(await poll('alice')).toEqual({ resultCode: 'FINISH' })
    expect(await poll('alice')).toEqual({ resultCode: 'FINISH' })
  })

  it('matches without accents or case, AND and OR nested, administrators left out', async () => {
    await start('alice', {
      filter: {
        operation: 'OR',
        operand: [
          leaf('firstName', 'BEGIN_WITH', 'GAE'),
          {
            operation: 'AND',
            operand: [leaf('lastName', 'CONTAIN', 'ar'), leaf('id.phoneNumber', 'END_WITH', '1')],
          },
        ],
      },
    })
    // Martin 1001 (not Girard 1006 nor Garnier 1012), and Roux by her first name; no administrator.
    expect(await drain('alice')).toEqual({
      logins: ['alice', 'gaelle'],
      codes: ['OK', 'FINISH'],
    })
    await start('alice', { filter: leaf('id.loginName', 'CONTAIN', 'admin') })
    expect((await drain('alice')).codes).toEqual(['FINISH'])
  })

  it('gives at most `limit` contacts (J and N omit it when not above 0)', async () => {
    await start('alice', { filter: leaf('id.phoneNumber', 'BEGIN_WITH', '10'), limit: 3 })
    expect(await drain('alice')).toEqual({
      logins: ['karim', 'julien', 'bob'],
      codes: ['OK', 'FINISH'],
    })
    await start('alice', { filter: leaf('id.phoneNumber', 'BEGIN_WITH', '10') })
    expect((await drain('alice')).logins).toHaveLength(18)
  })

  it('a new POST replaces the running search of the session', async () => {
    await start('alice', { filter: leaf('lastName', 'BEGIN_WITH', 'm') })
    await start('alice', { filter: leaf('lastName', 'EQUAL_IGNORE_CASE', 'roux') })
    expect((await drain('alice')).logins).toEqual(['gaelle'])
  })

  it("keeps each session's search to itself", async () => {
    await start('alice', { filter: leaf('lastName', 'EQUAL_IGNORE_CASE', 'roux') })
    expect(await poll('bob')).toEqual({ resultCode: 'TIMEOUT' })
    expect((await drain('alice')).logins).toEqual(['gaelle'])
  })
})

describe('refusals', () => {
  it.each([
    [{}, /filter/],
    [{ filter: leaf('lastName', 'BEGINS_WITH', 'a') }, /body filter\.operation: must be one of/],
    [
      {
        filter: {
          operation: 'AND',
          operand: [leaf('lastName', 'CONTAIN', 'a'), leaf('nom', 'CONTAIN', 'b')],
        },
      },
      /body filter\.operand\[1\]\.field: must be one of lastName, firstName, id\.phoneNumber, id\.loginName/,
    ],
    [{ filter: leaf('lastName', 'CONTAIN', '') }, /body filter\.operand: is empty/],
    [{ filter: { operation: 'OR', operand: 'a' } }, /body filter\.operand: an OR node needs/],
    [{ filter: leaf('lastName', 'CONTAIN', 'a'), limit: 0 }, /limit/],
    [{ filter: leaf('lastName', 'CONTAIN', 'a'), limit: 101 }, /limit/],
  ])(
    'refuses %j with 400 naming the bad part, and keeps the running search',
    async (body, message) => {
      await start('alice', { filter: leaf('lastName', 'EQUAL_IGNORE_CASE', 'roux') })
      expectRestError(await test.send('alice', 'POST', D, body), 400, 'BAD_PARAMETER', message)
      expect((await drain('alice')).logins).toEqual(['gaelle'])
    },
  )

  it('answers no session with 403 INVALID_SESSION', async () => {
    expectRestError(await test.send(undefined, 'GET', D), 403, 'INVALID_SESSION')
  })
})

describe('DELETE /directory/search and the idle minute', () => {
  it('cancels: the next poll answers TIMEOUT; cancelling again is harmless', async () => {
    await start('alice', { filter: leaf('lastName', 'BEGIN_WITH', 'm') })
    expect((await test.send('alice', 'DELETE', D)).statusCode).toBe(204)
    expect(await poll('alice')).toEqual({ resultCode: 'TIMEOUT' })
    expect((await test.send('alice', 'DELETE', D)).statusCode).toBe(204)
  })

  it('frees a context unused for a minute: the next poll answers TIMEOUT', async () => {
    await start('alice', { filter: leaf('id.phoneNumber', 'BEGIN_WITH', '10'), limit: 45 })
    expect((await poll('alice')).resultCode).toBe('OK')
    await test.service.clock.advance(59_999)
    expect((await poll('alice')).resultCode).toBe('FINISH')
    await test.service.clock.advance(60_000)
    expect(await poll('alice')).toEqual({ resultCode: 'TIMEOUT' })
  })
})

describe('an administrator session', () => {
  it('needs loginName, and 404 for an unknown user', async () => {
    const body = { filter: leaf('lastName', 'BEGIN_WITH', 'm') }
    expectRestError(await test.send('admin', 'POST', D, body), 400, 'BAD_PARAMETER', /loginName/)
    expectRestError(await test.send('admin', 'GET', D), 400, 'BAD_PARAMETER', /loginName/)
    expectRestError(
      await test.send('admin', 'POST', `${D}?loginName=nobody`, body),
      404,
      'NOT_FOUND',
    )
  })

  it('runs one search per user it acts for, five at once; a sixth is 403 NOT_EXPECTED', async () => {
    const users = ['alice', 'bob', 'carol', 'dave', 'erin']
    for (const [at, user] of users.entries())
      await start(
        'admin',
        { filter: leaf('id.phoneNumber', 'EQUAL_IGNORE_CASE', `100${at + 1}`) },
        `?loginName=${user}`,
      )
    const sixth = await test.send('admin', 'POST', `${D}?loginName=franck`, {
      filter: leaf('lastName', 'BEGIN_WITH', 'm'),
    })
    expectRestError(sixth, 403, 'NOT_EXPECTED', /already runs 5 directory searches/)
    expect(await poll('admin', '?loginName=franck')).toEqual({ resultCode: 'TIMEOUT' })
    // Each user's search is its own; a user's own session does not see the administrator's.
    expect((await drain('admin', '?loginName=carol')).logins).toEqual(['carol'])
    expect(await poll('bob')).toEqual({ resultCode: 'TIMEOUT' })
    // carol's search finished: it no longer counts, so franck's may start.
    await start(
      'admin',
      { filter: leaf('lastName', 'EQUAL_IGNORE_CASE', 'girard') },
      '?loginName=franck',
    )
    expect((await drain('admin', '?loginName=franck')).logins).toEqual(['franck'])
    for (const user of users)
      expect((await test.send('admin', 'DELETE', `${D}?loginName=${user}`)).statusCode).toBe(204)
  })

  it("ignores loginName in a user session: the search is the user's own", async () => {
    await start(
      'alice',
      { filter: leaf('lastName', 'EQUAL_IGNORE_CASE', 'roux') },
      '?loginName=bob',
    )
    expect((await drain('alice')).logins).toEqual(['gaelle'])
  })
})

describe('the index follows the directory', () => {
  it('finds a user created, changed, then no longer once deleted', async () => {
    const { directory } = test.service.running.platform
    await directory.createUser({
      loginName: 'zoe',
      salutation: 'MISS',
      firstName: 'Zoé',
      lastName: 'Lambert',
      type: 'STANDARD',
      apiRights: ['TELEPHONY_BASIC'],
      companyPhone: '1099',
    })
    const find = async (operand: string) => {
      await start('alice', { filter: leaf('lastName', 'EQUAL_IGNORE_CASE', operand) })
      return (await drain('alice')).logins
    }
    expect(await find('lambert')).toEqual(['zoe'])
    await directory.updateUser('zoe', { lastName: 'Laurent' })
    expect(await find('lambert')).toEqual([])
    expect(await find('laurent')).toEqual(['zoe'])
    await directory.deleteUser('zoe')
    expect(await find('laurent')).toEqual([])
  })
})
