/**
 * The requests sent with an `Idempotency-Key`, shared by the nodes of a cluster (docs/idempotency.md,
 * docs/cluster.md): one hash a key, `idempotency:{key}`, with the request's fingerprint (`f`), its holder (`h`),
 * the node running it (`n`) and the end of its lease (`l`, Redis's time in milliseconds), then its outcome (`o`,
 * JSON), expiring the retention after its last claim or outcome. Each step is one script, read on Redis's own
 * clock, so that nodes whose clocks differ agree on when a lease lapsed. A retry also takes a key over at once
 * when the node running it is gone: no connection of it is subscribed to its presence channel any more (the
 * kernel closes a killed process's connections, and Redis drops their subscriptions), so a client retrying after
 * its node died waits for no lease.
 */
import type { Redis } from 'ioredis'
import type {
  IdempotencyClaim,
  IdempotencyStore,
  IdempotentOutcome,
} from '../../platform/idempotency-store.js'
import type { IdempotencyTiming } from '../memory/memory-idempotency-store.js'
import { RedisScript } from './redis-script.js'

/** Redis's time in milliseconds, inside a script. */
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`

/**
 * ARGV: fingerprint, holder, lease ms, retention ms, this node's id, the presence channels' prefix (a node's
 * channel is the prefix and its id). Answers {kind} or {'replay', outcome} or {'claimed', takenOver}.
 */
const CLAIM = new RedisScript(`
${NOW}
local f = redis.call('HGET', KEYS[1], 'f')
if not f then
  redis.call('HSET', KEYS[1], 'f', ARGV[1], 'h', ARGV[2], 'n', ARGV[5], 'l', now + tonumber(ARGV[3]))
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {'claimed', '0'}
end
if f ~= ARGV[1] then return {'mismatch'} end
local o = redis.call('HGET', KEYS[1], 'o')
if o then return {'replay', o} end
if tonumber(redis.call('HGET', KEYS[1], 'l')) > now then
  local holder = redis.call('HGET', KEYS[1], 'n')
  if not holder or redis.call('PUBSUB', 'NUMSUB', ARGV[6] .. holder)[2] > 0 then return {'busy'} end
end
redis.call('HSET', KEYS[1], 'h', ARGV[2], 'n', ARGV[5], 'l', now + tonumber(ARGV[3]))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {'claimed', '1'}
`)

/** ARGV: holder, lease ms. 1 when the claim is still the holder's and was renewed. */
const RENEW = new RedisScript(`
${NOW}
if redis.call('HGET', KEYS[1], 'h') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'o') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'l', now + tonumber(ARGV[2]))
return 1
`)

/** ARGV: holder, outcome, retention ms. Records the outcome when the claim is still the holder's. */
const COMPLETE = new RedisScript(`
if redis.call('HGET', KEYS[1], 'h') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'o') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'o', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`)

/** ARGV: holder. Frees the key when the claim is still the holder's and has no outcome. */
const RELEASE = new RedisScript(`
if redis.call('HGET', KEYS[1], 'h') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'o') == 1 then return 0 end
redis.call('DEL', KEYS[1])
return 1
`)

/** The key of an idempotency key. */
function keyOf(key: string): string {
  return `idempotency:${key}`
}

/** Where a node is: its id, and the prefix of the channels a living node is subscribed to (its id appended). */
export interface NodePresence {
  nodeId: string
  /** The channel of node `x` is this prefix followed by `x` (the change notices' acknowledgements channel). */
  channelPrefix: string
}

export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly timing: IdempotencyTiming,
    private readonly presence: NodePresence,
  ) {}

  async claim(key: string, fingerprint: string, holder: string): Promise<IdempotencyClaim> {
    const { leaseMs, retentionMs } = this.timing
    const { nodeId, channelPrefix } = this.presence
    const [kind, detail] = (await CLAIM.run(
      this.redis,
      [keyOf(key)],
      [fingerprint, holder, leaseMs, retentionMs, nodeId, channelPrefix],
    )) as [string, string | undefined]
    switch (kind) {
      case 'claimed':
        return { kind, takenOver: detail === '1' }
      case 'replay':
        return { kind, outcome: JSON.parse(detail ?? '') as IdempotentOutcome }
      case 'mismatch':
      case 'busy':
        return { kind }
      default:
        throw new Error(`The idempotency claim answered ${String(kind)}`)
    }
  }

  async renew(key: string, holder: string): Promise<boolean> {
    return (await RENEW.run(this.redis, [keyOf(key)], [holder, this.timing.leaseMs])) === 1
  }

  async complete(key: string, holder: string, outcome: IdempotentOutcome): Promise<void> {
    await COMPLETE.run(
      this.redis,
      [keyOf(key)],
      [holder, JSON.stringify(outcome), this.timing.retentionMs],
    )
  }

  async release(key: string, holder: string): Promise<void> {
    await RELEASE.run(this.redis, [keyOf(key)], [holder])
  }
}
