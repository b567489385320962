/**
 * The users supervised through administrator subscriptions, in Redis (the cluster mode; docs/cluster.md,
 * "Supervised users"): a subscription created or changed on any node is checked against the same count, in
 * the script that changes it, so that two nodes never both take the last place. Keys: `supervised` (a hash:
 * user to how many subscriptions hold it; its length is the count) and `supervision:{subscriptionId}` (the
 * set of users the subscription holds). No TTL: a subscription gives its users back when it is removed, on
 * whichever node, or by the sweep of expired subscriptions (a TTL could free a place a living subscription
 * holds).
 */
import type { Redis } from 'ioredis'
import type { SupervisionStore } from '../../platform/subscriptions/supervision-store.js'
import { RedisScript } from './redis-script.js'

const SUPERVISED = 'supervised'
const subscriptionKey = (subscriptionId: string) => `supervision:${subscriptionId}`

/**
 * KEYS: the count's hash, the subscription's set. ARGV: the limit, then the users. Makes the users the set's
 * when the count that follows is within the limit: 1 then, 0 (changing nothing) otherwise.
 */
const HOLD = new RedisScript(`
local users = {}
for i = 2, #ARGV do users[ARGV[i]] = true end
local previous = {}
for _, user in ipairs(redis.call('SMEMBERS', KEYS[2])) do previous[user] = true end
local count = redis.call('HLEN', KEYS[1])
for user in pairs(users) do
  if not previous[user] and redis.call('HEXISTS', KEYS[1], user) == 0 then count = count + 1 end
end
for user in pairs(previous) do
  if not users[user] and tonumber(redis.call('HGET', KEYS[1], user)) == 1 then count = count - 1 end
end
if count > tonumber(ARGV[1]) then return 0 end
for user in pairs(users) do
  if not previous[user] then
    redis.call('HINCRBY', KEYS[1], user, 1)
    redis.call('SADD', KEYS[2], user)
  end
end
for user in pairs(previous) do
  if not users[user] then
    if redis.call('HINCRBY', KEYS[1], user, -1) <= 0 then redis.call('HDEL', KEYS[1], user) end
    redis.call('SREM', KEYS[2], user)
  end
end
return 1
`)

/** KEYS: the count's hash, the subscription's set. Gives back every user of the set and deletes it. */
const RELEASE = new RedisScript(`
for _, user in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if redis.call('HINCRBY', KEYS[1], user, -1) <= 0 then redis.call('HDEL', KEYS[1], user) end
end
return redis.call('DEL', KEYS[2])
`)

export class RedisSupervisionStore implements SupervisionStore {
  constructor(private readonly client: Redis) {}

  async hold(subscriptionId: string, users: ReadonlySet<string>, limit: number): Promise<boolean> {
    const held = await HOLD.run(
      this.client,
      [SUPERVISED, subscriptionKey(subscriptionId)],
      [limit, ...users],
    )
    return held === 1
  }

  async release(subscriptionId: string): Promise<void> {
    await RELEASE.run(this.client, [SUPERVISED, subscriptionKey(subscriptionId)], [])
  }

  async count(): Promise<number> {
    return this.client.hlen(SUPERVISED)
  }
}
