/**
 * The place the README's snippets run in, as a reader's would be: a checkout (a fresh directory whose entries
 * link to the repository's, so that its `data/`, cookie jars and files are its own), a terminal's environment
 * (none of the service's settings, nothing of npm or Vitest), and the service started there with `npm start`,
 * which builds when a source changed and runs packages/server/dist/main.bundle.js.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configurationVariables, README } from './readme-blocks.js'
import { groupAlive, signalGroup } from './snippet-shell.js'

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** The PostgreSQL and Redis the suite was given (the cluster mode's servers), if it was given both. */
export const CLUSTER_SERVERS = (() => {
  const { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl } = process.env
  return databaseUrl?.startsWith('postgres') && redisUrl !== undefined
    ? { databaseUrl, redisUrl }
    : undefined
})()

/** Whether the terminal has the command `name` (docker, psql...). */
export function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v '${name}'`], { stdio: 'ignore' }).status === 0
}

/** Builds the service when a source changed since its last build (scripts/build-if-stale.mjs); throws if that fails. */
export function buildIfStale(): void {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  if (build.status !== 0) throw new Error(`the build failed: ${build.stderr}${build.stdout}`)
}

/**
 * A directory whose entries are links to the repository's: its directories but `data/`, and the files git
 * tracks (not a cookie jar a reader left there, which a snippet would write through its link). A checkout of
 * the reader's own, reached through links as a checkout under a linked directory is (the command line once
 * did nothing when run so).
 */
export async function checkoutView(): Promise<string> {
  const tracked = spawnSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
  const trackedFiles =
    tracked.status === 0
      ? new Set(tracked.stdout.split('\n').filter((path) => !path.includes('/')))
      : undefined
  const view = await mkdtemp(join(tmpdir(), 'openness-readme-'))
  for (const entry of await readdir(ROOT, { withFileTypes: true })) {
    const linked = entry.isDirectory()
      ? entry.name !== 'data'
      : (trackedFiles?.has(entry.name) ?? true)
    if (linked) await symlink(join(ROOT, entry.name), join(view, entry.name))
  }
  return view
}

/** Removes a view (its links, not what they name). */
export async function removeView(view: string): Promise<void> {
  await rm(view, { recursive: true, force: true })
}

/**
 * A fresh terminal's environment: this process's, without the service's settings (the README's Configuration
 * table), the command line's CONTROL_URL and CONTROL_TOKEN, and what npm and Vitest set for the suite.
 */
export async function terminalEnvironment(): Promise<NodeJS.ProcessEnv> {
  const settings = new Set([
    ...configurationVariables(await readFile(README, 'utf8')),
    'CONTROL_URL',
    'CONTROL_TOKEN',
    'NODE_ENV',
    'TEST',
    'INIT_CWD',
  ])
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !settings.has(name) && !/^(npm_|vitest)/i.test(name),
    ),
  )
}

/** Which of `ports` something already listens on, on the loopback interface. */
export async function takenPorts(ports: readonly number[]): Promise<number[]> {
  const taken: number[] = []
  for (const port of ports) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
    })
    if (!free) taken.push(port)
  }
  return taken
}

/** `count` distinct free loopback ports (all held open together while chosen, so that none repeats). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer()
          server.once('error', reject)
          server.listen(0, '127.0.0.1', () => resolve(server))
        }),
    ),
  )
  const ports = servers.map((server) => {
    const address = server.address()
    return typeof address === 'object' && address !== null ? address.port : 0
  })
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  return ports
}

/** The service `npm start` started in a view, with what it printed. */
export class StartedService {
  #output = ''

  private constructor(private readonly npm: ChildProcess) {
    npm.stdout?.on('data', (chunk: Buffer) => this.#keep(chunk))
    npm.stderr?.on('data', (chunk: Buffer) => this.#keep(chunk))
  }

  /**
   * Runs `npm start` in `view` with `env` (the ports a reader would set, or none) and waits until the API on
   * `httpPort` is ready and the start banner printed; throws with what it printed if it ends or takes too long.
   */
  static async start(
    view: string,
    env: NodeJS.ProcessEnv,
    httpPort: number,
    guardMs = 120_000,
  ): Promise<StartedService> {
    const npm = spawn('npm', ['start'], {
      cwd: view,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const service = new StartedService(npm)
    const deadline = Date.now() + guardMs
    for (;;) {
      if (npm.exitCode !== null || npm.signalCode !== null)
        throw new Error(`npm start ended (${npm.exitCode ?? npm.signalCode}):\n${service.output}`)
      if (service.printedToken !== undefined && (await ready(httpPort))) return service
      if (Date.now() > deadline) {
        await service.stop()
        throw new Error(`npm start not ready after ${guardMs} ms:\n${service.output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  /** The last of what npm start printed. */
  get output(): string {
    return this.#output
  }

  /** The control plane's token the start banner printed (`token <t> (generated; ...)`). */
  get printedToken(): string | undefined {
    return /^\s+token (\S+) \(generated/m.exec(this.#output)?.[1]
  }

  /** Stops npm and the service (SIGTERM to both, as a process manager would), and waits until they ended. */
  async stop(): Promise<void> {
    const pid = this.npm.pid ?? 0
    signalGroup(pid, 'SIGTERM')
    const killAt = Date.now() + 15_000
    while (groupAlive(pid) && Date.now() < killAt + 2_000) {
      if (Date.now() > killAt) signalGroup(pid, 'SIGKILL')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  #keep(chunk: Buffer): void {
    // The banner comes first and stays: the request logs that follow are cut to their last part.
    const text = this.#output + chunk.toString()
    this.#output = text.length > 40_000 ? text.slice(0, 8_000) + text.slice(-30_000) : text
  }
}

/** Whether the API on `port` answers its readiness probe 200. */
async function ready(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200
  } catch {
    return false
  }
}
