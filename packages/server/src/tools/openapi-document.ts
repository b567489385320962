/** Builds the OpenAPI document of the service without listening: the same app, on an in-memory store. */
import { buildApp } from '../assembly/app.js'
import { DEMO_DIRECTORY_FILE } from '../assembly/config.js'
import { startPlatform } from '../assembly/service.js'
import { SystemClock } from '../clock/system-clock.js'

/** The OpenAPI document as committed in docs/openapi.json: stable JSON, two-space indented. */
export async function openApiDocument(): Promise<string> {
  const running = await startPlatform({
    database: { kind: 'sqlite', filename: ':memory:' },
    directoryFile: DEMO_DIRECTORY_FILE,
    clock: new SystemClock(),
    sessionTtlSeconds: 300,
    scryptCost: { N: 1024, r: 8, p: 1 },
  })
  try {
    const app = await buildApp(running.platform)
    await app.ready()
    const document = `${JSON.stringify(app.swagger(), null, 2)}\n`
    await app.close()
    return document
  } finally {
    await running.close()
  }
}
