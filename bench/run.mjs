// Placeholder benchmark until the benchmark issue: measures the hot path of an authenticated request
// (session cookie lookup, timer restart, user view, serialization) in process, with app.inject.
// Usage: npm run bench   (builds first). Prints requests per second; see docs/performance.md.
import { buildApp } from '../packages/server/dist/app.js'
import { DEMO_DIRECTORY_FILE } from '../packages/server/dist/config.js'
import { startPlatform } from '../packages/server/dist/service.js'
import { SystemClock } from '../packages/server/dist/system-clock.js'

const DURATION_MS = Number(process.env.BENCH_MS ?? 3000)

const running = await startPlatform({
  database: { kind: 'sqlite', filename: ':memory:' },
  directoryFile: DEMO_DIRECTORY_FILE,
  clock: new SystemClock(),
  sessionTtlSeconds: 300,
  scryptCost: { N: 1024, r: 8, p: 1 },
})
const app = await buildApp(running.platform, { openApi: false })
const auth = await app.inject({
  url: '/api/rest/authenticate?version=1.0',
  headers: { authorization: `Basic ${Buffer.from('alice:demo-alice').toString('base64')}` },
})
const cookie = `SvcUserId=${auth.json().credential}`
await app.inject({
  method: 'POST',
  url: '/api/rest/1.0/sessions',
  headers: { cookie },
  payload: { applicationName: 'bench' },
})

async function measure(name, request) {
  for (let i = 0; i < 500; i++) await app.inject(request)
  let count = 0
  const start = performance.now()
  while (performance.now() - start < DURATION_MS) {
    const response = await app.inject(request)
    if (response.statusCode >= 300)
      throw new Error(`${name}: ${response.statusCode} ${response.body}`)
    count++
  }
  const seconds = (performance.now() - start) / 1000
  console.log(
    `${name.padEnd(40)} ${Math.round(count / seconds)
      .toString()
      .padStart(8)} req/s (in process, 1 connection)`,
  )
}

await measure('GET /api/rest', { url: '/api/rest' })
await measure('GET /api/rest/1.0/users/alice', {
  url: '/api/rest/1.0/users/alice',
  headers: { cookie },
})
await measure('POST /api/rest/1.0/sessions/keepalive', {
  method: 'POST',
  url: '/api/rest/1.0/sessions/keepalive',
  headers: { cookie },
})
await app.close()
await running.close()
