/**
 * Change notices in the process (docs/cluster.md, "What each node keeps in memory"). The embedded mode has one
 * node, which applied its own changes already: an announce tells nobody and costs nothing. Tests of several
 * nodes in one process give each node its own MemoryChangeNotices over one shared MemoryNoticeHub; a notice
 * then reaches the other nodes' followers in a microtask, as one from Redis arrives after the announce, and the
 * announce resolves once they applied it, as the Redis adapter's does once they acknowledged it.
 */
import type { ChangeFollower, ChangeNotices, ChangeTopic } from '../../platform/change-notices.js'
import { ChangeFollowers, type OnNotice } from '../change-followers.js'

/** The nodes of one process that hear each other's notices. */
export class MemoryNoticeHub {
  readonly nodes = new Set<MemoryChangeNotices>()
}

export class MemoryChangeNotices implements ChangeNotices {
  readonly #hub: MemoryNoticeHub
  readonly #followers = new ChangeFollowers()

  /** A node alone (the embedded mode), or one of the nodes of `hub`. */
  constructor(hub: MemoryNoticeHub = new MemoryNoticeHub()) {
    this.#hub = hub
    hub.nodes.add(this)
  }

  /** Resolves once every other node of the hub applied the notice (their followers settled). */
  announce(topic: ChangeTopic, key: string): Promise<void> {
    const applied: Promise<void>[] = []
    for (const node of this.#hub.nodes)
      if (node !== this)
        applied.push(
          new Promise((resolve) => queueMicrotask(() => resolve(node.#followers.tell(topic, key)))),
        )
    return applied.length === 0 ? Promise.resolve() : Promise.all(applied).then(() => undefined)
  }

  follow(topic: ChangeTopic, onNotice: OnNotice): ChangeFollower {
    return this.#followers.add(topic, onNotice)
  }

  async close(): Promise<void> {
    this.#hub.nodes.delete(this)
    this.#followers.clear()
  }
}
