// Copies what the built service needs at run time, and nothing else, into a directory laid out as the repository
// is: the Dockerfile's runtime stage is this directory (README, "Docker"), and a test starts the service from such
// a copy (packages/server/test/operations/docker-runtime.test.ts).
//
//   node scripts/runtime-files.mjs <target>  [--bundle <file>] [--externals a,b,c]
//
// What the bundle needs besides itself (packages/server/bundle.mjs):
// - the packages it leaves external (src/tools/bundle-options.ts: native, loaded on demand, or reading files of
//   their own: better-sqlite3, pg, selfsigned, the Swagger UI's static files, pino, ioredis), with every package
//   they depend on, as installed (better-sqlite3 as compiled: its .node file, without the SQLite sources nor
//   prebuild-install, which only runs at install);
// - the demo directory file (packages/server/directory/) and the scenario library (scenarios/), which the
//   bundle finds relative to itself; packages/server/package.json (it says the bundle is an ES module);
// - healthcheck.mjs, the image's health check.
// --bundle copies another bundle in place of packages/server/dist/main.bundle.js, --externals names the
// external packages in place of dist/tools/bundle-options.js's (the test's bundle, built from the sources).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { bundle: { type: 'string' }, externals: { type: 'string' } },
})
const target = positionals[0]
if (target === undefined) {
  process.stderr.write(
    'usage: node scripts/runtime-files.mjs <target> [--bundle <file>] [--externals a,b]\n',
  )
  process.exit(2)
}

const bundle = values.bundle ?? join(ROOT, 'packages/server/dist/main.bundle.js')
if (!existsSync(bundle)) {
  process.stderr.write(`${bundle}: no bundle: run npm run build first\n`)
  process.exit(1)
}
const externals =
  values.externals?.split(',').filter(Boolean) ??
  (await import(pathToFileURL(join(ROOT, 'packages/server/dist/tools/bundle-options.js')).href))
    .BUNDLE_EXTERNALS

/** Files of an installed package never loaded at run time: better-sqlite3's sources and build leftovers. */
const NOT_NEEDED = [
  /^better-sqlite3\/(deps|src|docs)(\/|$)/,
  /^better-sqlite3\/build\/(?!Release$|Release\/better_sqlite3\.node$)/,
]

/** Dependencies that run when a package is installed, never when it is loaded: better-sqlite3's downloader. */
const INSTALL_ONLY = new Set(['prebuild-install'])

/** The directory of `name` as Node resolves it from `fromDir` (a package's own node_modules first). */
function resolvePackage(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

/** Every installed package `names` need at run time, as directories under ROOT/node_modules. */
function closure(names) {
  const found = new Set()
  const skipped = []
  const visit = (name, fromDir, optional) => {
    if (INSTALL_ONLY.has(name)) return
    const dir = resolvePackage(name, fromDir)
    if (dir === undefined) {
      if (!optional) skipped.push(name)
      return
    }
    if (found.has(dir)) return
    found.add(dir)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false)
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true)
    for (const dep of Object.keys(manifest.peerDependencies ?? {}))
      visit(dep, dir, manifest.peerDependenciesMeta?.[dep]?.optional === true)
  }
  for (const name of names) visit(name, join(ROOT, 'packages/server'), false)
  return { dirs: [...found].sort(), skipped }
}

rmSync(target, { recursive: true, force: true })
mkdirSync(join(target, 'packages/server/dist'), { recursive: true })
cpSync(bundle, join(target, 'packages/server/dist/main.bundle.js'))
cpSync(join(ROOT, 'packages/server/package.json'), join(target, 'packages/server/package.json'))
cpSync(join(ROOT, 'packages/server/directory'), join(target, 'packages/server/directory'), {
  recursive: true,
})
cpSync(join(ROOT, 'scenarios'), join(target, 'scenarios'), { recursive: true })
cpSync(join(ROOT, 'scripts/healthcheck.mjs'), join(target, 'healthcheck.mjs'))

const { dirs, skipped } = closure(externals)
for (const dir of dirs) {
  const path = relative(ROOT, dir)
  const inModules = relative(join(ROOT, 'node_modules'), dir)
  cpSync(dir, join(target, path), {
    recursive: true,
    // A package's own node_modules are packages of the closure, copied each on its own.
    filter: (source) => {
      const inside = relative(dir, source)
      if (inside.split(sep)[0] === 'node_modules') return false
      const name = join(inModules, inside).split(sep).join('/')
      return !NOT_NEEDED.some((pattern) => pattern.test(name))
    },
  })
}
process.stdout.write(
  `${target}: the bundle, the demo directory, the scenarios, healthcheck.mjs and ${dirs.length} packages` +
    ` (for ${externals.join(', ')})${skipped.length ? `; not installed, left out: ${skipped.join(', ')}` : ''}\n`,
)
