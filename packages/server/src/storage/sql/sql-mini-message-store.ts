/**
 * The MiniMessageStore port in the `mini_message` table (migration 0012): one row per unread message, its place in
 * its recipient's queue in `position`. Several nodes push and take at once (docs/ports.md, "Several writers"): a
 * push reads the queue's length and writes in one serializable transaction, run again when another writer came
 * between (so a queue never passes its bound); a take deletes the row it read and answers only what it deleted.
 */
import type { Kysely, Selectable } from 'kysely'
import type {
  MiniMessageStore,
  PushOutcome,
  StoredMiniMessage,
} from '../../platform/mini-messages/mini-message-store.js'
import type { MiniMessageDatabase, MiniMessageTable } from './database.js'
import { isUniqueViolation, isWriteConflict } from './revision.js'

/** How many times a push that met a concurrent one runs again before it fails with it. */
const PUSH_ATTEMPTS = 16
/** The most a push waits before it runs again, per attempt so far (milliseconds, drawn at random). */
const RETRY_SPREAD_MS = 4

export class SqlMiniMessageStore implements MiniMessageStore {
  /** Uses `db` (from `miniMessageTables`) without owning it: whoever opened it closes it. */
  constructor(private readonly db: Kysely<MiniMessageDatabase>) {}

  async push(message: StoredMiniMessage, capacity: number): Promise<PushOutcome> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#pushOnce(message, capacity)
      } catch (error) {
        // Two pushes to one queue at once: PostgreSQL refuses one (serialization, or the queue's unique place).
        const retried = isWriteConflict(error) || isUniqueViolation(error)
        if (!retried || attempt === PUSH_ATTEMPTS) throw error
        // Apart, so that the pushes that met do not meet again at once.
        await new Promise((resolve) =>
          setTimeout(resolve, Math.random() * attempt * RETRY_SPREAD_MS),
        )
      }
    }
  }

  #pushOnce(message: StoredMiniMessage, capacity: number): Promise<PushOutcome> {
    return this.db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (trx) => {
        const queue = await trx
          .selectFrom('mini_message')
          .select((eb) => [eb.fn.countAll().as('unread'), eb.fn.max('position').as('last')])
          .where('login_name', '=', message.loginName)
          .executeTakeFirstOrThrow()
        const unread = Number(queue.unread)
        const queuedAlready = await trx
          .selectFrom('mini_message')
          .select('message_id')
          .where('message_id', '=', message.messageId)
          .executeTakeFirst()
        if (queuedAlready !== undefined) return { queued: true, unread }
        if (unread >= capacity) return { queued: false, unread }
        await trx
          .insertInto('mini_message')
          .values({
            message_id: message.messageId,
            login_name: message.loginName,
            position: Number(queue.last ?? 0) + 1,
            sender: message.sender,
            sent_at: message.sentAt,
            text: message.text,
          })
          .execute()
        return { queued: true, unread: unread + 1 }
      })
  }

  async take(loginName: string): Promise<StoredMiniMessage | undefined> {
    // A row another node took between the read and the delete is not answered: the next one is read.
    for (;;) {
      const newest = await this.db
        .selectFrom('mini_message')
        .select('message_id')
        .where('login_name', '=', loginName)
        .orderBy('position', 'desc')
        .limit(1)
        .executeTakeFirst()
      if (newest === undefined) return undefined
      const taken = await this.db
        .deleteFrom('mini_message')
        .where('message_id', '=', newest.message_id)
        .returningAll()
        .executeTakeFirst()
      if (taken !== undefined) return messageOf(taken)
    }
  }

  async list(loginName: string): Promise<StoredMiniMessage[]> {
    const rows = await this.db
      .selectFrom('mini_message')
      .selectAll()
      .where('login_name', '=', loginName)
      .orderBy('position', 'desc')
      .execute()
    return rows.map(messageOf)
  }

  async count(loginName: string): Promise<number> {
    const row = await this.db
      .selectFrom('mini_message')
      .select((eb) => eb.fn.countAll().as('unread'))
      .where('login_name', '=', loginName)
      .executeTakeFirstOrThrow()
    return Number(row.unread)
  }
}

function messageOf(row: Selectable<MiniMessageTable>): StoredMiniMessage {
  return {
    messageId: row.message_id,
    loginName: row.login_name,
    sender: row.sender,
    sentAt: Number(row.sent_at),
    text: row.text,
  }
}
