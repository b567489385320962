import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sameJson } from './same-json.js'

const byJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * Small JSON-like values over few keys and leaves, with undefined properties, so that random pairs are
 * often equal or nearly so.
 */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, 1, '', 'a', 'RINGING_INCOMING'),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom('a', 'b', 'state', 'legs'),
      fc.option(tie('value'), { nil: undefined }),
      { maxKeys: 3 },
    ),
  ),
}))

/** The same value with the keys of every object in reverse order. */
function reversed(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(reversed)
  if (typeof input !== 'object' || input === null) return input
  return Object.fromEntries(
    Object.entries(input)
      .reverse()
      .map(([key, item]) => [key, reversed(item)]),
  )
}

describe('sameJson', () => {
  it.each([
    ['equal objects', { a: 1, b: [true, null] }, { a: 1, b: [true, null] }, true],
    ['keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }, false],
    ['an undefined property', { a: 1, b: undefined }, { a: 1 }, true],
    ['undefined properties in between', { x: undefined, a: 1 }, { a: 1, y: undefined }, true],
    ['a missing property', { a: 1, b: 2 }, { a: 1 }, false],
    ['an array and an object', [], {}, false],
    ['arrays of other lengths', [1], [1, 1], false],
    ['null and an object', null, {}, false],
    ['a string and a number', '1', 1, false],
  ])('compares %s as JSON.stringify does', (_, a, b, same) => {
    expect(sameJson(a, b)).toBe(same)
    expect(byJson(a, b)).toBe(same)
  })

  it('agrees with comparing the JSON text', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(sameJson(a, b)).toBe(byJson(a, b))
      }),
      { numRuns: 2_000 },
    )
  })

  it('tells apart objects whose keys come in another order, as the JSON text does', () => {
    fc.assert(
      fc.property(value, (a) => {
        expect(sameJson(a, structuredClone(a))).toBe(true)
        expect(sameJson(a, reversed(a))).toBe(byJson(a, reversed(a)))
      }),
    )
  })
})
