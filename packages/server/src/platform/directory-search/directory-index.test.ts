import { describe, expect, it } from 'vitest'
import type { StoredAccount, UserAccount } from '../directory/account.js'
import { parseCriterion } from './criterion.js'
import { DirectoryIndex } from './directory-index.js'

/** A user account with only what the index reads. */
function user(
  loginName: string,
  firstName: string,
  lastName: string,
  companyPhone?: string,
  devices: string[] = [],
): UserAccount {
  return {
    kind: 'USER',
    loginName,
    preferences: {},
    record: {
      loginName,
      firstName,
      lastName,
      ...(companyPhone !== undefined && { companyPhone }),
      devices: devices.map((id) => ({ id, type: 'DESKPHONE' })),
    },
  } as unknown as UserAccount
}

const USERS: StoredAccount[] = [
  user('alice', 'Alice', 'Martin', '1001', ['1001', '+33 6 12 34 56 78']),
  user('gaelle', 'Gaëlle', 'Roux', '1007'),
  user('ines', 'Inès', 'Mercier', '1009'),
  user('martine', 'Martine', 'Dupont', '2001'),
  user('lea', 'Léa', 'Garnier', '1012'),
  user('marc', 'Marc', 'MARTINEZ', '1020'),
  {
    kind: 'ADMINISTRATOR',
    loginName: 'admin',
    preferences: {},
    record: { loginName: 'admin', firstName: 'Ada', lastName: 'Martin', supervisor: false },
  },
]

const leaf = (field: string, operation: string, operand: string) => ({ field, operation, operand })

function logins(index: DirectoryIndex, filter: unknown, limit = 100): string[] {
  return index.search(parseCriterion(filter), limit).map((contact) => String(contact.id.loginName))
}

