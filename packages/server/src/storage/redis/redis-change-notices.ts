/**
 * Change notices on Redis pub/sub (the cluster mode; docs/cluster.md, "What each node keeps in memory" and "Read
 * your writes"): one channel for the cluster, `{prefix}change-notices` (ioredis prefixes keys, not channels: the
 * name carries the prefix, so that clusters sharing a Redis never hear each other), carrying
 * `{"node", "topic", "key", "id"}`. Each node holds one subscribed connection (`client.duplicate()`) on it and on
 * its own acknowledgement channel, `{prefix}change-acks:{nodeId}`. A node that hears another's notice tells its
 * followers, and once they settled publishes the notice's id on the announcer's acknowledgement channel; the
 * announce resolves once as many nodes acknowledged as `PUBLISH` said received the notice (the announcer's own
 * connection among them, counted when it hears its own notice), or at the bound. Pub/sub keeps nothing for a
 * subscriber that is away: when the connection comes back, the node subscribes again and, once Redis confirmed
 * it, tells every follower to reload everything.
 */
import type { Redis } from 'ioredis'
import type { ChangeFollower, ChangeNotices, ChangeTopic } from '../../platform/change-notices.js'
import { ChangeFollowers, type OnNotice } from '../change-followers.js'

/** How long an announce waits for the other nodes to apply its notice, by default. */
export const DEFAULT_ACKNOWLEDGE_TIMEOUT_MS = 2_000

/** What a node needs to take part. */
export interface RedisChangeNoticesOptions {
  /** This node's id: its notices carry it, and it ignores those that do. */
  nodeId: string
  /** Told of a notice that could not be sent, a subscription that could not be made again, a late node. */
  onError?: (error: unknown) => void
  /**
   * How long an announce waits for every node that heard the notice to apply it (system time); past it, the
   * announce resolves and the nodes that did not confirm are reported.
   */
  acknowledgeTimeoutMs?: number
}

/** A notice as the channel carries it. */
interface Notice {
  node: string
  topic: ChangeTopic
  key: string
  /** The announcer's number for the notice, which the nodes that applied it publish on its channel. */
  id: string
}

/** An announce waiting for the nodes that heard its notice to apply it. */
interface Waiting {
  topic: ChangeTopic
  key: string
  /** How many nodes acknowledged it so far (this one included, once it heard its own notice). */
  acknowledged: number
  /** How many connections received it (`PUBLISH`'s answer); undefined until Redis answered. */
  received: number | undefined
  done(): void
  timer: ReturnType<typeof setTimeout>
}

/** The channel of the cluster whose keys `client` prefixes. */
export function changeNoticeChannel(client: Redis): string {
  return `${client.options.keyPrefix ?? ''}change-notices`
}

/** The channel on which `nodeId` hears that the other nodes applied its notices. */
export function changeAcknowledgementChannel(client: Redis, nodeId: string): string {
  return `${client.options.keyPrefix ?? ''}change-acks:${nodeId}`
}

export class RedisChangeNotices implements ChangeNotices {
  readonly #followers = new ChangeFollowers()
  readonly #channel: string
  readonly #acknowledgements: string
  readonly #onError: (error: unknown) => void
  readonly #timeoutMs: number
  readonly #waiting = new Map<string, Waiting>()
  #sequence = 0
  #closed = false

  private constructor(
    private readonly client: Redis,
    private readonly subscriber: Redis,
    private readonly nodeId: string,
    options: RedisChangeNoticesOptions,
  ) {
    this.#channel = changeNoticeChannel(client)
    this.#acknowledgements = changeAcknowledgementChannel(client, nodeId)
    this.#onError = options.onError ?? (() => {})
    this.#timeoutMs = options.acknowledgeTimeoutMs ?? DEFAULT_ACKNOWLEDGE_TIMEOUT_MS
  }

