/**
 * A cluster of real service processes for the cluster mode's tests (docs/cluster.md, "Tests"): N nodes on
 * loopback ports over the machine's PostgreSQL (a schema of the suite's own) and Redis (a key prefix of the
 * suite's own), each a `node` process that can be stopped gracefully or killed with SIGKILL. The service runs
 * from one bundle built for the suite with esbuild straight from the sources, so that no test waits for, or
 * races with, `npm run build`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { BUNDLE_BANNER, BUNDLE_EXTERNALS } from '../../src/tools/bundle-options.js'
import type { PostgresTarget } from './postgres.js'
import { withClient } from './postgres.js'
import type { TestRedis } from './redis.js'

const SERVER = fileURLToPath(new URL('../../', import.meta.url))
/** The control plane's token on every node of a test cluster. */
export const CLUSTER_CONTROL_TOKEN = 'cluster-test-control-token'

/** One node: its origins and its process. */
export interface ClusterNode {
  readonly name: string
  /** `http://127.0.0.1:<port>`: the API. */
  readonly origin: string
  /** `http://127.0.0.1:<port>`: the control plane. */
  readonly controlOrigin: string
  readonly process: ChildProcess
  /** The last of what the process printed (a failed start, or a background error, says why). */
  readonly errors: () => string
  /** Resolves once the node stored the directory file it imported (never when it imported none). */
  readonly directoryStored: Promise<void>
}

/** Builds the service into one file under dist/ (where it finds the demo directory, as main.bundle.js does). */
export async function buildNodeBundle(): Promise<string> {
  const outfile = join(SERVER, 'dist', `cluster-test-${process.pid}-${Date.now()}.mjs`)
  await build({
    entryPoints: [join(SERVER, 'src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    external: [...BUNDLE_EXTERNALS],
    banner: { js: BUNDLE_BANNER },
    logLevel: 'error',
  })
  return outfile
}

/** A free TCP port on the loopback interface. */
async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** Waits until `url` answers 200, or fails after `timeoutMs` naming what the node printed. */
async function waitForOk(url: string, node: ClusterNode, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (node.process.exitCode !== null)
      throw new Error(`node ${node.name} exited (${node.process.exitCode}): ${node.errors()}`)
    try {
      const response = await fetch(url)
      if (response.status === 200) return
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`node ${node.name} not ready after ${timeoutMs} ms: ${node.errors()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The nodes of one suite, over its PostgreSQL schema and Redis prefix. */
export class TestCluster {
  readonly nodes = new Map<string, ClusterNode>()
  readonly #dataDir = mkdtempSync(join(tmpdir(), 'openness-cluster-'))

  private constructor(
    private readonly bundle: string,
    private readonly postgres: PostgresTarget,
    private readonly redis: TestRedis,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Builds the service and starts `names.length` nodes, each ready (GET /health/ready answers 200). */
  static async start(
    postgres: PostgresTarget,
    redis: TestRedis,
    names: readonly string[],
    env: NodeJS.ProcessEnv = {},
  ): Promise<TestCluster> {
    await withClient(postgres, (client) =>
      client.query(`create schema if not exists "${postgres.schema}"`),
    )
    const cluster = new TestCluster(await buildNodeBundle(), postgres, redis, env)
    try {
      // The first node imports the directory file and hashes its passwords (seconds of CPU); the others start
      // once it is stored, find it so, and import nothing, as nodes started one after the other do.
      const [first, ...others] = names
      if (first !== undefined) await (await cluster.startNode(first)).directoryStored
      await Promise.all(others.map((name) => cluster.startNode(name)))
    } catch (error) {
      await cluster.close()
      throw error
    }
    return cluster
  }

  /** Starts a node (a new one, or one killed before, under the same name) and waits until it is ready. */
  async startNode(name: string): Promise<ClusterNode> {
    const [httpPort, controlPort] = [await freePort(), await freePort()]
    const databaseUrl = new URL(this.postgres.connectionString)
    databaseUrl.searchParams.set('options', `-c search_path=${this.postgres.schema}`)
    const child = spawn(process.execPath, [this.bundle], {
      env: {
        PATH: process.env['PATH'],
        HOST: '127.0.0.1',
        HTTP_PORT: String(httpPort),
        HTTPS_PORT: '0',
        CONTROL_PORT: String(controlPort),
        CONTROL_TOKEN: CLUSTER_CONTROL_TOKEN,
        DATA_DIR: join(this.#dataDir, name),
        DATABASE_URL: databaseUrl.toString(),
        REDIS_URL: this.redis.target.url,
        REDIS_KEY_PREFIX: this.redis.target.keyPrefix,
        CLUSTER_NODE_ID: name,
        LOG_LEVEL: 'info',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    // Warnings and errors of the logs (pino, on stdout) and any crash (stderr): the last of it names what went
    // wrong. The info lines are read only for the moment the directory is stored.
    let output = ''
    let partial = ''
    let markStored: () => void = () => {}
    const stored = new Promise<void>((resolve) => {
      markStored = resolve
    })
    const keep = (text: string): void => {
      output = (output + text).slice(-8000)
    }
    child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) {
        if (line.includes('"msg":"directory stored"')) markStored()
        const level = /^\{"level":(\d+)/.exec(line)?.[1]
        if (level === undefined || Number(level) >= 40) keep(`${line}\n`)
      }
    })
    child.stderr?.on('data', (chunk: Buffer) => keep(chunk.toString()))
    const node: ClusterNode = {
      name,
      origin: `http://127.0.0.1:${httpPort}`,
      controlOrigin: `http://127.0.0.1:${controlPort}`,
      process: child,
      errors: () => output,
      directoryStored: stored,
    }
    this.nodes.set(name, node)
    await waitForOk(`${node.origin}/health/ready`, node, 30_000)
    return node
  }

  /** The node named `name`. */
  node(name: string): ClusterNode {
    const node = this.nodes.get(name)
    if (node === undefined) throw new Error(`no node ${name} in this cluster`)
    return node
  }

  /** Kills the node at once (SIGKILL: no drain, no goodbye), and waits until its process is gone. */
  async kill(name: string): Promise<void> {
    await this.#end(this.node(name), 'SIGKILL')
  }

  /** Stops the node gracefully (SIGTERM: drain, channels ended, engine handed over). */
  async stop(name: string): Promise<void> {
    await this.#end(this.node(name), 'SIGTERM')
  }

  /**
   * Stops every node, removes the bundle and the nodes' data directories. What each node logged at warning
   * level or above goes to stderr first: read when a test failed.
   */
  async close(): Promise<void> {
    for (const node of this.nodes.values()) {
      const output = node.errors().trim()
      if (output !== '') process.stderr.write(`--- node ${node.name}\n${output}\n`)
    }
    await Promise.all([...this.nodes.values()].map((node) => this.#end(node, 'SIGTERM')))
    rmSync(this.bundle, { force: true })
    rmSync(this.#dataDir, { recursive: true, force: true })
  }

  async #end(node: ClusterNode, signal: NodeJS.Signals): Promise<void> {
    this.nodes.delete(node.name)
    const child = node.process
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill(signal)
    const forced = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(forced)
  }
}

/** The node that owns the call engine now, as the lease's row in the cluster's schema names it ('' for none). */
export function engineOwner(postgres: PostgresTarget): Promise<string> {
  return withClient(postgres, async (client) => {
    const { rows } = await client.query<{ owner_node: string }>(
      `select owner_node from "${postgres.schema}".engine_lease where name = 'call-engine'`,
    )
    return rows[0]?.owner_node ?? ''
  })
}
