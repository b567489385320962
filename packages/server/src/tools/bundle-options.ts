/**
 * How the service is bundled into one file (bundle.mjs, and the cluster tests' nodes built from the sources):
 * the packages kept outside the bundle, and the banner that gives its CommonJS packages a `require`.
 */

/**
 * Packages the bundle leaves to node_modules: native ones (better-sqlite3), those loaded only on demand (pg,
 * selfsigned, ioredis: the cluster mode only), and those that find their files from __dirname (the Swagger UI's
 * static files, pino's worker threads; ioredis's error stacks), which a bundle would break.
 */
export const BUNDLE_EXTERNALS: readonly string[] = [
  'better-sqlite3',
  'pg',
  'pg-native',
  'selfsigned',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
  'ioredis',
]

/**
 * The CommonJS packages inside call require() for Node's built-in modules. The import is renamed so that the
 * bundled modules may import createRequire themselves (wal-checkpointer.ts does): the banner is text that the
 * bundler does not rename around.
 */
export const BUNDLE_BANNER =
  "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);"
