/**
 * A node's ChangeNotices that tells a test when the node has applied a notice (its follower's reload settled),
 * so that tests of several nodes wait for exactly that rather than for a time.
 */
import type {
  ChangeFollower,
  ChangeNotices,
  ChangeTopic,
} from '../../src/platform/change-notices.js'

interface Waiter {
  topic: ChangeTopic
  key: string
  resolve(): void
}

export class TrackedChangeNotices implements ChangeNotices {
  /** Every notice this node applied, in the order its reloads settled. */
  readonly applied: { topic: ChangeTopic; key: string }[] = []
  #waiters: Waiter[] = []

  constructor(private readonly inner: ChangeNotices) {}

  announce(topic: ChangeTopic, key: string): Promise<void> {
    return this.inner.announce(topic, key)
  }

  follow(topic: ChangeTopic, onNotice: (key: string) => void | Promise<void>): ChangeFollower {
    return this.inner.follow(topic, async (key) => {
      await onNotice(key)
      this.applied.push({ topic, key })
      const [done, waiting] = partition(this.#waiters, (w) => w.topic === topic && w.key === key)
      this.#waiters = waiting
      for (const waiter of done) waiter.resolve()
    })
  }

  close(): Promise<void> {
    return this.inner.close()
  }

  /**
   * Resolves once the node applies the next notice of `key` in `topic` (ask before making the change on the
   * other node); rejects after `timeoutMs`, naming what it waited for.
   */
  next(topic: ChangeTopic, key: string, timeoutMs = 5_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== entry)
        reject(new Error(`no notice of ${topic} ${key} applied within ${timeoutMs} ms`))
      }, timeoutMs)
      const entry: Waiter = {
        topic,
        key,
        resolve: () => {
          clearTimeout(timer)
          resolve()
        },
      }
      this.#waiters.push(entry)
    })
  }
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = []
  const no: T[] = []
  for (const item of items) (test(item) ? yes : no).push(item)
  return [yes, no]
}
