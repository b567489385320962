// The benchmark runner (`npm run bench`, docs/performance.md): runs every benchmark of bench/benchmarks/
// (or the ones named), each against its baseline in the same run, rounds interleaved (A B A B …) so that
// the drift of a shared machine cancels out in the ratios; prints one markdown table (median, min and
// max over the rounds, the ratio to the baseline, the target and whether it is met, the load generator)
// and writes every sample to bench/results/latest.json.
//
// Usage: npm run bench [-- <name>… ] [-- --smoke] [-- --list]
//   <name>     run only these benchmarks (see --list)
//   --smoke    about half a minute in all: tiny counts and durations, every code path, figures not judged;
//              exits 1 when a benchmark broke or left a figure without a number (the test suite runs it)
// Environment: BENCH_RESULTS_DIR (bench/results), BENCH_ROUNDS (each benchmark's own count otherwise; its time
// bound grows with it, as if every benchmark's own count were 3),
// BENCH_GENERATOR=node (the Node loader even where wrk is installed).
// Exit code 0 when every benchmark ran, whatever the figures: a missed target is reported, not failed.
//
// A benchmark is a module exporting by default
//   { name, title, order, timeoutS, baseline: 'what the baseline is' | undefined,
//     figures: [{ key, label, unit, baseline?: key of the baseline figure,
//                 target?: { on: 'median' | 'ratio', op: '>=' | '<=' | '<', value, text } }],
//     run(ctx, prepared), prepare?(ctx), unavailable?() }
// where unavailable(), when given, names what the benchmark lacks on this machine (a server it needs) or
// answers undefined: a benchmark that lacks something is reported as skipped, with the reason, not run;
// where prepare(ctx), when given, does what the benchmark needs before it is timed (a build of an earlier
// commit) and resolves with what run receives as `prepared`;
// where run(ctx) measures through ctx.interleave(variants, { rounds, warmup }), each variant's round
// resolving with { figureKey: value }, or ctx.sample(key, value); see `context` below.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { endAll, killAllNow } from './lib/children.mjs'
import { machineCpuMs, processTreeCpuMs } from './lib/cpu.mjs'
import { ensureWrk, hasWrk } from './lib/load.mjs'
import {
  cheapDirectoryFile,
  copyDataDir,
  DEMO_USERS,
  ROOT,
  startService,
  tempDir,
} from './lib/service.mjs'
import { spread } from './lib/stats.mjs'
import { table } from './lib/table.mjs'

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url))
const args = process.argv.slice(2)
const smoke = args.includes('--smoke')
const list = args.includes('--list')
const wanted = args.filter((arg) => !arg.startsWith('--'))
const resultsDir = process.env.BENCH_RESULTS_DIR ?? join(BENCH_DIR, 'results')
const roundsOverride = process.env.BENCH_ROUNDS ? Number(process.env.BENCH_ROUNDS) : undefined

const began = performance.now()
const log = (text) =>
  process.stderr.write(
    `[${((performance.now() - began) / 1000).toFixed(1).padStart(5)} s] ${text}\n`,
  )

/** What the run shares (temporary directories among them), once it started. */
let shared
process.on('exit', () => {
  killAllNow()
  shared?.cleanUp()
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130))

async function discover() {
  const files = readdirSync(join(BENCH_DIR, 'benchmarks')).filter((file) => file.endsWith('.mjs'))
  const modules = await Promise.all(
    files.map(
      async (file) => (await import(pathToFileURL(join(BENCH_DIR, 'benchmarks', file)))).default,
    ),
  )
  return modules.sort((a, b) => a.order - b.order)
}

/** What the whole run shares: temporary directories, prepared data directories, the cheap directory. */
class Shared {
  constructor() {
    this.dirs = []
    this.templates = new Map()
  }

  tempDir(prefix) {
    const dir = tempDir(prefix)
    this.dirs.push(dir)
    return dir
  }

  /** The demo directory with password hashes of negligible cost (bench/lib/service.mjs `cheapDirectoryFile`). */
  cheapDirectory() {
    this.cheap ??= cheapDirectoryFile(this.tempDir('openness-bench-dir-'))
    return this.cheap
  }

  /**
   * A fresh copy of a data directory the service has already started on (imported, passwords hashed)
   * with `directoryFile` (undefined: the embedded demo directory); the first call prepares it. `main`, the
   * bundle of another build (bench/lib/reference-build.mjs) when the data directory is for that build.
   */
  async dataDir(directoryFile, main) {
    const key = `${directoryFile ?? 'demo'}${main === undefined ? '' : ` ${main}`}`
    if (!this.templates.has(key)) {
      const template = this.tempDir('openness-bench-template-')
      const service = await startService({
        ...(main !== undefined && { main }),
        dataDir: template,
        directoryFile,
        logLevel: 'info',
      })
      // Stopping before the import is stored would leave it to import again at every start.
      await service.untilLogged('directory stored')
      await service.stop()
      this.templates.set(key, template)
    }
    const copy = copyDataDir(this.templates.get(key))
    this.dirs.push(copy)
    return copy
  }

