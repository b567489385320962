/**
 * The Lua scripts of the subscriptions' event logs on Redis (docs/cluster-events.md, "One stream per
 * subscription"). Each subscription has three keys, passed in this order: its stream `queue:{id}` (entries
 * `0-{sequence}`, the event in field `e`), its last sequence number given `queue-seq:{id}` and its acknowledged
 * position `queue-ack:{id}`; reading and acknowledging take a fourth, the reader that claimed the log
 * `queue-reader:{id}`. A script runs whole or not at all, so a sequence number is given exactly when its entry is
 * added.
 */
import { RedisScript } from './redis-script.js'

/** The keys of one subscription's log, in the order the scripts take them. */
export function eventLogKeys(subscriptionId: string): [string, string, string] {
  return [`queue:${subscriptionId}`, `queue-seq:${subscriptionId}`, `queue-ack:${subscriptionId}`]
}

/** The keys of one subscription's log with its claim, for the scripts that read or acknowledge. */
export function claimedLogKeys(subscriptionId: string): [string, string, string, string] {
  return [...eventLogKeys(subscriptionId), `queue-reader:${subscriptionId}`]
}

/** The keys of one subscription's log with its claim and where the claim started, for claims and releases. */
export function claimKeys(subscriptionId: string): [string, string, string, string, string] {
  return [...claimedLogKeys(subscriptionId), `queue-reader-from:${subscriptionId}`]
}

/**
 * The keys of one subscription's log as appends take them: its three, the origin of its last engine event, and
 * its claim (whose reader's node is told of the append).
 */
export function appendedLogKeys(subscriptionId: string): [string, string, string, string, string] {
  return [
    ...eventLogKeys(subscriptionId),
    `queue-origin:${subscriptionId}`,
    `queue-reader:${subscriptionId}`,
  ]
}

/** The keys a watcher's arming check reads of one subscription's log: its last number given, and its claim. */
export function checkedLogKeys(subscriptionId: string): [string, string] {
  return [`queue-seq:${subscriptionId}`, `queue-reader:${subscriptionId}`]
}

/** Every key of one subscription's log (renewed and dropped together). */
export function allLogKeys(subscriptionId: string): string[] {
  return [...claimKeys(subscriptionId), `queue-origin:${subscriptionId}`]
}

/** The sequence number of a stream entry id `0-{sequence}`. */
export function sequenceOf(entryId: string): number {
  return Number(entryId.slice(entryId.indexOf('-') + 1))
}

/**
 * Appends events, each to its subscriptions, in turn: ARGV[1] is the capacity, ARGV[2] the time to live in
 * milliseconds, ARGV[3] the prefix of the nodes' wake channels (the key prefix in it), ARGV[4] the length of
 * the prefix of the streams' keys (`{key prefix}queue:`), then each event as three arguments: its text, its
 * origin (or empty) and how many subscriptions it goes to, whose five keys (`appendedLogKeys`) follow those of
 * the event before in KEYS. For each: the next sequence number by INCR, the entry by XADD under that number,
 * the stream trimmed exactly to the capacity (the oldest dropped), and every key's time to live set. When the
 * event has an origin, a subscription whose origin key holds it or a later one is passed over (its number 0),
 * and the others keep it. Then each node whose reader claimed a log appended to is told, once for the call, on
 * its wake channel, what was appended to those logs (redis-event-log-watcher.ts, `wakeMessage`): a first line of
 * `id number reader text` quadruples (`text` the index of the event's text in the message), a second of the
 * texts' lengths in bytes, then the texts, each once. Returns the sequence numbers, events after events.
 */
export const APPEND = new RedisScript(`
local capacity, ttl, channel, idFrom = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]) + 1
local sequences = {}
local wakes = {}
local k = 1
for g = 5, #ARGV, 3 do
  local event, originText = ARGV[g], ARGV[g + 1]
  local origin = tonumber(originText)
  for _ = 1, tonumber(ARGV[g + 2]) do
    local taken = origin and tonumber(redis.call('GET', KEYS[k + 3]) or '-1') >= origin
    if taken then
      sequences[#sequences + 1] = 0
    else
      local sequence = redis.call('INCR', KEYS[k + 1])
      redis.call('XADD', KEYS[k], 'MAXLEN', capacity, '0-' .. sequence, 'e', event)
      redis.call('PEXPIRE', KEYS[k], ttl)
      redis.call('PEXPIRE', KEYS[k + 1], ttl)
      redis.call('PEXPIRE', KEYS[k + 2], ttl)
      if origin then redis.call('SET', KEYS[k + 3], originText, 'PX', ttl) end
      sequences[#sequences + 1] = sequence
      local reader = redis.call('GET', KEYS[k + 4])
      local node = reader and string.match(reader, '^([^/]+)/')
      if node then
        local wake = wakes[node]
        if not wake then
          wake = { told = {}, texts = {}, lengths = {}, index = {} }
          wakes[node] = wake
        end
        local text = wake.index[g]
        if not text then
          text = #wake.texts
          wake.index[g] = text
          wake.texts[text + 1] = event
          wake.lengths[text + 1] = #event
        end
        wake.told[#wake.told + 1] = string.sub(KEYS[k], idFrom) .. ' ' .. sequence .. ' ' .. reader .. ' ' .. text
      end
    end
    k = k + 5
  end
end
for node, wake in pairs(wakes) do
  redis.call('PUBLISH', channel .. node,
    table.concat(wake.told, ' ') .. '\\n' .. table.concat(wake.lengths, ' ') .. '\\n' .. table.concat(wake.texts))
end
return sequences
`)

