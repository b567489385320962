/**
 * The followers of one node's change notices, by topic (docs/cluster.md, "What each node keeps in memory"),
 * shared by the memory and Redis adapters of ChangeNotices: a notice is told to every follower of its topic;
 * one that came while nobody followed its topic makes the topic's next follower reload everything.
 */
import { type ChangeFollower, type ChangeTopic, EVERY_KEY } from '../platform/change-notices.js'

/** What a follower is told: a key, or EVERY_KEY. */
export type OnNotice = (key: string) => void | Promise<void>

export class ChangeFollowers {
  readonly #followers = new Map<ChangeTopic, Set<OnNotice>>()
  /** Topics whose notices came while nobody followed them. */
  readonly #missed = new Set<ChangeTopic>()
  /** Notices were lost while no topic was known yet: every topic first followed from now on missed some. */
  #unknownMissed = false

  /** Adds a follower of `topic`; told EVERY_KEY in a microtask when notices of the topic were missed. */
  add(topic: ChangeTopic, onNotice: OnNotice): ChangeFollower {
    let followers = this.#followers.get(topic)
    if (followers === undefined) {
      followers = new Set()
      this.#followers.set(topic, followers)
      if (this.#unknownMissed) this.#missed.add(topic)
    }
    const own = followers
    // Each follower is its own entry, even when the same function follows twice.
    const entry: OnNotice = (key) => onNotice(key)
    own.add(entry)
    if (this.#missed.delete(topic))
      queueMicrotask(() => {
        if (own.has(entry)) void entry(EVERY_KEY)
      })
    return { close: () => void own.delete(entry) }
  }

  /**
   * Tells every follower of `topic` of `key`, each at once; remembers the topic as missed when none follows it.
   * Resolves once what every follower did about it settled: the node applied the notice (docs/cluster.md,
   * "Read your writes"). Never rejects: a follower handles its own failures.
   */
  tell(topic: ChangeTopic, key: string): Promise<void> {
    const followers = this.#followers.get(topic)
    if (followers === undefined || followers.size === 0) {
      this.#missed.add(topic)
      return Promise.resolve()
    }
    const applied = [...followers].map((onNotice) => {
      try {
        return Promise.resolve(onNotice(key))
      } catch (error) {
        return Promise.reject(error)
      }
    })
    return Promise.allSettled(applied).then(() => undefined)
  }

  /** Notices may have been lost: tells every follower EVERY_KEY, and every topic not followed is missed. */
  tellEverything(): void {
    this.#unknownMissed = true
    for (const topic of this.#followers.keys()) void this.tell(topic, EVERY_KEY)
  }

  /** Forgets every follower. */
  clear(): void {
    this.#followers.clear()
  }
}
