/**
 * One run of the README's snippets: a checkout of its own with the service started by `npm start` (on the
 * README's ports, or on others as a reader whose ports are taken would set them), the test's PostgreSQL schema
 * and Redis prefix for the cluster's nodes where the suite names those servers, and each block made ready to
 * paste: its ports written as this run's (PORTS), its placeholders filled in (FILL_INS).
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { withClient } from '../support/postgres.js'
import { TestRedis } from '../support/redis.js'
import type { ReadmeBlock } from './readme-blocks.js'
import {
  CLUSTER_SERVERS,
  checkoutView,
  freePorts,
  removeView,
  StartedService,
  terminalEnvironment,
} from './readme-checkout.js'
import { FILL_INS, PORTS, withPorts } from './snippet-plans.js'
import type { ShellPlace } from './snippet-shell.js'

/** Every port the README names, each to itself: the run on the README's ports. */
export function readmePorts(): Map<number, number> {
  const all = [...Object.values(PORTS.service), ...PORTS.clusterNodes, ...PORTS.servers]
  return new Map(all.map((port) => [port, port]))
}

/** The README's service and node ports each to a free one (the servers' stay): the run on other ports. */
export async function otherPorts(): Promise<Map<number, number>> {
  const moved = [...Object.values(PORTS.service), ...PORTS.clusterNodes]
  const free = await freePorts(moved.length)
  const ports = readmePorts()
  for (const [index, port] of moved.entries()) ports.set(port, free[index] ?? 0)
  return ports
}

export class ReadmeRun {
  private constructor(
    readonly ports: ReadonlyMap<number, number>,
    readonly place: ShellPlace,
    readonly service: StartedService,
    private readonly view: string,
    private readonly scratch: string,
    private readonly cluster: { schema: string; redis: TestRedis; line: string } | undefined,
  ) {}

  /**
   * Starts the service in a new checkout. On other ports, it does what the README tells its reader: set
   * HTTP_PORT, HTTPS_PORT and CONTROL_PORT for `npm start`; on the README's, it sets nothing.
   */
  static async start(ports: ReadonlyMap<number, number>): Promise<ReadmeRun> {
    const env = await terminalEnvironment()
    const moves = Object.entries(PORTS.service).filter(([, port]) => ports.get(port) !== port)
    const startEnv = {
      ...env,
      ...Object.fromEntries(moves.map(([name, port]) => [name, String(ports.get(port))])),
    }
    const view = await checkoutView()
    const scratch = await mkdtemp(join(tmpdir(), 'openness-readme-shell-'))
    let service: StartedService | undefined
    try {
      service = await StartedService.start(view, startEnv, ports.get(PORTS.service.HTTP_PORT) ?? 0)
      const cluster = CLUSTER_SERVERS && (await clusterServers(CLUSTER_SERVERS))
      const place = { cwd: view, env, exportsFile: join(scratch, 'exports.sh') }
      return new ReadmeRun(ports, place, service, view, scratch, cluster)
    } catch (error) {
      await service?.stop()
      await removeView(view)
      await rm(scratch, { recursive: true, force: true })
      throw error
    }
  }

  /**
   * The block as this run pastes it: its ports written as this run's, each FILL_INS text replaced; throws if a
   * placeholder (`<...>`) is left.
   */
  prepared(block: ReadmeBlock): string {
    let text = withPorts(block.text, this.ports)
    const context = {
      printedToken: this.service.printedToken ?? '',
      clusterServers: this.cluster?.line,
    }
    for (const fill of FILL_INS) text = text.split(fill.text).join(fill.by(context))
    const left = /<[^<>\s][^<>\n]*>/.exec(text)
    if (left) throw new Error(`${block.key}: ${left[0]} is left to fill: add it to FILL_INS`)
    return text
  }

  /** Stops the service, removes the checkout, the cluster's schema and keys. */
  async close(): Promise<void> {
    await this.service.stop()
    await removeView(this.view)
    await rm(this.scratch, { recursive: true, force: true })
    if (this.cluster) {
      const { schema, redis } = this.cluster
      await redis.cleanUp()
      await withClient(
        { kind: 'postgres', connectionString: CLUSTER_SERVERS?.databaseUrl ?? '', schema },
        (client) => client.query(`drop schema if exists "${schema}" cascade`),
      )
    }
  }
}

/** A schema and a key prefix of the run's own, and the line that points the cluster block's shell at them. */
async function clusterServers(servers: { databaseUrl: string; redisUrl: string }) {
  const schema = `openness_readme_${randomBytes(6).toString('hex')}`
  await withClient({ kind: 'postgres', connectionString: servers.databaseUrl, schema }, (client) =>
    client.query(`create schema "${schema}"`),
  )
  const redis = new TestRedis(servers.redisUrl)
  const databaseUrl = new URL(servers.databaseUrl)
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`)
  const line =
    `export DATABASE_URL='${databaseUrl}' REDIS_URL='${servers.redisUrl}'` +
    ` REDIS_KEY_PREFIX='${redis.target.keyPrefix}'`
  return { schema, redis, line }
}
