/**
 * The Redis connections of the cluster mode (docs/cluster.md): ioredis clients on one URL, whose every key
 * starts with the cluster's prefix (`openness:` by default), so that several clusters, or several test runs,
 * can share one Redis. Adapters take a client and write keys without the prefix; ioredis adds it to every key
 * of every command (`keyPrefix`), Lua scripts' KEYS included. A blocking read or a pub/sub subscription takes
 * a connection of its own: `duplicate()` one.
 */
import type { Redis } from 'ioredis'

/** The prefix of every key when none is configured. */
export const DEFAULT_REDIS_KEY_PREFIX = 'openness:'

/** Where the cluster's Redis is and how its keys are named. */
export interface RedisTarget {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  url: string
  /** Prepended to every key, e.g. `openness:`. */
  keyPrefix: string
}

/**
 * A client connected to `target` (resolves once Redis answered), with the key prefix; it reconnects by itself
 * when the connection drops, and commands sent meanwhile wait for it.
 */
export async function connectRedis(target: RedisTarget, name = 'openness'): Promise<Redis> {
  // Loaded here, not with the service: the embedded mode never needs it, and it takes ~100 ms to load.
  const { Redis } = await import('ioredis')
  const client = new Redis(target.url, {
    keyPrefix: target.keyPrefix,
    connectionName: name,
    lazyConnect: true,
    // A command waits for the connection to come back rather than fail after a few retries: a node that
    // cannot reach Redis is not ready (docs/cluster.md), and its requests wait or time out at the HTTP level.
    maxRetriesPerRequest: null,
  })
  await client.connect()
  return client
}
