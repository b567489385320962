/**
 * What a node heard of the other nodes' change notices of one topic, key by key (docs/cluster.md, "Events in the
 * order of the changes"): a change that found a record moved on by another node waits for that node's notice,
 * which it sends once its change's events are in the subscriptions' logs, before it plans again and publishes
 * its own: the two changes' events then reach every subscription in the order the changes were stored.
 */
import { EVERY_KEY } from './change-notices.js'
import type { Clock } from './events.js'

/** How long a change waits for the notice of the change that came first, at most (a node that died never sends it). */
export const NOTICE_WAIT_MS = 1_000

export class NoticesHeard {
  readonly #heard = new Map<string, number>()
  readonly #waiting = new Set<() => void>()

  constructor(private readonly clock: Clock) {}

  /** Counts a notice of `key` (EVERY_KEY counts for every key). */
  hear(key: string): void {
    this.#heard.set(key, (this.#heard.get(key) ?? 0) + 1)
    for (const wake of [...this.#waiting]) wake()
  }

  /** How many notices of `key` were heard so far, those of EVERY_KEY included. */
  count(key: string): number {
    return (this.#heard.get(key) ?? 0) + (this.#heard.get(EVERY_KEY) ?? 0)
  }

  /** Resolves once a notice of `key` was heard past `count` (at once if one was), or after NOTICE_WAIT_MS. */
  after(key: string, count: number): Promise<void> {
    if (this.count(key) > count) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        this.#waiting.delete(check)
        timer.cancel()
        resolve()
      }
      const check = () => {
        if (this.count(key) > count) done()
      }
      const timer = this.clock.setTimer(NOTICE_WAIT_MS, done)
      this.#waiting.add(check)
    })
  }
}
