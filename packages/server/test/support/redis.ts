/**
 * Redis for tests (docs/cluster.md): REDIS_URL names the server (CI sets it when one answers on 127.0.0.1:6379);
 * each suite gets a key prefix of its own, so that concurrent runs never meet, and its keys are deleted after
 * it. Suites that need Redis declare themselves with `describeWithRedis`, which skips them, with the reason,
 * when no server is named.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe } from 'vitest'
import { connectRedis, type RedisTarget } from '../../src/storage/redis/redis-client.js'

const { REDIS_URL: redisUrl } = process.env

/** Declares `suite` when REDIS_URL names a Redis server, else a skipped suite saying why. */
export function describeWithRedis(name: string, suite: (redis: TestRedis) => void): void {
  describe.skipIf(redisUrl === undefined)(
    redisUrl === undefined ? `${name} (skipped: REDIS_URL is not set)` : name,
    () => {
      const redis = new TestRedis(redisUrl ?? '')
      afterAll(() => redis.cleanUp())
      suite(redis)
    },
  )
}

/** The suite's Redis: clients on a prefix of its own, every key under it deleted at the end. */
export class TestRedis {
  readonly target: RedisTarget
  readonly #clients: Redis[] = []

  constructor(url: string) {
    this.target = { url, keyPrefix: `openness-test-${randomBytes(6).toString('hex')}:` }
  }

  /** A client on the suite's prefix, closed at the end of the suite. */
  async client(): Promise<Redis> {
    const client = await connectRedis(this.target, 'openness-test')
    this.#clients.push(client)
    return client
  }

  /**
   * The commands clients sent on the suite's prefix while `action` ran (lower-case names, in order; the commands a
   * script runs are left out: only what the clients sent counts), through MONITOR on a connection of its own.
   */
  async commandsDuring(action: () => Promise<unknown>): Promise<string[]> {
    const monitor = new Redis(this.target.url)
    const commands: string[] = []
    try {
      const watching = await monitor.monitor()
      watching.on('monitor', (_time: string, args: string[], source: string) => {
        if (source !== 'lua' && args.some((arg) => arg.startsWith(this.target.keyPrefix)))
          commands.push((args[0] ?? '').toLowerCase())
      })
      await action()
      // MONITOR reports a command after running it: let the last ones arrive.
      await new Promise((resolve) => setTimeout(resolve, 100))
      watching.disconnect()
    } finally {
      monitor.disconnect()
    }
    return commands
  }

  /** The keys under the suite's prefix, without it (to check what an adapter leaves). */
  async keys(): Promise<string[]> {
    const raw = new Redis(this.target.url)
    try {
      const keys = await scanAll(raw, `${this.target.keyPrefix}*`)
      return keys.map((key) => key.slice(this.target.keyPrefix.length)).sort()
    } finally {
      raw.disconnect()
    }
  }

  /** Deletes every key under the suite's prefix and closes its clients. */
  async cleanUp(): Promise<void> {
    const raw = new Redis(this.target.url)
    try {
      const keys = await scanAll(raw, `${this.target.keyPrefix}*`)
      if (keys.length > 0) await raw.del(...keys)
    } finally {
      raw.disconnect()
      for (const client of this.#clients.splice(0)) client.disconnect()
    }
  }
}

async function scanAll(client: Redis, match: string): Promise<string[]> {
  const keys: string[] = []
  let cursor = '0'
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', match, 'COUNT', 1000)
    keys.push(...batch)
    cursor = next
  } while (cursor !== '0')
  return keys
}
