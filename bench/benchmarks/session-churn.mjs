// Session churn: complete session cycles per second (authenticate + open session + read user + close
// session), workers looping each as one demo user (bench/load/session-churn.mjs, its own process), on the
// demo directory as shipped, whose passwords are scrypt hashes of cost N=2^17 (OWASP's minimum, slow on
// purpose: one verification takes 0.1 to 0.5 s of a core). Two services, rounds alternating: as shipped
// (PASSWORD_CACHE_TTL default: a password verified lately is not verified again,
// platform/auth/verified-passwords.ts), with 12 workers; and with PASSWORD_CACHE_TTL=0, where every login
// verifies in full, with 4 workers (libuv's 4 threads hash; more would only queue). A first login of each
// account is timed apart (a full verification). No baseline: nothing bare does this.
// One login per worker keeps clear of the login throttle (an attempt in flight counts as a failure
// until it succeeds: 3 free per login, 20 per address): any 401 would show as a failed cycle.
import { randomBytes, scrypt } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'
import { withCpu } from '../lib/cpu.mjs'
import { http, startService } from '../lib/service.mjs'
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
      key: 'cached.cps',
      label: 'cycles/s, as shipped (verified passwords kept)',
      unit: 'cycles/s',
      target: TARGET,
    },
    { key: 'cached.auth', label: '  authenticate p50', unit: 'ms' },
    { key: 'cached.rest', label: '  open + read + close, sum of p50s', unit: 'ms' },
    { key: 'first.auth', label: '  first login of an account (full verification)', unit: 'ms' },
    {
      key: 'uncached.cps',
      label: 'cycles/s, PASSWORD_CACHE_TTL=0 (every login verifies)',
      unit: 'cycles/s',
    },
    { key: 'uncached.auth', label: '  authenticate p50', unit: 'ms' },
  ],
  async run(ctx) {
    const logins = {
      cached: ctx.scale(ctx.demoUsers, ctx.demoUsers.slice(0, 2)),
      uncached: ctx.demoUsers.slice(0, ctx.scale(4, 2)),
    }
    // Smoke mode uses hashes of negligible cost (the shipped directory's cold start alone takes seconds).
    const directoryFile = ctx.smoke ? ctx.cheapDirectory() : undefined
    const start = async (env) =>
      startService({ dataDir: await ctx.dataDir(directoryFile), directoryFile, env })
    const services = {
      cached: await start({}),
      uncached: await start({ PASSWORD_CACHE_TTL: '0' }),
    }
    const loader = new IpcChild(LOADER)
    await loader.ready
    ctx.usedGenerator(`node loader, ${logins.cached.length} and ${logins.uncached.length} workers`)
    const durationMs = ctx.scale(3_000, 500)
    const cores = { cached: [], uncached: [] }
    let failures = 0
    let lastFailure = ''
    const firstLogins = []
    const measure = (name) => async (round) => {
      const service = services[name]
      if (name === 'cached' && round === 0) {
        // A login the service has not verified yet: an account the workers do not use.
        const login = ctx.demoUsers.find((user) => !logins.cached.includes(user)) ?? 'admin'
        const basic = `Basic ${Buffer.from(`${login}:demo-${login}`).toString('base64')}`
        const started = performance.now()
        const answer = await http(service.port, 'GET', '/api/rest/authenticate?version=1.0', {
          headers: { authorization: basic },
        })
        if (answer.status !== 200) throw new Error(`first login of ${login}: ${answer.status}`)
        firstLogins.push(performance.now() - started)
      }
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
        ...(name === 'cached' && { 'cached.rest': open.p50 + read.p50 + close.p50 }),
        ...(name === 'cached' && round === 0 && { 'first.auth': firstLogins[0] }),
      }
    }
    await ctx.interleave(
      { cached: measure('cached'), uncached: measure('uncached') },
      { rounds: ctx.rounds(3), warmup: ctx.scale(1, 0) },
    )
    const hashes = []
    for (let i = 0; i < ctx.scale(3, 1); i++) hashes.push(await scryptMs())
    const hashMs = median(hashes)
    ctx.note(
      `one scrypt N=2^17 hash takes ${hashMs.toFixed(0)} ms here (alone): ${availableParallelism()} cores verify at most ~${((1000 * availableParallelism()) / hashMs).toFixed(1)} passwords/s`,
    )
    ctx.note(
      `server CPU: as shipped ${median(cores.cached).toFixed(2)} cores, PASSWORD_CACHE_TTL=0 ${median(cores.uncached).toFixed(2)} cores (median)`,
    )
    ctx.note(
      failures === 0
        ? 'no cycle failed (the login throttle never answered 401)'
        : `${failures} cycles failed; last: ${lastFailure}`,
    )
    if (ctx.smoke) ctx.note('smoke: both services with hashes of negligible cost')
    await loader.exit()
    await Promise.all([services.cached.stop(), services.uncached.stop()])
  },
}
