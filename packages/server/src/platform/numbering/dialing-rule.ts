/**
 * A user's dialing rule (specification, "Users", DialingRule and ExceptionRule) and the two questions
 * numbering asks of it: which country the user dials from, and whether a number needs the external prefix.
 */
import type { User } from '@openness/wire'
import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max'
import { PlatformError } from '../platform-error.js'

/** The DialingRule of the User record: country, external prefix, local number length, exceptions. */
export type DialingRule = NonNullable<User['dialingRule']>

/** The country of the rule, as the numbering metadata knows it; a rule naming another is a server problem. */
export function countryOf(rule: DialingRule): CountryCode {
  if (isSupportedCountry(rule.countryCode)) return rule.countryCode
  throw new PlatformError(
    'SERVER_PROBLEM',
    `The user's dialing rule names the country '${rule.countryCode}', which has no numbering plan here`,
  )
}

/**
 * Whether an ExceptionRule matches `digits`: a number of `lengthException` digits (0: any length) that
 * starts with `beginPatternException` is dialed without the external prefix.
 */
export function matchesExceptionRule(digits: string, rule: DialingRule): boolean {
  return (rule.exceptionRules ?? []).some(
    (exception) =>
      (exception.lengthException === 0 || exception.lengthException === digits.length) &&
      digits.startsWith(exception.beginPatternException),
  )
}

/**
 * Whether `digits` (a number as dialed, without the prefix) needs the external prefix: it is longer than
 * the local number length `addPfxForNbLength` and no exception rule matches (specification, "Call control").
 */
export function needsExternalPrefix(digits: string, rule: DialingRule): boolean {
  return digits.length > rule.addPfxForNbLength && !matchesExceptionRule(digits, rule)
}
