/**
 * The benchmarks' smoke mode (`npm run bench -- --smoke`, docs/performance.md), so that they cannot rot:
 * every benchmark runs for a moment against the built service and records a number for each of its
 * figures. The figures themselves are not judged here.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

interface Figure {
  key: string
  samples: number[]
  median: number
}

interface BenchReport {
  smoke: boolean
  benchmarks: { name: string; error?: string; skipped?: string; figures: Figure[] }[]
}

/** Runs `node args…` in the repository; resolves with the exit code and what it printed. */
function node(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, output }))
  })
}

describe('npm run bench -- --smoke', () => {
  const resultsDir = mkdtempSync(join(tmpdir(), 'openness-bench-smoke-'))
  afterAll(() => rmSync(resultsDir, { recursive: true, force: true }))

  it('runs every benchmark of bench/benchmarks and records a number for each figure', async () => {
    // The benchmarks run the built service as npm start does (packages/server/dist/main.bundle.js): build
    // it first as `npm run build` does, tsc (incremental) then the bundle.
    const build = await node([
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-b',
      'packages/server',
    ])
    expect(build.output).toBe('')
    expect(build.code).toBe(0)
    const bundle = await node(['packages/server/bundle.mjs'])
    expect(bundle.output).toBe('')
    expect(bundle.code).toBe(0)

    const run = await node(['bench/run.mjs', '--smoke'], { BENCH_RESULTS_DIR: resultsDir })
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain('| benchmark')

    const report = JSON.parse(readFileSync(join(resultsDir, 'latest.json'), 'utf8')) as BenchReport
    expect(report.smoke).toBe(true)
    const modules = readdirSync(join(ROOT, 'bench/benchmarks')).filter((f) => f.endsWith('.mjs'))
    expect(report.benchmarks).toHaveLength(modules.length)
    // The cluster benchmark needs PostgreSQL and Redis: it may be skipped, saying so, only where they are not
    // named (CI names both, so there it runs).
    const clusterServers =
      process.env['REDIS_URL'] !== undefined && /^postgres/.test(process.env['DATABASE_URL'] ?? '')
    for (const benchmark of report.benchmarks) {
      if (benchmark.skipped !== undefined) {
        expect(clusterServers, `${benchmark.name} skipped: ${benchmark.skipped}`).toBe(false)
        expect(benchmark.skipped).toMatch(/REDIS_URL|DATABASE_URL/)
        continue
      }
      expect(benchmark.error, benchmark.name).toBeUndefined()
      expect(benchmark.figures.length, benchmark.name).toBeGreaterThan(0)
      for (const figure of benchmark.figures) {
        expect(figure.samples.length, `${benchmark.name} ${figure.key}`).toBeGreaterThan(0)
        expect(Number.isFinite(figure.median), `${benchmark.name} ${figure.key}`).toBe(true)
      }
    }
  }, 180_000)
})
