/**
 * Where hunting groups live (docs/groups.md): the engine takes the directory file's groups at its first start and
 * again when the file's groups changed, keeps what changed since across a restart with the same file, and a
 * reset puts the file's groups back while a snapshot keeps them as they were.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEMO_DIRECTORY_FILE } from '../../src/assembly/config.js'
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

function groups(service: TestService) {
  return service.running.telephony.queries.allHuntingGroups().map((group) => ({
    number: group.number,
    members: group.members,
    loggedOff: group.loggedOff,
  }))
}

const DEMO_GROUPS = [
  { number: '2100', members: ['alice', 'bob'], loggedOff: [] },
  { number: '2200', members: ['franck', 'gaelle'], loggedOff: [] },
]

describe("the engine's hunting groups and the directory file", () => {
  it('takes the file at the first start, keeps the changes made since at a restart with the same file, and takes a changed file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'openness-groups-'))
    folders.push(folder)
    const database = join(folder, 'openness.db')
    const first = await start(database)
    expect(groups(first)).toEqual(DEMO_GROUPS)
    await first.running.telephony.execute({
      type: 'huntingGroupLogOn',
      loginName: 'alice',
      logOn: false,
    })
    await stop(first)

    const again = await start(database)
    expect(groups(again)).toEqual([
      { number: '2100', members: ['alice', 'bob'], loggedOff: ['alice'] },
      DEMO_GROUPS[1],
    ])
    await stop(again)

    // The file now makes 2100 alice and karim, and has no 2200: alice stays logged off, bob and 2200 are gone.
    const changed = await directoryVariant((document) => {
      const [sales] = document['huntingGroups'] as { members: string[] }[]
      if (sales) sales.members = ['alice', 'karim']
      document['huntingGroups'] = [sales]
    })
    folders.push(join(changed, '..'))
    const third = await start(database, changed)
    expect(groups(third)).toEqual([
      { number: '2100', members: ['alice', 'karim'], loggedOff: ['alice'] },
    ])
  })

  it('a reset puts the file groups back; a snapshot keeps them as they were', async () => {
    const service = await start(':memory:')
    const { states } = service.running
    const { telephony } = service.running
    await telephony.execute({ type: 'huntingGroupLogOn', loginName: 'bob', logOn: false })
    await telephony.execute({ type: 'deleteHuntingGroup', number: '2200' })
    await states.snapshot('groups-changed')
    await states.reset()
    expect(groups(service)).toEqual(DEMO_GROUPS)
    await states.restore('groups-changed')
    expect(groups(service)).toEqual([
      { number: '2100', members: ['alice', 'bob'], loggedOff: ['bob'] },
    ])
  })
})
