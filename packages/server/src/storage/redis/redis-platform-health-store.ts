/**
 * The platform's health shared by the nodes of a cluster (docs/cluster.md, docs/system-status.md): one key,
 * `health`, holding the PlatformHealth as JSON, with no TTL (one small value a cluster). A cluster that never
 * saved a health is healthy, as a fresh embedded platform is. A change is a compare-and-set on the text the
 * key held when the change was planned (docs/cluster.md, "No lost update").
 */
import type { Redis } from 'ioredis'
import { HEALTHY } from '../../platform/system/platform-health.js'
import type {
  PlatformHealth,
  PlatformHealthStore,
} from '../../platform/system/platform-health-store.js'
import { RedisScript } from './redis-script.js'

const KEY = 'health'

/** Sets the key to ARGV[2] when it holds ARGV[1] ('' for none); 1 when set. */
const REPLACE = new RedisScript(`
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`)

export class RedisPlatformHealthStore implements PlatformHealthStore {
  readonly #redis: Redis
  /** The text each health `load` answered was read from ('' for none), by the object answered. */
  readonly #read = new WeakMap<PlatformHealth, string>()

  constructor(redis: Redis) {
    this.#redis = redis
  }

  async load(): Promise<PlatformHealth> {
    const json = await this.#redis.get(KEY)
    // A fresh object each time, so that the text it was read from is its own.
    const health = json === null ? { ...HEALTHY } : (JSON.parse(json) as PlatformHealth)
    this.#read.set(health, json ?? '')
    return health
  }

  async replace(expected: PlatformHealth, next: PlatformHealth): Promise<boolean> {
    const read = this.#read.get(expected) ?? JSON.stringify(expected)
    const written = await REPLACE.run(this.#redis, [KEY], [read, JSON.stringify(next)])
    return written === 1
  }
}
