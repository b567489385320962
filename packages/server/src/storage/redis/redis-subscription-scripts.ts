/**
 * The Lua scripts of RedisSubscriptionStore (docs/cluster.md, "Subscriptions"): each change of a subscription
 * is one script, which also publishes the change, so that a node hearing of it reads the record as changed and
 * a change is announced if and only if it was made. The scripts name the session's set themselves (the key
 * prefix in ARGV[1]): the session id is a field of the subscription's hash.
 */
import { RedisScript } from './redis-script.js'

/**
 * Lua helpers. `extend(key, id, ttl)` adds the id to a session's set and gives the set the longest TTL of its
 * subscriptions ('' for one that follows its session: then none). `active(key, id, now, margin)` moves the
 * subscription's activity to `now` (never back) and, when it has a timeout, its expiry, its score and its TTLs.
 */
const HELPERS = `
local function extend(key, id, ttl)
  local existed = redis.call('EXISTS', key) == 1
  local left = redis.call('PTTL', key)
  redis.call('SADD', key, id)
  if ttl == '' then
    redis.call('PERSIST', key)
  elseif not existed or (left >= 0 and left < tonumber(ttl)) then
    redis.call('PEXPIRE', key, ttl)
  end
end
local function active(key, id, now, margin, prefix)
  local f = redis.call('HMGET', key, 'lastActivityAt', 'timeoutMs', 'sessionId')
  if now <= tonumber(f[1]) then return end
  redis.call('HSET', key, 'lastActivityAt', now)
  local timeout = tonumber(f[2])
  if timeout == 0 then return end
  local ttl = timeout + margin
  redis.call('HSET', key, 'expiresAt', now + timeout)
  redis.call('PEXPIRE', key, ttl)
  redis.call('ZADD', KEYS[2], now + timeout, id)
  extend(prefix .. 'subscriptions-of:' .. f[3], id, tostring(ttl))
end
`

/**
 * KEYS: the hash, the index, the session's set. ARGV: prefix, id, record, filter, session id, timeout (ms),
 * now, TTL ('' for none), channel, message. 1 when created, 0 when the id is taken.
 */
export const CREATE = new RedisScript(`${HELPERS}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local timeout = tonumber(ARGV[6])
redis.call('HSET', KEYS[1], 'record', ARGV[3], 'filter', ARGV[4], 'sessionId', ARGV[5],
  'timeoutMs', timeout, 'revision', 1, 'lastActivityAt', ARGV[7])
if timeout > 0 then
  local expiresAt = tonumber(ARGV[7]) + timeout
  redis.call('HSET', KEYS[1], 'expiresAt', expiresAt)
  redis.call('PEXPIRE', KEYS[1], ARGV[8])
  redis.call('ZADD', KEYS[2], expiresAt, ARGV[2])
else
  redis.call('ZADD', KEYS[2], 'inf', ARGV[2])
end
extend(KEYS[3], ARGV[2], ARGV[8])
redis.call('PUBLISH', ARGV[9], ARGV[10])
return 1
`)

/** KEYS: the hash, the index. ARGV: prefix, id, now, margin (ms). 1 when the subscription exists, else 0. */
export const TOUCH = new RedisScript(`${HELPERS}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
active(KEYS[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[1])
return 1
`)

/**
 * KEYS: the hash, the index. ARGV: prefix, id, revision, filter, now, margin, channel, message. {state,
 * fields}: REPLACED with the hash as replaced, CONFLICT with the hash as it is, or NOT_FOUND.
 */
export const REPLACE_FILTER = new RedisScript(`${HELPERS}
local revision = redis.call('HGET', KEYS[1], 'revision')
if not revision then return {'NOT_FOUND'} end
if revision ~= ARGV[3] then return {'CONFLICT', redis.call('HGETALL', KEYS[1])} end
redis.call('HSET', KEYS[1], 'filter', ARGV[4], 'revision', tonumber(revision) + 1)
active(KEYS[1], ARGV[2], tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[1])
redis.call('PUBLISH', ARGV[7], ARGV[8])
return {'REPLACED', redis.call('HGETALL', KEYS[1])}
`)

/**
 * KEYS: the hash, the index. ARGV: prefix, id, channel, message. The hash's fields as it was to the caller
 * that removed it; nil to every other.
 */
export const REMOVE = new RedisScript(`
local fields = redis.call('HGETALL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
if #fields == 0 then return false end
local sessionId = redis.call('HGET', KEYS[1], 'sessionId')
redis.call('DEL', KEYS[1])
redis.call('SREM', ARGV[1] .. 'subscriptions-of:' .. sessionId, ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return fields
`)

/**
 * KEYS: the index. ARGV: prefix, now, limit. The hashes of the subscriptions expired at `now`, earliest first;
 * an id whose hash expired by its TTL (nobody swept it) leaves the index.
 */
export const DUE = new RedisScript(`
local due = {}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  local fields = redis.call('HGETALL', ARGV[1] .. 'subscription:' .. id)
  if #fields == 0 then redis.call('ZREM', KEYS[1], id) else table.insert(due, fields) end
end
return due
`)

/** KEYS: the session's set. ARGV: prefix. The hashes of the session's subscriptions. */
/** How many of the session's subscriptions (KEYS[1], the set) still exist, without reading them. */
export const COUNT_OF_SESSION = new RedisScript(`
local count = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. 'subscription:' .. id) == 1 then count = count + 1 end
end
return count
`)

export const OF_SESSION = new RedisScript(`
local found = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local fields = redis.call('HGETALL', ARGV[1] .. 'subscription:' .. id)
  if #fields > 0 then table.insert(found, fields) end
end
return found
`)
