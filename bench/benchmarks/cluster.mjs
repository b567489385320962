// The cluster mode against the embedded mode, in the same run (issue 14; docs/scaling.md): authenticated reads
// (GET /users/alice, as auth-read) and REST call cycles with both parties' channels open (as rest-calls), on
// the embedded service (SQLite), on one cluster node (PostgreSQL and Redis, the machine's: DATABASE_URL and
// REDIS_URL name them), and on three cluster nodes on this machine, the load spread over the three. Rounds
// alternate the three. On a 2-core machine three nodes show the cluster's overhead, not its scale: the nodes,
// PostgreSQL, Redis and the load generators share the same two cores.
// Each cluster has a PostgreSQL schema and a Redis key prefix of its own, dropped at the end.
// Issue 32's figures: the reads and the preference writes of one cluster node against one node of the service as
// built the day issue 32 was filed (BEFORE_CHECKED_WRITES, built once from this repository's history:
// bench/lib/reference-build.mjs), rounds alternated: what checking writes (compare-and-set) and answering them
// once every node applied them cost an ordinary read, and what they cost a write.
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { IpcChild } from '../lib/children.mjs'
import { processesCpuMs, processesCpuSince, processesNamed } from '../lib/cpu.mjs'
import { httpLoad } from '../lib/load.mjs'
import { referenceBuild } from '../lib/reference-build.mjs'
import { cheapDirectoryFile, http, openSession, ROOT, startService } from '../lib/service.mjs'
import { median } from '../lib/stats.mjs'

/**
 * The last commit before issue 32's first change (2026-11-28 13:57 UTC): the cluster whose nodes wrote whole
 * records from their copies and answered a change once its notice was sent.
 */
export const BEFORE_CHECKED_WRITES = '2abf40b087930e6a0c28a8e82fe6de49a22d4072'

const LOADER = fileURLToPath(new URL('../load/telephony-load.mjs', import.meta.url))
/** The call cycles each setup makes before it is measured, and the longest it is given for them. */
const WARM_CYCLES = 4_000
const WARM_BOUND_MS = 45_000
const PATH = '/api/rest/1.0/users/alice'
const { REDIS_URL: redisUrl, DATABASE_URL: databaseUrl } = process.env

/** A cluster's PostgreSQL schema and Redis prefix, made for this run. */
async function clusterPlace(label) {
  const suffix = `${label}_${randomBytes(4).toString('hex')}`
  const schema = `openness_bench_${suffix}`
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  await client.query(`create schema "${schema}"`)
  await client.end()
  const url = new URL(databaseUrl)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return { schema, databaseUrl: url.toString(), prefix: `openness-bench-${suffix}:` }
}

/** Drops the schemas and deletes the keys of the clusters of this run. */
async function dropPlaces(places) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  for (const { schema } of places) await client.query(`drop schema if exists "${schema}" cascade`)
  await client.end()
  const { Redis } = await import('ioredis')
  const redis = new Redis(redisUrl)
  for (const { prefix } of places) {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
      if (keys.length > 0) await redis.del(...keys)
      cursor = next
    } while (cursor !== '0')
  }
  redis.disconnect()
}

/**
 * `count` cluster nodes over `place`. A first node stores the directory alone (it says so at `info`), and is
 * stopped; then the nodes start at `warn`, as the embedded service does: at `info` a node logs every call's
 * creation, answer and release, a synchronous write each that the embedded service does not pay.
 */
async function startCluster(ctx, place, count, directoryFile, main) {
  const env = (index) => ({
    DATABASE_URL: place.databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: place.prefix,
    CLUSTER_NODE_ID: `bench-${index + 1}`,
  })
  const importer = await startService({
    ...(main !== undefined && { main }),
    dataDir: ctx.tempDir('openness-bench-node-'),
    directoryFile,
    logLevel: 'info',
    env: env(0),
  })
  await importer.untilLogged('directory stored')
  await importer.stop()
  const nodes = []
  for (let index = 0; index < count; index++)
    nodes.push(
      await startService({
        ...(main !== undefined && { main }),
        dataDir: ctx.tempDir('openness-bench-node-'),
        directoryFile,
        env: env(index),
      }),
    )
  return nodes
}

