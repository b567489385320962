/**
 * The resultPattern of canonical numbering (specification, "Call control"): C the country code, A the area
 * code or, in a national pattern, the national prefix and area code, a the area code only, x one digit of
 * the rest, and the separators space ( ) - . / (docs/numbering.md, "Canonical numbers and result patterns").
 */
import { PlatformError } from '../platform-error.js'
import type { NumberParts } from './number-parts.js'

/** The specification's pattern when resultPattern is absent. */
export const DEFAULT_RESULT_PATTERN = '+C (A) xxxxxxxxxx'

type Letter = 'C' | 'A' | 'a' | 'x'
const LETTERS: ReadonlySet<string> = new Set<Letter>(['C', 'A', 'a', 'x'])
/** The specification's separators, and the + its default pattern starts with. */
const LITERALS: ReadonlySet<string> = new Set(['+', ' ', '(', ')', '-', '.', '/'])

/** A checked result pattern: letters, and the literal text between them. */
export class ResultPattern {
  private constructor(
    /** The letters in order. */
    private readonly letters: readonly Letter[],
    /** `literals[i]` comes before `letters[i]`; the last one ends the pattern. */
    private readonly literals: readonly string[],
  ) {}

  /** Checks a pattern (400 BAD_PARAMETER naming resultPattern); absent or empty: the default pattern. */
  static parse(text: string | undefined): ResultPattern {
    const pattern = text === undefined || text === '' ? DEFAULT_RESULT_PATTERN : text
    const letters: Letter[] = []
    const literals: string[] = ['']
    for (const character of pattern) {
      if (LETTERS.has(character)) {
        letters.push(character as Letter)
        literals.push('')
      } else if (LITERALS.has(character)) {
        literals[literals.length - 1] += character
      } else {
        throw badPattern(
          `'${character}' is not allowed: use the letters C, A, a, x, the separators space ( ) - . / and +`,
        )
      }
    }
    if (letters.filter((letter) => letter === 'C').length > 1)
      throw badPattern('C may appear only once')
    if (letters.filter((letter) => letter === 'A' || letter === 'a').length > 1)
      throw badPattern('A and a may appear only once, and not both')
    return new ResultPattern(letters, literals)
  }

  /** Whether the pattern writes the number internationally (it has C) rather than nationally. */
  get isInternational(): boolean {
    return this.letters.includes('C')
  }

  /**
   * Lays out a number. The x take the remaining digits from the left; digits beyond the last x follow it,
   * or follow the pattern when it has no x (no digit is ever lost); x left without a digit disappear
   * with the separators before them. A letter with nothing to show (no area code) disappears with the
   * parentheses around it.
   */
  format(parts: NumberParts): string {
    const { values, leftover } = this.values(parts)
    let text = ''
    let pending = this.literals[0] ?? ''
    values.forEach((value, index) => {
      const after = this.literals[index + 1] ?? ''
      if (value !== '') {
        text += pending + value
        pending = after
        return
      }
      const enclosed = pending.endsWith('(') && after.startsWith(')')
      const before = enclosed ? pending.slice(0, -1) : pending
      const rest = enclosed ? after.slice(1) : after
      // The separators around an empty letter merge into those before it, or those after the last one.
      pending = index === values.length - 1 ? rest : before
    })
    return text + pending + leftover
  }

  /** The text of each letter, and the digits left over when the pattern has no x. */
  private values(parts: NumberParts): { values: string[]; leftover: string } {
    const international = this.isInternational
    const hasArea = this.letters.includes('A') || this.letters.includes('a')
    const remaining = hasArea
      ? parts.nationalNumber.slice(parts.areaCode.length)
      : international
        ? parts.nationalNumber
        : parts.nationalPrefix + parts.nationalNumber
    const fixed: Record<Exclude<Letter, 'x'>, string> = {
      C: parts.countryCode,
      A: international ? parts.areaCode : parts.nationalPrefix + parts.areaCode,
      a: parts.areaCode,
    }
    const digitCount = this.letters.filter((letter) => letter === 'x').length
    let digit = 0
    const values = this.letters.map((letter) => {
      if (letter !== 'x') return fixed[letter]
      digit += 1
      return digit < digitCount ? remaining.charAt(digit - 1) : remaining.slice(digit - 1)
    })
    return { values, leftover: digitCount === 0 ? remaining : '' }
  }
}

function badPattern(problem: string): PlatformError {
  return new PlatformError('BAD_PARAMETER', `query parameter resultPattern: ${problem}`)
}
