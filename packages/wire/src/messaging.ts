/**
 * Voice mail (service `voicemail`, `/messaging/mailboxes`; wire facts 8.5; the specification only names
 * the feature): the user's mailboxes, a mailbox's counters, its voice messages and the messaging events.
 */
import { type Static, Type } from 'typebox'
import { PartyInfo } from './telephony/party.js'

/** What a mailbox lets the client do (the Node SDK reads the 13 flags). */
export const MailboxCapabilities = Type.Object(
  {
    listMessages: Type.Boolean(),
    getMessages: Type.Boolean(),
    getRecord: Type.Boolean(),
    play: Type.Boolean(),
    pause: Type.Boolean(),
    hangup: Type.Boolean(),
    record: Type.Boolean(),
    resume: Type.Boolean(),
    cancel: Type.Boolean(),
    forward: Type.Boolean(),
    callback: Type.Boolean(),
    send: Type.Boolean(),
    events: Type.Boolean(),
  },
  { title: 'MailboxCapabilities' },
)
export type MailboxCapabilities = Static<typeof MailboxCapabilities>

export const Mailbox = Type.Object(
  {
    id: Type.String({ description: 'the mailbox id: the login name of its owner' }),
    name: Type.String(),
    capabilities: MailboxCapabilities,
  },
  { title: 'Mailbox' },
)
export type Mailbox = Static<typeof Mailbox>

/** The answer of GET /messaging/mailboxes. */
export const Mailboxes = Type.Object({ mailboxes: Type.Array(Mailbox) }, { title: 'Mailboxes' })
export type Mailboxes = Static<typeof Mailboxes>

/** The body of POST /messaging/mailboxes/{mailboxId} (without `withUserPwd`). */
export const MailboxPassword = Type.Object(
  { password: Type.String({ description: 'the mailbox password' }) },
  { title: 'MailboxPassword' },
)
export type MailboxPassword = Static<typeof MailboxPassword>

/** The answer of POST /messaging/mailboxes/{mailboxId}. */
export const MailboxInfo = Type.Object(
  {
    totalVoiceMsg: Type.Integer(),
    newVoiceMsg: Type.Integer(),
    storageUsage: Type.Integer({ description: 'percent of the mailbox storage in use' }),
  },
  { title: 'MailboxInfo' },
)
export type MailboxInfo = Static<typeof MailboxInfo>

export const VoiceMessage = Type.Object(
  {
    voicemailId: Type.String(),
    from: PartyInfo,
    duration: Type.Integer({ description: 'seconds' }),
    date: Type.String({ format: 'date-time' }),
    unread: Type.Boolean(),
    highPriority: Type.Boolean(),
  },
  { title: 'VoiceMessage' },
)
export type VoiceMessage = Static<typeof VoiceMessage>

/** The answer of GET /messaging/mailboxes/{mailboxId}/voicemails. */
export const VoiceMessages = Type.Object(
  { voicemails: Type.Array(VoiceMessage) },
  { title: 'VoiceMessages' },
)
export type VoiceMessages = Static<typeof VoiceMessages>
