/**
 * The Lua scripts of the Redis session store (docs/cluster.md, "Sessions and credentials"): each reads and
 * writes in one step, so that a request's use of its session is one round trip and a session closes once
 * cluster-wide. A script names the keys it knows beforehand in KEYS (the client prefixes them); the keys it
 * finds on its way (a credential's session, a session's owner) it names itself, with the prefix in ARGV[1].
 * Sessions are hashes: `record` (the JSON of what never changes, decoded here but never re-encoded), and
 * `expiresAt`, `state`, `closeCause`, `closedAt`; credentials are hashes: `loginName`, `forgetAt`, `sessionId`.
 */
import { RedisScript } from './redis-script.js'

/** Times are written as integers: Lua would write a large number in exponent notation. */
const INTEGER_FUNCTION = `
local function integer(n) return string.format('%.0f', n) end
`

/**
 * Closes the open session in `key`: CLOSED with its cause, out of its owner's set and the due set, remembered
 * with its credential for the closed retention, the credential then due to be forgotten.
 */
const CLOSE_FUNCTION = `${INTEGER_FUNCTION}
local function close_session(prefix, key, sessionId, cause, now, retention, sessionsDue, credentialsDue)
  local record = cjson.decode(redis.call('HGET', key, 'record'))
  redis.call('HSET', key, 'state', 'CLOSED', 'closeCause', cause, 'closedAt', now)
  redis.call('PEXPIRE', key, retention)
  redis.call('ZREM', sessionsDue, sessionId)
  redis.call('SREM', prefix .. 'sessions-of:' .. record.owner, sessionId)
  local tokenKey = prefix .. 'token:' .. record.token
  local forgetAt = integer(tonumber(now) + tonumber(retention))
  redis.call('HSET', tokenKey, 'forgetAt', forgetAt)
  redis.call('PEXPIRE', tokenKey, retention)
  redis.call('ZADD', credentialsDue, forgetAt, record.token)
  return redis.call('HGETALL', key)
end
`

/**
 * Keeps `key` at least `ms` more milliseconds (a set shared by sessions lives as long as the longest of them);
 * a key without a TTL yet (PTTL -1) gets one.
 */
const EXTEND_FUNCTION = `
local function extend(key, ms)
  if redis.call('PTTL', key) < tonumber(ms) then redis.call('PEXPIRE', key, ms) end
end
`

/**
 * KEYS: token, sessions-due, credentials-due. ARGV: prefix, now, time to live, grace, closed retention, open
 * retention (ms). Answers {'OPEN', fields}, {'EXPIRED', fields} (this call closed it) or {'NONE'}.
 */
export const USE = new RedisScript(`${CLOSE_FUNCTION}${EXTEND_FUNCTION}
local sessionId = redis.call('HGET', KEYS[1], 'sessionId')
if not sessionId then return {'NONE'} end
local key = ARGV[1] .. 'session:' .. sessionId
local state, expiresAt, record = unpack(redis.call('HMGET', key, 'state', 'expiresAt', 'record'))
if state ~= 'OPEN' then return {'NONE'} end
local now = tonumber(ARGV[2])
if now >= tonumber(expiresAt) + tonumber(ARGV[4]) then
  return {'EXPIRED', close_session(ARGV[1], key, sessionId, 'EXPIRED', ARGV[2], ARGV[5], KEYS[2], KEYS[3])}
end
local renewed = now + tonumber(ARGV[3])
redis.call('HSET', key, 'expiresAt', integer(renewed))
redis.call('PEXPIRE', key, ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('ZADD', KEYS[2], integer(renewed + tonumber(ARGV[4])), sessionId)
extend(ARGV[1] .. 'sessions-of:' .. cjson.decode(record).owner, ARGV[6])
return {'OPEN', redis.call('HGETALL', key)}
`)

/**
 * KEYS: token, session, sessions-of owner, sessions-due, credentials-due, credentials-of owner. ARGV: session id,
 * record JSON, now,
 * expiresAt, deadline, open retention (ms), token. Answers 'OPENED', 'UNKNOWN' or 'TAKEN'.
 */
