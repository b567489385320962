/**
 * The demo directory's contact center in a running service (docs/directory-file.md, `contactCenter`): provisioned
 * at the first start, kept with what changed since at a restart with the same file, removed by a file without
 * one; a reset provisions the file's anew, a snapshot keeps the contact center as it was.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEMO_DIRECTORY_FILE } from '../../src/assembly/config.js'
import { fileContactCenter } from '../../src/platform/telephony/engine-acd.js'
import { directoryVariant } from '../support/directory-variant.js'
import { startTestService, type TestService } from '../support/test-service.js'

const folders: string[] = []
const services: TestService[] = []
afterEach(async () => {
  for (const service of services.splice(0)) await service.close()
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true })
})

async function start(filename: string, directoryFile = DEMO_DIRECTORY_FILE): Promise<TestService> {
  const service = await startTestService({ database: { kind: 'sqlite', filename }, directoryFile })
  services.push(service)
  return service
}

async function stop(service: TestService): Promise<void> {
  services.splice(services.indexOf(service), 1)
  await service.close()
}

function acdOf(service: TestService) {
  return service.running.telephony.state.acd
}

/** Where each pilot is: its rule and mode in force. */
function pilots(service: TestService): Record<string, string> {
  return Object.fromEntries(
    Object.entries(acdOf(service)?.pilots ?? {}).map(([number, pilot]) => [
      number,
      `rule ${pilot.ruleNumber} ${pilot.mode}`,
    ]),
  )
}

const HOUR = 3_600_000

describe("the demo directory's contact center", () => {
  it('is provisioned at the start: its pilots, queues, groups and operators, with the digest of the file', async () => {
    const service = await start(':memory:')
    const acd = acdOf(service)
    expect(acd?.provision).toBe(
      fileContactCenter(service.running.platform.directory.settings.contactCenter).digest,
    )
    expect(acd?.definition.timeZone).toBe('Europe/Paris')
    expect(Object.keys(acd?.definition.queues ?? {})).toEqual(['3100', '3101'])
    expect(Object.keys(acd?.definition.processingGroups ?? {})).toEqual(['3200', '3201'])
    expect(Object.keys(acd?.definition.operators ?? {})).toEqual([
      'olivia',
      'paul',
      'quentin',
      'rose',
      'sophie',
    ])
    // The virtual clock starts on Thursday 1 January 2026 at 01:00 in Paris: Sales has been closed since 18:00.
    expect(pilots(service)).toEqual({ '3000': 'rule 2 closed', '3001': 'rule 1 normal' })
    await service.clock.advance(7 * HOUR)
    await service.running.telephony.idle()
    expect(pilots(service)).toEqual({ '3000': 'rule 1 normal', '3001': 'rule 1 normal' })
  })

  it('keeps what changed at a restart with the same file, and goes with a file that has none', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'openness-acd-'))
    folders.push(folder)
    const database = join(folder, 'openness.db')
    const first = await start(database)
    await first.running.telephony.execute({
      type: 'acdLogOn',
      loginName: 'olivia',
      proAcdDeviceNumber: '1041',
    })
    expect(acdOf(first)?.agents.get('olivia')?.place).toBe('READY')
    await stop(first)

    const again = await start(database)
    expect(acdOf(again)?.agents.get('olivia')?.place).toBe('READY')
    await stop(again)

    const without = await directoryVariant((document) => {
      delete document['contactCenter']
    })
    folders.push(join(without, '..'))
    const third = await start(database, without)
    expect(acdOf(third)).toBeUndefined()
  })

  it('a reset provisions it anew, its agents logged off; a snapshot keeps it as it was', async () => {
    const service = await start(':memory:')
    const { states, telephony } = service.running
    await telephony.execute({ type: 'acdLogOn', loginName: 'paul', proAcdDeviceNumber: '1042' })
    await states.snapshot('agent-on')
    await states.reset()
    expect(Object.keys(acdOf(service)?.pilots ?? {})).toEqual(['3000', '3001'])
    expect(acdOf(service)?.agents.get('paul')?.place).toBe('LOG_OFF')
    expect(acdOf(service)?.provision).toBe(
      fileContactCenter(service.running.platform.directory.settings.contactCenter).digest,
    )
    await states.restore('agent-on')
    expect(acdOf(service)?.agents.get('paul')?.place).toBe('READY')
  })
})
