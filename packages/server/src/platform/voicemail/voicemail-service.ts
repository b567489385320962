/**
 * Voice mail as users see it (docs/voicemail.md; wire facts 8.5): the mailbox the platform hosts for each
 * user with a voice mail, its messages listed, downloaded (which marks them read) and deleted, the
 * messaging events of each change, and the event summary's count of new messages. A mailbox's id is its
 * owner's login name; every operation acts on the acting user's own mailbox: another one is not found.
 */
import { randomUUID } from 'node:crypto'
import type { Mailbox, MailboxInfo, PartyInfo, VoiceMessage } from '@openness/wire'
import type { EventSummaryService } from '../comlog/event-summary.js'
import type { Directory } from '../directory/directory.js'
import type { Clock, EventSink } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { StoredVoiceMessage } from './voice-message.js'
import type { VoicemailStore } from './voicemail-store.js'
import { MAX_VOICE_MESSAGE_BYTES, toneMessage } from './wav-audio.js'

/** The audio a mailbox may hold, bytes: `storageUsage` is the percentage of it in use. */
export const MAILBOX_CAPACITY_BYTES = 64 * 1024 * 1024
/** Recordings uploaded ahead (control plane) that one mailbox may hold. */
export const MAX_PENDING_RECORDINGS = 16

/** What the platform's mailboxes can do: list, download and delete; no telephone player or recorder. */
const CAPABILITIES = {
  listMessages: true,
  getMessages: true,
  getRecord: true,
  play: false,
  pause: false,
  hangup: false,
  record: false,
  resume: false,
  cancel: false,
  forward: false,
  callback: false,
  send: false,
  events: true,
} as const

/** A recording uploaded for a coming message, for any caller or for one caller's number. */
interface PendingRecording {
  audio: Uint8Array
  from?: string
}

/** A message to leave in a mailbox (voicemail-deposits.ts). */
export interface Deposit {
  loginName: string
  from: PartyInfo
  /** Seconds. */
  duration: number
}

export class VoicemailService {
  readonly #store: VoicemailStore
  readonly #directory: Directory
  readonly #clock: Clock
  readonly #events: EventSink
  readonly #summary: EventSummaryService
  /** Recordings uploaded by the control plane, by mailbox, oldest first (ephemeral, docs/voicemail.md). */
  readonly #pending = new Map<string, PendingRecording[]>()

  constructor(options: {
    store: VoicemailStore
    directory: Directory
    clock: Clock
    events: EventSink
    summary: EventSummaryService
  }) {
    this.#store = options.store
    this.#directory = options.directory
    this.#clock = options.clock
    this.#events = options.events
    this.#summary = options.summary
  }

  /** Whether the platform hosts the user's voice mail: a user with a voice mail that is not EXTERNAL. */
  hosts(loginName: string): boolean {
    const account = this.#directory.findAccount(loginName)
    if (account?.kind !== 'USER') return false
    const voicemail = account.record.voicemail
    return voicemail !== undefined && voicemail.type !== 'EXTERNAL'
  }

  /** The user's mailboxes: the one the platform hosts for the user, or none. */
  mailboxes(loginName: string): Mailbox[] {
    const account = this.#directory.findAccount(loginName)
    if (account?.kind !== 'USER' || !this.hosts(loginName)) return []
    const { firstName, lastName } = account.record
    const name = [firstName, lastName].filter(Boolean).join(' ') || loginName
    return [{ id: loginName, name, capabilities: { ...CAPABILITIES } }]
  }

  /**
   * The mailbox's counters, after `checkPassword` (the caller's check of the owner's password, which throws
   * when it is refused), if given: none when the client asks for the session user's own (`withUserPwd`).
   * The mailbox is checked first, so that an unknown one is not found whatever the password.
   */
  async info(
    loginName: string,
    mailboxId: string,
    checkPassword?: () => Promise<void>,
  ): Promise<MailboxInfo> {
    this.#requireMailbox(loginName, mailboxId)
    await checkPassword?.()
    const counters = await this.#store.counters(mailboxId)
    return {
      totalVoiceMsg: counters.total,
      newVoiceMsg: counters.unread,
      storageUsage: Math.min(100, Math.ceil((counters.bytes * 100) / MAILBOX_CAPACITY_BYTES)),
    }
  }

  /** One page of the mailbox's messages, newest first. */
  async list(
    loginName: string,
    mailboxId: string,
    query: { newOnly: boolean; offset: number; limit: number },
  ): Promise<VoiceMessage[]> {
    this.#requireMailbox(loginName, mailboxId)
    return (await this.#store.list(mailboxId, query)).map(shown)
  }

  /**
   * The message's audio, the message then read (OnMessageUpdated when it was unread). `check` sees the
   * audio first: what it throws leaves the message as it was.
   */
  async download(
    loginName: string,
    mailboxId: string,
    voicemailId: string,
    check?: (audio: Uint8Array) => void,
  ): Promise<{ message: VoiceMessage; audio: Uint8Array }> {
    this.#requireMailbox(loginName, mailboxId)
    const found = await this.#store.find(mailboxId, voicemailId)
    const audio = found && (await this.#store.audio(mailboxId, voicemailId))
    if (found === undefined || audio === undefined)
      throw new PlatformError('NOT_FOUND', `No voice message '${voicemailId}' in '${mailboxId}'`)
    check?.(audio)
    const read = await this.#store.markRead(mailboxId, voicemailId)
    if (read !== undefined) {
      this.#events.publish({
        eventName: 'OnMessageUpdated',
        loginName: mailboxId,
        mailboxId,
        voiceMessage: shown(read),
      })
      await this.#summary.changed(mailboxId)
    }
    return { message: shown(read ?? found), audio }
  }

