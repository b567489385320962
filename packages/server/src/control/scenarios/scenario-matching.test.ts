import { describe, expect, it } from 'vitest'
import { CallNames } from './call-names.js'
import { describeMismatch, isCallRefKey, mismatches } from './scenario-matching.js'
import { durationMs } from './scenario-time.js'

const calls = new CallNames()
calls.name('c1', 'aaaa000000000001')
const differences = (expected: unknown, actual: unknown) =>
  mismatches(expected, actual, calls).map(describeMismatch)

describe('partial matching', () => {
  it.each([
    ['fields not given may be anything', { a: 1 }, { a: 1, b: 2 }],
    ['nested objects are partial too', { a: { b: 1 } }, { a: { b: 1, c: 2 } }],
    ['null matches an absent field', { cause: null }, { callRef: 'x' }],
    ['a list matches item by item', [{ a: 1 }, {}], [{ a: 1, b: 2 }, { c: 3 }]],
    ['a call name matches its callRef', { callRef: 'c1' }, { callRef: 'aaaa000000000001' }],
    [
      'in any field that carries a callRef',
      { previousCallRef: 'c1' },
      { previousCallRef: 'aaaa000000000001' },
    ],
  ])('%s', (_, expected, actual) => {
    expect(differences(expected, actual)).toEqual([])
  })

  it.each([
    ['a different value', { a: 1 }, { a: 2 }, ['a: expected 1, got 2']],
    ['a missing field', { a: { b: 1 } }, { a: {} }, ['a.b: expected 1, got nothing']],
    [
      'a field that should be absent',
      { cause: null },
      { cause: 'BUSY' },
      ['cause: expected null, got BUSY'],
    ],
    [
      'a list of another length',
      { l: [{}] },
      { l: [{}, {}] },
      ['l: expected a list of 1 item, got a list of 2 items'],
    ],
    ['an item of a list', { l: [{ s: 'A' }] }, { l: [{ s: 'B' }] }, ['l[0].s: expected A, got B']],
    [
      'a number where the API sends a string',
      { deviceId: 1002 },
      { deviceId: '1002' },
      ['deviceId: expected 1002, got 1002 (the API sends a string: write "1002" in quotes)'],
    ],
    [
      'another call, by its name',
      { callRef: 'c1' },
      { callRef: 'bbbb000000000002' },
      ['callRef: expected c1, got #1'],
    ],
  ])('tells %s', (_, expected, actual, told) => {
    expect(differences(expected, actual)).toEqual(told)
  })

  it('knows the fields that carry a callRef', () => {
    expect(
      ['callRef', 'comRef', 'heldCallRef', 'otherCallRef', 'previousCallRef'].every(isCallRefKey),
    ).toBe(true)
    expect(['ref', 'callRefs', 'recordId'].some(isCallRefKey)).toBe(false)
  })
})

describe('durations', () => {
  it.each([
    ['3s', 3000],
    ['500ms', 500],
    ['1.5s', 1500],
    ['2m', 120_000],
    [0, 0],
    [2.5, 2500],
  ])('%s is %d ms', (given, ms) => {
    expect(durationMs(given)).toBe(ms)
  })

  it.each([['3'], ['3 s'], ['-1s'], [-1], ['1h'], [null]])('%s is none', (given) => {
    expect(durationMs(given)).toBeUndefined()
  })
})
