/**
 * The license stores, memory always and Redis when REDIS_URL names one, against one suite; on Redis the two
 * stores of a case are two clients, as two nodes would be. And the Redis keys: none expires by itself.
 */
import { describe, expect, it } from 'vitest'
import { MemoryLicenseStore } from '../../src/storage/memory/memory-license-store.js'
import { RedisLicenseStore } from '../../src/storage/redis/redis-license-store.js'
import { describeWithRedis } from '../support/redis.js'
import { licenseStoreConformance } from './license-store.js'

describe('MemoryLicenseStore', () => {
  licenseStoreConformance(async () => {
    const store = new MemoryLicenseStore()
    return { store, other: store, keys: async () => store.heldKeys() }
  })
})

describeWithRedis('RedisLicenseStore', (redis) => {
  licenseStoreConformance(async () => {
    // Each case starts on an empty prefix: counts left by an earlier case must not count in this one.
    await redis.cleanUp()
    const [one, two] = await Promise.all([redis.client(), redis.client()])
    return {
      store: new RedisLicenseStore(one),
      other: new RedisLicenseStore(two),
      keys: () => redis.keys(),
    }
  })

  it('keeps counts per right, references per session and the holding sessions, none expiring', async () => {
    await redis.cleanUp()
    const client = await redis.client()
    const store = new RedisLicenseStore(client)
    const installed = { TELEPHONY_BASIC: 5, TELEPHONY_ADVANCED: 5, MESSAGING: 5, CONFERENCING: 5 }
    await store.acquire('s1', 'alice', ['TELEPHONY_BASIC', 'MESSAGING'], installed, 1000)
    await store.acquire('s2', 'alice', ['TELEPHONY_BASIC'], installed, 2000)
    expect(await redis.keys()).toStrictEqual([
      'license-refs:s1',
      'license-refs:s2',
      'license-sessions',
      'licenses:MESSAGING',
      'licenses:TELEPHONY_BASIC',
    ])
    expect(await client.hgetall('licenses:TELEPHONY_BASIC')).toStrictEqual({ alice: '2' })
    expect(await client.hgetall('license-refs:s1')).toStrictEqual({
      TELEPHONY_BASIC: 'alice',
      MESSAGING: 'alice',
    })
    expect(await client.zrange('license-sessions', '0', '-1', 'WITHSCORES')).toStrictEqual([
      's1',
      '1000',
      's2',
      '2000',
    ])
    for (const key of await redis.keys()) expect(await client.pttl(key)).toBe(-1)
  })
})
