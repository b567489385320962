/** The MiniMessageStore port in memory: for unit tests, and the conformance suite's reference. */
import type {
  MiniMessageStore,
  PushOutcome,
  StoredMiniMessage,
} from '../../platform/mini-messages/mini-message-store.js'

export class MemoryMiniMessageStore implements MiniMessageStore {
  /** Each user's queue, oldest first; copies in and out, as the SQL store's rows are. */
  readonly #queues = new Map<string, StoredMiniMessage[]>()

  async push(message: StoredMiniMessage, capacity: number): Promise<PushOutcome> {
    const queue = this.#queues.get(message.loginName) ?? []
    const queuedAlready = [...this.#queues.values()].some((held) =>
      held.some((other) => other.messageId === message.messageId),
    )
    if (queuedAlready) return { queued: true, unread: queue.length }
    if (queue.length >= capacity) return { queued: false, unread: queue.length }
    queue.push({ ...message })
    this.#queues.set(message.loginName, queue)
    return { queued: true, unread: queue.length }
  }

  async take(loginName: string): Promise<StoredMiniMessage | undefined> {
    const queue = this.#queues.get(loginName)
    const taken = queue?.pop()
    if (queue?.length === 0) this.#queues.delete(loginName)
    return taken
  }

  async list(loginName: string): Promise<StoredMiniMessage[]> {
    return [...(this.#queues.get(loginName) ?? [])].reverse().map((message) => ({ ...message }))
  }

  async count(loginName: string): Promise<number> {
    return this.#queues.get(loginName)?.length ?? 0
  }
}
