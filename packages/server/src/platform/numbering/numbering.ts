/**
 * Canonical and dialable numbering (specification, "Call control", GET /numbering/canonical and
 * /numbering/dialable): pure functions of a number and the user's dialing rule (docs/numbering.md).
 */
import {
  type CountryCode,
  type PhoneNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max'
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
 * The company's public numbers (the numbering plan's `publicNumberPrefix`, docs/directory-file.md): the
 * prefix in +E.164 followed by an extension reaches that extension from outside, as incoming calls do.
 */
export interface CompanyNumbers {
  /** `+` and digits: `+3315566`. */
  publicNumberPrefix: string
  /** Whether a call to this extension rings somebody (a device, or a user's company phone). */
  reaches(extension: string): boolean
}

/**
 * The canonical form of a number, laid out by the result pattern: `0155661234` from a French user gives
 * `+33 (1) 55661234`. An extension with a public number (`company`) is shown as that number; any other
 * extension or private number has no public form and comes back as its digits.
 */
export function canonicalNumber(
  input: CanonicalInput,
  rule: DialingRule,
  company?: CompanyNumbers,
): string {
  const pattern = ResultPattern.parse(input.resultPattern)
  const read = readNumber(input, rule)
  if (read.kind === 'public') return pattern.format(numberParts(read.number))
  const publicNumber = company && publicNumberOf(read.digits, company)
  return publicNumber === undefined ? read.digits : pattern.format(numberParts(publicNumber))
}

/**
 * The digits the user's device dials to reach a number: a public number as dialed from the user's
 * country, then the external prefix when the number is longer than the local number length and no
 * exception rule matches. `+33155661234` from a French user with prefix 0 gives `00155661234`. One of
 * the company's own public numbers (`company`) is dialed as its extension: `+33155661002` gives `1002`.
 */
export function dialableNumber(
  input: NumberInput,
  rule: DialingRule,
  company?: CompanyNumbers,
): string {
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
    if (read.kind === 'private') dialed = read.digits
    else {
      const extension = company && extensionOf(read.number, company)
      if (extension !== undefined) return extension
      dialed = dialedFrom(read.number, countryOf(rule))
    }
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

/** The public number of an extension that has one (`company`); undefined for any other digits. */
function publicNumberOf(extension: string, company: CompanyNumbers): PhoneNumber | undefined {
  if (!company.publicNumberPrefix.startsWith('+') || !company.reaches(extension)) return undefined
  return parsePhoneNumberFromString(company.publicNumberPrefix + extension)
}

/** The extension one of the company's public numbers reaches; undefined for any other number. */
function extensionOf(number: PhoneNumber, company: CompanyNumbers): string | undefined {
  const prefix = company.publicNumberPrefix
  if (!prefix.startsWith('+') || !number.number.startsWith(prefix)) return undefined
  const extension = number.number.slice(prefix.length)
  return extension !== '' && company.reaches(extension) ? extension : undefined
}
