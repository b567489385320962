/**
 * Canonical and dialable numbering (specification, "Call control", GET /numbering/canonical and
 * /numbering/dialable): pure functions of a number and the user's dialing rule (docs/numbering.md).
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max'
import { PlatformError } from '../platform-error.js'
import { countryOf, type DialingRule, needsExternalPrefix } from './dialing-rule.js'
import { numberParts } from './number-parts.js'
import { type NumberInput, numberText, readNumber } from './number-reading.js'
import { ResultPattern } from './result-pattern.js'

export type { DialingRule } from './dialing-rule.js'
export { DEFAULT_RESULT_PATTERN } from './result-pattern.js'

/** What canonical numbering takes: the number, the prefix flag and the pattern. */
export interface CanonicalInput extends NumberInput {
  /** The layout of the result; absent or empty: `+C (A) xxxxxxxxxx`. */
  resultPattern?: string | undefined
}

/**
 * The canonical form of a number, laid out by the result pattern: `0155661234` from a French user gives
 * `+33 (1) 55661234`. An extension or private number has no public form and comes back as its digits.
 */
export function canonicalNumber(input: CanonicalInput, rule: DialingRule): string {
  const pattern = ResultPattern.parse(input.resultPattern)
  const read = readNumber(input, rule)
  if (read.kind === 'private') return read.digits
  return pattern.format(numberParts(read.number))
}

/**
 * The digits the user's device dials to reach a number: a public number as dialed from the user's
 * country, then the external prefix when the number is longer than the local number length and no
 * exception rule matches. `+33155661234` from a French user with prefix 0 gives `00155661234`.
 */
export function dialableNumber(input: NumberInput, rule: DialingRule): string {
  const { digits, international } = numberText(input.phoneNumber)
  const prefix = rule.externalPrefix
  // The application says the prefix is there already: the number is dialable as it is.
  if (
    !international &&
    input.isPrefixIncluded === true &&
    prefix !== '' &&
    digits.startsWith(prefix)
  )
    return digits
  let dialed: string
  try {
    const read = readNumber(input, rule)
    dialed = read.kind === 'private' ? read.digits : dialedFrom(read.number, countryOf(rule))
  } catch (error) {
    // Digits that are no known public number are still dialed as written: the platform decides.
    if (international || !(error instanceof PlatformError) || error.type !== 'BAD_PARAMETER')
      throw error
    dialed = digits
  }
  if (dialed.startsWith('+')) return dialed
  return needsExternalPrefix(dialed, rule) ? prefix + dialed : dialed
}

/**
 * A public number as dialed from `country`: national prefix and national number at home, else the
 * country's international prefix and the number; in +E.164 where the country has no single
 * international prefix (one per carrier, as in Brazil).
 */
function dialedFrom(number: PhoneNumber, country: CountryCode): string {
  const idd = number.format('IDD', { fromCountry: country })
  if (idd === undefined || idd === '') return number.number
  return idd.replace(/[^0-9]/g, '')
}
