// The service as it was built at an earlier commit of this repository, for a benchmark whose target is set
// against that state ("not below 0.9 × of the day the issue was filed", issue 12): the commit is cloned from
// the repository's own history into the system's temporary directory, installed with `npm ci` and built
// with `npm run build` once, then reused by every later run (docs/performance.md, "How the runner measures").
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Where builds are kept between runs: one directory per commit. */
export const BUILDS_DIR = join(tmpdir(), 'openness-bench-builds')

/** Written last in a build's directory: a directory without it is an interrupted build, made anew. */
const BUILT = '.bench-built'

/** What the npm steps may take at most (a first `npm ci` compiles better-sqlite3: about 90 s here). */
const STEP_TIMEOUT_MS = 15 * 60_000

/**
 * The build of `ref` (a commit of the repository at `root`): its commit, its directory and the paths of its
 * service bundle and demo directory, built first when it is not kept in `buildsDir` (synchronously: minutes).
 * Throws, with what failed, when `root` has no such commit (a shallow clone) or a step fails.
 */
export function referenceBuild(ref, { root, buildsDir = BUILDS_DIR, log = () => {} }) {
  const resolved = run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root)
  if (resolved.status !== 0)
    throw new Error(`${ref} is not a commit of ${root} (a shallow clone lacks it)`)
  const commit = resolved.stdout.trim()
  const dir = join(buildsDir, commit)
  const build = {
    commit,
    dir,
    main: join(dir, 'packages/server/dist/main.bundle.js'),
    demoDirectory: join(dir, 'packages/server/directory/demo-directory.yaml'),
  }
  if (existsSync(join(dir, BUILT))) return build
  log(`building ${commit.slice(0, 7)} (${ref}) in ${dir}: once, kept for later runs`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(buildsDir, { recursive: true })
  step('git', ['clone', '--quiet', '--no-checkout', root, dir], buildsDir)
  step('git', ['checkout', '--quiet', commit], dir)
  step('npm', ['ci', '--no-audit', '--no-fund'], dir)
  step('npm', ['run', '-s', 'build'], dir)
  if (!existsSync(build.main)) throw new Error(`the build of ${commit} made no ${build.main}`)
  writeFileSync(join(dir, BUILT), `${commit}\n`)
  return build
}

function run(command, args, cwd) {
  return spawnSync(command, args, { cwd, encoding: 'utf8', timeout: STEP_TIMEOUT_MS })
}

/** Runs one step of a build; throws with the end of what it printed when it fails. */
function step(command, args, cwd) {
  const result = run(command, args, cwd)
  if (result.status === 0) return
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().slice(-800)
  throw new Error(
    `${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}): ${output}`,
  )
}
