// Session churn: complete session cycles per second (authenticate + open session + read user + close
// session), workers looping each as one demo user (bench/load/session-churn.mjs, its own process). Two
// services, rounds alternating: the demo directory as shipped, where authentication verifies a scrypt
// hash of cost N=2^17 (OWASP's minimum, slow on purpose), with 4 workers (libuv's 4 threads hash; more
// would only queue); and the same directory with hashes of negligible cost (N=16, r=1), with 12
// workers, which shows what the service costs around the hash. No baseline: nothing bare does this.
// One login per worker keeps clear of the login throttle (an attempt in flight counts as a failure
// until it succeeds: 3 free per login, 20 per address): any 401 would show as a failed cycle.
import { randomBytes, scrypt } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'
import { withCpu } from '../lib/cpu.mjs'
import { startService } from '../lib/service.mjs'
import { median } from '../lib/stats.mjs'

const LOADER = fileURLToPath(new URL('../load/session-churn.mjs', import.meta.url))
const TARGET = { on: 'median', op: '>=', value: 1500, text: '≥ 1,500/s' }

/** Wall time of one scrypt hash at the cost the demo directory's passwords get (N=2^17, r=8, p=1). */
function scryptMs() {
  const start = performance.now()
  return new Promise((resolve, reject) =>
    scrypt(
      'demo-alice',
      randomBytes(16),
      32,
      { N: 2 ** 17, r: 8, p: 1, maxmem: 2 ** 28 },
      (error) => (error ? reject(error) : resolve(performance.now() - start)),
    ),
  )
}

export default {
  name: 'session-churn',
  title: 'Session churn: authenticate + open session + read user + close session',
  order: 30,
  timeoutS: 120,
  baseline: undefined,
  figures: [
    {
      key: 'shipped.cps',
      label: 'cycles/s, demo directory as shipped (scrypt N=2^17)',
      unit: 'cycles/s',
      target: TARGET,
    },
    { key: 'shipped.auth', label: '  authenticate p50', unit: 'ms' },
    {
      key: 'cheap.cps',
      label: 'cycles/s, hashes of negligible cost (N=16, r=1)',
      unit: 'cycles/s',
      target: TARGET,
    },
    { key: 'cheap.auth', label: '  authenticate p50', unit: 'ms' },
    { key: 'cheap.rest', label: '  open + read + close, sum of p50s', unit: 'ms' },
  ],
  async run(ctx) {
    const logins = {
      shipped: ctx.demoUsers.slice(0, ctx.scale(4, 2)),
      cheap: ctx.scale(ctx.demoUsers, ctx.demoUsers.slice(0, 2)),
    }
    const cheapFile = ctx.cheapDirectory()
    // Smoke mode skips the slow hashes of the shipped directory (its cold start alone takes seconds).
    const shippedFile = ctx.smoke ? cheapFile : undefined
    const shipped = await startService({
      dataDir: await ctx.dataDir(shippedFile),
      directoryFile: shippedFile,
    })
    const cheap = await startService({
      dataDir: await ctx.dataDir(cheapFile),
      directoryFile: cheapFile,
    })
    const loader = new IpcChild(LOADER)
    await loader.ready
    ctx.usedGenerator(`node loader, ${logins.shipped.length} and ${logins.cheap.length} workers`)
    const durationMs = ctx.scale(3_000, 500)
    const cores = { shipped: [], cheap: [] }
    let failures = 0
    let lastFailure = ''
    const measure = (name, service) => async (round) => {
      const { result, cores: used } = await withCpu(service.child.pid, () =>
        loader.call('round', { port: service.port, logins: logins[name], durationMs }, 60_000),
      )
      if (round >= 0) cores[name].push(used)
      failures += result.failures
      if (result.lastFailure) lastFailure = result.lastFailure
      const { authenticate, open, read, close } = result.steps
      return {
        [`${name}.cps`]: result.cycles / result.seconds,
        [`${name}.auth`]: authenticate.p50,
        ...(name === 'cheap' && { 'cheap.rest': open.p50 + read.p50 + close.p50 }),
      }
    }
    await ctx.interleave(
      { shipped: measure('shipped', shipped), cheap: measure('cheap', cheap) },
      { rounds: ctx.rounds(3), warmup: ctx.scale(1, 0) },
    )
    const hashes = []
    for (let i = 0; i < ctx.scale(3, 1); i++) hashes.push(await scryptMs())
    const hashMs = median(hashes)
    ctx.note(
      `one scrypt N=2^17 hash takes ${hashMs.toFixed(0)} ms here (alone): ${availableParallelism()} cores verify at most ~${((1000 * availableParallelism()) / hashMs).toFixed(1)} passwords/s`,
    )
    ctx.note(
      `server CPU: shipped ${median(cores.shipped).toFixed(2)} cores, negligible hashes ${median(cores.cheap).toFixed(2)} cores (median)`,
    )
    ctx.note(
      failures === 0
        ? 'no cycle failed (the login throttle never answered 401)'
        : `${failures} cycles failed; last: ${lastFailure}`,
    )
    if (ctx.smoke) ctx.note('smoke: both services with hashes of negligible cost')
    await loader.exit()
    await Promise.all([shipped.stop(), cheap.stop()])
  },
}
