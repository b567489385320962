/** The clock the control plane set forward goes on from there after a restart (docs/control-plane.md). */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEMO_DIRECTORY_FILE } from '../../src/assembly/config.js'
import { startPlatform } from '../../src/assembly/service.js'
import { AdjustableClock } from '../../src/clock/adjustable-clock.js'
import { keptClock } from '../../src/clock/kept-clock.js'
import { TEST_SCRYPT_COST } from '../support/test-service.js'

let dataDir: string
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'openness-clock-'))
})
afterEach(() => rm(dataDir, { recursive: true, force: true }))

/** Starts the platform over the data directory's SQLite file with a clock of its own, as main.ts does. */
async function start() {
  const clock = new AdjustableClock()
  const running = await startPlatform({
    database: { kind: 'sqlite', filename: join(dataDir, 'openness.sqlite3') },
    directoryFile: DEMO_DIRECTORY_FILE,
    clock,
    sessionTtlSeconds: 300,
    scryptCost: TEST_SCRYPT_COST,
  })
  return { running, control: await keptClock(clock, running.clockOffsets) }
}

describe('a restart', () => {
  it('keeps how far the control plane set the clock ahead', async () => {
    const first = await start()
    expect(first.control.offsetMs).toBe(0)
    await first.control.advance(3_600_000)
    await first.control.advance(1_500)
    await first.running.close()

    const second = await start()
    expect(second.control.offsetMs).toBe(3_601_500)
    expect(second.control.now() - Date.now()).toBeGreaterThanOrEqual(3_601_500 - 50)
    await second.running.close()
  })
})
