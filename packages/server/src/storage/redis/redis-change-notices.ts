/**
 * Change notices on Redis pub/sub (the cluster mode; docs/cluster.md, "What each node keeps in memory"): one
 * channel for the cluster, `{prefix}change-notices` (ioredis prefixes keys, not channels: the name carries the
 * prefix, so that clusters sharing a Redis never hear each other), carrying `{"node", "topic", "key"}`. Each
 * node holds one subscribed connection (`client.duplicate()`) and ignores its own notices by its node id.
 * Pub/sub keeps nothing for a subscriber that is away: when the connection comes back, the node subscribes
 * again and, once Redis confirmed it, tells every follower to reload everything.
 */
import type { Redis } from 'ioredis'
import type { ChangeFollower, ChangeNotices, ChangeTopic } from '../../platform/ports.js'
import { ChangeFollowers, type OnNotice } from '../change-followers.js'

/** What a node needs to take part. */
export interface RedisChangeNoticesOptions {
  /** This node's id: its notices carry it, and it ignores those that do. */
  nodeId: string
  /** Told of a notice that could not be sent, or a subscription that could not be made again. */
  onError?: (error: unknown) => void
}

/** A notice as the channel carries it. */
interface Notice {
  node: string
  topic: ChangeTopic
  key: string
}

/** The channel of the cluster whose keys `client` prefixes. */
export function changeNoticeChannel(client: Redis): string {
  return `${client.options.keyPrefix ?? ''}change-notices`
}

export class RedisChangeNotices implements ChangeNotices {
  readonly #followers = new ChangeFollowers()
  readonly #channel: string
  readonly #onError: (error: unknown) => void
  #closed = false

  private constructor(
    private readonly client: Redis,
    private readonly subscriber: Redis,
    private readonly nodeId: string,
    onError: ((error: unknown) => void) | undefined,
  ) {
    this.#channel = changeNoticeChannel(client)
    this.#onError = onError ?? (() => {})
  }

  /**
   * Subscribes the cluster's channel on a connection of its own, before the node loads what it keeps:
   * a change stored after the subscription is heard of, one stored before it is read by the load.
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
    const notices = new RedisChangeNotices(client, subscriber, options.nodeId, options.onError)
    subscriber.on('message', (_channel: string, message: string) => notices.#hear(message))
    await subscriber.subscribe(notices.#channel)
    subscriber.on('ready', () => notices.#resubscribe())
    return notices
  }

  announce(topic: ChangeTopic, key: string): Promise<void> {
    const notice: Notice = { node: this.nodeId, topic, key }
    return this.client.publish(this.#channel, JSON.stringify(notice)).then(
      () => undefined,
      (error: unknown) => this.#onError(error),
    )
  }

  follow(topic: ChangeTopic, onNotice: OnNotice): ChangeFollower {
    return this.#followers.add(topic, onNotice)
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#followers.clear()
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
    if (notice.node !== this.nodeId) this.#followers.tell(notice.topic, notice.key)
  }

  /** The connection came back: subscribe again, then reload everything that may have changed meanwhile. */
  #resubscribe(): void {
    if (this.#closed) return
    this.subscriber.subscribe(this.#channel).then(
      () => {
        if (!this.#closed) this.#followers.tellEverything()
      },
      (error: unknown) => this.#onError(error),
    )
  }
}
