/**
 * Failed authentication attempts and locks of one kind of key in Redis (the cluster mode; docs/cluster.md,
 * "Login attempts"): a guesser spreading a burst over every node meets one count, and an attempt reserves its
 * place in the same script that checks the count, so that at most `lockAfterFailures` checks run for a key
 * between two locks (issue 15, item 6). Keys: `attempts:{scope}:{key}` (a hash: `attempts`, failed or in
 * flight, and `last`, when the last was reserved), whose TTL is the window from the last attempt, and
 * `attempt-lock:{scope}:{key}` (the lock's end), whose TTL is the lock's. Every decision is made on the
 * caller's `now` (the platform's clock, which only moves ahead of Redis's): the TTLs only forget, never decide.
 * The number of keys is bounded by their TTLs rather than by the policy's maxKeys.
 */
import type { Redis } from 'ioredis'
import type { LoginAttemptStore } from '../../platform/auth/login-attempt-store.js'
import type { ThrottlePolicy, ThrottleVerdict } from '../../platform/auth/login-throttle.js'
import { inFlightRetryAfter } from '../../platform/auth/throttle-delay.js'
import { RedisScript } from './redis-script.js'

/**
 * The key's record when it lives at ARGV[1] within the window ARGV[2]: its count and last attempt, else
 * nothing (an expired record is deleted). The lock's time left at ARGV[1], 0 when none (an ended one is
 * deleted). Shared by the scripts below; KEYS[1] is the record, KEYS[2] the lock.
 */
const READ = `
local now = tonumber(ARGV[1])
local function lockLeft()
  local untilAt = tonumber(redis.call('GET', KEYS[2]))
  if untilAt == nil then return 0 end
  if untilAt > now then return untilAt - now end
  redis.call('DEL', KEYS[2])
  return 0
end
local function current()
  local record = redis.call('HMGET', KEYS[1], 'attempts', 'last')
  if not record[1] then return nil end
  if now - tonumber(record[2]) > tonumber(ARGV[2]) then
    redis.call('DEL', KEYS[1])
    return nil
  end
  return tonumber(record[1])
end
`

/**
 * ARGV: now, window, lockAfterFailures, freeFailures, baseDelayMs, maxDelayMs, the wait of an attempt refused
 * for attempts in flight. Returns {1, retry after} when refused, {0, delay} when reserved.
 */
const RESERVE = new RedisScript(`${READ}
local left = lockLeft()
if left > 0 then return {1, left} end
local attempts = current() or 0
if attempts >= tonumber(ARGV[3]) then return {1, tonumber(ARGV[7])} end
local delay = 0
local excess = attempts - tonumber(ARGV[4])
if excess >= 0 then delay = math.min(tonumber(ARGV[5]) * 2 ^ excess, tonumber(ARGV[6])) end
redis.call('HSET', KEYS[1], 'attempts', attempts + 1, 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {0, delay}
`)

/** ARGV: now, window, lockAfterFailures, lockMs. Returns 1 when this failure locked the key. */
const FAIL = new RedisScript(`${READ}
local attempts = current()
if attempts == nil or attempts < tonumber(ARGV[3]) then return 0 end
if lockLeft() > 0 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], string.format('%.0f', now + tonumber(ARGV[4])), 'PX', ARGV[4])
return 1
`)

/** ARGV: now, window, 'reset' or 'undo'. */
const SUCCEED = new RedisScript(`${READ}
local attempts = tonumber(redis.call('HGET', KEYS[1], 'attempts'))
if attempts == nil or lockLeft() > 0 then return 0 end
if ARGV[3] == 'reset' or attempts <= 1 then
  redis.call('DEL', KEYS[1])
else
  redis.call('HINCRBY', KEYS[1], 'attempts', -1)
end
return 1
`)

/** ARGV: now. */
const LOCKED_FOR = new RedisScript(`${READ}
return lockLeft()
`)

export class RedisLoginAttemptStore implements LoginAttemptStore {
  /** `scope` names the kind of key (`login`, `address`): each kind has its own policy and its own keys. */
  constructor(
    private readonly client: Redis,
    private readonly policy: ThrottlePolicy,
    private readonly scope: string,
  ) {}

  async reserve(key: string, now: number): Promise<ThrottleVerdict> {
    const { windowMs, lockAfterFailures, freeFailures, baseDelayMs, maxDelayMs } = this.policy
    const [refused, ms] = (await RESERVE.run(this.client, this.keysOf(key), [
      now,
      windowMs,
      lockAfterFailures,
      freeFailures,
      baseDelayMs,
      maxDelayMs,
      inFlightRetryAfter(this.policy),
    ])) as [number, number]
    return refused === 1 ? { locked: true, retryAfterMs: ms } : { locked: false, delayMs: ms }
  }

  async fail(key: string, now: number): Promise<boolean> {
    const { windowMs, lockAfterFailures, lockMs } = this.policy
    const locked = await FAIL.run(this.client, this.keysOf(key), [
      now,
      windowMs,
      lockAfterFailures,
      lockMs,
    ])
    return locked === 1
  }

  async succeed(key: string, mode: 'reset' | 'undo', now: number): Promise<void> {
    await SUCCEED.run(this.client, this.keysOf(key), [now, this.policy.windowMs, mode])
  }

  async lockedFor(key: string, now: number): Promise<number> {
    return (await LOCKED_FOR.run(this.client, this.keysOf(key), [now])) as number
  }

  /**
   * Deletes every record and lock of this scope, found with SCAN (a reset of the platform, rare): the keys
   * come back with the client's prefix, which DEL adds again, so it is taken off first.
   */
  async clear(): Promise<void> {
    const prefix = this.client.options.keyPrefix ?? ''
    for (const kind of ['attempts', 'attempt-lock']) {
      const stream = this.client.scanStream({
        match: `${prefix}${kind}:${this.scope}:*`,
        count: 500,
      })
      for await (const keys of stream as AsyncIterable<string[]>) {
        if (keys.length > 0) await this.client.del(...keys.map((key) => key.slice(prefix.length)))
      }
    }
  }

  /** The record's key and the lock's. */
  private keysOf(key: string): [string, string] {
    return [`attempts:${this.scope}:${key}`, `attempt-lock:${this.scope}:${key}`]
  }
}
