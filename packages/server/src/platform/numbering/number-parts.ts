/**
 * The parts of a public number that a result pattern lays out: country code, national prefix, area code
 * and subscriber number, taken from the country's numbering metadata (docs/numbering.md, "Canonical numbers
 * and result patterns").
 */
import {
  type CountryCode,
  Metadata,
  type NumberingPlan,
  type PhoneNumber,
} from 'libphonenumber-js/max'

/** A public number cut into the parts a result pattern names. */
export interface NumberParts {
  /** The country calling code, without + (`33`). */
  countryCode: string
  /** The national prefix as the country writes it in front of national numbers (`0`; none in the US). */
  nationalPrefix: string
  /** The area code (national destination code): `1` for Paris, `212` for Manhattan; empty when none. */
  areaCode: string
  /** The national significant number: area code and subscriber number (`155661234`). */
  nationalNumber: string
}

/** libphonenumber's plans know the national prefix, though its type declarations leave it out. */
type PlanWithNationalPrefix = NumberingPlan & { nationalPrefix?: () => unknown }

const metadata = new Metadata()

/** Cuts a public number into its parts. */
export function numberParts(number: PhoneNumber): NumberParts {
  const nationalNumber = number.nationalNumber
  const nationalDigits = number.formatNational().replace(/[^0-9]/g, '')
  const nationalPrefix =
    nationalDigits.length > nationalNumber.length && nationalDigits.endsWith(nationalNumber)
      ? nationalDigits.slice(0, nationalDigits.length - nationalNumber.length)
      : ''
  return {
    countryCode: number.countryCallingCode,
    nationalPrefix,
    areaCode: hasAreaCodes(number) ? destinationCode(number) : '',
    nationalNumber,
  }
}

/**
 * Whether the number's country divides its numbers by area: it has a national prefix, or (Italy) keeps
 * a leading zero. Closed plans without either (Denmark, Norway, Spain, Singapore...) have no area codes.
 */
function hasAreaCodes(number: PhoneNumber): boolean {
  if (number.country === undefined) return false
  return nationalPrefixOf(number.country) !== '' || number.nationalNumber.startsWith('0')
}

/** The national destination code: the first group after the country code in the international format. */
function destinationCode(number: PhoneNumber): string {
  const groups = number
    .formatInternational()
    .split(/[^0-9]+/)
    .filter((group) => group !== '')
  const [countryCode, code] = groups
  if (countryCode !== number.countryCallingCode || code === undefined || groups.length < 3)
    return ''
  return number.nationalNumber.startsWith(code) ? code : ''
}

function nationalPrefixOf(country: CountryCode): string {
  metadata.selectNumberingPlan(country)
  const prefix = (metadata.numberingPlan as PlanWithNationalPrefix | undefined)?.nationalPrefix?.()
  return typeof prefix === 'string' ? prefix : ''
}
