/**
 * The platform's health shared by the nodes of a cluster (docs/cluster.md, docs/system-status.md): one key,
 * `health`, holding the PlatformHealth as JSON, with no TTL (one small value a cluster). A cluster that never
 * saved a health is healthy, as a fresh embedded platform is.
 */
import type { Redis } from 'ioredis'
import type { PlatformHealth, PlatformHealthStore } from '../../platform/ports.js'
import { HEALTHY } from '../../platform/system/platform-health.js'

const KEY = 'health'

export class RedisPlatformHealthStore implements PlatformHealthStore {
  readonly #redis: Redis

  constructor(redis: Redis) {
    this.#redis = redis
  }

  async load(): Promise<PlatformHealth> {
    const json = await this.#redis.get(KEY)
    return json === null ? HEALTHY : (JSON.parse(json) as PlatformHealth)
  }

  async save(health: PlatformHealth): Promise<void> {
    await this.#redis.set(KEY, JSON.stringify(health))
  }
}