/**
 * At most ARGV[2] entries after sequence ARGV[1] (after the acknowledged position when ARGV[1] is empty).
 * Returns { the position read after, the last sequence number given, the entries, the claiming reader or '' }.
 */
export const READ = new RedisScript(`
local after = ARGV[1]
if after == '' then after = redis.call('GET', KEYS[3]) or '0' end
local last = redis.call('GET', KEYS[2]) or '0'
local entries = redis.call('XRANGE', KEYS[1], '(0-' .. after, '+', 'COUNT', ARGV[2])
local reader = redis.call('GET', KEYS[4]) or ''
return { after, last, entries, reader }
`)

/**
 * Acknowledges one log or several (a turn's acknowledgements in one call), then reads the logs a watcher armed
 * (its arming check, redis-event-log-watcher.ts). ARGV[1] is how many acknowledged events are kept, ARGV[2] the
 * number n of acknowledgements; for the i-th, KEYS[4i-3..4i] its `claimedLogKeys`, ARGV[2i+1] the position and
 * ARGV[2i+2] the reader or ''. Moves each acknowledged position to its number (never back, never past the last
 * number given) and trims the entries through it but the last ARGV[1] (kept for a channel that resumes from an
 * earlier number), unless it names a reader and another one claimed the log (then -1). The position takes the
 * time to live of the sequence key; an unknown subscription (no sequence key) is left without keys (0). The keys
 * after the 4n are the checked logs' `checkedLogKeys`, two each. Returns each acknowledgement's answer (-1, 0 or
 * its acknowledged position), then for each checked log its last number given ('0' for none) and its reader (''
 * for none).
 */
export const ACKNOWLEDGE = new RedisScript(`
local answers = {}
local acknowledgements = tonumber(ARGV[2])
for i = 1, acknowledgements do
  local k = 4 * (i - 1)
  local answer
  local reader = ARGV[2 * i + 2]
  if reader ~= '' then
    local claimed = redis.call('GET', KEYS[k + 4])
    if claimed and claimed ~= reader then answer = -1 end
  end
  if not answer then
    local last = tonumber(redis.call('GET', KEYS[k + 2]))
    if not last then
      answer = 0
    else
      local through = math.min(tonumber(ARGV[2 * i + 1]), last)
      local acknowledged = tonumber(redis.call('GET', KEYS[k + 3]) or '0')
      if through <= acknowledged then
        answer = acknowledged
      else
        local ttl = redis.call('PTTL', KEYS[k + 2])
        if ttl > 0 then
          redis.call('SET', KEYS[k + 3], string.format('%d', through), 'PX', ttl)
        else
          redis.call('SET', KEYS[k + 3], string.format('%d', through))
        end
        local kept = through + 1 - tonumber(ARGV[1])
        if kept > 1 then redis.call('XTRIM', KEYS[k + 1], 'MINID', string.format('0-%d', kept)) end
        answer = through
      end
    end
  end
  answers[i] = answer
end
for k = 4 * acknowledgements + 1, #KEYS, 2 do
  answers[#answers + 1] = redis.call('GET', KEYS[k]) or '0'
  answers[#answers + 1] = redis.call('GET', KEYS[k + 1]) or ''
end
return answers
`)

/**
 * Makes ARGV[1] the reader of the log (`claimKeys`) for ARGV[2] milliseconds, from the acknowledged position
 * now (kept in `queue-reader-from:{id}`). A previous reader of another name is woken on its node's wake channel
 * (ARGV[3] the channels' prefix, ARGV[4] the length of the streams' key prefix), whatever its position: it
 * reads, finds the log claimed, and ends. Returns { the previous reader or '', the position it claimed from,
 * the acknowledged position, the id of the oldest entry held or '' }.
 */
export const CLAIM = new RedisScript(`
local previous = redis.call('GET', KEYS[4]) or ''
local node = previous ~= ARGV[1] and string.match(previous, '^([^/]+)/')
if node then
  redis.call('PUBLISH', ARGV[3] .. node, string.sub(KEYS[1], tonumber(ARGV[4]) + 1) .. ' claimed')
end
local from = redis.call('GET', KEYS[5]) or '0'
local acknowledged = redis.call('GET', KEYS[3]) or '0'
local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
redis.call('SET', KEYS[4], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[5], acknowledged, 'PX', ARGV[2])
return { previous, from, acknowledged, oldest[1] and oldest[1][1] or '' }
`)

/** Ends ARGV[1]'s claim (`claimKeys`), unless another reader claimed the log since. */
export const RELEASE = new RedisScript(`
if redis.call('GET', KEYS[4]) == ARGV[1] then redis.call('DEL', KEYS[4], KEYS[5]) end
return 0
`)
