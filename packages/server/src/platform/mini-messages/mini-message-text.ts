/**
 * What a mini message may say (docs/telephony-api.md, "Mini messages"): what a set's display can show, checked the
 * same way whether the API or the control plane sends it.
 */
import { MINI_MESSAGE_MAX_LENGTH } from '@openness/wire'
import { PlatformError } from '../platform-error.js'

/** Control characters (line breaks, tabs, escapes): a set shows none of them. */
const CONTROL = /\p{Cc}/u

/**
 * The text of a mini message: 1 to MINI_MESSAGE_MAX_LENGTH characters (code points, as JSON Schema counts them),
 * not only white space, without control characters; 400 BAD_PARAMETER naming `field` otherwise.
 */
export function miniMessageText(text: unknown, field = 'message'): string {
  if (typeof text !== 'string') throw new PlatformError('BAD_PARAMETER', `${field}: is required`)
  const length = [...text].length
  if (text.trim() === '')
    throw new PlatformError(
      'BAD_PARAMETER',
      `${field}: is empty; a mini message needs at least one visible character`,
    )
  if (length > MINI_MESSAGE_MAX_LENGTH)
    throw new PlatformError(
      'BAD_PARAMETER',
      `${field}: at most ${MINI_MESSAGE_MAX_LENGTH} characters; ${length} given`,
    )
  if (CONTROL.test(text))
    throw new PlatformError(
      'BAD_PARAMETER',
      `${field}: holds a control character (a line break, a tab...), which a set cannot show`,
    )
  return text
}