  /** Offers a data directory the service started on with the demo directory as the template. */
  offerTemplate(directoryFile, dir) {
    const key = directoryFile ?? 'demo'
    if (!this.templates.has(key)) this.templates.set(key, dir)
  }

  cleanUp() {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  }
}

/** The interface a benchmark measures through; collects its samples and notes. */
function context(benchmark, shared, generator) {
  const samples = new Map()
  const notes = []
  const generators = new Set()
  const ctx = {
    smoke,
    log: (text) => log(`${benchmark.name}: ${text}`),
    /** Whether wrk is there: 'wrk' or 'node' for the throughput generator. */
    httpGenerator: generator,
    /** `full` in a normal run, `small` in smoke mode. */
    scale: (full, small) => (smoke ? small : full),
    /** The number of rounds: BENCH_ROUNDS, else `full` (1 in smoke mode). */
    rounds: (full) => (smoke ? 1 : (roundsOverride ?? full)),
    demoUsers: DEMO_USERS,
    tempDir: (prefix) => shared.tempDir(prefix),
    cheapDirectory: () => shared.cheapDirectory(),
    dataDir: (directoryFile, main) => shared.dataDir(directoryFile, main),
    offerTemplate: (directoryFile, dir) => shared.offerTemplate(directoryFile, dir),
    /** Names a load generator this benchmark used (shown in the table). */
    usedGenerator: (name) => generators.add(name),
    /** A note printed under the table (diagnostics, what limited a figure). */
    note: (text) => notes.push(text),
    sample(key, value) {
      if (!benchmark.figures.some((figure) => figure.key === key))
        throw new Error(`${benchmark.name}: no figure ${key}`)
      if (!samples.has(key)) samples.set(key, [])
      samples.get(key).push(value)
    },
    /**
     * Runs `rounds` rounds of every variant in turn (A B A B …), after `warmup` rounds whose figures are
     * dropped. A variant's round resolves with { figureKey: value }; samples keep the round order, so
     * that a figure and its baseline pair up round by round.
     */
    async interleave(variants, { rounds, warmup = 0 }) {
      for (let round = -warmup; round < rounds; round++) {
        for (const [name, measure] of Object.entries(variants)) {
          const figures = await measure(round)
          const label =
            round < 0 ? `warm-up ${round + warmup + 1}/${warmup}` : `round ${round + 1}/${rounds}`
          ctx.log(`${label} ${name}: ${brief(figures)}`)
          if (round >= 0) for (const [key, value] of Object.entries(figures)) ctx.sample(key, value)
        }
      }
    },
  }
  return { ctx, samples, notes, generators }
}

function brief(figures) {
  return Object.entries(figures)
    .map(([key, value]) => `${key.split('.').at(-1)} ${Number(value.toPrecision(4))}`)
    .join(', ')
}

/** Runs one benchmark within its time bound; resolves with its entry in latest.json. */
async function runOne(benchmark, shared, generator) {
  const lacking = benchmark.unavailable?.()
  if (lacking !== undefined) {
    log(`${benchmark.name}: skipped: ${lacking}`)
    return {
      name: benchmark.name,
      title: benchmark.title,
      baseline: benchmark.baseline ?? null,
      generators: [],
      seconds: 0,
      otherCores: null,
      figures: [],
      notes: [`skipped: ${lacking}`],
      skipped: lacking,
    }
  }
  const { ctx, samples, notes, generators } = context(benchmark, shared, generator)
  // More rounds than a benchmark's own (at least 3) take longer: its bound grows with them.
  const timeoutS = smoke ? 90 : (benchmark.timeoutS ?? 150) * Math.max(1, (roundsOverride ?? 0) / 3)
  log(`${benchmark.name}: ${benchmark.title}`)
  let error
  let timer
  // What a benchmark prepares (a build of an earlier commit: minutes the first time) is neither timed nor
  // bounded by its time, nor counted in its seconds and the other processes' share.
  let prepared
  try {
    prepared = await benchmark.prepare?.(ctx)
  } catch (caught) {
    error = caught
    log(`${benchmark.name}: FAILED to prepare: ${caught?.stack ?? caught}`)
  }
  const started = performance.now()
  const cpuBefore = { machine: machineCpuMs(), ours: processTreeCpuMs() }
  try {
    if (error === undefined)
      await Promise.race([
        benchmark.run(ctx, prepared),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`did not finish within ${timeoutS} s`)),
            timeoutS * 1000,
          )
        }),
      ])
  } catch (caught) {
    error = caught
    log(`${benchmark.name}: FAILED: ${caught?.stack ?? caught}`)
  } finally {
    clearTimeout(timer)
    await endAll()
  }
  const figures = benchmark.figures.map((figure) => summarize(figure, samples))
  // What other processes took meanwhile: the machine's busy CPU less this runner's and its children's.
  const wall = performance.now() - started
  const machineCores = (machineCpuMs() - cpuBefore.machine) / wall
  const otherCores = Math.max(0, machineCores - (processTreeCpuMs() - cpuBefore.ours) / wall)
  if (Number.isFinite(otherCores))
    notes.unshift(`other processes took ${otherCores.toFixed(2)} cores meanwhile`)
  return {
    name: benchmark.name,
    title: benchmark.title,
    baseline: benchmark.baseline ?? null,
    generators: [...generators],
    seconds: Number((wall / 1000).toFixed(1)),
    otherCores: Number.isFinite(otherCores) ? Number(otherCores.toFixed(2)) : null,
    figures,
    notes,
    ...(error && { error: String(error?.message ?? error) }),
  }
}

