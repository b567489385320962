/**
 * Client flows of directory search (wire facts 8.4; census 2 "User-facing — directory", 6.1): the search
 * request as each SDK sends it (N and JS leave `limit` out unless set; J leaves it out when not above 0;
 * C# leaves out nulls, so a node has no `field`), the poll loop the SDKs document (NOK: wait; OK: read
 * the batch; FINISH or TIMEOUT: stop), and the cancel.
 */
import { expect } from 'vitest'
import { type Coverage, covered, type Flow } from './flow-support.js'
import { type ClientProfile, SdkClient } from './sdk-client.js'
import { object, readPartyInfo } from './sdk-readers.js'

type Json = Record<string, unknown>

/** "last name begins with m AND first name contains a", as each SDK serializes its Criteria. */
function searchBody(profile: ClientProfile, limit: number): Json {
  const lastName = { field: 'lastName', operation: 'BEGIN_WITH', operand: 'm' }
  const firstName = { field: 'firstName', operation: 'CONTAIN', operand: 'a' }
  switch (profile.tag) {
    case 'N':
      return { filter: { operation: 'AND', operand: [lastName, firstName] }, limit }
    case 'J':
      // Gson, field order of the record SearchRequest(limit, filter) and of Criteria(operation, field, operand).
      return {
        limit,
        filter: {
          operation: 'AND',
          operand: [
            { operation: 'BEGIN_WITH', field: 'lastName', operand: 'm' },
            { operation: 'CONTAIN', field: 'firstName', operand: 'a' },
          ],
        },
      }
    case 'C#':
      return {
        limit,
        filter: {
          operation: 'AND',
          operand: [
            { operation: 'BEGIN_WITH', field: 'lastName', operand: 'm' },
            { operation: 'CONTAIN', field: 'firstName', operand: 'a' },
          ],
        },
      }
    case 'JS':
      return { filter: { operation: 'AND', operand: [lastName, firstName] }, limit }
  }
}

/** SearchResult as the SDKs read it: a known resultCode, each contact a PartyInfo. */
function readSearchResult(value: unknown): { code: string; contacts: Json[] } {
  const result = object(value, 'SearchResult')
  expect(['OK', 'NOK', 'FINISH', 'TIMEOUT']).toContain(result['resultCode'])
  const contacts: Json[] = []
  const elements = (result['resultElements'] ?? []) as unknown[]
  expect(Array.isArray(elements)).toBe(true)
  for (const element of elements) {
    const read = object(element, 'resultElements[]')
    for (const contact of read['contacts'] as unknown[]) contacts.push(readPartyInfo(contact))
  }
  return { code: String(result['resultCode']), contacts }
}

/** The SDKs' documented loop: poll until FINISH or TIMEOUT, collecting the contacts of each OK. */
async function pollToEnd(
  client: SdkClient,
  coverage: Coverage,
  query?: Record<string, string>,
): Promise<{ codes: string[]; contacts: Json[] }> {
  const codes: string[] = []
  const contacts: Json[] = []
  for (let round = 0; round < 20; round++) {
    const answer = covered(
      coverage,
      'GET /directory/search',
      await client.request('GET', 'directory', '/search', query ? { query } : {}),
    )
    const result = readSearchResult(answer.body)
    codes.push(result.code)
    contacts.push(...result.contacts)
    if (result.code === 'FINISH' || result.code === 'TIMEOUT') break
  }
  return { codes, contacts }
}

export const DIRECTORY_FLOWS: readonly Flow[] = [
  {
    name: 'a directory search: start, poll batch by batch to FINISH, cancel; an administrator for a user',
    async run(world, profile, coverage) {
      const alice = await SdkClient.login(world, profile, 'alice')
      covered(
        coverage,
        'POST /directory/search',
        await alice.request('POST', 'directory', '/search', { body: searchBody(profile, 50) }),
      )
      const found = await pollToEnd(alice, coverage)
      // Martin (Alice) and Moreau (Dave), in last-name order; not Mercier (Inès: no a).
      expect(found.contacts.map((contact) => object(contact['id'], 'id')['loginName'])).toEqual([
        'alice',
        'dave',
      ])
      expect(found.codes).toEqual(['OK', 'FINISH'])
      expect(found.contacts[0]).toMatchObject({ vcardPath: 'alice.vcf', lastName: 'Martin' })

      covered(
        coverage,
        'POST /directory/search',
        await alice.request('POST', 'directory', '/search', { body: searchBody(profile, 50) }),
      )
      covered(
        coverage,
        'DELETE /directory/search',
        await alice.request('DELETE', 'directory', '/search'),
      )
      expect((await pollToEnd(alice, coverage)).codes).toEqual(['TIMEOUT'])

      const admin = await SdkClient.login(world, profile, 'admin')
      const forBob = { loginName: 'bob' }
      const started = await admin.request('POST', 'directory', '/search', {
        body: searchBody(profile, 2),
        query: forBob,
      })
      covered(coverage, 'POST /directory/search', started)
      const adminFound = await pollToEnd(admin, coverage, forBob)
      expect(adminFound.contacts).toHaveLength(2)
      covered(
        coverage,
        'DELETE /directory/search',
        await admin.request('DELETE', 'directory', '/search', { query: forBob }),
      )
    },
  },
]
