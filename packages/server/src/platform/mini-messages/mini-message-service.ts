/**
 * Mini messages (docs/telephony-api.md, "Mini messages"; client census 2, 5a): short texts a user sends to another
 * user's set, kept in the recipient's queue until read, read one at a time, the most recent unread first, and gone
 * once read. The event summary counts them (`newTextNb`); no event of their own is sent, since no SDK parses one.
 */
import { randomUUID } from 'node:crypto'
import type { MiniMessage } from '@openness/wire'
import type { UserAccount } from '../directory/account.js'
import type { Clock } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { MiniMessageStore, StoredMiniMessage } from './mini-message-store.js'
import { miniMessageText } from './mini-message-text.js'

/** The unread messages a user's queue holds at most: a send beyond is refused, nothing is dropped. */
export const MAX_UNREAD_MINI_MESSAGES = 32

/** Where the users are found: by a phone number (company phone or device) or a login name. */
export interface MiniMessageDirectory {
  findUser(loginName: string): UserAccount | undefined
  findUserBy(key: 'companyPhone', value: string): UserAccount | undefined
}

/** What the service is built from. */
export interface MiniMessageServiceOptions {
  store: MiniMessageStore
  directory: MiniMessageDirectory
  clock: Clock
  /** Told each time a user's count of unread messages changed (the event summary). */
  summary: { changed(loginName: string): Promise<void> }
  /** The queue's bound; MAX_UNREAD_MINI_MESSAGES when not given. */
  capacity?: number
  /** A new message's id when the request carries none (tests give a counter). */
  newId?: () => string
}

/** What a send did. */
export interface SentMiniMessage {
  /** The recipient's login name. */
  recipient: string
  /** The messages its queue holds now, this one included. */
  unread: number
}

export class MiniMessageService {
  readonly #store: MiniMessageStore
  readonly #directory: MiniMessageDirectory
  readonly #clock: Clock
  readonly #summary: MiniMessageServiceOptions['summary']
  readonly #newId: () => string
  /** The queue's bound. */
  readonly capacity: number

  constructor(options: MiniMessageServiceOptions) {
    this.#store = options.store
    this.#directory = options.directory
    this.#clock = options.clock
    this.#summary = options.summary
    this.capacity = options.capacity ?? MAX_UNREAD_MINI_MESSAGES
    this.#newId = options.newId ?? randomUUID
  }

  /**
   * Sends `text` from the user `from` to the user `recipient` names (a phone number, else a login name), sender
   * included. Checks everything before it writes: a bad text is 400 BAD_PARAMETER, an unknown recipient 404
   * NOT_FOUND, a full queue 403 NOT_EXPECTED. `messageId`, when the request carries one (its Idempotency-Key),
   * makes a retry of the same request queue nothing more.
   */
  async send(
    from: UserAccount,
    recipient: unknown,
    text: unknown,
    messageId?: string,
  ): Promise<SentMiniMessage> {
    const checked = miniMessageText(text)
    return this.#queue(from, this.user(recipient, 'recipient'), checked, messageId)
  }

  /** Sends `text` from `from` to `to`, as `send` does (the control plane names the recipient itself). */
  async sendTo(from: UserAccount, to: UserAccount, text: unknown): Promise<SentMiniMessage> {
    return this.#queue(from, to, miniMessageText(text))
  }

  async #queue(
    from: UserAccount,
    to: UserAccount,
    text: string,
    messageId?: string,
  ): Promise<SentMiniMessage> {
    const message: StoredMiniMessage = {
      messageId: messageId ?? this.#newId(),
      loginName: to.loginName,
      sender: phoneNumberOf(from),
      sentAt: this.#clock.now(),
      text,
    }
    const outcome = await this.#store.push(message, this.capacity)
    if (!outcome.queued)
      throw new PlatformError(
        'NOT_EXPECTED',
        `recipient: '${to.loginName}' already has ${outcome.unread} unread mini messages, the most a user holds; send it again once some are read`,
      )
    await this.#summary.changed(to.loginName)
    return { recipient: to.loginName, unread: outcome.unread }
  }

  /** Takes the user's most recent unread message away and answers it; undefined when none is left. */
  async read(loginName: string): Promise<MiniMessage | undefined> {
    const taken = await this.#store.take(loginName)
    if (taken === undefined) return undefined
    await this.#summary.changed(loginName)
    return shown(taken)
  }

  /** The user's unread messages, most recent first (the order `read` takes them in), left unread. */
  async unread(loginName: string): Promise<MiniMessage[]> {
    return (await this.#store.list(loginName)).map(shown)
  }

  /** How many unread messages the user has (the event summary's newTextNb). */
  unreadCount(loginName: string): Promise<number> {
    return this.#store.count(loginName)
  }

  /**
   * The user `numberOrLogin` names: the one with that company phone or device, else that login name; 400
   * BAD_PARAMETER when it is no text, 404 NOT_FOUND naming `field` when no user has it.
   */
  user(numberOrLogin: unknown, field: string): UserAccount {
    if (typeof numberOrLogin !== 'string' || numberOrLogin === '')
      throw new PlatformError('BAD_PARAMETER', `${field}: is required`)
    const user =
      this.#directory.findUserBy('companyPhone', numberOrLogin) ??
      this.#directory.findUser(numberOrLogin)
    if (user === undefined)
      throw new PlatformError(
        'NOT_FOUND',
        `${field}: no user has the number or login name '${numberOrLogin}'`,
      )
    return user
  }
}

/**
 * The number a user's messages come from (the SDKs document the sender as a phone number): its company phone,
 * else its main device, else its first device; its login name for a user without any.
 */
export function phoneNumberOf(user: UserAccount): string {
  const { companyPhone, devices = [] } = user.record
  if (companyPhone) return companyPhone
  const main = devices.find((device) => device.role === 'MAIN' && device.id) ?? devices[0]
  return main?.id || user.loginName
}

/** A stored message as the wire shows it: the time under both names the SDKs read. */
function shown(message: StoredMiniMessage): MiniMessage {
  const time = new Date(message.sentAt).toISOString()
  return { sender: message.sender, dateTime: time, date: time, message: message.text }
}
