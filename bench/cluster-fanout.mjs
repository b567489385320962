// Cluster fan-out (docs/cluster-events.md, "Delivery on the event log"): how many events a second one node appends
// to the event logs of 1,000 subscriptions on Redis, each event matching all of them (LoggedSubscriptionOutlets,
// RedisSubscriptionEventLog; nothing reads the logs, which stay trimmed at their capacity, as for clients away).
// Two ways of publishing: one event per turn of the event loop (each its own batch), and bursts of 10 events in
// one turn (one batch: 10 appendMany, each one pipeline of 4 script calls). Not part of `npm run bench`: it needs
// a Redis server.
//
// Usage: npm run build && REDIS_URL=redis://127.0.0.1:6379 node bench/cluster-fanout.mjs [subscriptions] [seconds]

import { randomBytes } from 'node:crypto'
import { setImmediate as tick } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { SystemClock } from '../packages/server/dist/clock/system-clock.js'
import { EventRouter } from '../packages/server/dist/delivery/event-router.js'
import { LoggedSubscriptionOutlets } from '../packages/server/dist/delivery/logged-outlets.js'
import { fetchTransport } from '../packages/server/dist/delivery/webhook-sender.js'
import { connectRedis } from '../packages/server/dist/storage/redis/redis-client.js'
import { RedisSubscriptionEventLog } from '../packages/server/dist/storage/redis/redis-subscription-event-log.js'

const url = process.env.REDIS_URL
if (url === undefined) {
  process.stderr.write('REDIS_URL is not set: nothing to measure\n')
  process.exit(1)
}
const subscriptions = Number(process.argv[2] ?? 1000)
const seconds = Number(process.argv[3] ?? 5)
const keyPrefix = `openness-bench-${randomBytes(4).toString('hex')}:`
const client = await connectRedis({ url, keyPrefix }, 'openness-bench')
const router = new EventRouter()
let failures = 0
const outlets = new LoggedSubscriptionOutlets({
  log: new RedisSubscriptionEventLog(client),
  router,
  clock: new SystemClock(),
  nodeId: 'bench',
  onActivity: () => {},
  onError: () => {
    failures += 1
  },
  webhook: {
    transport: fetchTransport,
    policy: {
      secret: 'bench-secret-0123456789',
      requestTimeoutMs: 1000,
      maxAttempts: 1,
      firstRetryDelayMs: 1,
      maxRetryDelayMs: 1,
    },
  },
})
const routes = [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }]
for (let index = 0; index < subscriptions; index++)
  outlets.attach({
    subscriptionId: `s${index}`,
    sessionId: 'bench',
    owner: 'alice',
    admin: false,
    mode: 'CHUNK',
    version: '1.0',
    timeoutMinutes: 10,
    keepaliveMinutes: 0,
    filter: { selectors: [], routes, supervisedUsers: [] },
    createdAt: 0,
    lastActivityAt: 0,
    revision: 1,
    state: 'ACCEPTED',
  })

const padding = 'x'.repeat(300)
/** Publishes bursts of `perTurn` events, one burst a turn, for `seconds`; events a second appended to every log. */
async function measure(perTurn) {
  let published = 0
  const start = performance.now()
  const end = start + seconds * 1000
  while (performance.now() < end) {
    for (let n = 0; n < perTurn; n++)
      router.publish({ eventName: 'OnCallCreated', loginName: 'alice', n: published++, padding })
    // Back pressure on the benchmark itself: at most a few batches in flight.
    await outlets.settled()
    await tick()
  }
  await outlets.settled()
  const elapsed = (performance.now() - start) / 1000
  return {
    events: published,
    perSecond: published / elapsed,
    appendsPerSecond: (published * subscriptions) / elapsed,
  }
}

const rows = []
for (const perTurn of [1, 10]) {
  await measure(perTurn) // warm-up: scripts loaded, logs at capacity
  rows.push({ perTurn, ...(await measure(perTurn)) })
}
process.stdout.write(
  `| events per turn | events/s to ${subscriptions} subscriptions | appends/s |\n|---|---|---|\n`,
)
for (const row of rows)
  process.stdout.write(
    `| ${row.perTurn} | ${Math.round(row.perSecond)} | ${Math.round(row.appendsPerSecond)} |\n`,
  )
if (failures > 0) process.stdout.write(`${failures} failed batches\n`)

// The keys come back with the prefix: delete them on a client without one.
const raw = new Redis(url)
let cursor = '0'
do {
  const [next, keys] = await raw.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000)
  if (keys.length > 0) await raw.unlink(...keys)
  cursor = next
} while (cursor !== '0')
raw.disconnect()
await outlets.close()
client.disconnect()
