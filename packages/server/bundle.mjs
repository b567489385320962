// Bundles the service (dist/main.js, compiled by tsc) into one file, dist/main.bundle.js, the file
// `npm start` runs: loading ~1,000 ES modules one by one took most of the start-up (about 1 s of 1.2 s,
// docs/performance.md "startup"); one file loads in a tenth of that. Packages stay outside the bundle
// when they are native, loaded only on demand, or find their own files from __dirname
// (src/tools/bundle-options.ts says which).
import { rename, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
// Compiled by tsc just before (npm run build): the same options the cluster tests build their nodes with.
import { BUNDLE_BANNER, BUNDLE_EXTERNALS } from './dist/tools/bundle-options.js'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const outfile = here('dist/main.bundle.js')

const { outputFiles } = await build({
  entryPoints: [here('dist/main.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [...BUNDLE_EXTERNALS],
  banner: { js: BUNDLE_BANNER },
  logLevel: 'warning',
  write: false,
})

// A package that reads files next to its own code would look for them next to the bundle instead.
const bundled = outputFiles.find((file) => file.path === outfile)?.text
if (bundled === undefined) throw new Error(`esbuild gave no ${outfile}`)
for (const name of ['__dirname', '__filename']) {
  if (bundled.includes(name)) {
    process.stderr.write(
      `${outfile} uses ${name}: mark the package that does as external in bundle.mjs\n`,
    )
    process.exit(1)
  }
}
// Written whole, then renamed over the last one: a service started while a build runs (npm start, a test
// running the README's snippets, the benchmarks) reads one bundle or the other, never half of one.
const partial = `${outfile}.${process.pid}.partial`
await writeFile(partial, bundled)
await rename(partial, outfile)

// The build's last step: when it finished, for scripts/build-if-stale.mjs (tsc leaves an output it finds
// unchanged as it was, so no output's time says when the last build ran).
await writeFile(here('dist/.built'), `${new Date().toISOString()}\n`)
