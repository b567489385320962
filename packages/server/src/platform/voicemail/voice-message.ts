/** A voice message as the platform keeps it (docs/voicemail.md): its listing fields and its audio. */
import type { PartyInfo } from '@openness/wire'

/** The longest message by default, seconds (VOICEMAIL_MAX_MESSAGE_SECONDS): then the voice mail hangs up. */
export const DEFAULT_MAX_MESSAGE_SECONDS = 120

/** What a mailbox shows of a message, without its audio. */
export interface StoredVoiceMessage {
  /** Unique over the platform; never contains `;` (the separator of `msgIds`). */
  voicemailId: string
  /** The mailbox, the login name of its owner. */
  loginName: string
  /** Who left the message. */
  from: PartyInfo
  /** When the message was left, milliseconds since the epoch. */
  depositedAt: number
  /** Seconds. */
  duration: number
  unread: boolean
  highPriority: boolean
  /** The size of the audio in bytes (the mailbox's storage use). */
  audioBytes: number
}

/** A message to store, with its audio (a WAV file). */
export interface VoiceMessageDraft extends Omit<StoredVoiceMessage, 'audioBytes'> {
  audio: Uint8Array
}

/** A mailbox's counters. */
export interface MailboxCounters {
  total: number
  unread: number
  /** Bytes of audio held. */
  bytes: number
}
