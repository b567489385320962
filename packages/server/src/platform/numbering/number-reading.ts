/**
 * Reading a phone number as a user or an application wrote it, with the user's dialing rule: separators,
 * the external prefix (isPrefixIncluded), the country's international and national prefixes, numbers in
 * +E.164, numbers local to the user's area, and the platform's own short and private numbers
 * (docs/numbering.md, "Reading a number").
 */
import {
  type CountryCode,
  type PhoneNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max'
import { PlatformError } from '../platform-error.js'
import { countryOf, type DialingRule, matchesExceptionRule } from './dialing-rule.js'

/** What a number turned out to be. */
export type ReadNumber =
  /** An extension, a short number or a private-network number: dialed as it is, with no public form. */
  | { kind: 'private'; digits: string }
  /** A number of the public network. */
  | { kind: 'public'; number: PhoneNumber }

/** The number as the request gives it. */
export interface NumberInput {
  /** Digits, optionally after +, optionally separated by space ( ) - . / */
  phoneNumber: string
  /** Whether phoneNumber starts with the user's external prefix; absent: found out from the number. */
  isPrefixIncluded?: boolean | undefined
}

/** The phoneNumber text once checked: its digits and whether it was written in +E.164. */
export interface NumberText {
  digits: string
  international: boolean
}

/** Digits and the separators the specification allows, optionally after a leading +. */
const NUMBER_TEXT = /^\+?[0-9 ()./-]*$/
/** Longer than any public number with every prefix in front of it. */
const MAX_DIGITS = 30

/** A public-network reading of some digits, and how sure it is. */
interface Candidate {
  number: PhoneNumber
  /** valid: the country's plan allocates it; possible: only its length fits. */
  quality: 'valid' | 'possible'
}

/** Checks the text of phoneNumber and keeps its digits (400 BAD_PARAMETER naming the parameter). */
export function numberText(phoneNumber: string): NumberText {
  const text = phoneNumber.trim()
  if (!NUMBER_TEXT.test(text))
    throw badNumber(
      phoneNumber,
      'may only hold digits, optionally after +, separated by space ( ) - . /',
    )
  const digits = text.replace(/[^0-9]/g, '')
  if (digits === '') throw badNumber(phoneNumber, 'has no digit')
  if (digits.length > MAX_DIGITS) throw badNumber(phoneNumber, `has more than ${MAX_DIGITS} digits`)
  return { digits, international: text.startsWith('+') }
}

/** Reads phoneNumber with the user's dialing rule; 400 BAD_PARAMETER when it is no number at all. */
export function readNumber(input: NumberInput, rule: DialingRule): ReadNumber {
  const { digits, international } = numberText(input.phoneNumber)
  if (international)
    return { kind: 'public', number: internationalNumber(digits, input.phoneNumber) }
  try {
    return readDialedNumber(digits, input, rule)
  } catch (error) {
    // A + written unencoded in a URL query arrives as a space: read such a number as +E.164.
    if (/^ \d/.test(input.phoneNumber) && error instanceof PlatformError) {
      const number = publicCandidate(`+${digits}`, undefined)
      if (number !== undefined) return { kind: 'public', number: number.number }
    }
    throw error
  }
}

/** A number without +: an extension or a number as dialed in the user's country. */
function readDialedNumber(digits: string, input: NumberInput, rule: DialingRule): ReadNumber {
  const country = countryOf(rule)
  const prefix = rule.externalPrefix
  const startsWithPrefix =
    prefix !== '' && digits.startsWith(prefix) && digits.length > prefix.length
  const withoutPrefix = startsWithPrefix ? digits.slice(prefix.length) : undefined
  // Specification: isPrefixIncluded is ignored when the number does not start with the prefix.
  if (input.isPrefixIncluded === true && withoutPrefix !== undefined) {
    const number = dialedCandidate(withoutPrefix, country, rule)
    if (number !== undefined) return { kind: 'public', number: number.number }
    throw badNumber(input.phoneNumber, `is not a phone number of ${country} after the prefix`)
  }
  // The rule's own numbers win over any public reading: what it dials without the prefix (extensions,
  // short numbers, numbers an exception rule names) belongs to the platform or its private network.
  if (digits.length <= rule.addPfxForNbLength || matchesExceptionRule(digits, rule))
    return { kind: 'private', digits }
  const asWritten = dialedCandidate(digits, country, rule)
  const prefixed =
    input.isPrefixIncluded === undefined && withoutPrefix !== undefined
      ? dialedCandidate(withoutPrefix, country, rule)
      : undefined
  const best = bestOf(asWritten, prefixed)
  if (best !== undefined) return { kind: 'public', number: best.number }
  throw badNumber(
    input.phoneNumber,
    `is not a phone number of ${country} nor an international one${
      withoutPrefix !== undefined && input.isPrefixIncluded === false
        ? ` (set isPrefixIncluded if it starts with the external prefix ${prefix})`
        : ''
    }`,
  )
}

/** A number written in +E.164 (with or without the country's national prefix after the country code). */
function internationalNumber(digits: string, phoneNumber: string): PhoneNumber {
  const candidate = publicCandidate(`+${digits}`, undefined)
  if (candidate !== undefined) return candidate.number
  throw badNumber(
    phoneNumber,
    parsePhoneNumberFromString(`+${digits}`) === undefined
      ? 'does not start with a known country code'
      : 'has not the length of a number of its country',
  )
}

/**
 * Digits as dialed from `country`: a national number (with or without the national prefix), a number
 * after the country's international prefix, or a number local to the rule's area code.
 */
function dialedCandidate(
  digits: string,
  country: CountryCode,
  rule: DialingRule,
): Candidate | undefined {
  const asDialed = publicCandidate(digits, country)
  if (asDialed?.quality === 'valid') return asDialed
  const local =
    rule.areaCode !== undefined && rule.areaCode !== ''
      ? publicCandidate(rule.areaCode + digits, country)
      : undefined
  if (local?.quality === 'valid') return local
  return asDialed ?? local
}

/** The reading libphonenumber gives, when the number is at least possible. */
function publicCandidate(text: string, country: CountryCode | undefined): Candidate | undefined {
  const number = parsePhoneNumberFromString(
    text,
    country === undefined ? { extract: false } : { defaultCountry: country, extract: false },
  )
  if (number === undefined) return undefined
  if (number.isValid()) return { number, quality: 'valid' }
  return number.isPossible() ? { number, quality: 'possible' } : undefined
}

/** The number as written wins a tie with the reading that drops the external prefix. */
function bestOf(asWritten?: Candidate, prefixed?: Candidate): Candidate | undefined {
  if (asWritten?.quality === 'valid') return asWritten
  if (prefixed?.quality === 'valid') return prefixed
  return asWritten ?? prefixed
}

function badNumber(phoneNumber: string, problem: string): PlatformError {
  return new PlatformError(
    'BAD_PARAMETER',
    `query parameter phoneNumber: '${phoneNumber}' ${problem}`,
  )
}
