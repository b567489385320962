/**
 * Where a directory user's vCard is (docs/vcard.md): `vcardPath` (User and PartyInfo, since 2.2) is relative
 * to the base URL the location service gives for VCARD, which ends with `/`; the path is the login name,
 * URL-encoded, with `.vcf`, and no leading slash, so that base + path is the vCard's URL.
 */

/** The suffix of every vCard path. */
export const VCARD_SUFFIX = '.vcf'

/** The vcardPath of the user `loginName`. */
export function vcardPathOf(loginName: string): string {
  return `${encodeURIComponent(loginName)}${VCARD_SUFFIX}`
}
