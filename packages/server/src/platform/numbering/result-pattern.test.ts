import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { NumberParts } from './number-parts.js'
import { DEFAULT_RESULT_PATTERN, ResultPattern } from './result-pattern.js'

/** +33 1 55 66 12 34: national prefix 0 written, area code 1. */
const PARIS: NumberParts = {
  countryCode: '33',
  nationalPrefix: '0',
  areaCode: '1',
  nationalNumber: '155661234',
}
/** +45 32 12 34 56: no national prefix, no area code. */
const COPENHAGEN: NumberParts = {
  countryCode: '45',
  nationalPrefix: '',
  areaCode: '',
  nationalNumber: '32123456',
}

describe('ResultPattern', () => {
  it.each([
    [DEFAULT_RESULT_PATTERN, PARIS, '+33 (1) 55661234'],
    [DEFAULT_RESULT_PATTERN, COPENHAGEN, '+45 32123456'],
    ['(a) xx xx xx xx', COPENHAGEN, '32 12 34 56'],
    ['xx xx xx xx (a)', COPENHAGEN, '32 12 34 56'],
    ['C-a-xxxxxxxx', COPENHAGEN, '45-32123456'],
    ['+C/A/xxxxxxxx', PARIS, '+33/1/55661234'],
    ['xx xx xx xx xx xx', COPENHAGEN, '32 12 34 56'],
    ['x', PARIS, '0155661234'],
    ['C', PARIS, '33155661234'],
    ['+C ', PARIS, '+33 155661234'],
  ])('lays out %j as %s', (pattern, parts, expected) => {
    expect(ResultPattern.parse(pattern).format(parts)).toBe(expected)
  })

  it('never loses or invents a digit, whatever the separators and the number of x', () => {
    const separators = fc.string({ unit: fc.constantFrom(' ', '(', ')', '-', '.', '/', '+') })
    const parts = fc.constantFrom(PARIS, COPENHAGEN, {
      countryCode: '1',
      nationalPrefix: '',
      areaCode: '212',
      nationalNumber: '2125551234',
    })
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.constantFrom('', 'A', 'a'),
        fc.nat(14),
        fc.array(separators, { minLength: 17, maxLength: 17 }),
        parts,
        (international, area, digitCount, gaps, number) => {
          const letters = [...(international ? ['C'] : []), ...(area ? [area] : [])]
          letters.push(...'x'.repeat(digitCount))
          fc.pre(letters.length > 0) // an empty pattern is the default one
          const pattern = letters.map((letter, index) => `${gaps[index]}${letter}`).join('')
          const expected =
            (international ? number.countryCode : '') +
            (!international && area !== 'a' ? number.nationalPrefix : '') +
            number.nationalNumber
          const formatted = ResultPattern.parse(pattern).format(number)
          expect(formatted.replace(/[^0-9]/g, '')).toBe(expected)
        },
      ),
    )
  })
})
