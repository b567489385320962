/**
 * bench/lib/reference-build.mjs: the build of an earlier commit that `rest-calls` measures the service against
 * (issue 12's "0.9 × of the day it was filed"), made once from the repository's own history and kept. Tested
 * on a repository of its own whose `npm run build` writes which commit it built, so that what is built, kept,
 * made anew and refused can be seen.
 */
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface ReferenceBuild {
  commit: string
  dir: string
  main: string
  demoDirectory: string
}
interface ReferenceBuildModule {
  referenceBuild(
    ref: string,
    options: { root: string; buildsDir?: string; log?: (text: string) => void },
  ): ReferenceBuild
}

const MODULE = new URL('../../../bench/lib/reference-build.mjs', import.meta.url)

const work = mkdtempSync(join(tmpdir(), 'openness-reference-build-'))
const root = join(work, 'repository')
const buildsDir = join(work, 'builds')

function git(...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args],
    { cwd: root, encoding: 'utf8' },
  ).trim()
}

/** Commits a repository whose build writes `label` into the bundle (or fails, `label` undefined). */
function commitVersion(label: string | undefined): string {
  writeFileSync(
    join(root, 'build.mjs'),
    label === undefined
      ? `console.error('the build broke'); process.exit(3)\n`
      : `import { mkdirSync, writeFileSync } from 'node:fs'
mkdirSync('packages/server/dist', { recursive: true })
writeFileSync('packages/server/dist/main.bundle.js', ${JSON.stringify(`// ${label}\n`)})
`,
  )
  git('add', '.')
  git('commit', '--quiet', '-m', label ?? 'broken')
  return git('rev-parse', 'HEAD')
}

let module: ReferenceBuildModule
let first: string
let second: string
let broken: string

beforeAll(async () => {
  module = (await import(MODULE.href)) as ReferenceBuildModule
  mkdirSync(join(root, 'packages/server/directory'), { recursive: true })
  const manifest = { name: 'reference', version: '1.0.0', scripts: { build: 'node build.mjs' } }
  writeFileSync(join(root, 'package.json'), JSON.stringify(manifest))
  writeFileSync(
    join(root, 'package-lock.json'),
    JSON.stringify({
      name: 'reference',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: 'reference', version: '1.0.0' } },
    }),
  )
  writeFileSync(join(root, 'packages/server/directory/demo-directory.yaml'), 'users: []\n')
  git('init', '--quiet')
  first = commitVersion('first')
  second = commitVersion('second')
  broken = commitVersion(undefined)
}, 60_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('referenceBuild', () => {
  it('builds the commit asked for, not the newest, and says where its bundle and demo directory are', () => {
    const build = module.referenceBuild(first.slice(0, 7), { root, buildsDir })
    expect(build).toEqual({
      commit: first,
      dir: join(buildsDir, first),
      main: join(buildsDir, first, 'packages/server/dist/main.bundle.js'),
      demoDirectory: join(buildsDir, first, 'packages/server/directory/demo-directory.yaml'),
    })
    expect(readFileSync(build.main, 'utf8')).toBe('// first\n')
    expect(readFileSync(build.demoDirectory, 'utf8')).toBe('users: []\n')
    const other = module.referenceBuild(second, { root, buildsDir })
    expect(other.main).not.toBe(build.main)
    expect(readFileSync(other.main, 'utf8')).toBe('// second\n')
  }, 60_000)

  it('keeps a finished build for later runs, and makes an interrupted one anew', () => {
    const build = module.referenceBuild(first, { root, buildsDir })
    writeFileSync(build.main, '// kept\n')
    const logged: string[] = []
    module.referenceBuild(first, { root, buildsDir, log: (text) => logged.push(text) })
    expect(readFileSync(build.main, 'utf8')).toBe('// kept\n')
    expect(logged).toEqual([])
    // A build stopped before its end left no mark: it is made again from the start.
    rmSync(join(build.dir, '.bench-built'))
    module.referenceBuild(first, { root, buildsDir, log: (text) => logged.push(text) })
    expect(readFileSync(build.main, 'utf8')).toBe('// first\n')
    expect(logged).toHaveLength(1)
    expect(logged[0]).toContain(`building ${first.slice(0, 7)}`)
  }, 60_000)

  it('refuses a commit the repository does not have, building nothing', () => {
    const kept = readdirSync(buildsDir).sort()
    expect(() => module.referenceBuild('0'.repeat(40), { root, buildsDir })).toThrow(
      /is not a commit of .* \(a shallow clone lacks it\)/,
    )
    expect(readdirSync(buildsDir).sort()).toEqual(kept)
  })

  it('fails with the step that failed and what it printed, and keeps no broken build', () => {
    expect(() => module.referenceBuild(broken, { root, buildsDir })).toThrow(
      /npm run -s build failed \(exit 3\): [\s\S]*the build broke/,
    )
    expect(existsSync(join(buildsDir, broken, '.bench-built'))).toBe(false)
  }, 60_000)
})
