/** Starts the service over the demo directory in SQLite :memory:, with a virtual clock, for route tests. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { type AppOptions, buildApp } from '../../src/assembly/app.js'
import { DEMO_DIRECTORY_FILE } from '../../src/assembly/config.js'
import type { PlatformOptions } from '../../src/assembly/platform-options.js'
import type { RunningPlatform } from '../../src/assembly/service.js'
import { startPlatform } from '../../src/assembly/service.js'
import { VirtualClock } from './virtual-clock.js'

/** A fast scrypt cost for tests (production uses OWASP's minimum). */
export const TEST_SCRYPT_COST = { N: 1024, r: 8, p: 1 }

export interface TestService {
  app: FastifyInstance
  clock: VirtualClock
  running: RunningPlatform
  close(): Promise<void>
}

/** Starts a service for one test file or case. */
export async function startTestService(
  options: Partial<PlatformOptions> = {},
  appOptions: AppOptions = {},
): Promise<TestService> {
  const clock = new VirtualClock()
  const running = await startPlatform({
    database: { kind: 'sqlite', filename: ':memory:' },
    directoryFile: DEMO_DIRECTORY_FILE,
    clock,
    sessionTtlSeconds: 300,
    scryptCost: TEST_SCRYPT_COST,
    ...options,
  })
  const app = await buildApp(running.platform, appOptions)
  return {
    app,
    clock,
    running,
    close: async () => {
      await app.close()
      await running.close()
    },
  }
}

/** The Basic Authorization header of a login and password. */
export function basic(loginName: string, password = `demo-${loginName}`): string {
  return `Basic ${Buffer.from(`${loginName}:${password}`).toString('base64')}`
}

/** The SvcUserId value a response set. */
export function cookieOf(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie']
  const value = Array.isArray(header) ? header[0] : header
  const match = /SvcUserId=([^;]+)/.exec(value ?? '')
  if (!match?.[1]) throw new Error(`no SvcUserId cookie in ${String(value)}`)
  return match[1]
}

/** Authenticates and returns the token. */
export async function authenticate(
  app: FastifyInstance,
  loginName: string,
  password?: string,
): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/rest/authenticate?version=1.0',
    headers: { authorization: basic(loginName, password) },
  })
  if (response.statusCode !== 200)
    throw new Error(`login ${loginName}: ${response.statusCode} ${response.body}`)
  return cookieOf(response)
}

/** Authenticates and opens a session; returns the cookie header value. */
export async function openSession(
  app: FastifyInstance,
  loginName: string,
  body: Record<string, unknown> = { applicationName: 'test' },
): Promise<string> {
  const token = await authenticate(app, loginName)
  const response = await app.inject({
    method: 'POST',
    url: '/api/rest/1.0/sessions',
    headers: { cookie: `SvcUserId=${token}` },
    payload: body,
  })
  if (response.statusCode !== 200)
    throw new Error(`session ${loginName}: ${response.statusCode} ${response.body}`)
  return `SvcUserId=${token}`
}