export const OPEN = new RedisScript(`${EXTEND_FUNCTION}
local loginName, forgetAt, sessionId = unpack(redis.call('HMGET', KEYS[1], 'loginName', 'forgetAt', 'sessionId'))
if not loginName then return 'UNKNOWN' end
if sessionId then return 'TAKEN' end
if tonumber(ARGV[3]) >= tonumber(forgetAt) then return 'UNKNOWN' end
redis.call('HSET', KEYS[1], 'sessionId', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('HSET', KEYS[2], 'record', ARGV[2], 'expiresAt', ARGV[4], 'state', 'OPEN')
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('SADD', KEYS[3], ARGV[1])
extend(KEYS[3], ARGV[6])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[7])
redis.call('SREM', KEYS[6], ARGV[7])
return 'OPENED'
`)

/**
 * KEYS: session, sessions-due, credentials-due. ARGV: prefix, session id, cause, now, closed retention (ms).
 * Answers the fields of the session as closed when this call closed it, false when it was not open.
 */
export const CLOSE = new RedisScript(`${CLOSE_FUNCTION}
if redis.call('HGET', KEYS[1], 'state') ~= 'OPEN' then return false end
return close_session(ARGV[1], KEYS[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], KEYS[2], KEYS[3])
`)

/**
 * KEYS: token. ARGV: prefix. Answers {loginName, forgetAt} and, when the credential opened a session that is
 * still stored, that session's fields; {} for an unknown token.
 */
export const STATUS = new RedisScript(`
local loginName, forgetAt, sessionId = unpack(redis.call('HMGET', KEYS[1], 'loginName', 'forgetAt', 'sessionId'))
if not loginName then return {} end
if not sessionId then return {loginName, forgetAt} end
return {loginName, forgetAt, redis.call('HGETALL', ARGV[1] .. 'session:' .. sessionId)}
`)

/**
 * KEYS: a set or sorted set of session ids. ARGV: prefix, highest score (or '+inf'), limit (-1: all). Answers
 * the fields of each session named, in the set's order; ids whose session is no longer stored are dropped.
 */
export const LIST = new RedisScript(`
local sorted = redis.call('TYPE', KEYS[1]).ok == 'zset'
local ids
if sorted then
  ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, ARGV[3])
else
  ids = redis.call('SMEMBERS', KEYS[1])
end
local sessions = {}
for _, sessionId in ipairs(ids) do
  local fields = redis.call('HGETALL', ARGV[1] .. 'session:' .. sessionId)
  if #fields > 0 then table.insert(sessions, fields)
  elseif sorted then redis.call('ZREM', KEYS[1], sessionId)
  else redis.call('SREM', KEYS[1], sessionId) end
end
return sessions
`)

/**
 * KEYS: credentials-due. ARGV: prefix, now. Deletes every credential due at `now` with its session, unless the
 * session is open again (then it is not due); answers how many.
 */
export const FORGET_DUE = new RedisScript(`
local forgotten = 0
for _, token in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])) do
  local tokenKey = ARGV[1] .. 'token:' .. token
  local loginName, sessionId = unpack(redis.call('HMGET', tokenKey, 'loginName', 'sessionId'))
  local sessionKey = sessionId and ARGV[1] .. 'session:' .. sessionId
  redis.call('ZREM', KEYS[1], token)
  if not (sessionKey and redis.call('HGET', sessionKey, 'state') == 'OPEN') then
    if sessionKey then redis.call('DEL', sessionKey) end
    if loginName then redis.call('SREM', ARGV[1] .. 'credentials-of:' .. loginName, token) end
    redis.call('DEL', tokenKey)
    forgotten = forgotten + 1
  end
end
return forgotten
`)

/**
 * KEYS: credentials-of login, credentials-due. ARGV: prefix. Deletes the login's credentials that opened no
 * session, and the set; answers how many.
 */
export const VOID_CREDENTIALS = new RedisScript(`
local voided = 0
for _, token in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local tokenKey = ARGV[1] .. 'token:' .. token
  if redis.call('EXISTS', tokenKey) == 1 and not redis.call('HGET', tokenKey, 'sessionId') then
    redis.call('DEL', tokenKey)
    redis.call('ZREM', KEYS[2], token)
    voided = voided + 1
  end
end
redis.call('DEL', KEYS[1])
return voided
`)