  /**
   * Subscribes the cluster's channel and this node's acknowledgements on a connection of its own, before the
   * node loads what it keeps: a change stored after the subscription is heard of, one stored before it is read
   * by the load.
   */
  static async open(
    client: Redis,
    options: RedisChangeNoticesOptions,
  ): Promise<RedisChangeNotices> {
    const subscriber = client.duplicate({
      connectionName: `openness-change-notices-${options.nodeId}`,
      lazyConnect: true,
      // Subscribed again by hand on each reconnection, so that followers reload only once it holds.
      autoResubscribe: false,
    })
    await subscriber.connect()
    const notices = new RedisChangeNotices(client, subscriber, options.nodeId, options)
    subscriber.on('message', (channel: string, message: string) =>
      channel === notices.#acknowledgements
        ? notices.#acknowledged(message, 1)
        : notices.#hear(message),
    )
    await subscriber.subscribe(notices.#channel, notices.#acknowledgements)
    subscriber.on('ready', () => notices.#resubscribe())
    return notices
  }

  announce(topic: ChangeTopic, key: string): Promise<void> {
    if (this.#closed) return Promise.resolve()
    this.#sequence += 1
    const id = String(this.#sequence)
    const notice: Notice = { node: this.nodeId, topic, key, id }
    return new Promise<void>((resolve) => {
      const waiting: Waiting = {
        topic,
        key,
        acknowledged: 0,
        received: undefined,
        done: () => {
          clearTimeout(waiting.timer)
          this.#waiting.delete(id)
          resolve()
        },
        timer: setTimeout(() => this.#late(waiting), this.#timeoutMs),
      }
      waiting.timer.unref()
      this.#waiting.set(id, waiting)
      this.client.publish(this.#channel, JSON.stringify(notice)).then(
        (received) => {
          waiting.received = received
          this.#acknowledged(id, 0)
        },
        (error: unknown) => {
          this.#onError(error)
          waiting.done()
        },
      )
    })
  }

  follow(topic: ChangeTopic, onNotice: OnNotice): ChangeFollower {
    return this.#followers.add(topic, onNotice)
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#followers.clear()
    for (const waiting of [...this.#waiting.values()]) waiting.done()
    this.subscriber.removeAllListeners('message')
    await this.subscriber.quit()
  }

  #hear(message: string): void {
    if (this.#closed) return
    let notice: Notice
    try {
      notice = JSON.parse(message) as Notice
    } catch (error) {
      this.#onError(error)
      return
    }
    // Its own notice: this node applied the change before it announced it.
    if (notice.node === this.nodeId) {
      this.#acknowledged(notice.id, 1)
      return
    }
    void this.#followers.tell(notice.topic, notice.key).then(() => {
      if (this.#closed || notice.id === undefined) return
      this.client
        .publish(changeAcknowledgementChannel(this.client, notice.node), notice.id)
        .catch((error: unknown) => this.#onError(error))
    })
  }

  /** Counts `count` more acknowledgements of the notice `id`; its announce resolves once all came. */
  #acknowledged(id: string, count: number): void {
    const waiting = this.#waiting.get(id)
    if (waiting === undefined) return
    waiting.acknowledged += count
    if (waiting.received !== undefined && waiting.acknowledged >= waiting.received) waiting.done()
  }

  /** The bound passed: the announce resolves, and the nodes that did not confirm are reported. */
  #late(waiting: Waiting): void {
    const missing =
      waiting.received === undefined
        ? 'the nodes'
        : `${waiting.received - waiting.acknowledged} node(s)`
    this.#onError(
      new Error(
        `${missing} did not confirm within ${this.#timeoutMs} ms that they applied the change of ` +
          `${waiting.topic} ${waiting.key}: they may answer from their copy until they do`,
      ),
    )
    waiting.done()
  }

  /** The connection came back: subscribe again, then reload everything that may have changed meanwhile. */
  #resubscribe(): void {
    if (this.#closed) return
    this.subscriber.subscribe(this.#channel, this.#acknowledgements).then(
      () => {
        if (!this.#closed) this.#followers.tellEverything()
      },
      (error: unknown) => this.#onError(error),
    )
  }
}
