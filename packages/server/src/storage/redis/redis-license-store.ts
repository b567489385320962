/**
 * License references in Redis (the cluster mode; docs/cluster.md, "License references"): every node takes and
 * gives back licenses against the same counts, each acquire or release one script, so that no two nodes give
 * the last free license to two users. Keys: `licenses:{right}` (a hash: login name to how many sessions hold
 * the right for that user; its length is the count in use), `license-refs:{sessionId}` (a hash: right to the
 * login name it is held for), `license-sessions` (the ids of the sessions holding references, by when they
 * acquired). None has a TTL: references belong to sessions, which give them back as they close, on whichever
 * node, or by the sweep (a TTL could free a license a living session holds, letting more users in than are
 * installed).
 */
import { USER_RIGHTS, type UserRight } from '@openness/wire'
import type { Redis } from 'ioredis'
import type { LicenseStore } from '../../platform/sessions/license-store.js'
import { RedisScript } from './redis-script.js'

const SESSIONS = 'license-sessions'
const licensesKey = (right: UserRight) => `licenses:${right}`
const refsKey = (sessionId: string) => `license-refs:${sessionId}`

/**
 * KEYS: the session's references, the sessions holding, then `licenses:{right}` of each right asked.
 * ARGV: session id, login name, now, then each right asked with its installed count. Returns the rights held.
 */
const ACQUIRE = new RedisScript(`
local login = ARGV[2]
local granted = {}
for i = 1, (#ARGV - 3) / 2 do
  local right = ARGV[2 + 2 * i]
  local installed = tonumber(ARGV[3 + 2 * i])
  local holders = KEYS[2 + i]
  if redis.call('HEXISTS', KEYS[1], right) == 1 then
    granted[#granted + 1] = right
  elseif redis.call('HEXISTS', holders, login) == 1 or redis.call('HLEN', holders) < installed then
    redis.call('HINCRBY', holders, login, 1)
    redis.call('HSET', KEYS[1], right, login)
    granted[#granted + 1] = right
  end
end
if #granted > 0 then redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[1]) end
return granted
`)

/**
 * KEYS: the session's references, the sessions holding, then `licenses:{right}` of every right.
 * ARGV: session id, then every right in the order of their keys. Returns how many references it gave back.
 */
const RELEASE = new RedisScript(`
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do
  for r = 2, #ARGV do
    if ARGV[r] == held[i] then
      local holders = KEYS[1 + r]
      if redis.call('HINCRBY', holders, held[i + 1], -1) <= 0 then
        redis.call('HDEL', holders, held[i + 1])
      end
    end
  end
end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return #held / 2
`)

export class RedisLicenseStore implements LicenseStore {
  constructor(private readonly client: Redis) {}

  async acquire(
    sessionId: string,
    loginName: string,
    rights: readonly UserRight[],
    installed: Readonly<Record<UserRight, number>>,
    now: number,
  ): Promise<UserRight[]> {
    if (rights.length === 0) return []
    const granted = (await ACQUIRE.run(
      this.client,
      [refsKey(sessionId), SESSIONS, ...rights.map(licensesKey)],
      [sessionId, loginName, now, ...rights.flatMap((right) => [right, installed[right]])],
    )) as UserRight[]
    return granted
  }

  async release(sessionId: string): Promise<void> {
    await RELEASE.run(
      this.client,
      [refsKey(sessionId), SESSIONS, ...USER_RIGHTS.map(licensesKey)],
      [sessionId, ...USER_RIGHTS],
    )
  }

  async inUse(right: UserRight): Promise<number> {
    return this.client.hlen(licensesKey(right))
  }

  async holdingSessions(acquiredBefore: number, limit: number): Promise<string[]> {
    return this.client.zrangebyscore(SESSIONS, '-inf', `(${acquiredBefore}`, 'LIMIT', 0, limit)
  }
}
