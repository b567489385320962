/**
 * `npm start` and `npm run control` build first only when a source changed since the last build (issue 16;
 * scripts/build-if-stale.mjs), and say so. The script runs on scratch checkouts (OPENNESS_ROOT) whose files'
 * times the test sets, and whose `build` script stands in for the real one, so that nothing is built here.
 */
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const SCRIPT = fileURLToPath(new URL('../../../../scripts/build-if-stale.mjs', import.meta.url))
const SOURCE = 'packages/server/src/main.ts'
const OUTPUTS = [
  'packages/server/dist/main.bundle.js',
  'packages/server/dist/cli/openness-control.js',
]
const BUILT = 'packages/server/dist/.built'
const STALE = 3

const roots: string[] = []
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true })
})

/** Writes `path` under `root`, dated `secondsAgo` before now. */
async function file(root: string, path: string, secondsAgo: number, text = ''): Promise<void> {
  const full = join(root, path)
  await mkdir(dirname(full), { recursive: true })
  await writeFile(full, text)
  const at = Date.now() / 1000 - secondsAgo
  await utimes(full, at, at)
}

/** A checkout whose source is `sourceAge` seconds old, built `builtAge` seconds ago (never when undefined). */
async function checkout(
  sourceAge: number,
  builtAge: number | undefined,
  build = "require('node:fs').writeFileSync('packages/server/dist/.built', 'now')",
) {
  const root = await mkdtemp(join(tmpdir(), 'openness-build-'))
  roots.push(root)
  await file(
    root,
    'package.json',
    3600,
    JSON.stringify({ scripts: { build: `node -e "${build}"` } }),
  )
  await file(root, SOURCE, sourceAge)
  // A directory's time is a change too (a file added, removed or renamed in it): as old as its file.
  const at = Date.now() / 1000 - sourceAge
  await utimes(join(root, dirname(SOURCE)), at, at)
  for (const output of OUTPUTS) await file(root, output, 3600)
  if (builtAge !== undefined) await file(root, BUILT, builtAge)
  return root
}

function run(root: string, ...args: string[]) {
  const ran = spawnSync(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, OPENNESS_ROOT: root },
    encoding: 'utf8',
  })
  return { status: ran.status, stderr: ran.stderr }
}

describe('scripts/build-if-stale.mjs', () => {
  it('finds a build up to date when it finished after the last change, whatever the outputs’ own times', async () => {
    expect(run(await checkout(600, 60), '--check').status).toBe(0)
  })

  it('finds a build due when a source changed since, when none finished, and when an output is missing', async () => {
    expect(run(await checkout(60, 600), '--check').status).toBe(STALE)
    expect(run(await checkout(600, undefined), '--check').status).toBe(STALE)
    const missing = await checkout(600, 60)
    await rm(join(missing, OUTPUTS[1] as string))
    expect(run(missing, '--check').status).toBe(STALE)
  })

  it('builds when due, saying so and how long it took, then finds the build up to date', async () => {
    const root = await checkout(60, 600)
    const built = run(root)
    expect(built.status).toBe(0)
    expect(built.stderr).toMatch(/^openness: sources changed since the last build: building/)
    expect(built.stderr).toMatch(/openness: built in \d+\.\d s\n$/)
    expect(await readFile(join(root, BUILT), 'utf8')).toBe('now')
    expect(run(root, '--check').status).toBe(0)
    // Up to date: nothing said, nothing built.
    expect(run(root)).toEqual({ status: 0, stderr: '' })
  })

  it('says a first build is one, and stops with the build’s failure', async () => {
    const root = await checkout(60, undefined, 'process.exit(2)')
    const failed = run(root)
    expect(failed.status).toBe(2)
    expect(failed.stderr).toMatch(/^openness: no build found: building/)
    expect(failed.stderr).toMatch(/openness: the build failed \(above\)\n$/)
  })
})