describe('DirectoryIndex', () => {
  const index = new DirectoryIndex(USERS)

  it('indexes users only, not administrators', () => {
    expect(index.size).toBe(6)
    expect(logins(index, leaf('lastName', 'BEGIN_WITH', 'mart'))).toEqual(['alice', 'marc'])
  })

  it.each([
    ['EQUAL_IGNORE_CASE', 'lastName', 'MARTIN', ['alice']],
    ['EQUAL_IGNORE_CASE', 'firstName', 'gaelle', ['gaelle']],
    ['BEGIN_WITH', 'lastName', 'mar', ['alice', 'marc']],
    ['BEGIN_WITH', 'id.loginName', 'MAR', ['martine', 'marc']],
    ['CONTAIN', 'firstName', 'art', ['martine']],
    ['CONTAIN', 'lastName', 'er', ['lea', 'ines']],
    ['CONTAIN', 'firstName', 'e', ['martine', 'lea', 'alice', 'ines', 'gaelle']],
    ['END_WITH', 'lastName', 'IER', ['lea', 'ines']],
    ['END_WITH', 'id.phoneNumber', '01', ['martine', 'alice']],
    ['BEGIN_WITH', 'id.phoneNumber', '10', ['lea', 'alice', 'marc', 'ines', 'gaelle']],
  ])('%s on %s %j', (operation, field, operand, expected) => {
    expect(logins(index, leaf(field, operation, operand))).toEqual(expected)
  })

  it('ignores accents and case on both sides', () => {
    expect(logins(index, leaf('firstName', 'EQUAL_IGNORE_CASE', 'GAËLLE'))).toEqual(['gaelle'])
    expect(logins(index, leaf('firstName', 'BEGIN_WITH', 'INÉ'))).toEqual(['ines'])
    expect(logins(index, leaf('firstName', 'CONTAIN', 'ëll'))).toEqual(['gaelle'])
    expect(logins(index, leaf('firstName', 'END_WITH', 'EA'))).toEqual(['lea'])
  })

  it("matches any of a user's numbers, written with or without spaces", () => {
    expect(logins(index, leaf('id.phoneNumber', 'CONTAIN', '12 34 56'))).toEqual(['alice'])
    expect(logins(index, leaf('id.phoneNumber', 'BEGIN_WITH', '+336'))).toEqual(['alice'])
    expect(logins(index, leaf('id.phoneNumber', 'EQUAL_IGNORE_CASE', '1007'))).toEqual(['gaelle'])
  })

  it('combines with AND and OR, nested', () => {
    const and = {
      operation: 'AND',
      operand: [leaf('lastName', 'BEGIN_WITH', 'mar'), leaf('firstName', 'CONTAIN', 'arc')],
    }
    expect(logins(index, and)).toEqual(['marc'])
    const or = {
      operation: 'OR',
      operand: [leaf('lastName', 'EQUAL_IGNORE_CASE', 'roux'), and],
    }
    expect(logins(index, or)).toEqual(['marc', 'gaelle'])
    // A user matching several operands of an OR is listed once.
    const twice = {
      operation: 'OR',
      operand: [leaf('lastName', 'BEGIN_WITH', 'm'), leaf('firstName', 'BEGIN_WITH', 'm')],
    }
    expect(logins(index, twice)).toEqual(['martine', 'alice', 'marc', 'ines'])
  })

  it('returns at most `limit` contacts, by last name, first name and login', () => {
    expect(logins(index, leaf('firstName', 'CONTAIN', 'e'), 2)).toEqual(['martine', 'lea'])
  })

  it('stops a last-name scan once the list is full, ties on the last name still ordered', () => {
    const twins = new DirectoryIndex([
      user('b2', 'Zed', 'Moreau'),
      user('b1', 'Ann', 'Moreau'),
      user('c', 'Cy', 'Morel'),
      user('a', 'Al', 'Mora'),
    ])
    expect(logins(twins, leaf('lastName', 'BEGIN_WITH', 'mor'), 2)).toEqual(['a', 'b1'])
    expect(logins(twins, leaf('lastName', 'BEGIN_WITH', 'mor'), 3)).toEqual(['a', 'b1', 'b2'])
  })

  it('answers contacts as PartyInfo with their vCard path', () => {
    expect(
      index.search(parseCriterion(leaf('id.loginName', 'EQUAL_IGNORE_CASE', 'lea')), 5),
    ).toEqual([
      {
        id: { loginName: 'lea', phoneNumber: '1012' },
        firstName: 'Léa',
        lastName: 'Garnier',
        type: { main: 'USER' },
        vcardPath: 'lea.vcf',
      },
    ])
  })

  it('follows changes: a new user, a renamed one, a deleted one', () => {
    const live = new DirectoryIndex(USERS)
    live.put(user('zoe', 'Zoé', 'Martinet', '3001'))
    expect(logins(live, leaf('lastName', 'BEGIN_WITH', 'martin'))).toEqual(['alice', 'zoe', 'marc'])
    live.put(user('alice', 'Alice', 'Bernard', '1001'))
    expect(logins(live, leaf('lastName', 'BEGIN_WITH', 'martin'))).toEqual(['zoe', 'marc'])
    expect(logins(live, leaf('lastName', 'CONTAIN', 'ern'))).toEqual(['alice'])
    expect(logins(live, leaf('id.phoneNumber', 'CONTAIN', '345'))).toEqual([])
    live.drop('marc')
    expect(logins(live, leaf('lastName', 'END_WITH', 'ez'))).toEqual([])
    expect(live.size).toBe(6)
  })
})

describe('parseCriterion', () => {
  it.each([
    [null, 'body filter: is not a Criterion object'],
    [leaf('lastName', 'BEGINS_WITH', 'a'), 'body filter.operation: must be one of'],
    [leaf('name', 'CONTAIN', 'a'), 'body filter.field: must be one of'],
    [
      { field: 'lastName', operation: 'CONTAIN', operand: 3 },
      'body filter.operand: must be a string',
    ],
    [leaf('lastName', 'CONTAIN', ' '), 'body filter.operand: is empty'],
    [{ operation: 'AND', operand: [] }, 'body filter.operand: an AND node needs'],
    [
      { operation: 'OR', operand: [leaf('lastName', 'CONTAIN', 'a'), leaf('x', 'CONTAIN', 'b')] },
      'body filter.operand[1].field: must be one of',
    ],
    [{ field: 'lastName', operation: 'AND', operand: [] }, 'body filter.field: a AND node'],
  ])('refuses %j naming the bad part', (filter, message) => {
    expect(() => parseCriterion(filter)).toThrow(message)
  })

  it('accepts a null field on a node (as serializers that keep nulls send it)', () => {
    const filter = { field: null, operation: 'AND', operand: [leaf('lastName', 'CONTAIN', 'a')] }
    expect(parseCriterion(filter)).toMatchObject({ kind: 'node', operation: 'AND' })
  })

  it('refuses more than 32 comparisons', () => {
    const operand = Array.from({ length: 33 }, () => leaf('lastName', 'CONTAIN', 'a'))
    expect(() => parseCriterion({ operation: 'OR', operand })).toThrow('more than 32')
  })
})
