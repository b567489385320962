/**
 * The form in which names, logins and numbers are indexed and compared: without accents and in lower case
 * (`Gaëlle` and `GAELLE` are one key), and for phone numbers without the spaces and punctuation people
 * write between digits (`01 55-66` is `015566`).
 */
import type { SearchField } from '@openness/wire'

const MARKS = /\p{M}/gu
const PHONE_PUNCTUATION = /[\s\-.()/]/g

/** The key of `text` as a value of `field`. */
export function searchKey(field: SearchField, text: string): string {
  const folded = text.normalize('NFD').replace(MARKS, '').toLowerCase().trim()
  return field === 'id.phoneNumber' ? folded.replace(PHONE_PUNCTUATION, '') : folded
}
