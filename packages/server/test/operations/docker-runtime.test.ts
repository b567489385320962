/**
 * The Dockerfile's runtime stage holds all the built service needs (README, "Docker"). No Docker daemon is needed:
 * the stage is one `COPY` of the directory `scripts/runtime-files.mjs` makes in the build stage, so the test makes
 * that directory (from a bundle built from the sources, as the cluster tests do, to race no `npm run build`), starts
 * the service from it, outside the repository (no node_modules above it to fall back on), and uses what the bundle
 * leaves external: SQLite (better-sqlite3), the development certificate (selfsigned), the Swagger UI's files, pino
 * with pretty lines, the demo directory, the scenario library; and the image's health check, which must fail before.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNDLE_EXTERNALS } from '../../src/tools/bundle-options.js'
import { buildNodeBundle } from '../support/cluster-nodes.js'
import { type Ran, runNode } from '../support/run-node.js'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const TOKEN = 'docker-runtime-test-token'

function run(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return runNode(args, options)
}

async function freePort(): Promise<number> {
  return await new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

let dir = ''
let bundle = ''
let app = ''
let service: ChildProcess | undefined
let output = ''
const ports = { http: 0, https: 0, control: 0 }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'openness-runtime-'))
  app = join(dir, 'app')
  bundle = await buildNodeBundle()
  const copied = await run([
    'scripts/runtime-files.mjs',
    app,
    '--bundle',
    bundle,
    '--externals',
    BUNDLE_EXTERNALS.join(','),
  ])
  expect(copied.stderr).toBe('')
  expect(copied.code).toBe(0)
  ports.http = await freePort()
  ports.https = await freePort()
  ports.control = await freePort()
}, 120_000)

afterAll(async () => {
  if (service && service.exitCode === null) service.kill('SIGKILL')
  if (bundle) await rm(bundle, { force: true })
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** The image's health check, run as Docker runs it, against this test's ports. */
function healthCheck(env: NodeJS.ProcessEnv = { HTTP_PORT: String(ports.http) }): Promise<Ran> {
  return run([join(app, 'healthcheck.mjs')], { cwd: app, env })
}

describe('the Dockerfile', () => {
  it("copies the runtime files' directory and nothing else into its runtime stage, and runs the bundle", async () => {
    const dockerfile = await readFile(join(ROOT, 'Dockerfile'), 'utf8')
    const lines = dockerfile.split('\n').filter((line) => line.trim() && !line.startsWith('#'))
    const stages = lines.flatMap((line, index) => (line.startsWith('FROM ') ? [index] : []))
    expect(stages).toHaveLength(2)
    const build = lines.slice(0, stages[1])
    const runtime = lines.slice(stages[1])
    expect(build[0]).toMatch(/^FROM node:2[02]-slim AS build$/)
    expect(build.join('\n')).toContain('RUN npm ci')
    expect(build.join('\n')).toContain('npm run build && node scripts/runtime-files.mjs /runtime')
    expect(runtime[0]).toMatch(/^FROM node:2[02]-slim$/)
    expect(runtime.filter((line) => /^(COPY|ADD) /.test(line))).toEqual([
      'COPY --from=build /runtime/ /app/',
    ])
    expect(runtime).toContain('WORKDIR /app')
    expect(runtime).toContain('USER node')
    expect(runtime).toContain('VOLUME ["/data"]')
    expect(runtime).toContain('EXPOSE 8080 8443 8090')
    expect(runtime.join('\n')).toMatch(/HOST=0\.0\.0\.0/)
    expect(runtime.join('\n')).toMatch(/DATA_DIR=\/data/)
    expect(runtime.find((line) => line.startsWith('HEALTHCHECK'))).toMatch(
      /CMD \["node", "\/app\/healthcheck\.mjs"\]$/,
    )
    expect(runtime.at(-1)).toBe('CMD ["node", "packages/server/dist/main.bundle.js"]')
  })
})

describe("the runtime stage's files", () => {
  it('hold no more than the bundle needs: its external packages, not the bundled ones nor the tools', async () => {
    const { readdir } = await import('node:fs/promises')
    const modules = await readdir(join(app, 'node_modules'))
    for (const name of ['pino', 'better-sqlite3', 'selfsigned', '@fastify', 'pg', 'ioredis'])
      expect(modules).toContain(name)
    for (const name of ['fastify', 'kysely', 'typescript', 'vitest', 'esbuild', 'prebuild-install'])
      expect(modules).not.toContain(name)
    const sqlite = await readdir(join(app, 'node_modules/better-sqlite3'))
    expect(sqlite).not.toContain('deps')
    expect(await readdir(join(app, 'node_modules/better-sqlite3/build/Release'))).toEqual([
      'better_sqlite3.node',
    ])
  })

  it('start the service, which the health check then finds ready, and serve a whole client', async () => {
    // Nothing listens yet: the health check fails.
    const before = await healthCheck()
    expect(before.code).toBe(1)
    expect(before.stderr).toContain('ECONNREFUSED')

    service = spawn(process.execPath, ['packages/server/dist/main.bundle.js'], {
      cwd: app,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOST: '127.0.0.1',
        HTTP_PORT: String(ports.http),
        HTTPS_PORT: String(ports.https),
        CONTROL_PORT: String(ports.control),
        CONTROL_TOKEN: TOKEN,
        DATA_DIR: join(dir, 'data'),
        LOG_FORMAT: 'pretty',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    service.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    service.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const deadline = Date.now() + 30_000
    for (;;) {
      if (service.exitCode !== null) throw new Error(`the service exited: ${output}`)
      if ((await healthCheck()).code === 0) break
      if (Date.now() > deadline) throw new Error(`never healthy: ${output}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    // With the plain-HTTP listener off, the check asks the HTTPS one, trusting the generated certificate.
    const overHttps = await healthCheck({
      HTTP_PORT: '0',
      HTTPS_PORT: String(ports.https),
      DATA_DIR: join(dir, 'data'),
    })
    expect(overHttps.code).toBe(0)

    // pino-pretty is in the bundle: pretty lines, no JSON ones.
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: listening /m)
    expect(output).not.toContain('{"level"')
    expect(output).toContain(`Directory        ${join(app, 'packages/server/directory')}`)

    const swaggerUi = await fetch(`http://127.0.0.1:${ports.http}/docs/static/swagger-ui-bundle.js`)
    expect(swaggerUi.status).toBe(200)
    expect((await swaggerUi.arrayBuffer()).byteLength).toBeGreaterThan(100_000)

    const library = await fetch(`http://127.0.0.1:${ports.control}/control/v1/scenarios`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(library.status).toBe(200)
    expect(JSON.stringify(await library.json())).toContain('click-to-call')

    // A whole client: HTTPS with the generated certificate, sessions in SQLite, a call and its events.
    const example = await run(['examples/run.mjs'], {
      env: { HTTPS_PORT: String(ports.https), DATA_DIR: join(dir, 'data') },
    })
    expect(example.stderr).toBe('')
    expect(example.code).toBe(0)
    expect(output).toMatch(/INFO: call ended .*"reason":"release"/)

    // docker stop sends SIGTERM: the service stops cleanly.
    const exited = new Promise<number | null>((resolve) => service?.on('exit', resolve))
    service.kill('SIGTERM')
    expect(await exited).toBe(0)
  }, 90_000)
})
