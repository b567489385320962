// Authenticated read: `GET /api/rest/1.0/users/alice` with a valid session cookie (cookie parsing, session
// lookup and timer restart, authorization, serialization of a full User) on the service, against a bare
// Fastify route answering the same JSON after a cookie lookup in a Map (bench/baselines/bare-fastify.mjs).
// wrk (or the Node loader where wrk is absent) with 50 keep-alive connections, from its own process;
// rounds alternate service and baseline. The server's CPU is read from /proc during each round: a
// server at one core is the bottleneck, not the generator.
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'
import { withCpu } from '../lib/cpu.mjs'
import { httpLoad } from '../lib/load.mjs'
import { http, openSession, startService } from '../lib/service.mjs'
import { median } from '../lib/stats.mjs'

const BARE = fileURLToPath(new URL('../baselines/bare-fastify.mjs', import.meta.url))
const PATH = '/api/rest/1.0/users/alice'

export default {
  name: 'auth-read',
  title: 'Authenticated read: GET /users/{loginName} with a session cookie, 50 connections',
  order: 20,
  timeoutS: 120,
  baseline:
    'bare Fastify route, same User JSON, cookie looked up in a Map (bench/baselines/bare-fastify.mjs)',
  figures: [
    {
      key: 'service.rps',
      label: 'service throughput',
      unit: 'req/s',
      baseline: 'bare.rps',
      target: { on: 'ratio', op: '>=', value: 0.75, text: '≥ 0.75 × bare' },
    },
    { key: 'bare.rps', label: 'bare Fastify route throughput (baseline)', unit: 'req/s' },
    { key: 'service.p50', label: 'service latency p50', unit: 'ms', baseline: 'bare.p50' },
    {
      key: 'service.p99',
      label: 'service latency p99',
      unit: 'ms',
      baseline: 'bare.p99',
      target: { on: 'median', op: '<', value: 10, text: '< 10 ms' },
    },
    { key: 'bare.p50', label: 'bare latency p50 (baseline)', unit: 'ms' },
    { key: 'bare.p99', label: 'bare latency p99 (baseline)', unit: 'ms' },
  ],
  async run(ctx) {
    const directoryFile = ctx.cheapDirectory()
    const service = await startService({ dataDir: await ctx.dataDir(directoryFile), directoryFile })
    const cookie = await openSession(service.port, 'alice')
    const user = await http(service.port, 'GET', PATH, { cookie })
    if (user.status !== 200) throw new Error(`GET ${PATH}: ${user.status}`)
    const bare = new IpcChild(BARE, {
      env: { BARE_USER: user.text, BARE_TOKEN: cookie.split('=')[1] },
    })
    const { port: barePort } = await bare.ready
    const bareUser = await http(barePort, 'GET', PATH, { cookie })
    if (JSON.stringify(bareUser.body) !== JSON.stringify(user.body))
      throw new Error('the bare route does not answer the same User')
    ctx.note(`User body ${Buffer.byteLength(user.text)} bytes`)

    const generator = ctx.httpGenerator
    const connections = ctx.scale(50, 10)
    ctx.usedGenerator(
      generator === 'wrk' ? `wrk -t1 -c${connections}` : `node loader, ${connections} connections`,
    )
    const durationS = ctx.scale(4, 1)
    const cores = { service: [], bare: [] }
    const measure = (name, port, pid) => async (round) => {
      const { result, cores: used } = await withCpu(pid, () =>
        httpLoad({
          generator,
          url: `http://127.0.0.1:${port}${PATH}`,
          headers: { Cookie: cookie },
          connections,
          durationS,
        }),
      )
      if (round >= 0) cores[name].push(used)
      return {
        [`${name}.rps`]: result.rps,
        [`${name}.p50`]: result.latencyMs.p50,
        [`${name}.p99`]: result.latencyMs.p99,
      }
    }
    await ctx.interleave(
      {
        service: measure('service', service.port, service.child.pid),
        bare: measure('bare', barePort, bare.process.pid),
      },
      { rounds: ctx.rounds(5), warmup: ctx.scale(1, 0) },
    )
    ctx.note(
      `server CPU during the rounds: service ${median(cores.service).toFixed(2)} cores, bare ${median(cores.bare).toFixed(2)} cores (median)`,
    )
    await bare.exit()
    await service.stop()
  },
}
