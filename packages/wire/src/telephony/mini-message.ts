/**
 * Mini messages (`/telephony/miniMessages`; client census 2, 5a; docs/telephony-api.md, "Mini messages"): the short
 * texts users send each other's sets, read one at a time, the most recent unread first. The specification does not
 * list them; the vendor's SDKs call them, and each reads the answer its own way (Node `dateTime`, Java `date`).
 */
import { type Static, Type } from 'typebox'

/** The longest mini message, in characters (Unicode code points): a set shows a line or two. */
export const MINI_MESSAGE_MAX_LENGTH = 128

/** The body of POST /telephony/miniMessages, as every SDK sends it. */
export const SendMiniMessageRequest = Type.Object(
  {
    recipient: Type.String({
      minLength: 1,
      description:
        "the recipient's phone number (its company phone or one of its devices), or its login name",
    }),
    message: Type.String({
      minLength: 1,
      maxLength: MINI_MESSAGE_MAX_LENGTH,
      description: `the text: 1 to ${MINI_MESSAGE_MAX_LENGTH} characters, not only spaces, no control character`,
    }),
  },
  { title: 'SendMiniMessageRequest', additionalProperties: false },
)
export type SendMiniMessageRequest = Static<typeof SendMiniMessageRequest>

/** A mini message as GET /telephony/miniMessages answers it: the time twice, under the name each SDK reads. */
export const MiniMessage = Type.Object(
  {
    sender: Type.String({ description: "the sender's phone number" }),
    dateTime: Type.String({
      format: 'date-time',
      description: 'when it was sent (UTC, ISO 8601): the Node, C# and browser SDKs read this',
    }),
    date: Type.String({
      format: 'date-time',
      description: 'the same time: the Java SDK reads this',
    }),
    message: Type.String(),
  },
  { title: 'MiniMessage' },
)
export type MiniMessage = Static<typeof MiniMessage>