  /**
   * Deletes the mailbox's messages among `voicemailIds` (OnMessageDeleted); NOT_FOUND, deleting nothing,
   * when one of them is not in the mailbox.
   */
  async delete(
    loginName: string,
    mailboxId: string,
    voicemailIds: readonly string[],
  ): Promise<void> {
    this.#requireMailbox(loginName, mailboxId)
    for (const voicemailId of voicemailIds)
      if ((await this.#store.find(mailboxId, voicemailId)) === undefined)
        throw new PlatformError('NOT_FOUND', `No voice message '${voicemailId}' in '${mailboxId}'`)
    const deleted = await this.#store.delete(mailboxId, voicemailIds)
    if (deleted.length === 0) return
    this.#events.publish({
      eventName: 'OnMessageDeleted',
      loginName: mailboxId,
      mailboxId,
      voicemailIds: deleted.map((message) => message.voicemailId),
    })
    if (deleted.some((message) => message.unread)) await this.#summary.changed(mailboxId)
  }

  /** How many unread messages the user's mailbox holds (the event summary's voiceMessagesNb). */
  /** Forgets the recordings uploaded for coming messages: a reset or restore (docs/sandbox.md). */
  restored(): void {
    this.#pending.clear()
  }

  async unreadCount(loginName: string): Promise<number> {
    if (!this.hosts(loginName)) return 0
    return (await this.#store.counters(loginName)).unread
  }

  /**
   * Queues a recording (a WAV file, already checked) for the next message left in the mailbox, by anyone
   * or, with `from`, by the caller with that number or login name. NOT_FOUND for a mailbox not hosted.
   */
  queueRecording(mailboxId: string, audio: Uint8Array, from?: string): number {
    if (!this.hosts(mailboxId))
      throw new PlatformError('NOT_FOUND', `No mailbox '${mailboxId}' on this platform`)
    if (audio.byteLength > MAX_VOICE_MESSAGE_BYTES)
      throw new PlatformError('BAD_PARAMETER', `body: above ${MAX_VOICE_MESSAGE_BYTES} bytes`)
    const queue = this.#pending.get(mailboxId) ?? []
    if (queue.length >= MAX_PENDING_RECORDINGS)
      throw new PlatformError(
        'NOT_ALLOWED',
        `mailbox '${mailboxId}' already holds ${MAX_PENDING_RECORDINGS} recordings to come`,
      )
    queue.push({ audio, ...(from !== undefined && { from }) })
    this.#pending.set(mailboxId, queue)
    return queue.length
  }

  /**
   * Leaves a message in the mailbox (OnMessageAdded, a new event summary): the recording uploaded for it,
   * else tones as long as the message. Nothing is left in a mailbox not hosted or full.
   */
  async deposit({ loginName, from, duration }: Deposit): Promise<StoredVoiceMessage | undefined> {
    if (!this.hosts(loginName)) return undefined
    const audio = this.#takeRecording(loginName, from) ?? toneMessage(duration)
    const { bytes } = await this.#store.counters(loginName)
    if (bytes + audio.byteLength > MAILBOX_CAPACITY_BYTES) return undefined
    const stored = await this.#store.add({
      voicemailId: randomUUID(),
      loginName,
      from,
      depositedAt: this.#clock.now(),
      duration,
      unread: true,
      highPriority: false,
      audio,
    })
    this.#events.publish({
      eventName: 'OnMessageAdded',
      loginName,
      mailboxId: loginName,
      voiceMessage: shown(stored),
    })
    await this.#summary.changed(loginName)
    return stored
  }

  #takeRecording(loginName: string, from: PartyInfo): Uint8Array | undefined {
    const queue = this.#pending.get(loginName)
    if (queue === undefined) return undefined
    const caller = [from.id.phoneNumber, from.id.loginName]
    const index = queue.findIndex(
      (recording) => recording.from === undefined || caller.includes(recording.from),
    )
    if (index < 0) return undefined
    const [taken] = queue.splice(index, 1)
    if (queue.length === 0) this.#pending.delete(loginName)
    return taken?.audio
  }

  /** NOT_FOUND unless `mailboxId` is the acting user's own mailbox, hosted here. */
  #requireMailbox(loginName: string, mailboxId: string): void {
    if (mailboxId !== loginName || !this.hosts(mailboxId))
      throw new PlatformError('NOT_FOUND', `No mailbox '${mailboxId}'`)
  }
}

/** A stored message as the wire shows it. */
function shown(message: StoredVoiceMessage): VoiceMessage {
  return {
    voicemailId: message.voicemailId,
    from: message.from,
    duration: message.duration,
    date: new Date(message.depositedAt).toISOString(),
    unread: message.unread,
    highPriority: message.highPriority,
  }
}
