// Call cycles over REST with event channels open: 4 pairs of demo users, each with a session, a
// subscription to `telephony` and a chunk channel over a real socket, loop on make call (autoAnswer),
// answer, release, each cycle ending when both channels delivered OnCallRemoved (bench/load/
// telephony-load.mjs, its own process). The service is `node packages/server/dist/main.js` over its own
// data directory (SQLite, durable: every command is one committed transaction). Reports cycles/s and
// the latency from sending the answer to the caller's channel delivering the OnCallModified (ACTIVE).
// Baselines, for the communication log only, each with its own data directory and loader, rounds
// alternated: the service as built on the day issue 12 was filed (BEFORE_THE_LOG, built once from this
// repository's history: bench/lib/reference-build.mjs), against which the issue asks at least 0.9 × of the
// cycles; and the same service with the log's recording off (COMLOG_RECORDING=off): what writing two
// records at each call's end costs on its own, a stricter figure, held to the same 0.9 (docs/
// performance.md, "The cost of writing records"). The notes give each variant's CPU, its main thread's
// apart: whether the JavaScript was the bound, and what a cycle cost it.
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'
import { withCpu } from '../lib/cpu.mjs'
import { referenceBuild } from '../lib/reference-build.mjs'
import { cheapDirectoryFile, ROOT, startService } from '../lib/service.mjs'
import { median } from '../lib/stats.mjs'

const LOADER = fileURLToPath(new URL('../load/telephony-load.mjs', import.meta.url))

/** The last commit before issue 12's first change (2026-11-23 22:08 UTC): the service before the log. */
export const BEFORE_THE_LOG = '363b03c81b12e308160ddd5c0b7fe62c0c4f9d45'

