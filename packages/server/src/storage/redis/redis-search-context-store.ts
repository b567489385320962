/**
 * The search contexts of directory searches shared by the nodes of a cluster (docs/cluster.md,
 * docs/directory-search.md): a session's next poll may reach another node than its POST did. One hash a
 * session, `search:{sessionId}`, holds its contexts as JSON by login name; the key lives until the last of
 * them expires (its TTL is raised, never lowered, by each save), so that a session that stops searching
 * leaves nothing behind. A context past its expiry is never answered, even while its key lives: the read
 * that finds it expired deletes it, in the same script, as the memory adapter drops it on reading.
 *
 * Expiries are instants of the platform's clock, which the control plane may shift from Redis's own
 * (kept-clock.ts): a TTL is therefore what is left of a context's life on the platform's clock at its save,
 * never an instant handed to Redis. A poll moves a context on with a compare-and-set on the text it read, so
 * that two polls of one search through two nodes never hand out the same batch.
 */
import type { Redis } from 'ioredis'
import type { SearchContext } from '../../platform/directory-search/search-context.js'
import type { SearchContextStore } from '../../platform/directory-search/search-context-store.js'
import type { Clock } from '../../platform/events.js'
import { RedisScript } from './redis-script.js'

/**
 * Sets one context (ARGV: login name, JSON, ms left to live) and raises the key's TTL to its life; a context
 * with no life left only removes the one it replaces.
 */
const SET_CONTEXT = `
local ttl = tonumber(ARGV[3])
if ttl <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return 1
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
`

/** SET_CONTEXT, whatever the field holds. */
const SAVE = new RedisScript(SET_CONTEXT)

/**
 * SET_CONTEXT while the field still holds ARGV[4], the text the context it replaces was read from; 0 when it does
 * not (changed, cancelled or expired since).
 */
const REPLACE = new RedisScript(`
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[4] then return 0 end
${SET_CONTEXT}`)

/** The session's contexts live at ARGV[1] (as JSON); deletes the expired ones. */
const LIVE = new RedisScript(`
local now = tonumber(ARGV[1])
local fields = redis.call('HGETALL', KEYS[1])
local live = {}
for i = 1, #fields, 2 do
  if cjson.decode(fields[i + 1]).expiresAt > now then
    live[#live + 1] = fields[i + 1]
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
return live
`)

/** The context of login name ARGV[1] if live at ARGV[2] (as JSON, else nil); deletes it when expired. */
const FIND = new RedisScript(`
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return false end
if cjson.decode(json).expiresAt > tonumber(ARGV[2]) then return json end
redis.call('HDEL', KEYS[1], ARGV[1])
return false
`)

/** The key of a session's contexts. */
function keyOf(sessionId: string): string {
  return `search:${sessionId}`
}

export class RedisSearchContextStore implements SearchContextStore {
  readonly #redis: Redis
  readonly #clock: Pick<Clock, 'now'>
  /** The text each context `find` answered was read from, by the object answered. */
  readonly #read = new WeakMap<SearchContext, string>()

  /** `clock` is the platform's: the one the contexts' `expiresAt` are read on. */
  constructor(redis: Redis, clock: Pick<Clock, 'now'>) {
    this.#redis = redis
    this.#clock = clock
  }

  async contexts(sessionId: string, now: number): Promise<SearchContext[]> {
    const live = (await LIVE.run(this.#redis, [keyOf(sessionId)], [now])) as string[]
    return live.map((json) => JSON.parse(json) as SearchContext)
  }

  async find(
    sessionId: string,
    loginName: string,
    now: number,
  ): Promise<SearchContext | undefined> {
    const json = (await FIND.run(this.#redis, [keyOf(sessionId)], [loginName, now])) as
      | string
      | null
    if (json === null) return undefined
    const context = JSON.parse(json) as SearchContext
    this.#read.set(context, json)
    return context
  }

  async save(sessionId: string, context: SearchContext): Promise<void> {
    const ttl = Math.ceil(context.expiresAt - this.#clock.now())
    await SAVE.run(
      this.#redis,
      [keyOf(sessionId)],
      [context.loginName, JSON.stringify(context), ttl],
    )
  }

  async replace(sessionId: string, expected: SearchContext, next: SearchContext): Promise<boolean> {
    const ttl = Math.ceil(next.expiresAt - this.#clock.now())
    const read = this.#read.get(expected) ?? JSON.stringify(expected)
    const replaced = await REPLACE.run(
      this.#redis,
      [keyOf(sessionId)],
      [expected.loginName, JSON.stringify(next), ttl, read],
    )
    return replaced === 1
  }

  async delete(sessionId: string, loginName: string): Promise<void> {
    // Redis deletes a hash with its last field: a session's last context freed leaves no key.
    await this.#redis.hdel(keyOf(sessionId), loginName)
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#redis.del(keyOf(sessionId))
  }
}