export default {
  name: 'cluster',
  title: 'Cluster mode: one node and three against the embedded mode, reads and call cycles',
  order: 70,
  timeoutS: 420,
  baseline: `the embedded mode (SQLite, memory), same run; for issue 32's figures, one node as built before it (${BEFORE_CHECKED_WRITES.slice(0, 7)})`,
  unavailable() {
    if (redisUrl === undefined || redisUrl === '') return 'REDIS_URL names no Redis'
    if (!/^postgres(ql)?:\/\//.test(databaseUrl ?? ''))
      return 'DATABASE_URL names no PostgreSQL server'
    return undefined
  },
  figures: [
    {
      key: 'reads.one',
      label: 'authenticated reads, one cluster node',
      unit: 'req/s',
      baseline: 'reads.embedded',
      target: { on: 'ratio', op: '>=', value: 0.5, text: '≥ 0.5 × embedded' },
    },
    { key: 'reads.embedded', label: '  embedded (baseline)', unit: 'req/s' },
    {
      key: 'readsVsBefore.one',
      label: 'authenticated reads, one cluster node, against the node before issue 32',
      unit: 'req/s',
      baseline: 'reads.before',
      target: { on: 'ratio', op: '>=', value: 0.9, text: '≥ 0.9 × before (issue 32)' },
    },
    {
      key: 'reads.before',
      label: `  one node as built before issue 32 (${BEFORE_CHECKED_WRITES.slice(0, 7)})`,
      unit: 'req/s',
    },
    {
      key: 'writes.one',
      label:
        'preference writes, one cluster node (answered once stored, published and applied everywhere)',
      unit: 'req/s',
      baseline: 'writes.before',
    },
    { key: 'writes.before', label: '  one node as built before issue 32', unit: 'req/s' },
    {
      key: 'reads.three',
      label: '  three cluster nodes, spread',
      unit: 'req/s',
      baseline: 'reads.embedded',
    },
    {
      key: 'readsP99.one',
      label: 'authenticated reads p99, one cluster node',
      unit: 'ms',
      baseline: 'readsP99.embedded',
    },
    { key: 'readsP99.embedded', label: '  embedded (baseline)', unit: 'ms' },
    { key: 'readsP99.three', label: '  three cluster nodes (slowest node)', unit: 'ms' },
    { key: 'readsP99.before', label: '  one node as built before issue 32', unit: 'ms' },
    {
      key: 'calls.one',
      label: 'REST call cycles, one cluster node',
      unit: 'cycles/s',
      baseline: 'calls.embedded',
      target: { on: 'ratio', op: '>=', value: 0.5, text: '≥ 0.5 × embedded' },
    },
    { key: 'calls.embedded', label: '  embedded (baseline)', unit: 'cycles/s' },
    {
      key: 'calls.three',
      label: '  three cluster nodes, parties spread',
      unit: 'cycles/s',
      baseline: 'calls.embedded',
    },
    {
      key: 'callsBusy.one',
      label: 'REST call cycles at saturation (more pairs), one cluster node',
      unit: 'cycles/s',
      baseline: 'callsBusy.embedded',
    },
    { key: 'callsBusy.embedded', label: '  embedded (baseline)', unit: 'cycles/s' },
    {
      key: 'callsCpu.one',
      label: 'CPU a call cycle, one cluster node with its Redis and PostgreSQL',
      unit: 'ms',
    },
    { key: 'callsCpu.embedded', label: '  embedded', unit: 'ms' },
    { key: 'callsP99.one', label: 'answer → event p99, one cluster node', unit: 'ms' },
    { key: 'callsP99.embedded', label: '  embedded (baseline)', unit: 'ms' },
    { key: 'callsP99.three', label: '  three cluster nodes', unit: 'ms' },
  ],
  /**
   * The service before issue 32, built once from this repository's history (minutes the first time; kept in
   * the system's temporary directory for later runs). The smoke test takes this build in its place.
   */
  prepare(ctx) {
    if (ctx.smoke) return undefined
    return referenceBuild(BEFORE_CHECKED_WRITES, { root: ROOT, log: ctx.log })
  },
  async run(ctx, earlier) {
    const directoryFile = ctx.cheapDirectory()
    const places = [
      await clusterPlace('one'),
      await clusterPlace('three'),
      await clusterPlace('before'),
    ]
    const running = []
    const loaders = []
    try {
      const embedded = await startService({
        dataDir: await ctx.dataDir(directoryFile),
        directoryFile,
      })
      running.push(embedded)
      const one = await startCluster(ctx, places[0], 1, directoryFile)
      const three = await startCluster(ctx, places[1], 3, directoryFile)
      // The earlier build reads the demo directory of its day (the fields it knows).
      const before = await startCluster(
        ctx,
        places[2],
        1,
        earlier === undefined
          ? directoryFile
          : cheapDirectoryFile(ctx.tempDir('openness-bench-dir-'), earlier.demoDirectory),
        earlier?.main,
      )
      if (earlier === undefined)
        ctx.note('smoke mode: "before issue 32" is this build; no earlier build is made')
      running.push(...one, ...three, ...before)
      const setups = { embedded: [embedded], one, three, before }

      const generator = ctx.httpGenerator
      const connections = ctx.scale(48, 6)
      const durationS = ctx.scale(4, 1)
      const pairs = ctx.scale(3, 1)
      // With 3 pairs a cluster node waits on its round trips (the cycles are bound by latency); with more, each
      // setup is bound by the CPU it takes of the machine's two cores, its PostgreSQL and Redis included.
      const busyPairs = ctx.scale(12, 2)
      const callMs = ctx.scale(3_000, 500)
      ctx.usedGenerator(
        `${generator === 'wrk' ? 'wrk -t1' : 'node loader'}, ${connections} connections in all; ${pairs} call pairs, ${busyPairs} at saturation`,
      )
      // One session per setup, opened on its first node: the cluster's nodes all take its cookie.
      const cookies = {}
      for (const [name, nodes] of Object.entries(setups))
        cookies[name] = await openSession(nodes[0].port, 'alice')
      const reads = (name) => async () => {
        const nodes = setups[name]
        const results = await Promise.all(
          nodes.map((node) =>
            httpLoad({
              generator,
              url: `http://127.0.0.1:${node.port}${PATH}`,
              headers: { Cookie: cookies[name] },
              connections: Math.max(1, Math.round(connections / nodes.length)),
              durationS,
            }),
          ),
        )
        const rps = results.reduce((sum, result) => sum + result.rps, 0)
        return {
          [`reads.${name}`]: rps,
          [`readsP99.${name}`]: Math.max(...results.map((result) => result.latencyMs.p99)),
          ...(name === 'one' && { 'readsVsBefore.one': rps }),
        }
      }
      await ctx.interleave(
        {
          embedded: reads('embedded'),
          one: reads('one'),
          three: reads('three'),
          before: reads('before'),
        },
        { rounds: ctx.rounds(3), warmup: ctx.scale(1, 0) },
      )
      // Preference writes, each of `writers` clients waiting for its answer before its next: a change is answered
      // once stored, published and (this issue) applied by every node that heard of it.
      const writers = ctx.scale(4, 1)
      const writes = (name) => async () => {
        const [node] = setups[name]
        const until = performance.now() + durationS * 1000
        let done = 0
        await Promise.all(
          Array.from({ length: writers }, async (_, writer) => {
            for (let n = 0; performance.now() < until; n += 1) {
              const body = { personalPhone: `+33 1 00 ${writer} ${n}` }
              const answer = await http(
                node.port,
                'POST',
                '/api/rest/1.0/users/alice/preferences',
                {
                  cookie: cookies[name],
                  body,
                },
              )
              if (answer.status !== 204) throw new Error(`preference write: ${answer.status}`)
              done += 1
            }
          }),
        )
        return { [`writes.${name}`]: done / durationS }
      }
      await ctx.interleave(
        { one: writes('one'), before: writes('before') },
        { rounds: ctx.rounds(3), warmup: ctx.scale(1, 0) },
      )

      /** A loader per setup for `count` pairs (its users spread over the setup's nodes). */
      const loadersFor = async (names, count) => {
        const made = {}
        for (const name of names) {
          const loader = new IpcChild(LOADER)
          loaders.push(loader)
          await loader.ready
          await loader.call('setup', { ports: setups[name].map((node) => node.port), pairs: count })
          made[name] = loader
        }
        return made
      }
      const callLoaders = await loadersFor(['embedded', 'one', 'three'], pairs)
      // The CPU a cycle of each part of a setup (its nodes; for a cluster, Redis and PostgreSQL too, every
      // process of theirs: the idle cluster's lease renewals included, a few per second) and of its loader. No
      // correction for the machine's drift by the loader's CPU: a loader's CPU a cycle grows as its service slows
      // (fewer events per wake-up of its event loop: 1.4 ms a cycle against one cluster node, 0.7 embedded).
      const parts = (name) => ({
        nodes: setups[name].map((node) => node.child.pid),
        redis: name === 'embedded' ? [] : processesNamed('redis-server'),
        postgres: name === 'embedded' ? [] : processesNamed('postgres'),
        loader: [callLoaders[name].process.pid],
      })
      const cpuByPart = { embedded: [], one: [] }
      const calls = (name) => async (n) => {
        const before = Object.entries(parts(name)).map(([part, pids]) => [
          part,
          processesCpuMs(pids),
        ])
        const { cycles, seconds, latencies } = await callLoaders[name].call('round', {
          durationMs: callMs,
        })
        const figures = { [`calls.${name}`]: cycles / seconds, [`callsP99.${name}`]: latencies.p99 }
        if (name === 'three') return figures
        const ms = Object.fromEntries(
          before.map(([part, times]) => [part, processesCpuSince(times) / cycles]),
        )
        if (n >= 0) cpuByPart[name].push(ms)
        return { ...figures, [`callsCpu.${name}`]: ms.nodes + ms.redis + ms.postgres }
      }
      // Each setup is warmed by the same work, not for the same time: V8 optimizes a function once it has run so
      // many times, so a setup that makes fewer cycles a second takes longer to reach the speed it keeps. Warmed
      // for three rounds of 3 s each, a cluster node was measured after about 1,000 cycles, its CPU a cycle still
      // falling (6.2 → 3.7 ms over the next 2,000), the embedded service after about 5,000 (docs/performance.md).
      const warmCycles = ctx.scale(WARM_CYCLES, 0)
      for (const name of Object.keys(callLoaders)) {
        const until = performance.now() + WARM_BOUND_MS
        let cycles = 0
        while (cycles < warmCycles && performance.now() < until)
          cycles += (await callLoaders[name].call('round', { durationMs: callMs })).cycles
        if (warmCycles > 0) ctx.log(`warmed ${name}: ${cycles} cycles`)
      }
      await ctx.interleave(
        { embedded: calls('embedded'), one: calls('one'), three: calls('three') },
        { rounds: ctx.rounds(3), warmup: ctx.scale(1, 0) },
      )
      for (const [name, label] of [
        ['one', 'one cluster node'],
        ['embedded', 'embedded'],
      ]) {
        const of = (part) => median(cpuByPart[name].map((ms) => ms[part])).toFixed(2)
        ctx.note(
          `CPU a call cycle, ${label} (medians, ms): node ${of('nodes')}, Redis ${of('redis')}, PostgreSQL ${of('postgres')}; load generator ${of('loader')}`,
        )
      }
      for (const loader of Object.values(callLoaders)) await loader.exit()
      const busyLoaders = await loadersFor(['embedded', 'one'], busyPairs)
      const busy = (name) => async () => {
        const { cycles, seconds } = await busyLoaders[name].call('round', { durationMs: callMs })
        return { [`callsBusy.${name}`]: cycles / seconds }
      }
      await ctx.interleave(
        { embedded: busy('embedded'), one: busy('one') },
        { rounds: ctx.rounds(3), warmup: ctx.scale(1, 0) },
      )
      ctx.note(
        'three nodes share this machine with PostgreSQL, Redis and the load generators: the figures show the ' +
          "cluster's overhead, not its scale (docs/scaling.md)",
      )
    } finally {
      for (const loader of loaders) await loader.exit()
      for (const service of running.reverse()) await service.stop()
      await dropPlaces(places)
    }
  },
}