export default {
  name: 'rest-calls',
  title: 'Call cycles over REST, both parties with event channels open',
  order: 60,
  timeoutS: 240,
  baseline: `for the communication log only: the service before it (${BEFORE_THE_LOG.slice(0, 7)}), and the same service with its recording off`,
  figures: [
    {
      key: 'cps',
      label: 'REST call cycles, both channels open',
      unit: 'cycles/s',
      target: { on: 'median', op: '>=', value: 500, text: '≥ 500/s' },
    },
    {
      key: 'cpsBefore',
      label: `the service before the log (${BEFORE_THE_LOG.slice(0, 7)}, the day issue 12 was filed)`,
      unit: 'cycles/s',
    },
    {
      key: 'cpsVsBefore',
      label: 'REST call cycles with the log, against the service before it',
      unit: 'cycles/s',
      baseline: 'cpsBefore',
      target: { on: 'ratio', op: '>=', value: 0.9, text: '≥ 0.9 × before (issue 12)' },
    },
    {
      key: 'cpsNoLog',
      label: 'the same, communication log recording off',
      unit: 'cycles/s',
    },
    {
      key: 'cpsVsNoLog',
      label: 'REST call cycles with the log, against without',
      unit: 'cycles/s',
      baseline: 'cpsNoLog',
      target: { on: 'ratio', op: '>=', value: 0.9, text: '≥ 0.9 × without' },
    },
    {
      key: 'cpuCyclesNoLog',
      label: "cycles per second of the main thread's CPU, recording off",
      unit: 'cycles/s',
    },
    {
      key: 'cpuCyclesVsNoLog',
      label: 'the same with the log, against without',
      unit: 'cycles/s',
      baseline: 'cpuCyclesNoLog',
    },
    { key: 'p50', label: 'answer → OnCallModified on the channel, p50', unit: 'ms' },
    {
      key: 'p99',
      label: 'answer → OnCallModified on the channel, p99',
      unit: 'ms',
      target: { on: 'median', op: '<', value: 20, text: '< 20 ms' },
    },
  ],
  /**
   * The service before the log, built once from this repository's history (minutes the first time; kept in
   * the system's temporary directory for later runs). The smoke test, which runs every code path offline in
   * seconds, takes this build in its place.
   */
  prepare(ctx) {
    if (ctx.smoke) return undefined
    return referenceBuild(BEFORE_THE_LOG, { root: ROOT, log: ctx.log })
  },
  async run(ctx, before) {
    const directoryFile = ctx.cheapDirectory()
    const pairs = ctx.scale(4, 1)
    const durationMs = ctx.scale(3_000, 500)
    /** A service with its own data directory and loader: `main` and `directory` another build's. */
    const start = async ({ env = {}, main, directory = directoryFile }) => {
      const service = await startService({
        ...(main !== undefined && { main }),
        dataDir: await ctx.dataDir(directory, main),
        directoryFile: directory,
        env,
      })
      const loader = new IpcChild(LOADER)
      await loader.ready
      await loader.call('setup', { port: service.port, pairs })
      return { service, loader }
    }
    const withLog = await start({ env: { COMLOG_RECORDING: 'on' } })
    const withoutLog = await start({ env: { COMLOG_RECORDING: 'off' } })
    // The earlier build reads the demo directory of its day (the fields it knows).
    const beforeLog =
      before === undefined
        ? await start({})
        : await start({
            main: before.main,
            directory: cheapDirectoryFile(ctx.tempDir('openness-bench-dir-'), before.demoDirectory),
          })
    if (before === undefined)
      ctx.note('smoke mode: "before the log" is this build, with the log; no earlier build is made')
    ctx.usedGenerator(`node loader, ${pairs} pairs`)
    const variants = [
      [withLog, 'with the log'],
      [withoutLog, 'recording off'],
      [beforeLog, `before the log (${before?.commit.slice(0, 7) ?? 'this build'})`],
    ]
    /** CPU by variant, rounds after the warm-up: the service's cores, its main thread's, the loader's. */
    const cpu = new Map(variants.map(([variant]) => [variant, newCpuFigures()]))
    const round = async (variant, count) => {
      const { service, loader } = variant
      const { result, cores, mainCores } = await withCpu(service.child.pid, () =>
        withCpu(loader.process.pid, () => loader.call('round', { durationMs })),
      )
      const cps = result.result.cycles / result.result.seconds
      if (count) {
        const figures = cpu.get(variant)
        figures.service.push(cores)
        figures.main.push(mainCores)
        figures.loader.push(result.cores)
        figures.msPerCycle.push((cores * 1000) / cps)
        figures.mainMsPerCycle.push((mainCores * 1000) / cps)
      }
      return { cps, cpuCycles: cps / mainCores, latencies: result.result.latencies }
    }
    await ctx.interleave(
      {
        service: async (n) => {
          const { cps, cpuCycles, latencies } = await round(withLog, n >= 0)
          return {
            cps,
            cpsVsBefore: cps,
            cpsVsNoLog: cps,
            cpuCyclesVsNoLog: cpuCycles,
            p50: latencies.p50,
            p99: latencies.p99,
          }
        },
        'recording off': async (n) => {
          const { cps, cpuCycles } = await round(withoutLog, n >= 0)
          return { cpsNoLog: cps, cpuCyclesNoLog: cpuCycles }
        },
        'before the log': async (n) => {
          const { cps } = await round(beforeLog, n >= 0)
          return { cpsBefore: cps }
        },
      },
      // Ten rounds: single rounds of the two services' ratio move by a tenth either way on this VM, and the
      // median of five moved from 0.81 to 0.93 from run to run (docs/performance.md).
      { rounds: ctx.rounds(10), warmup: ctx.scale(1, 0) },
    )
    for (const [variant, label] of variants) {
      const figures = cpu.get(variant)
      const msPerCycle = median(figures.msPerCycle)
      ctx.note(
        `CPU ${label} (medians): service ${median(figures.service).toFixed(2)} cores, its main thread ${median(figures.main).toFixed(2)}; ${msPerCycle.toFixed(2)} ms a cycle, ${median(figures.mainMsPerCycle).toFixed(3)} on the main thread (one full core: ~${Math.round(1000 / msPerCycle)} cycles/s); load generator ${median(figures.loader).toFixed(2)} cores`,
      )
    }
    for (const [{ service, loader }] of variants) {
      await loader.exit()
      await service.stop()
    }
  },
}

/** The CPU figures of one variant's rounds. */
function newCpuFigures() {
  return { service: [], main: [], loader: [], msPerCycle: [], mainMsPerCycle: [] }
}
