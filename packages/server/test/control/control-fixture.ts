/** A control plane over the demo directory in SQLite :memory:, with the events it publishes recorded. */
import type { FastifyInstance } from 'fastify'
import { DEMO_DIRECTORY_FILE } from '../../src/assembly/config.js'
import { type CliIo, run } from '../../src/cli/openness-control.js'
import { buildControlApp, type ControlAppOptions } from '../../src/control/control-app.js'
import { PasswordHasher } from '../../src/platform/auth/password-hasher.js'
import { Directory } from '../../src/platform/directory/directory.js'
import { importDirectory } from '../../src/platform/directory/directory-import.js'
import type { PlatformEvent } from '../../src/platform/events.js'
import { RoutingService } from '../../src/platform/routing/routing-service.js'
import { DirectoryTelephony } from '../../src/platform/telephony/directory-telephony.js'
import { readDirectoryFile } from '../../src/storage/file/directory-file.js'
import { MemoryRoutingStore } from '../../src/storage/memory/memory-routing-store.js'
import { openDatabase } from '../../src/storage/sql/database.js'
import { SqlDirectoryStore } from '../../src/storage/sql/sql-directory-store.js'
import { startTestService, TEST_SCRYPT_COST, type TestService } from '../support/test-service.js'
import { VirtualClock } from '../support/virtual-clock.js'

/** The operator token of the fixture. */
export const TOKEN = 'control-test-token-0123456789'
/** The header that carries it. */
export const AUTH = { authorization: `Bearer ${TOKEN}` } as const

export interface ControlFixture {
  app: FastifyInstance
  directory: Directory
  store: SqlDirectoryStore
  /** Every event the directory published, in order. */
  events: PlatformEvent[]
  close(): Promise<void>
}

/** Starts a control plane (not listening) over a fresh copy of the demo directory. */
export async function startControlFixture(
  options: Omit<ControlAppOptions, 'token'> = {},
): Promise<ControlFixture> {
  const { document, sourceDigest } = await readDirectoryFile(DEMO_DIRECTORY_FILE)
  const hasher = new PasswordHasher(TEST_SCRYPT_COST)
  const store = new SqlDirectoryStore(await openDatabase({ kind: 'sqlite', filename: ':memory:' }))
  const imported = await importDirectory(document, sourceDigest, undefined, hasher)
  const snapshot = { ...imported, revisions: await store.replace(imported) }
  const events: PlatformEvent[] = []
  const sink = { publish: (event: PlatformEvent) => void events.push(event) }
  const directory = new Directory(store, snapshot, hasher, new VirtualClock(), sink)
  const telephonyDirectory = new DirectoryTelephony(directory)
  const routing = await RoutingService.start({
    store: new MemoryRoutingStore(),
    events: sink,
    resolve: (dialed) => telephonyDirectory.resolve(dialed),
  })
  const app = await buildControlApp(
    { directory, product: { version: '0.1.0' }, routing },
    { ...options, token: TOKEN },
  )
  return {
    app,
    directory,
    store,
    events,
    close: async () => {
      await app.close()
      await store.close()
    },
  }
}

/** A user in the directory file's format that the demo directory does not have. */
export function newUser(): Record<string, unknown> {
  return {
    loginName: 'mona',
    password: 'demo-mona',
    salutation: 'MRS',
    firstName: 'Mona',
    lastName: 'Lambert',
    type: 'STANDARD',
    companyPhone: '1013',
    companyEmail: 'mona.lambert@example.com',
    apiRights: ['TELEPHONY_BASIC'],
    devices: [{ type: 'DESKPHONE', id: '1013', role: 'MAIN' }],
  }
}

/** A control plane over a running platform (telephony, the test's virtual clock, sessions and readiness). */
export interface ControlService {
  service: TestService
  control: FastifyInstance
  close(): Promise<void>
}

/** Starts the test service and a control plane (not listening) over all of it. */
export async function startControlService(
  options: Parameters<typeof startTestService>[0] = {},
): Promise<ControlService> {
  const service = await startTestService(options)
  const { platform, telephony } = service.running
  const control = await buildControlApp(
    { ...platform, telephony, adjustableClock: service.clock },
    { token: TOKEN },
  )
  return {
    service,
    control,
    close: async () => {
      await control.close()
      await service.close()
    },
  }
}

/** What a command line run printed, and its exit code. */
export interface CliRun {
  code: number
  out: string
  err: string
}

/**
 * Runs the command line (openness-control) in process against the control plane at `url` with the
 * fixture's token, unless `env` says otherwise; `stdin` is what a file named `-` reads.
 */
export async function runCli(
  url: string,
  argv: readonly string[],
  options: { stdin?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliRun> {
  let out = ''
  let err = ''
  const io: CliIo = {
    out: (text) => {
      out += text
    },
    err: (text) => {
      err += text
    },
    stdin: async () => options.stdin ?? '',
    env: options.env ?? { CONTROL_URL: url, CONTROL_TOKEN: TOKEN },
  }
  return { code: await run([...argv], io), out, err }
}
