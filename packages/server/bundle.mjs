// Bundles the service (dist/main.js, compiled by tsc) into one file, dist/main.bundle.js, the file
// `npm start` runs: loading ~1,000 ES modules one by one took most of the start-up (about 1 s of 1.2 s,
// docs/performance.md "Start-up"); one file loads in a tenth of that. Packages stay outside the bundle
// when they are native (better-sqlite3), loaded only on demand (pg, selfsigned), or find their own files
// from __dirname (the Swagger UI's static files, pino's worker threads), which a bundle would break.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const outfile = here('dist/main.bundle.js')

await build({
  entryPoints: [here('dist/main.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [
    'better-sqlite3',
    'pg',
    'pg-native',
    'selfsigned',
    '@fastify/swagger',
    '@fastify/swagger-ui',
    'pino',
  ],
  // The CommonJS packages inside call require() for Node's built-in modules.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  logLevel: 'warning',
})

// A package that reads files next to its own code would look for them next to the bundle instead.
const bundled = await readFile(outfile, 'utf8')
for (const name of ['__dirname', '__filename']) {
  if (bundled.includes(name)) {
    process.stderr.write(
      `${outfile} uses ${name}: mark the package that does as external in bundle.mjs\n`,
    )
    process.exit(1)
  }
}
