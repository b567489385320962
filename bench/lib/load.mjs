// The load generators for throughput and latency, each in its own process: wrk (Debian's package) when
// it is installed, else bench/load/http-load.mjs, a small Node loader (keep-alive connections, one
// request at a time on each). The report names the one used: their figures do not compare (the Node
// loader spends several times wrk's CPU per request, on the same 2 cores as the server).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { spawnTracked } from './children.mjs'

const REPORT_LUA = fileURLToPath(new URL('../wrk/report.lua', import.meta.url))
const NODE_LOADER = fileURLToPath(new URL('../load/http-load.mjs', import.meta.url))

/** True when `wrk` is on the PATH. */
export function hasWrk() {
  return spawnSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' }).status === 0
}

/**
 * Makes wrk available where it can: as root with apt-get, installs Debian's `wrk` (quietly, bounded in
 * time; an `apt-get update` first only when the plain install fails). Returns whether wrk is there.
 */
export function ensureWrk(log) {
  if (hasWrk()) return true
  if (process.getuid?.() !== 0 || spawnSync('sh', ['-c', 'command -v apt-get']).status !== 0) {
    log('wrk is not installed (and cannot be installed here): the Node loader measures instead')
    return false
  }
  log('wrk is not installed: apt-get install -y wrk …')
  const options = {
    stdio: 'ignore',
    timeout: 120_000,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  }
  const install = () => spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], options).status === 0
  if (!install()) {
    spawnSync('apt-get', ['update', '-qq'], options)
    install()
  }
  const there = hasWrk()
  if (!there) log('wrk could not be installed: the Node loader measures instead')
  return there
}

/**
 * Loads `url` with `connections` keep-alive connections for `durationS` seconds, from a process of its
 * own. Resolves with { generator, requests, seconds, rps, latencyMs: { mean, p50, p90, p99, max }, errors }.
 */
export async function httpLoad({ generator, url, headers = {}, connections, durationS }) {
  const result =
    generator === 'wrk'
      ? await wrk({ url, headers, connections, durationS })
      : await nodeLoader({ url, headers, connections, durationS })
  if (result.requests === 0) throw new Error(`${generator}: no request answered on ${url}`)
  if (result.errors > 0)
    throw new Error(`${generator}: ${result.errors} failed requests on ${url} (${result.detail})`)
  return result
}

async function wrk({ url, headers, connections, durationS }) {
  const args = ['-t1', `-c${connections}`, `-d${durationS}s`, '--timeout', '5s', '-s', REPORT_LUA]
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`)
  args.push(url)
  const { stdout } = await run('wrk', args, (durationS + 20) * 1000)
  const line = stdout.split('\n').find((text) => text.startsWith('WRK_JSON '))
  if (line === undefined) throw new Error(`wrk printed no figures:\n${stdout.slice(0, 1000)}`)
  const figures = JSON.parse(line.slice('WRK_JSON '.length))
  const seconds = figures.durationUs / 1e6
  const ms = (us) => us / 1000
  const { connect, read, write, status, timeout } = figures.errors
  return {
    generator: 'wrk',
    requests: figures.requests,
    seconds,
    rps: figures.requests / seconds,
    latencyMs: {
      mean: ms(figures.latencyUs.mean),
      p50: ms(figures.latencyUs.p50),
      p90: ms(figures.latencyUs.p90),
      p99: ms(figures.latencyUs.p99),
      max: ms(figures.latencyUs.max),
    },
    errors: connect + read + write + status + timeout,
    detail: JSON.stringify(figures.errors),
  }
}

async function nodeLoader({ url, headers, connections, durationS }) {
  const config = JSON.stringify({ url, headers, connections, durationMs: durationS * 1000 })
  const { stdout } = await run(process.execPath, [NODE_LOADER, config], (durationS + 20) * 1000)
  return { generator: 'node', ...JSON.parse(stdout.trim().split('\n').at(-1)) }
}

/** Runs a generator to its end (killed after `timeoutMs`); resolves with its stdout. */
async function run(command, args, timeoutMs) {
  const { child, exited } = spawnTracked(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (text) => {
    stdout += text
  })
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr += text
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const { code, signal } = await exited
  clearTimeout(timer)
  if (code !== 0)
    throw new Error(`${command} exited (code ${code}, signal ${signal}): ${stderr.slice(0, 500)}`)
  return { stdout, stderr }
}
