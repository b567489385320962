/** The voice mail's port (docs/voicemail.md). */
import type { MailboxCounters, StoredVoiceMessage, VoiceMessageDraft } from './voice-message.js'

/**
 * The voice messages of the mailboxes the platform hosts (docs/voicemail.md), with their audio. Every
 * operation acts on one mailbox (the owner's login name): a message of another mailbox is not found.
 */
export interface VoicemailStore {
  /** Stores a new message. */
  add(message: VoiceMessageDraft): Promise<StoredVoiceMessage>
  /** One page of the mailbox's messages, newest first; unread ones only with `newOnly`. */
  list(
    loginName: string,
    query: { newOnly: boolean; offset: number; limit: number },
  ): Promise<StoredVoiceMessage[]>
  /** The mailbox's message with this id; undefined when it has none. */
  find(loginName: string, voicemailId: string): Promise<StoredVoiceMessage | undefined>
  /** The audio of the mailbox's message; undefined when it has none with this id. */
  audio(loginName: string, voicemailId: string): Promise<Uint8Array | undefined>
  /** Marks the message read; returns it as changed, undefined when it was read already or is not found. */
  markRead(loginName: string, voicemailId: string): Promise<StoredVoiceMessage | undefined>
  /** Deletes those of the mailbox's messages among `voicemailIds`; returns the messages deleted. */
  delete(loginName: string, voicemailIds: readonly string[]): Promise<StoredVoiceMessage[]>
  /** The mailbox's counters. */
  counters(loginName: string): Promise<MailboxCounters>
}
