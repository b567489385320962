// The Node load generator used where wrk is absent (bench/lib/load.mjs): `connections` keep-alive
// connections, each sending one GET at a time for `durationMs`; prints one JSON line with the request
// count and the latency percentiles (µs resolution, from performance.now()).
// Usage: node bench/load/http-load.mjs '{"url":…,"headers":{…},"connections":50,"durationMs":5000}'
import { Agent, request } from 'node:http'
import { latencySummary, percentile } from '../lib/stats.mjs'

const { url, headers = {}, connections, durationMs } = JSON.parse(process.argv[2] ?? '{}')
const target = new URL(url)
const agent = new Agent({ keepAlive: true, maxSockets: connections })
const latencies = []
let errors = 0
let lastError = ''

function get() {
  return new Promise((resolve) => {
    const sent = performance.now()
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, agent, headers },
      (res) => {
        res.on('data', () => {})
        res.on('end', () => {
          if (res.statusCode >= 200 && res.statusCode < 400)
            latencies.push(performance.now() - sent)
          else {
            errors++
            lastError = `HTTP ${res.statusCode}`
          }
          resolve()
        })
      },
    )
    req.on('error', (error) => {
      errors++
      lastError = error.message
      resolve()
    })
    req.end()
  })
}

const started = performance.now()
const end = started + durationMs
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (performance.now() < end) await get()
  }),
)
const seconds = (performance.now() - started) / 1000
agent.destroy()
const sorted = Float64Array.from(latencies).sort()
const { p50, p99, max } = latencySummary(sorted)
console.log(
  JSON.stringify({
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    latencyMs: {
      mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
      p50,
      p90: percentile(sorted, 90),
      p99,
      max,
    },
    errors,
    detail: lastError,
  }),
)
