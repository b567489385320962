// Builds the service when a source changed since its last build, or when it was never built, and says so on
// stderr; otherwise returns at once. `npm start` and `npm run control` run it first: tsc's own up-to-date check
// took about 5 s at every call (17 s on a loaded machine) and the first start was silent while it built
// (issue 16). Staleness is read from modification times, as tsc -b reads them: the newest file of the packages'
// sources and build inputs against the time the last build finished (`dist/.built`, which bundle.mjs, the
// build's last step, writes), and the outputs those commands run must exist.
//
//   node scripts/build-if-stale.mjs          build when stale
//   node scripts/build-if-stale.mjs --check  only say: exit 0 when up to date, 3 when a build is due
//
// OPENNESS_ROOT names another checkout (the tests' scratch copies).
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = process.env.OPENNESS_ROOT ?? fileURLToPath(new URL('..', import.meta.url))
/** What a build reads: the packages' sources and their build settings. */
const INPUTS = [
  'packages/wire/src',
  'packages/wire/package.json',
  'packages/wire/tsconfig.json',
  'packages/server/src',
  'packages/server/package.json',
  'packages/server/tsconfig.json',
  'packages/server/bundle.mjs',
  'tsconfig.base.json',
]
/** What `npm start` and `npm run control` run. */
const OUTPUTS = [
  'packages/server/dist/main.bundle.js',
  'packages/server/dist/cli/openness-control.js',
]
/** Written when a build finished. */
const BUILT = 'packages/server/dist/.built'

const STALE = 3

/** The newest modification time under `path` (a file, or a directory walked whole); 0 when it is missing. */
function newest(path) {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

/** When the last build finished; 0 when it never did, or an output is missing. */
function lastBuild() {
  if (OUTPUTS.some((output) => newest(join(ROOT, output)) === 0)) return 0
  return newest(join(ROOT, BUILT))
}

const built = lastBuild()
const changed = Math.max(...INPUTS.map((input) => newest(join(ROOT, input))))
const stale = built === 0 || changed > built
if (process.argv.includes('--check')) process.exit(stale ? STALE : 0)
if (stale) {
  const started = performance.now()
  process.stderr.write(
    built === 0
      ? 'openness: no build found: building the service (about a minute the first time)...\n'
      : 'openness: sources changed since the last build: building the service again...\n',
  )
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' })
  if (build.status !== 0) {
    process.stderr.write('openness: the build failed (above)\n')
    process.exit(build.status ?? 1)
  }
  process.stderr.write(
    `openness: built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  )
}