function summarize(figure, samples) {
  const values = samples.get(figure.key) ?? []
  const entry = { ...figure, samples: values, ...spread(values) }
  if (figure.baseline) {
    const base = samples.get(figure.baseline) ?? []
    const ratios = values.map((value, i) => value / base[i]).filter(Number.isFinite)
    entry.ratio = { samples: ratios, ...spread(ratios) }
  }
  if (figure.target) {
    const measured = figure.target.on === 'ratio' ? entry.ratio?.median : entry.median
    entry.met = Number.isFinite(measured) ? compare(measured, figure.target) : null
    // How far from the target: the measured figure relative to it, −12 % = 12 % short of it (none for a
    // target of 0, such as no call lost).
    if (Number.isFinite(measured) && figure.target.value !== 0)
      entry.vsTarget = measured / figure.target.value - 1
  }
  return entry
}

function compare(value, { op, value: target }) {
  if (op === '>=') return value >= target
  if (op === '<=') return value <= target
  if (op === '<') return value < target
  throw new Error(`unknown target operator ${op}`)
}

function machine() {
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
  }
}

async function main() {
  const all = await discover()
  if (list) {
    for (const benchmark of all) console.log(`${benchmark.name.padEnd(14)} ${benchmark.title}`)
    return 0
  }
  const unknown = wanted.filter((name) => !all.some((benchmark) => benchmark.name === name))
  if (unknown.length > 0) {
    console.error(
      `unknown benchmark ${unknown.join(', ')}; there are: ${all.map((b) => b.name).join(', ')}`,
    )
    return 2
  }
  const selected = wanted.length === 0 ? all : all.filter((b) => wanted.includes(b.name))
  const generator =
    process.env.BENCH_GENERATOR === 'node' || !(smoke ? hasWrk() : ensureWrk(log)) ? 'node' : 'wrk'
  const before = machine()
  const startedAt = new Date().toISOString()
  log(
    `${selected.length} benchmark(s)${smoke ? ', smoke mode' : ''}; throughput generator ${generator}; ${before.cores} cores, load ${before.loadAverage.join(' ')}`,
  )
  shared = new Shared()
  const results = []
  try {
    for (const benchmark of selected) results.push(await runOne(benchmark, shared, generator))
  } finally {
    shared.cleanUp()
  }
  const seconds = (performance.now() - began) / 1000
  const after = machine()
  const report = {
    startedAt,
    seconds: Number(seconds.toFixed(1)),
    smoke,
    command: `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`,
    machine: { ...before, loadAverageAfter: after.loadAverage },
    throughputGenerator: generator,
    benchmarks: results,
  }
  mkdirSync(resultsDir, { recursive: true })
  const file = join(resultsDir, 'latest.json')
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(table(report))
  log(`figures written to ${file.startsWith(ROOT) ? file.slice(ROOT.length) : file}`)
  const broken = results.filter((result) => result.error)
  const empty = results.flatMap((result) =>
    result.figures
      .filter((figure) => !Number.isFinite(figure.median))
      .map((f) => `${result.name}: ${f.key}`),
  )
  if (broken.length > 0) log(`broken: ${broken.map((result) => result.name).join(', ')}`)
  if (smoke && empty.length > 0) log(`figures without a number: ${empty.join(', ')}`)
  return broken.length > 0 || (smoke && empty.length > 0) ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
