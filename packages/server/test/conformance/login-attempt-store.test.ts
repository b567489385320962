/**
 * The login attempt stores, memory always and Redis when REDIS_URL names one, against one suite; on Redis the
 * two stores of a case are two clients, as two nodes would be. And what each adds: the memory store's bound on
 * keys, the Redis keys' TTLs (the window, the lock).
 */
import { describe, expect, it } from 'vitest'
import { MemoryLoginAttemptStore } from '../../src/storage/memory/memory-login-attempt-store.js'
import { RedisLoginAttemptStore } from '../../src/storage/redis/redis-login-attempt-store.js'
import { describeWithRedis } from '../support/redis.js'
import { loginAttemptStoreConformance, POLICY } from './login-attempt-store.js'

const T0 = Date.UTC(2026, 0, 1)

describe('MemoryLoginAttemptStore', () => {
  loginAttemptStoreConformance(async (policy) => {
    const store = new MemoryLoginAttemptStore(policy, 'login')
    return { store, other: store, keys: async () => store.heldKeys() }
  })

  it('counts at most maxKeys keys, forgetting the one whose last attempt is oldest', async () => {
    const store = new MemoryLoginAttemptStore({ ...POLICY, maxKeys: 2, freeFailures: 0 }, 'login')
    for (const key of ['k1', 'k2', 'k3']) await store.reserve(key, T0)
    expect(store.heldKeys()).toStrictEqual(['attempts:login:k2', 'attempts:login:k3'])
    // freeFailures 0: a key's first attempt waits 100 ms, its second 200 ms.
    expect(await store.reserve('k3', T0)).toStrictEqual({ locked: false, delayMs: 200 })
    expect(await store.reserve('k1', T0)).toStrictEqual({ locked: false, delayMs: 100 })
  })

  it('keeps a lock however many other keys are counted after it', async () => {
    const store = new MemoryLoginAttemptStore({ ...POLICY, maxKeys: 2 }, 'login')
    for (let i = 0; i < POLICY.lockAfterFailures; i++) await store.reserve('alice', T0)
    expect(await store.fail('alice', T0)).toBe(true)
    for (let i = 0; i < 20; i++) await store.reserve(`spray-${i}`, T0)
    expect(await store.lockedFor('alice', T0)).toBe(POLICY.lockMs)
    expect(await store.reserve('alice', T0)).toStrictEqual({
      locked: true,
      retryAfterMs: POLICY.lockMs,
    })
    // The counters are still bounded: the first keys of the spray are forgotten.
    expect(store.heldKeys()).not.toContain('attempts:login:spray-0')
    expect(await store.reserve('spray-0', T0)).toStrictEqual({ locked: false, delayMs: 0 })
  })

  it('keeps at most maxKeys locks, forgetting the one that ends first', async () => {
    const store = new MemoryLoginAttemptStore({ ...POLICY, maxKeys: 2 }, 'login')
    for (const [index, key] of ['l1', 'l2', 'l3'].entries()) {
      const at = T0 + index * 1000
      for (let i = 0; i < POLICY.lockAfterFailures; i++) await store.reserve(key, at)
      expect(await store.fail(key, at)).toBe(true)
    }
    const now = T0 + 3000
    expect(await store.lockedFor('l1', now)).toBe(0)
    expect(await store.lockedFor('l2', now)).toBe(POLICY.lockMs - 2000)
    expect(await store.lockedFor('l3', now)).toBe(POLICY.lockMs - 1000)
  })
})

describeWithRedis('RedisLoginAttemptStore', (redis) => {
  loginAttemptStoreConformance(async (policy) => {
    await redis.cleanUp()
    const [one, two] = await Promise.all([redis.client(), redis.client()])
    return {
      store: new RedisLoginAttemptStore(one, policy, 'login'),
      other: new RedisLoginAttemptStore(two, policy, 'login'),
      keys: () => redis.keys(),
    }
  })

  it('gives the record the window as TTL at each attempt, and the lock its length', async () => {
    await redis.cleanUp()
    const client = await redis.client()
    const store = new RedisLoginAttemptStore(client, POLICY, 'address')
    await store.reserve('10.0.0.1', T0)
    expect(await redis.keys()).toStrictEqual(['attempts:address:10.0.0.1'])
    const ttl = await client.pttl('attempts:address:10.0.0.1')
    expect(ttl).toBeGreaterThan(POLICY.windowMs - 5_000)
    expect(ttl).toBeLessThanOrEqual(POLICY.windowMs)
    for (let i = 1; i < POLICY.lockAfterFailures; i++) await store.reserve('10.0.0.1', T0)
    expect(await store.fail('10.0.0.1', T0)).toBe(true)
    expect(await redis.keys()).toStrictEqual(['attempt-lock:address:10.0.0.1'])
    const lockTtl = await client.pttl('attempt-lock:address:10.0.0.1')
    expect(lockTtl).toBeGreaterThan(POLICY.lockMs - 5_000)
    expect(lockTtl).toBeLessThanOrEqual(POLICY.lockMs)
  })

  it('keeps the kinds of key apart: a login and an address of the same text', async () => {
    await redis.cleanUp()
    const client = await redis.client()
    const logins = new RedisLoginAttemptStore(client, POLICY, 'login')
    const addresses = new RedisLoginAttemptStore(client, POLICY, 'address')
    for (let i = 0; i < POLICY.lockAfterFailures; i++) await logins.reserve('x', T0)
    expect(await logins.fail('x', T0)).toBe(true)
    expect(await addresses.reserve('x', T0)).toStrictEqual({ locked: false, delayMs: 0 })
  })
})
